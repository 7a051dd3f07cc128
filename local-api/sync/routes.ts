import type { Context } from '../context.ts';
import { type Caller, roles } from '../credentials/caller.ts';
import { ApiError } from '../http/errors.ts';
import { parseLimit } from '../http/list-query.ts';
import { type RouteSpec, route } from '../http/routes.ts';
import { type KioskReport, recordKioskReport } from '../kiosks/store.ts';
import { ownPublicAddress, publicAddress } from '../public/address.ts';
import { formatInZone } from '../rules/time.ts';
import { syncAgentOf } from './agent.ts';
import { readChanges } from './feed.ts';
import { clockIsOff } from './hub-time.ts';
import { pendingSummary } from './outbox.ts';
import { streamPokes } from './poke-stream.ts';
import { applyPush, syncClients, syncRejections } from './push.ts';
import {
  changesPage,
  changesPaging,
  changesQuery,
  clientIdPattern,
  pokesQuery,
  pushAnswer,
  pushInput,
  rejectionsAnswer,
  rejectionsPaging,
  statusObject,
  upstreamInput,
  upstreamObject,
} from './schema.ts';
import { configureUpstream, currentHlc, syncState } from './state.ts';

const tag = 'Sync';

const shown = (ms: number | null, caller: Caller) => (ms === null ? null : formatInZone(ms, caller.timeZone));

/** Where this service stands: a hub (and the kiosks that push to it), or a kiosk and its way to its hub. */
async function statusOf(ctx: Context, caller: Caller) {
  const state = await syncState(ctx);
  const memory = syncAgentOf(ctx)?.memory() ?? {
    state: 'hub',
    lastSuccessAt: state.lastSuccessAt,
    lastAttemptAt: null,
    nextAttemptAt: null,
    subscribed: false,
  };
  const { pending, oldestPendingAt } = await pendingSummary(ctx);
  return {
    role: state.upstreamUrl ? ('kiosk' as const) : ('hub' as const),
    state: memory.state,
    upstream: state.upstreamUrl,
    companyId: state.companyId,
    clientId: state.clientId,
    pending,
    oldestPendingAt: shown(oldestPendingAt, caller),
    lastSuccessAt: shown(memory.lastSuccessAt, caller),
    lastAttemptAt: shown(memory.lastAttemptAt, caller),
    nextAttemptAt: shown(memory.nextAttemptAt, caller),
    lastError: state.lastError,
    subscribed: memory.subscribed,
    rejected: state.rejected,
    cursor: state.cursor,
    clockSkewMs: state.clockSkewMs,
    clockWarning: clockIsOff(state.clockSkewMs),
    publicUrl: (await publicAddress(ctx, caller.companyId)) ?? null,
    clients: (await syncClients(ctx, caller.companyId)).map((c) => ({
      ...c,
      lastPushAt: formatInZone(c.lastPushAt, caller.timeZone),
    })),
  };
}

/** A whole number of the query, or undefined when absent; anything else is INVALID_PARAMETER. */
function wholeOf(query: Record<string, unknown>, field: string, min: number): number | undefined {
  const value = query[field];
  if (value === undefined) return undefined;
  const number = typeof value === 'string' && /^-?\d{1,15}$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(number) || number < min) throw new ApiError('INVALID_PARAMETER', { field });
  return number;
}

/** What the asking kiosk reports of itself with its pull (docs/sync.md, "Kiosks"), if it says who it is. */
function kioskReportOf(query: Record<string, unknown>, clientId: string | undefined): KioskReport | undefined {
  if (query.deviceId === undefined) return undefined;
  const deviceId = query.deviceId;
  if (typeof deviceId !== 'string' || !clientIdPattern.test(deviceId)) {
    throw new ApiError('INVALID_PARAMETER', { field: 'deviceId' });
  }
  const appVersion = query.appVersion;
  if (appVersion !== undefined && (typeof appVersion !== 'string' || appVersion.length > 40)) {
    throw new ApiError('INVALID_PARAMETER', { field: 'appVersion' });
  }
  return {
    deviceId,
    clientId,
    appVersion,
    pending: wholeOf(query, 'pending', 0),
    oldestPendingAt: wholeOf(query, 'oldestPendingAt', 0),
    clockSkewMs: wholeOf(query, 'clockSkewMs', Number.MIN_SAFE_INTEGER),
  };
}

/** The asking kiosk's client id, if it gave one: then the page says what the hub holds of its pushes. */
function kioskClientId(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !clientIdPattern.test(value)) {
    throw new ApiError('INVALID_PARAMETER', { field: 'clientId' });
  }
  return value;
}

