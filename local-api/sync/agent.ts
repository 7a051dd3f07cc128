import type { z } from 'zod';
import { type Context, inTransaction, runtimePart } from '../context.ts';
import { mayFollowCompany } from '../device.ts';
import type { NewPairing } from '../kiosks/pairing.ts';
import { newPairingAnswer, pairingSecretHeader, pairingStatusAnswer } from '../kiosks/schema.ts';
import { appVersionOf } from '../kiosks/version.ts';
import { destinationPolicy } from '../outgoing/policy.ts';
import { OutgoingError, openStream, sendRequest } from '../outgoing/request.ts';
import { retryDelay } from '../queue/retry.ts';
import { hexId } from '../rules/ids.ts';
import { shownPairingCode } from '../rules/pairing-code.ts';
import { applyPulledPage } from './apply.ts';
import { installChangeFeed, pruneTombstones } from './feed.ts';
import { clockIsOff, hubTimeOf, offsetNoiseMs } from './hub-time.ts';
import { acknowledge, batchLimits, onMutationRecorded, pendingBatch, pendingSummary } from './outbox.ts';
import { pushRefusal, resendVisits, sendsEverything } from './recovery.ts';
import { changesPage, changesPaging, pushAnswer } from './schema.ts';
import {
  configureUpstream,
  ensureSyncState,
  receiveRemoteHlc,
  syncState,
  type Upstream,
  updateSyncState,
  upstreamOf,
} from './state.ts';

/**
 * Pause between syncs while the hub answers: how soon a kiosk sees the hub's changes when no poke tells it sooner
 * (a hub without pokes, a subscription broken). `portaria serve --sync-interval` sets another.
 */
export const pollMs = 5_000;
/**
 * Longest wait for the hub to start answering a request (a hub that accepts connections and never answers, or a
 * stopped one, is noticed within it), and for a whole answer (a page over a slow link). A push that timed out is
 * sent again and recognised.
 */
export const answerDeadlineMs = 10_000;
export const requestDeadlineMs = 60_000;

/** The longest pause between tries while the hub does not answer: check-ins leave within seconds of its return. */
export const retryCapMs = 5_000;

/** The longest pause between attempts to subscribe to the hub's pokes again; polling goes on meanwhile. */
export const pokeRetryCapMs = 30_000;
/** A poke stream silent this long is dead (the hub sends a comment every 20 s: sync/poke-stream.ts). */
export const pokeIdleMs = 45_000;

/** How often a kiosk showing a pairing code asks whether it was typed in. */
export const pairingPollMs = 2_000;

/** The pairing a kiosk shows the code of, in memory: a restart asks for a new code. */
export const pairingOf = (ctx: Pick<Context, 'runtime'>) =>
  runtimePart<{ current: (NewPairing & { code: string }) | undefined }>(ctx, 'sync.pairing', () => ({
    current: undefined,
  }));

/** Largest page or push answer taken from the hub. */
const maxAnswerBytes = 64 * 2 ** 20;

/** Tombstones the hub keeps; a kiosk whose cursor is older than the ones forgotten resyncs in full. */
export const keptTombstones = 10_000;

/**
 * Readies a database for sync: the change feed's triggers, this service's sync identity, old tombstones pruned, and
 * on a kiosk the service's time set by its hub's as last measured (a kiosk restarted offline keeps the hub's time).
 */
export async function prepareSync(ctx: Pick<Context, 'db' | 'random' | 'clock' | 'runtime'>): Promise<void> {
  await installChangeFeed(ctx.db);
  await ensureSyncState(ctx);
  await pruneTombstones(ctx, keptTombstones);
  const { upstreamUrl, clockSkewMs } = await syncState(ctx);
  if (upstreamUrl !== null && clockSkewMs !== null) hubTimeOf(ctx.clock)?.adopt(clockSkewMs);
}

export type AgentState = 'hub' | 'connecting' | 'online' | 'offline';

