import { z } from 'zod';
import { hostNotificationSchema, visitObjectSchema } from '../visits/schema.ts';

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
  limit: z
    .int()
    .min(1)
    .max(visitLogPaging.maxLimit)
    .optional()
    .describe(`history only: default ${visitLogPaging.defaultLimit}`),
  offset: z.int().min(0).optional().describe('history only: default 0'),
});

export const visitHistorySchema = z.object({
  visits: z
    .array(visitObjectSchema.extend({ hostNotification: hostNotificationSchema }))
    .describe("newest check-in first, each with its host message's delivery state"),
  size: z.number().int(),
});