async function upstreamView(ctx: Context) {
  const state = await syncState(ctx);
  return { url: state.upstreamUrl, companyId: state.companyId, hasKey: state.upstreamKey !== null };
}

export function syncRoutes(ctx: Context): RouteSpec[] {
  return [
    route({
      method: 'get',
      path: '/sync/changes',
      tag,
      summary: "The company's changes after a cursor, one page at a time (a hub's change feed)",
      roles: roles.sync,
      query: changesQuery,
      response: changesPage,
      errors: ['INVALID_LIMIT_VALUE', 'INVALID_PARAMETER'],
      handle: async ({ req, caller }) => {
        const since = typeof req.query.since === 'string' ? req.query.since : undefined;
        const clientId = kioskClientId(req.query.clientId);
        const report = kioskReportOf(req.query, clientId);
        if (report) await recordKioskReport(ctx, caller, report);
        const { lastMutationId, ...page } = await readChanges(
          ctx,
          caller.companyId,
          since,
          parseLimit(req.query, changesPaging),
          { clientId },
        );
        return {
          ...page,
          hlc: await currentHlc(ctx),
          now: ctx.clock.now(),
          publicUrl: ownPublicAddress(ctx) ?? null,
          ...(clientId === undefined ? {} : { lastMutationId }),
        };
      },
    }),
    route({
      method: 'get',
      path: '/sync/pokes',
      tag,
      summary:
        "Server-sent events telling that the company's change feed moved (`event: poke`, no data of any row): pull " +
        'then. The first event is a poke; a comment every 20 s keeps the stream open',
      roles: roles.sync,
      query: pokesQuery,
      produces: ['text/event-stream'],
      errors: ['INVALID_PARAMETER', 'TOO_MANY_STREAMS'],
      handle: ({ req, res, caller }) => streamPokes(ctx, caller, kioskClientId(req.query.clientId), req, res),
    }),
    route({
      method: 'post',
      path: '/sync/push',
      tag,
      summary: "Apply a kiosk's mutations, in order, each once",
      roles: roles.sync,
      body: pushInput,
      response: pushAnswer,
      errors: ['INVALID_PARAMETER', 'SYNC_GAP', 'SYNC_ROW_MISSING'],
      handle: async ({ caller, body }) => ({
        ...(await applyPush(ctx, caller, body.clientId, body.mutations, body)),
        now: ctx.clock.now(),
      }),
    }),
    route({
      method: 'get',
      path: '/sync/rejections',
      tag,
      summary: "Kiosks' mutations this hub could not apply, kept whole, newest first",
      roles: roles.readers,
      query: changesQuery.pick({ limit: true }),
      response: rejectionsAnswer,
      errors: ['INVALID_LIMIT_VALUE'],
      handle: async ({ req, caller }) => {
        const rejections = (await syncRejections(ctx, caller.companyId, parseLimit(req.query, rejectionsPaging))).map(
          (r) => ({
            ...r,
            createdAt: formatInZone(r.createdAt, caller.timeZone),
          }),
        );
        return { rejections, size: rejections.length };
      },
    }),
    route({
      method: 'get',
      path: '/sync/status',
      tag,
      summary: 'Sync status: role, online or offline, pending mutations, last success and error',
      roles: roles.company,
      response: statusObject,
      errors: [],
      handle: async ({ caller }) => await statusOf(ctx, caller),
    }),
    route({
      method: 'post',
      path: '/sync/run',
      tag,
      summary: 'Sync now (push, then pull) and answer the status once done',
      roles: roles.staff,
      response: statusObject,
      errors: [],
      handle: async ({ caller }) => {
        // A failed sync is part of the status, not an error of this request.
        await syncAgentOf(ctx)?.runNow();
        return await statusOf(ctx, caller);
      },
    }),
    route({
      method: 'get',
      path: '/sync/upstream',
      tag,
      access: 'owner',
      summary: "The kiosk's hub (its key is never shown); the device owner's",
      response: upstreamObject,
      errors: [],
      handle: async () => await upstreamView(ctx),
    }),
    route({
      method: 'put',
      path: '/sync/upstream',
      tag,
      access: 'owner',
      summary:
        "Make this service a kiosk of the hub at `url`, for the company of `apiKey`; the device owner's (the hub " +
        'must name the company this kiosk is enrolled for, or the device must be fresh)',
      body: upstreamInput,
      response: upstreamObject,
      errors: ['INVALID_PARAMETER'],
      handle: async ({ body }) => {
        if (await configureUpstream(ctx, body)) syncAgentOf(ctx)?.wake(true);
        return await upstreamView(ctx);
      },
    }),
  ];
}
