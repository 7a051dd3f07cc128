import { z } from 'zod';
import { codeChannels } from '../returning/schema.ts';
import { hostNotificationSchema, inviteeCheckinInput, screenInput, visitCreateInput } from '../visits/schema.ts';

/**
 * Host search at the kiosk: at least this many letters, at most this many answers (the visitor types on until the
 * host is among them), so that each search shows few of the staff.
 */
export const hostSearch = { minLength: 3, maxResults: 5 } as const;

/** People a name lookup answers at most (two guests of the same name expected today are both offered). */
export const maxNameMatches = 3;

export const kioskCompanyObject = z.object({
  id: z.string(),
  name: z.string(),
  lang: z.string(),
  timezone: z.string().describe("the company's zone, or the device's when it has none"),
  pictureUrl: z.string().nullable(),
  accessControl: z.boolean().describe('whether the gate integration is on (a gate code follows a check-in)'),
  passLinks: z
    .boolean()
    .describe(
      'whether a walk-in who gives an e-mail or a phone is sent a link to their live gate code (a public address, ' +
        'and e-mail or SMS set up): when false, the badge carries the gate code',
    ),
  brandColor: z.string().nullable().describe("the company's brand colour (#rrggbb), or null for the kiosk's own"),
  welcomeImageUrl: z.string().nullable().describe("the welcome screen's picture, or null"),
  localizedWelcomeMessage: z.record(z.string(), z.string()).describe('the welcome message per language'),
  returningCodeChannels: z
    .array(z.enum(codeChannels))
    .describe('how a returning visitor can be sent a one-time code (`email` when the company has SMTP set up)'),
});

export const kioskHostsQuery = z.object({
  name: z.string().describe(`${hostSearch.minLength} letters or more of any word of the host's name`),
});
export const kioskHostsAnswer = z.object({
  hosts: z.array(z.object({ id: z.string(), name: z.string(), sector: z.string().nullable() })),
});

const ticket = () => z.string().max(500);

/** The visit fields a visitor chooses at the screen; the rest (time, card, authorization) is the service's. */
const chosenAtTheScreen = {
  id: true,
  hostId: true,
  visitorTypeId: true,
  customFields: true,
  questionnaireFields: true,
  ndaSignature: true,
  rememberVisitor: true,
} as const;

/** POST /v1/kiosk/walkin: POST /v1/visits as the screen may send it. */
export const kioskWalkInInput = visitCreateInput.extend({
  visit: visitCreateInput.shape.visit.pick(chosenAtTheScreen),
  returning: ticket()
    .optional()
    .describe("a returning visitor's ticket (POST /v1/kiosk/returning/find or verify): the check-in updates them"),
});
export type KioskWalkInInput = z.output<typeof kioskWalkInInput>;

/** What the screen may show of a person it found: the first name and the initial of the last. */
const personShown = {
  ticket: z.string().describe('for the next step (check-in or check-out); valid 5 minutes'),
  firstName: z.string(),
  initial: z.string().describe('the initial of the last name and a dot ("S."), or empty'),
};

export const kioskInviteeFindInput = z
  .object({
    code: z
      .string()
      .max(200)
      .optional()
      .describe('the invitation: its QR code (`portaria:invitee:<id>`), its id, or its card number'),
    name: z.string().max(200).optional().describe("the guest's whole name, as invited"),
  })
  .refine((input) => (input.code === undefined) !== (input.name === undefined), 'give `code` or `name`');

export const kioskInviteesAnswer = z.object({
  invitees: z.array(
    z.object({
      ...personShown,
      expectedAt: z.string(),
      expectedToday: z.boolean(),
      hostName: z.string().nullable(),
      visitorTypeId: z.string().nullable().describe("the invitation's visitor type"),
      answeredFieldIds: z
        .array(z.string())
        .describe(
          'the custom fields and questions the invitation answered (their ids only): the kiosk asks the required rest',
        ),
      hasPicture: z.boolean().describe('whether the invitation brought a picture (its own, or pre-registered)'),
      preRegistered: z
        .boolean()
        .describe('whether the guest pre-registered (the register page): the questionnaire was answered then'),
      hasAgreement: z.boolean().describe('whether the guest signed the agreement when pre-registering'),
    }),
  ),
});

/** POST /v1/kiosk/invitee/checkin: the invitation's ticket, the visit's id, and what the guest completed. */
export const kioskInviteeCheckinInput = inviteeCheckinInput
  .pick({ customFields: true, questionnaireFields: true, visitPicture: true, visitNda: true, ndaSignature: true })
  .extend({
    ticket: ticket(),
    visitId: z.string().max(64).describe('a UUID v4 the kiosk makes: a retried request answers the same visit'),
  });
export type KioskInviteeCheckinInput = z.output<typeof kioskInviteeCheckinInput>;

/** A visit as the kiosk that made it follows it: the visitor's own details and the host's name, nothing else. */
export const kioskVisitObject = z.object({
  id: z.string(),
  receipt: z
    .string()
    .describe("the check-in's receipt: reads this visit and its gate code (`?receipt=`) for 20 minutes, no other"),
  name: z.string().nullable(),
  company: z.string().nullable(),
  hostName: z.string().nullable(),
  checkinAt: z.string(),
  checkoutAt: z.string().nullable(),
  isInsideCompany: z.boolean(),
  authorizationStatus: z.enum(['waiting', 'allowed', 'denied']).nullable(),
  visitorStatus: z.enum(['BLOCKED']).nullable(),
  pictureSignedUrl: z.string().nullable(),
  cardNumber: z.string().nullable(),
  visitorTypeId: z.string().nullable(),
  hostNotified: z.boolean().describe('a channel confirmed the message to the host (`hostNotification` is `notified`)'),
  hostNotification: hostNotificationSchema,
  gateCodeSent: z
    .boolean()
    .describe("a message with the link to the visitor's gate pass was queued; where not, the badge carries the code"),
});

/** POST /v1/kiosk/screen: POST /v1/visits/screen as the screen sends it, an invitation named by its ticket. */
export const kioskScreenInput = screenInput.omit({ inviteeId: true }).extend({
  visit: screenInput.shape.visit.pick({ id: true, hostId: true, visitorTypeId: true }),
  ticket: ticket().optional().describe('the invitation being checked in (from POST /v1/kiosk/invitees/find)'),
});

/** GET /v1/kiosk/visit/:id and its gate code: the receipt of the check-in that made the visit. */
export const kioskReceiptQuery = z.object({
  receipt: ticket().optional().describe('the `receipt` the check-in answered; without it the visit is NOT_FOUND'),
});

export const kioskCheckoutFindInput = z
  .object({
    code: z.string().max(200).optional().describe("the badge's QR code (`portaria:visit:<id>`) or the visit's id"),
    name: z.string().max(200).optional().describe("the visitor's whole name"),
  })
  .refine((input) => (input.code === undefined) !== (input.name === undefined), 'give `code` or `name`');
export const kioskVisitsAnswer = z.object({ visits: z.array(z.object(personShown)) });

export const kioskCheckoutInput = z
  .object({
    code: z.string().max(200).optional().describe("the badge's QR code (`portaria:visit:<id>`) or the visit's id"),
    ticket: ticket().optional().describe('from POST /v1/kiosk/checkout/find'),
  })
  .refine((input) => (input.code === undefined) !== (input.ticket === undefined), 'give `code` or `ticket`');

export const kioskCheckoutAnswer = z.object({
  firstName: z.string(),
  initial: z.string(),
  checkoutAt: z.string(),
});
