import type { Api } from './api.ts';
import { browserTimeZone } from './time.ts';
import type { Company, CustomFieldDefinition, KioskSettings, VisitorType } from './types.ts';

/** What the kiosk's screens need from the service, loaded at start and again whenever the welcome screen shows. */
export interface KioskData {
  /** The company's face on the kiosk (GET /v1/kiosk/company); undefined where the service has none. */
  company: Company | undefined;
  settings: KioskSettings;
  customFields: CustomFieldDefinition[];
  /** The company's visitor types, in their order (the active ones are offered; invitees may carry any). */
  visitorTypes: VisitorType[];
  accessEnabled: boolean;
  /** Whether a walk-in's gate code is sent to their phone (a link to their pass): where not, the badge carries it. */
  passLinks: boolean;
  timeZone: string;
}

/** A list endpoint's items whether it answers an array or an object holding one (`{ customFields: [...] }`). */
export function itemsOf<T>(answer: unknown, key: string): T[] {
  if (Array.isArray(answer)) return answer as T[];
  const inner = (answer as Record<string, unknown> | undefined)?.[key];
  return Array.isArray(inner) ? (inner as T[]) : [];
}

export async function loadKioskData(api: Api): Promise<KioskData> {
  // Nothing here lists people: hosts are searched by name when a visitor types one (GET /v1/kiosk/hosts).
  const [company, settings, customFields, visitorTypes] = await Promise.all([
    api.optional<Company & { accessControl: boolean; passLinks: boolean }>('/v1/kiosk/company'),
    api.get<KioskSettings>('/v1/kiosk/settings'),
    api.optional<unknown>('/v1/customfields'),
    api.optional<unknown>('/v1/visitortypes'),
  ]);
  return {
    company,
    settings,
    customFields: itemsOf<CustomFieldDefinition>(customFields, 'customFields').sort(
      (a, b) => (a.sort ?? 0) - (b.sort ?? 0),
    ),
    visitorTypes: itemsOf<VisitorType>(visitorTypes, 'visitorTypes'),
    accessEnabled: company?.accessControl === true,
    passLinks: company?.passLinks === true,
    timeZone: company?.timezone || browserTimeZone(),
  };
}
