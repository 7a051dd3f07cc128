import { z } from 'zod';
import { isHlc } from './hlc.ts';

/** GET /v1/sync/changes pages: 500 rows by default, 1000 at most. */
export const changesPaging = { defaultLimit: 500, maxLimit: 1000 };

export const clientIdPattern = /^[0-9A-Za-z_-]{8,64}$/;

export const changesQuery = z.object({
  since: z.string().max(200).optional().describe('The cursor of the last page applied; absent to start over'),
  limit: z.int().min(1).max(changesPaging.maxLimit).optional().describe(`default ${changesPaging.defaultLimit}`),
  clientId: z
    .string()
    .regex(clientIdPattern)
    .optional()
    .describe("The asking kiosk's client id: the page then says the last of its mutations this hub applied"),
  deviceId: z
    .string()
    .regex(clientIdPattern)
    .optional()
    .describe("The asking kiosk's device id: with what follows, its report for the console's Kiosks page"),
  appVersion: z.string().max(40).optional().describe("The kiosk's Portaria version"),
  pending: z.int().min(0).optional().describe('Its mutations not yet pushed'),
  oldestPendingAt: z.int().min(0).optional().describe('When the oldest of them was made, Unix ms'),
  clockSkewMs: z.int().optional().describe("The hub's clock minus the kiosk's, as it last measured it"),
});

export const pokesQuery = z.object({
  clientId: z
    .string()
    .regex(clientIdPattern)
    .optional()
    .describe(
      "The asking kiosk's client id: kiosks that share a credential each keep their stream (the cap is per kiosk)",
    ),
});

const sqlValue = z.union([z.string(), z.number(), z.null()]);

export const changesPage = z.object({
  companyId: z.string(),
  reset: z.boolean().describe('Start over: the pages that follow hold every row, and rows they lack are gone'),
  changes: z.array(
    z.object({
      table: z.string(),
      key: z.string(),
      row: z.record(z.string(), sqlValue).nullable().describe('The row as stored; null when it was deleted'),
    }),
  ),
  cursor: z.string(),
  hasMore: z.boolean(),
  hlc: z.string(),
  now: z.number().describe("The hub's clock, in Unix milliseconds"),
  publicUrl: z
    .string()
    .nullable()
    .optional()
    .describe("The hub's public address (`--public-url`), where links in its kiosks' messages point; null: none"),
  lastMutationId: z
    .number()
    .int()
    .nullable()
    .optional()
    .describe(
      "With `clientId`: the last of that kiosk's mutations this hub applied, null when it knows none. A kiosk " +
        'that had more confirmed sees the hub lost them (restored from a backup) and sends them again',
    ),
});

/** Mutations in one push at most; the kiosk sends fewer (see `batchLimits`). */
export const maxPushMutations = 500;

export const pushInput = z.object({
  clientId: z.string().regex(clientIdPattern),
  confirmedMutationId: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe(
      "The last of this client id's mutations the hub confirmed, as the kiosk knows it: a hub that knows less lost " +
        'them (restored from a backup) and answers SYNC_GAP',
    ),
  resent: z
    .boolean()
    .optional()
    .describe(
      'True when this client id sends again every visit the kiosk holds (after a hub lost them): a mutation of a ' +
        'visit the hub never heard of is then rejected rather than answered SYNC_ROW_MISSING',
    ),
  mutations: z
    .array(
      z.object({
        id: z.number().int().positive(),
        name: z.string().max(64),
        args: z.record(z.string(), z.unknown()),
        hlc: z.string().refine(isHlc, 'must be a hybrid logical clock timestamp'),
      }),
    )
    .max(maxPushMutations),
});

export const pushAnswer = z.object({
  lastMutationId: z.number().int(),
  results: z.array(
    z.object({
      id: z.number().int(),
      result: z.enum(['applied', 'duplicate', 'rejected']),
      type: z.string().optional(),
    }),
  ),
  hlc: z.string(),
  now: z.number(),
});

export const upstreamInput = z.object({
  url: z
    .string()
    .max(2000)
    .regex(/^https?:\/\/[^\s/]+(\/[^\s]*)?$/i, 'must be an http(s) URL'),
  apiKey: z.string().min(16).max(500),
});

export const upstreamObject = z.object({
  url: z.string().nullable(),
  companyId: z.string().nullable(),
  hasKey: z.boolean(),
});

const time = () => z.string().nullable();

export const statusObject = z.object({
  role: z.enum(['hub', 'kiosk']),
  state: z.enum(['hub', 'connecting', 'online', 'offline']),
  upstream: z.string().nullable(),
  companyId: z.string().nullable(),
  clientId: z.string(),
  pending: z.number().int(),
  oldestPendingAt: time(),
  lastSuccessAt: time(),
  lastAttemptAt: time(),
  nextAttemptAt: time(),
  lastError: z.string().nullable(),
  subscribed: z
    .boolean()
    .describe("True while a kiosk holds its hub's poke stream open (changes then arrive at once); false on a hub"),
  rejected: z.number().int(),
  cursor: z.string().nullable(),
  clockSkewMs: z
    .number()
    .nullable()
    .describe("The hub's clock minus this device's, in milliseconds, as last measured (kiosk); null before"),
  clockWarning: z
    .boolean()
    .describe(
      "True when this device's clock is more than 30 s from its hub's: the service keeps the hub's time " +
        "(visits, QR codes), but the device's clock should be set right",
    ),
  publicUrl: z
    .string()
    .nullable()
    .describe(
      "Where links in the company's messages point: this service's `--public-url`, else (a kiosk) its hub's; null: " +
        'messages carry no link',
    ),
  clients: z.array(
    z.object({
      clientId: z.string(),
      lastMutationId: z.number().int(),
      applied: z.number().int(),
      duplicates: z.number().int(),
      rejected: z.number().int(),
      lastPushAt: z.string(),
    }),
  ),
});

/** GET /v1/sync/rejections pages: the newest 100 by default, 1000 at most. */
export const rejectionsPaging = { defaultLimit: 100, maxLimit: 1000 };

export const rejectionsAnswer = z.object({
  rejections: z.array(
    z.object({
      clientId: z.string(),
      mutationId: z.number().int(),
      name: z.string(),
      args: z.unknown(),
      hlc: z.string(),
      type: z.string().describe('The error code the mutation met'),
      createdAt: z.string(),
    }),
  ),
  size: z.number().int(),
});