export interface SyncAgentOptions {
  /** Pause between syncs while the hub answers; `pollMs` unless told. */
  pollMs?: number;
}

export interface SyncAgent {
  /** Syncs now, or right after the sync under way; resolves when that sync has ended (well or not). */
  runNow(): Promise<void>;
  /** Something to send (a local write) or new settings (`force`): sync soon, unless the hub is known down. */
  wake(force?: boolean): void;
  memory(): {
    state: AgentState;
    lastSuccessAt: number | null;
    lastAttemptAt: number | null;
    nextAttemptAt: number | null;
    /** Whether a poke stream from the hub is open: its changes then arrive at once, not at the next poll. */
    subscribed: boolean;
  };
  stop(): Promise<void>;
}

/** The service's sync agent, once started. */
const agentSlot = (ctx: Pick<Context, 'runtime'>) =>
  runtimePart<{ agent: SyncAgent | undefined }>(ctx, 'sync.agent', () => ({ agent: undefined }));

export const syncAgentOf = (ctx: Pick<Context, 'runtime'>): SyncAgent | undefined => agentSlot(ctx).agent;

/** A failed exchange with the hub, told in words fit for the front desk's status line (never with the key). */
export class UpstreamError extends Error {
  constructor(
    message: string,
    readonly type?: string,
    /** What the hub's error answer said besides its type (SYNC_GAP's `lastMutationId`). */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

function networkFailure(error: unknown): UpstreamError {
  if (!(error instanceof OutgoingError)) return new UpstreamError(`hub unreachable (${String(error)})`);
  if (error.kind === 'timeout')
    return new UpstreamError(`hub did not answer within ${error.message.replace(/^no answer within /, '')}`);
  if (error.kind === 'aborted') return new UpstreamError('sync stopped');
  if (error.kind === 'refused-destination') return new UpstreamError(`hub address not allowed (${error.detail})`);
  return new UpstreamError(`hub unreachable (${error.detail})`);
}

async function hubRequest<T>(
  ctx: Pick<Context, 'db' | 'runtime'>,
  upstream: Pick<Upstream, 'url'> & { apiKey?: string },
  path: string,
  schema: z.ZodType<T>,
  options: { body?: unknown; signal: AbortSignal; method?: 'GET' | 'POST'; headers?: Record<string, string> },
): Promise<T> {
  let status: number;
  let text: string;
  try {
    const response = await sendRequest(await destinationPolicy(ctx), {
      url: `${upstream.url}/v1${path}`,
      method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
      headers: {
        // A kiosk that is pairing has no credential yet (docs/sync.md, "Pairing").
        ...(upstream.apiKey === undefined ? {} : { authorization: `Bearer ${upstream.apiKey}` }),
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...options.headers,
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      headersDeadlineMs: answerDeadlineMs,
      deadlineMs: requestDeadlineMs,
      signal: options.signal,
      maxResponseBytes: maxAnswerBytes,
    });
    status = response.status;
    text = response.body;
  } catch (error) {
    throw networkFailure(error);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (status < 200 || status > 299) {
    const details = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : undefined;
    const code = typeof details?.type === 'string' ? details.type : undefined;
    throw new UpstreamError(`hub answered ${status}${code ? ` ${code}` : ''}`, code, details);
  }
  const result = schema.safeParse(parsed);
  if (!result.success) throw new UpstreamError('hub answered outside the sync protocol');
  return result.data;
}

/**
 * Reads server-sent events as they arrive and calls `onPoke` for each complete `poke` event; comments (the
 * heartbeat), `retry:` and other events are passed over. A line longer than any the hub sends is dropped.
 */
export function pokeReader(onPoke: () => void): (text: string) => void {
  let pending = '';
  let event = '';
  return (text) => {
    pending += text;
    const lines = pending.split(/\r\n|\r|\n/);
    pending = lines.pop() ?? '';
    if (pending.length > 4096) pending = '';
    for (const line of lines) {
      if (line === '') {
        if (event === 'poke') onPoke();
        event = '';
      } else if (line.startsWith('event:')) event = line.slice(6).trim();
    }
  };
}

/**
 * The kiosk's side of sync: push the outbox in bounded batches, then pull the feed page by page; again after
 * `pollMs` while the hub answers, after a growing delay with jitter while it does not. While online it also
 * holds a subscription to the hub's pokes (GET /v1/sync/pokes) and syncs at once on each; a broken subscription is
 * opened again with backoff, polling going on meanwhile. It keeps nothing that matters in memory: the outbox, the
 * cursor and the outcome live in SQLite, so a kill loses no work. One log line per change between online and
 * offline, none per retry.
 */
export async function startSyncAgent(ctx: Context, options: SyncAgentOptions = {}): Promise<SyncAgent> {
  const interval = options.pollMs ?? pollMs;
  const controller = new AbortController();
  let state: AgentState = (await syncState(ctx)).upstreamUrl !== null ? 'connecting' : 'hub';
  let attempt = 0;
  let lastAttemptAt: number | null = null;
  let nextAttemptAt: number | null = null;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let followUp: Promise<void> | undefined;
  let stopped = false;
  let clockOff = false;
  /** The poke subscription: the stream under way, the pause before the next one, and how it has gone. */
  let stream: AbortController | undefined;
  let streamRetry: NodeJS.Timeout | undefined;
  let streamAttempt = 0;
  let subscribed = false;
  let subscriptionLost = false;
  let lastSuccessAt = (await syncState(ctx)).lastSuccessAt;
  let savedSuccessAt = lastSuccessAt;
  // The offset to the hub is measured with the device's own clock, not with the time it corrects.
  const hubTime = hubTimeOf(ctx.clock);
  const device = hubTime?.device ?? ctx.clock;

  const current = async (upstream: Upstream) => {
    const now = await upstreamOf(ctx);
    return now !== undefined && now.url === upstream.url && now.apiKey === upstream.apiKey;
  };

  async function push(upstream: Upstream): Promise<void> {
    // Each at most once a run: a hub that keeps refusing is an error to report, not a loop.
    let rotated = false;
    let recovered = false;
    for (;;) {
      const { companyId, clientId, confirmedMutationId } = await syncState(ctx);
      if (!companyId || stopped) return;
      const batch = await pendingBatch(ctx, companyId, batchLimits);
      const first = batch[0];
      if (!first) return;
      let answer: z.output<typeof pushAnswer>;
      try {
        answer = await hubRequest(ctx, upstream, '/sync/push', pushAnswer, {
          body: { clientId, confirmedMutationId, resent: sendsEverything(ctx, clientId, first.id), mutations: batch },
          signal: controller.signal,
        });
      } catch (error) {
        const refusal = error instanceof UpstreamError ? pushRefusal(await syncState(ctx), error) : undefined;
        if (refusal === 'renumbered' && !rotated) {
          // This kiosk was restored from a backup: go on as a new client (see applyPush).
          rotated = true;
          await updateSyncState(ctx, { clientId: hexId(ctx.random, 16), confirmedMutationId: 0 });
          ctx.log.warn(
            { upstream: upstream.url },
            'sync: mutation ids out of step with the hub (a database restored from a backup); new client id',
          );
          continue;
        }
        if (refusal !== undefined && refusal !== 'renumbered' && !recovered) {
          // The hub lost what it had confirmed: everything this kiosk holds goes again, check-ins first.
          recovered = true;
          await inTransaction(ctx, async () => await resendVisits(ctx, companyId, refusal));
          continue;
        }
        throw error;
      }
      if (answer.lastMutationId < first.id) throw new UpstreamError('hub confirmed none of the batch');
      const rejected = answer.results.filter((r) => r.result === 'rejected');
      await inTransaction(ctx, async () => {
        await acknowledge(ctx, companyId, answer.lastMutationId);
        await receiveRemoteHlc(ctx, answer.hlc);
        if (rejected.length > 0)
          await updateSyncState(ctx, { rejected: (await syncState(ctx)).rejected + rejected.length });
      });
      for (const r of rejected) ctx.log.warn({ mutationId: r.id, type: r.type }, 'sync: the hub rejected a mutation');
    }
  }

  async function pull(upstream: Upstream): Promise<void> {
    for (;;) {
      const { cursor, clientId, deviceId, clockSkewMs: measured } = await syncState(ctx);
      const { pending, oldestPendingAt } = await pendingSummary(ctx);
      const appVersion = appVersionOf(ctx);
      // With each pull the kiosk says how it stands, for the hub's console (docs/sync.md, "Kiosks").
      const query = new URLSearchParams({
        limit: String(changesPaging.defaultLimit),
        clientId,
        ...(cursor ? { since: cursor } : {}),
        deviceId,
        pending: String(pending),
        ...(oldestPendingAt === null ? {} : { oldestPendingAt: String(oldestPendingAt) }),
        ...(measured === null ? {} : { clockSkewMs: String(Math.round(measured)) }),
        ...(appVersion === undefined ? {} : { appVersion }),
      });
      const sentAt = device.now();
      const page = await hubRequest(ctx, upstream, `/sync/changes?${query}`, changesPage, {
        signal: controller.signal,
      });
      // Settings changed while the page travelled: it belongs to the old upstream.
      if (stopped || !(await current(upstream))) return;
      if (!(await mayFollowCompany(ctx, page.companyId))) {
        throw new UpstreamError(`hub names company ${page.companyId}, not the company this kiosk is enrolled for`);
      }
      const clockSkewMs = page.now - Math.round((sentAt + device.now()) / 2);
      const startOver = await applyPulledPage(ctx, page);
      await observeClock(clockSkewMs);
      await observePublicAddress(page.publicUrl);
      if (!page.hasMore && !startOver) return;
    }
  }

  /** Keeps the service on the hub's time; saves the offset for the status when it moved past noise. */
  async function observeClock(clockSkewMs: number): Promise<void> {
    hubTime?.adopt(clockSkewMs);
    const saved = (await syncState(ctx)).clockSkewMs;
    if (saved === null || Math.abs(clockSkewMs - saved) > offsetNoiseMs) await updateSyncState(ctx, { clockSkewMs });
    if (clockOff !== clockIsOff(clockSkewMs)) {
      clockOff = !clockOff;
      if (clockOff) ctx.log.warn({ clockSkewMs }, "sync: this clock is off from the hub's; the hub's time is used");
      else ctx.log.info({ clockSkewMs }, "sync: this clock agrees with the hub's again");
    }
  }

  /** Keeps the hub's public address for links in messages; a hub older than public addresses says nothing. */
  async function observePublicAddress(publicUrl: string | null | undefined): Promise<void> {
    if (publicUrl === undefined) return;
    if ((await syncState(ctx)).hubPublicUrl !== publicUrl) await updateSyncState(ctx, { hubPublicUrl: publicUrl });
  }

  function schedule(delay: number): void {
    clearTimeout(timer);
    if (stopped) return;
    nextAttemptAt = ctx.clock.now() + delay;
    timer = setTimeout(() => void run(), delay);
    timer.unref();
  }

  async function settle(upstream: Upstream, error: unknown): Promise<void> {
    const now = ctx.clock.now();
    if (error === undefined) {
      attempt = 0;
      lastSuccessAt = now;
      // An idle kiosk succeeds every few seconds: the time is saved once a minute and on each return online,
      // sparing kiosks that run on flash storage a write per poll.
      if (state !== 'online' || savedSuccessAt === null || now - savedSuccessAt >= 60_000) {
        // The error is history once the hub answers again.
        await updateSyncState(ctx, { lastSuccessAt: now, lastError: null, lastErrorAt: null });
        savedSuccessAt = now;
      }
      if (state !== 'online') ctx.log.info({ upstream: upstream.url, ...(await pendingSummary(ctx)) }, 'sync online');
      state = 'online';
      schedule(interval);
      subscribe(upstream);
      return;
    }
    const expected = error instanceof UpstreamError;
    const message = expected ? error.message : `sync failed: ${String(error)}`;
    await updateSyncState(ctx, { lastError: message, lastErrorAt: now });
    if (state !== 'offline') {
      ctx.log.warn({ upstream: upstream.url, error: message, ...(expected ? {} : { err: error }) }, 'sync offline');
    }
    state = 'offline';
    schedule(retryDelay(attempt++, ctx.random, retryCapMs));
  }

  /**
   * A kiosk pointed at a hub without a key asks it for a pairing code, shows it, and asks until an administrator
   * typed it in (the hub then hands over the kiosk's credential) or it expired (a new one then).
   */
  async function pair(url: string): Promise<void> {
    if (state === 'hub') state = 'connecting';
    lastAttemptAt = ctx.clock.now();
    nextAttemptAt = null;
    const pairing = pairingOf(ctx);
    try {
      const { deviceId } = await syncState(ctx);
      if (!pairing.current || pairing.current.expiresAt <= ctx.clock.now()) {
        const opened = await hubRequest(ctx, { url }, `/kiosks/pairing?deviceId=${deviceId}`, newPairingAnswer, {
          method: 'POST',
          signal: controller.signal,
        });
        pairing.current = { ...opened, expiresAt: Date.parse(opened.expiresAt) };
        ctx.log.info({ upstream: url, code: shownPairingCode(opened.code) }, 'sync: pairing code for the hub');
      }
      const { pairingId, secret } = pairing.current;
      const answer = await hubRequest(ctx, { url }, `/kiosks/pairing/${pairingId}`, pairingStatusAnswer, {
        headers: { [pairingSecretHeader]: secret },
        signal: controller.signal,
      });
      if (stopped) return;
      if (answer.status === 'expired') pairing.current = undefined;
      if (answer.status === 'paired' && answer.apiKey) {
        pairing.current = undefined;
        await configureUpstream(ctx, { url, apiKey: answer.apiKey });
        ctx.log.info({ upstream: url, companyId: answer.companyId }, 'sync: paired with the hub');
        schedule(0);
        return;
      }
      attempt = 0;
      schedule(pairingPollMs);
    } catch (error) {
      if (error instanceof UpstreamError && error.type === 'NOT_FOUND') pairing.current = undefined;
      const message = error instanceof UpstreamError ? error.message : `pairing failed: ${String(error)}`;
      await updateSyncState(ctx, { lastError: message, lastErrorAt: ctx.clock.now() });
      state = 'offline';
      schedule(retryDelay(attempt++, ctx.random, retryCapMs));
    }
  }

  async function attemptSync(): Promise<void> {
    const upstream = await upstreamOf(ctx);
    if (!upstream) {
      const { upstreamUrl } = await syncState(ctx);
      if (upstreamUrl !== null) return await pair(upstreamUrl);
      state = 'hub';
      nextAttemptAt = null;
      return;
    }
    if (state === 'hub') state = 'connecting';
    lastAttemptAt = ctx.clock.now();
    nextAttemptAt = null;
    let failure: unknown;
    try {
      await push(upstream);
      await pull(upstream);
    } catch (error) {
      failure = error;
    }
    if (!stopped) await settle(upstream, failure);
  }

  /** Holds one poke stream open to the hub; each poke syncs now (after the sync under way, never beside it). */
  async function listen(upstream: Upstream, own: AbortController): Promise<void> {
    const opened = await openStream(await destinationPolicy(ctx), {
      url: `${upstream.url}/v1/sync/pokes?clientId=${(await syncState(ctx)).clientId}`,
      headers: { authorization: `Bearer ${upstream.apiKey}`, accept: 'text/event-stream' },
      headersDeadlineMs: answerDeadlineMs,
      idleMs: pokeIdleMs,
      signal: own.signal,
    }).catch((error: unknown) => {
      throw networkFailure(error);
    });
    if (opened.status !== 200 || !String(opened.headers['content-type']).startsWith('text/event-stream')) {
      opened.close();
      throw new UpstreamError(`hub answered ${opened.status} to the poke subscription`);
    }
    if (stream !== own) return opened.close();
    subscribed = true;
    if (subscriptionLost) ctx.log.info({ upstream: upstream.url }, 'sync pokes subscribed again');
    subscriptionLost = false;
    opened.onData(pokeReader(() => void run()));
    await opened.ended;
  }

  /**
   * Opens the poke subscription to the hub a sync just reached, unless one is open or waiting to be opened again (a
   * new hub ends both first: `wake(true)`).
   */
  function subscribe(upstream: Upstream): void {
    if (stopped || stream || streamRetry) return;
    const own = new AbortController();
    stream = own;
    const openedAt = device.now();
    listen(upstream, own).then(
      () => resubscribe(upstream, own, openedAt, new UpstreamError('the hub ended the poke stream')),
      (error: unknown) => resubscribe(upstream, own, openedAt, error),
    );
  }

  /** After a stream ended: again after a pause (growing while streams keep breaking at once), unless replaced. */
  function resubscribe(upstream: Upstream, own: AbortController, openedAt: number, error: unknown): void {
    // Ended by `unsubscribe` (stopping, or a new hub whose stream may be open already): nothing more to do.
    if (stream !== own) return;
    stream = undefined;
    subscribed = false;
    if (stopped) return;
    if (!subscriptionLost) {
      const message = error instanceof UpstreamError ? error.message : String(error);
      ctx.log.warn({ error: message }, 'sync pokes lost; polling meanwhile');
      subscriptionLost = true;
    }
    // A stream that lived a while broke by accident; one cut at once (a proxy that ends long answers) backs off.
    if (device.now() - openedAt >= pokeRetryCapMs) streamAttempt = 0;
    streamRetry = setTimeout(
      () => {
        streamRetry = undefined;
        subscribe(upstream);
      },
      retryDelay(streamAttempt++, ctx.random, pokeRetryCapMs),
    );
    streamRetry.unref();
  }

  /** Ends the subscription (the agent stopping, or a new hub: the next sync that succeeds subscribes there). */
  function unsubscribe(): void {
    stream?.abort();
    stream = undefined;
    subscribed = false;
    clearTimeout(streamRetry);
    streamRetry = undefined;
    streamAttempt = 0;
  }

  function run(): Promise<void> {
    if (stopped) return Promise.resolve();
    if (!running) {
      clearTimeout(timer);
      running = attemptSync()
        .catch((error: unknown) => ctx.log.error({ err: error }, 'sync run failed'))
        .finally(() => {
          running = undefined;
        });
      return running;
    }
    // Another sync after the one under way (a write may have missed it), unless that one failed: the next try
    // is scheduled, and a manual run does not wait for the hub twice.
    followUp ??= running.then(() => {
      followUp = undefined;
      return state === 'offline' ? undefined : run();
    });
    return followUp;
  }

  const agent: SyncAgent = {
    runNow: run,
    wake(force = false) {
      if (force) unsubscribe();
      if (force || state === 'online') void run();
    },
    memory: () => ({ state, lastSuccessAt, lastAttemptAt, nextAttemptAt, subscribed }),
    async stop() {
      stopped = true;
      clearTimeout(timer);
      unsubscribe();
      controller.abort();
      onMutationRecorded(ctx, undefined);
      agentSlot(ctx).agent = undefined;
      await running;
    },
  };
  agentSlot(ctx).agent = agent;
  onMutationRecorded(ctx, () => agent.wake());
  if (state !== 'hub') void run();
  return agent;
}
