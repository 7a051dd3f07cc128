import { z } from 'zod';
import { visitObjectSchema } from '../visits/schema.ts';

/** Longest span one request reads: a year of visits, so an export stays a file a spreadsheet opens. */
export const maxSpanDays = 366;

const day = () => z.string().optional().describe('a day, YYYY-MM-DD, in the company zone (default: today)');

/** The query of GET /v1/visits/history and GET /v1/visits/export. */
export const visitLogQuery = z.object({
  from: day(),
  to: day(),
  search: z
    .string()
    .optional()
    .describe('text found (without regard to case) in the name, company, e-mail, document or host name'),
  limit: z.string().optional().describe('history only: 1 to 1000, default 200'),
  offset: z.string().optional().describe('history only: 0 or more, default 0'),
});

export const visitHistorySchema = z.object({
  visits: z.array(visitObjectSchema).describe('newest check-in first'),
  size: z.number().int(),
});
