import { z } from 'zod';
import { bool, countryCode, email, emailList, int32, nullableText, phone, stringList, text } from '../http/fields.ts';
import {
  columnKindsOf,
  contractQueryFields,
  createShape,
  type FieldSpec,
  nullableString,
  type RowOf,
  shownShape,
} from '../rules/resource-contract.ts';

/*
 * The host, written once (docs/api.md, "Resource contracts"): every column of the `hosts` table with how it is
 * stored, how the host object shows it, whether a client writes it and whether a list is queryable by it.
 */

export const hostRoles = ['ADMIN', 'MANAGER', 'SECURITY', 'FRONTDESK', 'HOST', 'EMPLOYEE'] as const;

/** Roles in upper case (the record's form) or in the object reference's forms: `frontDesk`, `employee`, `front_desk`. */
export const hostRole = () =>
  z
    .string()
    .transform((s) => s.replace(/[\s_-]/g, '').toUpperCase())
    .pipe(z.enum(hostRoles));

/** `metadata` is free-form, but `accessCardNumber`, when present, is what the gate reads: an int32. */
const metadata = () =>
  z
    .record(z.string(), z.unknown())
    .nullable()
    .refine(
      (m) => m?.accessCardNumber === undefined || int32().safeParse(m.accessCardNumber).success,
      'metadata.accessCardNumber must be a 32-bit integer',
    )
    .transform((m) =>
      m && m.accessCardNumber !== undefined ? { ...m, accessCardNumber: Number(m.accessCardNumber) } : m,
    );

/** A text a client writes, shown as text or null, and queryable. */
const textField = <Input extends z.ZodType>(input: Input) => ({
  storage: 'text' as const,
  shown: nullableString(),
  input,
  query: true as const,
});

/** A setting a client switches, stored 0/1 (NOT NULL, with a default), and queryable. */
const flag = () => ({
  storage: 'boolean' as const,
  required: true as const,
  shown: z.boolean(),
  input: bool(),
  query: true as const,
});

/** A host's fields, in the table's order; a client writes those with `input` at creation and in an update. */
export const hostFields = {
  id: { storage: 'text', required: true, shown: z.string().describe('32 characters'), query: true },
  // Shown after the other fields, beside its alias `company` (hosts/present.ts).
  companyId: { storage: 'text', required: true, shown: z.string() },
  createdAt: { storage: 'time', required: true, shown: z.string(), query: true },
  updatedAt: { storage: 'time', required: true, shown: z.string(), query: true },
  deletedAt: { storage: 'time', shown: nullableString(), query: true },
  name: { storage: 'text', required: true, shown: z.string(), input: text(200).trim().min(1), query: true },
  email: { storage: 'text', required: true, shown: z.string(), input: email(), query: true },
  role: {
    storage: 'text',
    required: true,
    values: hostRoles,
    shown: z.enum(hostRoles),
    input: hostRole(),
    query: true,
  },
  isActive: flag(),
  preCheckinNotifications: flag(),
  // Worked out from the phone and its country code, never written by a client.
  isPhoneValid: { storage: 'boolean', required: true, shown: z.boolean(), query: true },
  sendInvitationEmail: flag(),
  additionalEmails: { storage: 'json', required: true, shown: z.array(z.string()), input: emailList() },
  additionalPhones: { storage: 'json', required: true, shown: z.array(z.string()), input: stringList() },
  pictureUrl: textField(nullableText(2000)),
  pictureThumbUrl: textField(nullableText(2000)),
  position: textField(nullableText(200)),
  sector: textField(nullableText(200)),
  cpf: textField(nullableText(20)),
  phone: textField(phone().nullable()),
  countryCode: textField(countryCode().nullable()),
  message: textField(nullableText(2000)),
  deliveryNotification: flag(),
  metadata: { storage: 'json', shown: z.record(z.string(), z.unknown()).nullable(), input: metadata() },
  defaultMeetingLocationId: textField(nullableText(100)),
  defaultMeetingTypeId: textField(nullableText(100)),
  userId: textField(nullableText(100)),
  createdById: textField(nullableText(100)),
  zoneId: textField(nullableText(100)),
  invenziId: textField(nullableText(100)),
  mifareCardNumber: { storage: 'json', shown: z.array(z.string()).nullable(), input: stringList().nullable() },
  allowCredentialing: flag(),
  canAuthorizeAllCredentialing: flag(),
  disableMeetingCreation: flag(),
  spaceManagementEnabled: flag(),
} satisfies Readonly<Record<string, FieldSpec>>;

export type HostRow = RowOf<typeof hostFields>;

export const hostColumns = columnKindsOf(hostFields);

/** The fields a client writes, at creation and in an update, with their request types. */
export const hostInputShape = createShape(hostFields);

/** The host object (docs/api.md, "Hosts"). */
export const hostObjectShape = {
  ...shownShape(hostFields),
  company: z.string(),
  type: z.literal('host'),
};

/** The list-query fields of hosts: their columns, and `company` for the company's id. */
export const hostColumnQueryFields = contractQueryFields(hostFields);
