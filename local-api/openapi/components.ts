import { z } from 'zod';
import { accessConfigObjectSchema } from '../access/schema.ts';
import { blocklistObjectSchema } from '../blocklist/schema.ts';
import { companyObjectSchema } from '../companies/schema.ts';
import { credentialObjectSchema } from '../credentials/schema.ts';
import { customFieldObjectSchema } from '../custom-fields/schema.ts';
import { hostObjectSchema, hostSummarySchema } from '../hosts/schema.ts';
import { successSchema } from '../http/routes.ts';
import { inviteeObjectSchema } from '../invitees/schema.ts';
import { meetingObjectSchema } from '../meetings/schema.ts';
import { notificationObjectSchema, notificationSettingsSchema } from '../notifications/schema.ts';
import { visitorTypeObjectSchema } from '../visitor-types/schema.ts';
import { visitorObjectSchema } from '../visitors/schema.ts';
import { checkinAnswerSchema, visitObjectSchema } from '../visits/schema.ts';
import { deliveryStatusSchema, webhookObjectSchema } from '../webhooks/schema.ts';

/** What every error answers: its code, and for some codes more fields (docs/api.md, "Errors"). */
const errorSchema = z.looseObject({ type: z.string().describe('the error code') });

/**
 * The interface's objects by the names the OpenAPI document gives them (`components.schemas`): wherever one of
 * these schemas appears in a route's body or answer, the document refers to it by `$ref`, so generated clients get
 * one type per object. A list answer of one of them (`{ hosts: [Host], size }`) is named after it, `HostList`.
 */
export const apiComponents: Readonly<Record<string, z.ZodType>> = {
  AccessConfig: accessConfigObjectSchema,
  BlockedPerson: blocklistObjectSchema,
  CheckinAnswer: checkinAnswerSchema,
  Company: companyObjectSchema,
  Credential: credentialObjectSchema,
  CustomField: customFieldObjectSchema,
  DeliveryStatus: deliveryStatusSchema,
  Error: errorSchema,
  Host: hostObjectSchema,
  HostSummary: hostSummarySchema,
  Invitee: inviteeObjectSchema,
  Meeting: meetingObjectSchema,
  Notification: notificationObjectSchema,
  NotificationSettings: notificationSettingsSchema,
  Success: successSchema,
  Visit: visitObjectSchema,
  Visitor: visitorObjectSchema,
  VisitorType: visitorTypeObjectSchema,
  Webhook: webhookObjectSchema,
};
