import { z } from 'zod';
import { timeZoneName } from '../companies/schema.ts';
import { hostSummarySchema } from '../hosts/schema.ts';
import { bool, dateInput, emailList, type FieldCodes, nullableText, stringList, text } from '../http/fields.ts';
import { sendInvitationEmailInput } from '../invitations/schema.ts';
import { languages } from '../rules/lang.ts';
import type { ColumnKinds } from '../store/columns.ts';

export const meetingTypes = ['MEETING', 'EVENT'] as const;
export const meetingOrigins = ['DASHBOARD', 'MOBILE', 'GOOGLE', 'MICROSOFT', 'API'] as const;

const upperEnum = <T extends readonly [string, ...string[]]>(values: T) =>
  z
    .string()
    .transform((s) => s.toUpperCase())
    .pipe(z.enum(values));

/** An event may invite a crowd; every guest becomes an invitee. */
export const maxGuests = 500;

const meetingFields = {
  title: text(500).trim().min(1),
  guests: emailList(maxGuests).describe('e-mail addresses (a JSON array, or separated by spaces or commas)'),
  start: dateInput(),
  end: dateInput(),
  location: text(500).trim().min(1),
  type: upperEnum(meetingTypes),
  hostId: z.string().max(64),
  durationInHours: z.coerce.number().int().min(0).max(10_000).nullable(),
  isRecurring: bool(),
  recurrencePattern: nullableText(500),
  allDay: bool(),
  timezone: timeZoneName().nullable(),
  message: nullableText(5000),
  meetingLocationId: nullableText(100),
  notes: nullableText(5000),
  createdOn: upperEnum(meetingOrigins),
  // Accepted for the interface's input shape; a meeting always belongs to the caller's company.
  companyId: z.string().max(64),
  inviteId: nullableText(100),
  coHosts: stringList(),
  meetingTypeId: nullableText(100),
  createdByHostId: nullableText(100),
  lang: z.enum(languages),
  metadata: z.record(z.string(), z.unknown()).nullable(),
  visitFlowTypeId: text(100).min(1),
  startRegistrationAt: dateInput().nullable(),
  endRegistrationAt: dateInput().nullable(),
};

/** POST /v1/meetings (docs/api.md, "Meetings"): title, guests, start, end, location, type and hostId are required. */
export const meetingCreateInput = z
  .object(meetingFields)
  .partial()
  .required({ title: true, guests: true, start: true, end: true, location: true, type: true, hostId: true })
  .extend(sendInvitationEmailInput);
export type MeetingCreateInput = z.output<typeof meetingCreateInput>;

export const meetingUpdateInput = z.object(meetingFields).partial().extend(sendInvitationEmailInput);
export type MeetingUpdateInput = z.output<typeof meetingUpdateInput>;

export const meetingInputCodes: Readonly<Record<string, FieldCodes>> = {
  hostId: { missing: 'MISSING_HOST_ID', invalid: 'HOST_NOT_FOUND' },
  guests: { missing: 'INVALID_PARAMETER', invalid: 'INVALID_EMAIL' },
};

export const meetingColumns: ColumnKinds = {
  booleans: ['isRecurring', 'allDay'],
  json: ['coHosts', 'guests', 'metadata'],
  times: ['createdAt', 'updatedAt', 'deletedAt', 'start', 'end', 'startRegistrationAt', 'endRegistrationAt'],
};

/** Input fields that are dates, resolved in the meeting's zone (else the company's) before storage. */
export const meetingDateFields = ['start', 'end', 'startRegistrationAt', 'endRegistrationAt'] as const;

const nullableString = () => z.string().nullable();

/** The meeting as an invitee object carries it: without its host. */
export const meetingWithoutHostSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  deletedAt: nullableString(),
  title: z.string(),
  type: z.enum(meetingTypes),
  guests: z.array(z.string()),
  start: z.string(),
  end: z.string(),
  durationInHours: z.number().int().nullable(),
  isRecurring: z.boolean(),
  recurrencePattern: nullableString(),
  allDay: z.boolean(),
  timezone: nullableString(),
  message: nullableString(),
  location: nullableString(),
  notes: nullableString(),
  createdOn: z.enum(meetingOrigins),
  coHosts: z.array(z.string()),
  meetingTypeId: nullableString(),
  meetingLocationId: nullableString(),
  inviteId: nullableString(),
  createdByHostId: nullableString(),
  companyId: z.string(),
  hostId: z.string(),
  lang: z.string(),
  metadata: z.unknown(),
  visitFlowTypeId: z.string(),
  startRegistrationAt: nullableString(),
  endRegistrationAt: nullableString(),
});

/** The meeting object of docs/api.md, "Meetings", with its host (id, name, e-mail). */
export const meetingObjectSchema = meetingWithoutHostSchema.extend({ host: hostSummarySchema.nullable() });
