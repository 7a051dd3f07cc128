import { z } from 'zod';
import {
  bool,
  countryCode,
  email,
  emailList,
  type FieldCodes,
  int32,
  nullableText,
  phone,
  stringList,
  text,
} from '../http/fields.ts';
import type { ColumnKinds } from '../store/columns.ts';

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

const hostFields = {
  name: text(200).trim().min(1),
  email: email(),
  role: hostRole(),
  sendInvitationEmail: bool(),
  resendInvitationEmail: bool(),
  metadata: metadata(),
  additionalEmails: emailList(),
  additionalPhones: stringList(),
  isActive: bool(),
  preCheckinNotifications: bool(),
  deliveryNotification: bool(),
  pictureUrl: nullableText(2000),
  pictureThumbUrl: nullableText(2000),
  position: nullableText(200),
  sector: nullableText(200),
  cpf: nullableText(20),
  phone: phone().nullable(),
  countryCode: countryCode().nullable(),
  message: nullableText(2000),
  allowCredentialing: bool(),
  canAuthorizeAllCredentialing: bool(),
  disableMeetingCreation: bool(),
  spaceManagementEnabled: bool(),
  mifareCardNumber: stringList().nullable(),
  defaultMeetingLocationId: nullableText(100),
  defaultMeetingTypeId: nullableText(100),
  userId: nullableText(100),
  createdById: nullableText(100),
  zoneId: nullableText(100),
  invenziId: nullableText(100),
};

export const hostCreateInput = z.object({
  ...z.object(hostFields).partial().shape,
  name: hostFields.name,
  email: hostFields.email,
});
export type HostCreateInput = z.output<typeof hostCreateInput>;

export const hostUpdateInput = z.object(hostFields).partial();
export type HostUpdateInput = z.output<typeof hostUpdateInput>;

export const hostInputCodes: Readonly<Record<string, FieldCodes>> = {
  name: { missing: 'MISSING_NAME', invalid: 'INVALID_PARAMETER' },
  email: { missing: 'MISSING_EMAIL', invalid: 'INVALID_EMAIL' },
  additionalEmails: { invalid: 'INVALID_EMAIL' },
  role: { invalid: 'INVALID_ROLE' },
  countryCode: { invalid: 'INVALID_COUNTRY_CODE' },
};

export const hostColumns: ColumnKinds = {
  booleans: [
    'isActive',
    'preCheckinNotifications',
    'isPhoneValid',
    'sendInvitationEmail',
    'deliveryNotification',
    'allowCredentialing',
    'canAuthorizeAllCredentialing',
    'disableMeetingCreation',
    'spaceManagementEnabled',
  ],
  json: ['additionalEmails', 'additionalPhones', 'metadata', 'mifareCardNumber'],
  times: ['createdAt', 'updatedAt', 'deletedAt'],
};

export const hostTextColumns = [
  'id',
  'name',
  'email',
  'role',
  'pictureUrl',
  'pictureThumbUrl',
  'position',
  'sector',
  'cpf',
  'phone',
  'countryCode',
  'message',
  'defaultMeetingLocationId',
  'defaultMeetingTypeId',
  'userId',
  'createdById',
  'zoneId',
  'invenziId',
] as const;

const nullableString = () => z.string().nullable();

/** The short host object that visits, invitees and meetings embed. */
export const hostSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  type: z.literal('host'),
});

/** The host object of section 2.2. */
export const hostObjectSchema = z.object({
  id: z.string().describe('32 characters'),
  createdAt: z.string(),
  updatedAt: z.string(),
  deletedAt: nullableString(),
  name: z.string(),
  email: z.string(),
  role: z.enum(hostRoles),
  isActive: z.boolean(),
  preCheckinNotifications: z.boolean(),
  isPhoneValid: z.boolean(),
  sendInvitationEmail: z.boolean(),
  additionalEmails: z.array(z.string()),
  additionalPhones: z.array(z.string()),
  pictureUrl: nullableString(),
  pictureThumbUrl: nullableString(),
  position: nullableString(),
  sector: nullableString(),
  cpf: nullableString(),
  phone: nullableString(),
  countryCode: nullableString(),
  message: nullableString(),
  deliveryNotification: z.boolean(),
  metadata: z.record(z.string(), z.unknown()).nullable(),
  defaultMeetingLocationId: nullableString(),
  defaultMeetingTypeId: nullableString(),
  userId: nullableString(),
  createdById: nullableString(),
  zoneId: nullableString(),
  invenziId: nullableString(),
  companyId: z.string(),
  company: z.string(),
  mifareCardNumber: z.array(z.string()).nullable(),
  allowCredentialing: z.boolean(),
  canAuthorizeAllCredentialing: z.boolean(),
  disableMeetingCreation: z.boolean(),
  spaceManagementEnabled: z.boolean(),
  type: z.literal('host'),
});
