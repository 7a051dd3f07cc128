import type { InviteeObject } from '../../local-api/invitees/contract.ts';
import type { FieldMode, KioskSettings, VisitorFieldName } from '../../local-api/kiosk/schema.ts';
import type { VisitorType } from '../../local-api/visitor-types/schema.ts';
import type { VisitObject } from '../../local-api/visits/contract.ts';

export type { FieldMode, KioskSettings, VisitorFieldName, VisitorType };

/** The fields of the service's objects the kiosk reads (the API answers more). */
export interface HostSummary {
  id: string;
  name: string;
  email?: string;
  sector?: string | null;
  position?: string | null;
  pictureUrl?: string | null;
  isActive?: boolean;
}

/** The visit object (docs/api.md, "Visits") as far as the page reads it: its type is the service's contract. */
export type Visit = Pick<
  VisitObject,
  | 'id'
  | 'name'
  | 'company'
  | 'host'
  | 'checkinAt'
  | 'checkoutAt'
  | 'isInsideCompany'
  | 'authorizationStatus'
  | 'visitorStatus'
  | 'pictureUrl'
  | 'ndaUrl'
  | 'cardNumber'
> &
  Partial<Pick<VisitObject, 'email' | 'pictureSignedUrl' | 'visitorTypeId' | 'phone' | 'heldAtDoor' | 'statusNote'>> & {
    /** Whether a channel confirmed the message to the host (the check-in's answers say so). */
    hostNotified?: boolean;
    /** The delivery state of the message to the host (the check-in's answers and the visit log say so). */
    hostNotification?: HostNotification;
  };

/**
 * A visit as the kiosk follows it (`/v1/kiosk/walkin`, `/v1/kiosk/invitee/checkin`, `GET /v1/kiosk/visit/:id`):
 * the visitor's own details and the host's name, nothing of anyone else.
 */
export interface KioskVisit {
  id: string;
  /** The check-in's proof: reads this visit and its gate code again for a while (`?receipt=`), no other visit. */
  receipt: string;
  name: string | null;
  company: string | null;
  hostName: string | null;
  checkinAt: string;
  checkoutAt: string | null;
  isInsideCompany: boolean;
  authorizationStatus: 'waiting' | 'allowed' | 'denied' | null;
  visitorStatus: 'BLOCKED' | null;
  pictureSignedUrl: string | null;
  cardNumber: string | null;
  visitorTypeId: string | null;
  /** Whether a channel confirmed the message to the host. */
  hostNotified: boolean;
  /** How far the host was told (docs/api.md, "Delivery state"). */
  hostNotification: HostNotification;
  /** Whether the link to the visitor's gate pass was sent to them: where not, the badge carries the gate code. */
  gateCodeSent: boolean;
}

/** none: no message; sending: none confirmed yet; notified: a channel confirmed; failed: every delivery failed. */
export type HostNotification = 'none' | 'sending' | 'notified' | 'failed';

/** A person a kiosk lookup found: as much as the screen may show, and a ticket for the next step. */
export interface FoundPerson {
  ticket: string;
  firstName: string;
  /** The initial of the last name and a dot ("S."), or empty. */
  initial: string;
}

/** An invitation a kiosk lookup found (`POST /v1/kiosk/invitees/find`). */
export interface FoundInvitee extends FoundPerson {
  expectedAt: string;
  expectedToday: boolean;
  hostName: string | null;
  visitorTypeId: string | null;
  answeredFieldIds: string[];
  hasPicture: boolean;
  preRegistered: boolean;
  hasAgreement: boolean;
}

/** A host the kiosk's search found: name and sector only. */
export interface HostFound {
  id: string;
  name: string;
  sector: string | null;
}

/** The invitee object (docs/api.md, "Invitees") as far as the page reads it: its type is the service's contract. */
export type Invitee = Pick<InviteeObject, 'id' | 'name' | 'company' | 'expectedAt' | 'status' | 'host'> &
  Partial<
    Pick<InviteeObject, 'cardNumber' | 'requiresAuthorization' | 'visitorTypeId' | 'pictureUrl' | 'customFields'>
  >;

export interface Company {
  id: string;
  name: string;
  lang?: string;
  pictureUrl?: string | null;
  timezone?: string | null;
  /** The brand colour, `#rrggbb`: the kiosk's buttons and welcome wear it. */
  brandColor?: string | null;
  welcomeImageUrl?: string | null;
  localizedWelcomeMessage?: Partial<Record<string, string>>;
  /** How a returning visitor can be sent a one-time code (`email` where the company has SMTP set up). */
  returningCodeChannels?: ('email' | 'sms')[];
}

/** A returning visitor after their proof (POST /v1/kiosk/returning/find or verify): what the kiosk fills in. */
export interface ReturningVisitor {
  ticket: string;
  name: string | null;
  company: string | null;
  host: HostFound | null;
}

export type CustomFieldType = 'Text' | 'Dropdown' | 'Checkbox' | 'Date' | 'Number' | 'Email' | 'Phone';
export type CustomFieldLocation = 'FIELD' | 'QUESTIONNAIRE' | 'FEEDBACK';

/** A custom-field definition (GET /v1/customfields), as far as the kiosk needs it. */
export interface CustomFieldDefinition {
  id: string;
  name: string;
  type: CustomFieldType | string;
  options?: string[];
  required?: boolean;
  localizedName?: Partial<Record<string, string>>;
  /** A dropdown's options as each language shows them, in the order of `options` ('' where it has none). */
  localizedOptions?: Partial<Record<string, string[]>>;
  sort?: number;
  location?: CustomFieldLocation | string;
}

export interface AccessConfig {
  enabled: boolean;
  url: string;
  username: string;
  password: string;
  aesKey: string;
  qrcodeDuration: number;
  totpEnabled: boolean;
  staticVisitorQRCode: boolean;
}

/** An answer as POST /v1/visits takes it (docs/api.md, "Check-in data"). */
export interface AnswerItem {
  customFieldId: string;
  value: string;
  name: string;
  localizedName?: Partial<Record<string, string>>;
  sort: number;
  location: string;
}
