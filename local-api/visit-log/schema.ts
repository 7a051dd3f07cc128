import { z } from 'zod';
import { hostNotificationSchema, visitObjectSchema } from '../visits/schema.ts';
import { visitStates } from './states.ts';

/** Longest span one request reads: a year of visits, so an export stays a file a spreadsheet opens. */
export const maxSpanDays = 366;

const day = () => z.string().optional().describe('a day, YYYY-MM-DD, in the company zone (default: today)');

export const visitLogPaging = { defaultLimit: 200, maxLimit: 1000 };

/** The query of GET /v1/visits/history and GET /v1/visits/export. */
export const visitLogQuery = z.object({
  from: day(),
  to: day(),
  search: z
    .string()
    .optional()
    .describe('text found (without regard to case) in the name, company, e-mail, document or host name'),
  host: z.string().optional().describe("only this host's visits (a host id)"),
  visitorType: z.string().optional().describe('only visits of this visitor type (its id)'),
  kiosk: z
    .string()
    .optional()
    .describe('only visits checked in at this kiosk device (its id, as GET /v1/kiosks lists it)'),
  status: z
    .enum(visitStates)
    .optional()
    .describe('only visits in this state: inside, waiting (for approval), out (checked out), denied, blocked'),
  limit: z
    .int()
    .min(1)
    .max(visitLogPaging.maxLimit)
    .optional()
    .describe(`history only: default ${visitLogPaging.defaultLimit}`),
  cursor: z
    .string()
    .optional()
    .describe("history only: the previous page's `nextCursor`; the page goes on after its last visit"),
  offset: z.int().min(0).optional().describe('history only: default 0 (with `cursor`: after it)'),
});

export const visitHistorySchema = z.object({
  visits: z
    .array(visitObjectSchema.extend({ hostNotification: hostNotificationSchema }))
    .describe("newest check-in first, each with its host message's delivery state"),
  size: z.number().int(),
  nextCursor: z
    .string()
    .nullable()
    .describe('the `cursor` of the next page (same query); null when this page is the last'),
});
