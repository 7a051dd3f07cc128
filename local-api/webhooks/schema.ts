import { z } from 'zod';
import { eventNames } from '../events.ts';
import { bool, type FieldCodes } from '../http/fields.ts';
import type { ColumnKinds } from '../store/columns.ts';

/** Registrations per company: every event is enqueued once per webhook, so their number stays small. */
export const maxWebhooksPerCompany = 20;

/**
 * The events wanted (events.ts names them; `*` is all, including ones added later): a JSON array, or names
 * separated by spaces or commas (form-encoded bodies).
 */
const eventList = () =>
  z
    .union([z.array(z.string()), z.string().transform((s) => s.split(/[\s,]+/).filter(Boolean))])
    .pipe(z.array(z.enum([...eventNames, '*'])).min(1))
    .transform((events) => [...new Set(events)]);

const webhookFields = {
  url: z
    .string()
    .trim()
    .max(2000)
    .regex(/^https?:\/\/[^\s]+$/i, 'must be an http(s) URL'),
  events: eventList(),
  /** Keys the HMAC-SHA256 signature; generated when absent. At least 16 characters: it is a shared secret. */
  secret: z.string().min(16).max(200),
  isActive: bool(),
};

export const webhookCreateInput = z.object({
  ...z.object(webhookFields).partial().shape,
  url: webhookFields.url,
});
export type WebhookCreateInput = z.output<typeof webhookCreateInput>;

export const webhookUpdateInput = z.object(webhookFields).partial();
export type WebhookUpdateInput = z.output<typeof webhookUpdateInput>;

export const webhookInputCodes: Readonly<Record<string, FieldCodes>> = {
  url: { missing: 'MISSING_URL', invalid: 'INVALID_URL' },
  events: { invalid: 'INVALID_EVENT' },
};

export const webhookColumns: ColumnKinds = {
  booleans: ['isActive'],
  json: ['events'],
  times: ['createdAt', 'updatedAt', 'deletedAt'],
};

/** A webhook as the interface answers it; `secret` only in the answer that created it. */
export const webhookObjectSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  isActive: z.boolean(),
  type: z.literal('webhook'),
  secret: z.string().optional().describe('the signing secret: shown once, when the webhook is created'),
});

/** How a kind of outgoing delivery is doing for the company (`deliveryStatus`). */
export const deliveryStatusSchema = z.object({
  pending: z.number().int(),
  failed: z.number().int().describe('given up'),
  done: z.number().int(),
  lastError: z.string().nullable(),
  oldestPendingAt: z.string().nullable(),
});
