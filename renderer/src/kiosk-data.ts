import { type Api, listQuery } from './api.ts';
import { browserTimeZone } from './time.ts';
import type { Company, CustomFieldDefinition, HostSummary, KioskSettings, VisitorType } from './types.ts';

/** What the kiosk's screens need from the service, loaded at start and again whenever the welcome screen shows. */
export interface KioskData {
  /** The company's face on the kiosk (GET /v1/kiosk/company); undefined where the service has none. */
  company: Company | undefined;
  settings: KioskSettings;
  /** The hosts shown on this kiosk (`isActive`, section 2.2). */
  hosts: HostSummary[];
  customFields: CustomFieldDefinition[];
  /** The company's visitor types, in their order (the active ones are offered; invitees may carry any). */
  visitorTypes: VisitorType[];
  accessEnabled: boolean;
  timeZone: string;
}

/** A list endpoint's items whether it answers an array or an object holding one (`{ customFields: [...] }`). */
export function itemsOf<T>(answer: unknown, key: string): T[] {
  if (Array.isArray(answer)) return answer as T[];
  const inner = (answer as Record<string, unknown> | undefined)?.[key];
  return Array.isArray(inner) ? (inner as T[]) : [];
}

export async function loadKioskData(api: Api): Promise<KioskData> {
  const [company, settings, hosts, customFields, visitorTypes] = await Promise.all([
    api.optional<Company & { accessControl: boolean }>('/v1/kiosk/company'),
    api.get<KioskSettings>('/v1/kiosk/settings'),
    api.get<{ hosts: HostSummary[] }>(`/v1/hosts${listQuery('isActive', '==', 'true')}`),
    api.optional<unknown>('/v1/customfields'),
    api.optional<unknown>('/v1/visitortypes'),
  ]);
  return {
    company,
    settings,
    hosts: hosts.hosts,
    customFields: itemsOf<CustomFieldDefinition>(customFields, 'customFields').sort(
      (a, b) => (a.sort ?? 0) - (b.sort ?? 0),
    ),
    visitorTypes: itemsOf<VisitorType>(visitorTypes, 'visitorTypes'),
    accessEnabled: company?.accessControl === true,
    timeZone: company?.timezone || browserTimeZone(),
  };
}
