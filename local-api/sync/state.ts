import { type Context, onceBeforeCommit, runtimePart } from '../context.ts';
import { revokeKey } from '../credentials/store.ts';
import { hexId } from '../rules/ids.ts';
import { prepared } from '../store/rows.ts';
import { compareHlc, formatHlc, type Hlc, parseHlc, receiveHlc, tickHlc, zeroHlc } from './hlc.ts';

/** The `sync_state` row: this service's sync identity and, on a kiosk, its upstream and progress. */
export interface SyncState {
  nodeId: string;
  clientId: string;
  hlc: string;
  horizon: number;
  upstreamUrl: string | null;
  /** Sealed. */
  upstreamKey: string | null;
  companyId: string | null;
  cursor: string | null;
  resyncing: number;
  lastSuccessAt: number | null;
  lastError: string | null;
  lastErrorAt: number | null;
  rejected: number;
  clockSkewMs: number | null;
  /** The last mutation id the hub confirmed for `clientId`: a hub that later knows less has lost writes. */
  confirmedMutationId: number;
  /** The hub's public address, as its feed last said (links in messages point there). */
  hubPublicUrl: string | null;
  /** This device's name in its reports to its hub (docs/sync.md, "Kiosks"); a restore keeps it (migration 0032). */
  deviceId: string;
}

/** Creates the row on a new database; ids come from the context's randomness. */
export async function ensureSyncState(ctx: Pick<Context, 'db' | 'random'>): Promise<void> {
  const nodeId = hexId(ctx.random, 16);
  await prepared(
    ctx.db,
    'INSERT INTO sync_state (id, nodeId, clientId, hlc, deviceId) VALUES (1, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING',
  ).run(nodeId, hexId(ctx.random, 16), formatHlc(zeroHlc(nodeId)), nodeId);
}

/**
 * The sync identity a database takes when it is restored from a backup: a new node id, its clock kept. The node id
 * names the feed in its kiosks' cursors: a restored hub's feed is another one than the one they followed, even once
 * it has grown past their positions, so each starts it over and sends again what it holds (recovery.ts).
 */
export function renewedIdentity(hlc: string, nodeId: string): { nodeId: string; hlc: string } {
  return { nodeId, hlc: formatHlc({ ...(parseHlc(hlc) ?? zeroHlc(nodeId)), node: nodeId }) };
}

export async function syncState(ctx: Pick<Context, 'db'>): Promise<SyncState> {
  return (await prepared(ctx.db, 'SELECT * FROM sync_state WHERE id = 1').get()) as SyncState;
}

type StateChange = Partial<Omit<SyncState, 'nodeId'>>;

export async function updateSyncState(ctx: Pick<Context, 'db'>, change: StateChange): Promise<void> {
  const columns = Object.keys(change);
  if (columns.length === 0) return;
  await prepared(ctx.db, `UPDATE sync_state SET ${columns.map((c) => `${c} = :${c}`).join(', ')} WHERE id = 1`).run(
    change,
  );
}

/**
 * How far ahead of the timestamps it has used a service stores its clock: it writes `sync_state.hlc` once per this
 * much time at most, not once per write (every hub process would otherwise write that one row for every push).
 */
export const clockLeaseMs = 10_000;

/**
 * The hybrid logical clock, in memory: each process keeps its own and ticks it without the database. The stored
 * clock (`sync_state.hlc`) is a bound the process keeps ahead of every timestamp it used, raised in the transaction
 * that first passes it; a process starts its clock at the stored bound, so the clock never goes back across
 * restarts, and processes sharing a database start past each other's timestamps.
 */
interface SyncClock {
  last: Hlc;
  /** The bound committed in `sync_state.hlc`, as this process knows it. */
  stored: Hlc;
}

async function loadClock(ctx: Pick<Context, 'db'>): Promise<SyncClock> {
  const state = (await prepared(ctx.db, 'SELECT nodeId, hlc FROM sync_state WHERE id = 1').get()) as
    | Pick<SyncState, 'nodeId' | 'hlc'>
    | undefined;
  const node = state?.nodeId ?? 'unknown';
  const stored = (state && parseHlc(state.hlc)) ?? zeroHlc(node);
  return { last: { ...stored, node }, stored: { ...stored, node } };
}

/** The clock, read from the database the first time the process needs it. */
const syncClock = (ctx: Pick<Context, 'db' | 'runtime'>): Promise<SyncClock> =>
  runtimePart(ctx, 'sync.clock', () => loadClock(ctx));

const later = (a: Hlc, b: Hlc) => (compareHlc(formatHlc(a), formatHlc(b)) >= 0 ? a : b);

/** Keeps the stored bound ahead of the clock: raised (by one statement) when the clock passes it. */
async function keepBound(ctx: Pick<Context, 'db' | 'clock' | 'runtime'>, clock: SyncClock): Promise<void> {
  if (compareHlc(formatHlc(clock.last), formatHlc(clock.stored)) <= 0) return;
  const raise = async () => {
    const bound: Hlc = {
      wallMs: Math.max(clock.last.wallMs, ctx.clock.now()) + clockLeaseMs,
      counter: 0,
      node: clock.last.node,
    };
    const text = formatHlc(bound);
    // Another process sharing the database may have raised it further: the bound only goes up.
    await prepared(ctx.db, 'UPDATE sync_state SET hlc = ? WHERE id = 1 AND hlc < ?').run(text, text);
    return bound;
  };
  let raised: Hlc | undefined;
  // In a transaction the bound commits with the timestamps it covers (raised once, at its end, past all of them),
  // and counts once it has committed.
  const added = onceBeforeCommit(ctx, 'sync.clock', async () => {
    raised = await raise();
  });
  if (added === undefined) {
    // Outside one of `inTransaction`'s: raised now, counted once whatever transaction holds it has committed.
    const bound = await raise();
    await ctx.db.afterCommit(() => {
      clock.stored = later(clock.stored, bound);
    });
    return;
  }
  if (added) {
    await ctx.db.afterCommit(() => {
      if (raised) clock.stored = later(clock.stored, raised);
    });
  }
}

/** The clock now, as this service answers it to others (a page, a push's answer). */
export async function currentHlc(ctx: Pick<Context, 'db' | 'runtime'>): Promise<string> {
  return formatHlc((await syncClock(ctx)).last);
}

/** The timestamp of a local write (call inside its transaction: the clock's bound is kept with it). */
export async function nextHlc(ctx: Pick<Context, 'db' | 'clock' | 'runtime'>): Promise<string> {
  const clock = await syncClock(ctx);
  clock.last = tickHlc(clock.last, ctx.clock.now());
  const issued = formatHlc(clock.last);
  await keepBound(ctx, clock);
  return issued;
}

/** Advances the clock past a timestamp received from another service. */
export async function receiveRemoteHlc(ctx: Pick<Context, 'db' | 'clock' | 'runtime'>, remote: string): Promise<void> {
  const parsed = parseHlc(remote);
  if (!parsed) return;
  const clock = await syncClock(ctx);
  clock.last = receiveHlc(clock.last, parsed, ctx.clock.now());
  await keepBound(ctx, clock);
}

export interface Upstream {
  url: string;
  apiKey: string;
  /** Known once the hub has answered. */
  companyId: string | null;
}

export async function upstreamOf(ctx: Pick<Context, 'db' | 'secrets'>): Promise<Upstream | undefined> {
  const state = await syncState(ctx);
  if (!state.upstreamUrl || !state.upstreamKey) return undefined;
  return { url: state.upstreamUrl, apiKey: ctx.secrets.open(state.upstreamKey), companyId: state.companyId };
}

/**
 * Points this service at a hub, making it a kiosk. A new key starts the feed over (it may be another company's).
 * The same URL and key change nothing, so a kiosk restarted with its flags keeps its place in the feed.
 */
export async function configureUpstream(ctx: Context, input: { url: string; apiKey: string }): Promise<boolean> {
  const url = input.url.replace(/\/+$/, '');
  const current = await upstreamOf(ctx);
  if (current && current.url === url && current.apiKey === input.apiKey) return false;
  await ctx.db.transaction(async () => {
    const keyChanged = current?.apiKey !== input.apiKey;
    await updateSyncState(ctx, {
      upstreamUrl: url,
      upstreamKey: ctx.secrets.seal(input.apiKey),
      ...(keyChanged ? { companyId: null, cursor: null, resyncing: 0 } : {}),
      lastError: null,
      lastErrorAt: null,
    });
  });
  ctx.log.info({ upstream: url }, 'sync upstream set');
  return true;
}

/**
 * Points a fresh service at a hub without a key: it becomes a kiosk that shows a pairing code until an
 * administrator types it in at the hub (docs/sync.md, "Pairing"). A service that holds a key for that hub already
 * keeps it.
 */
export async function awaitPairing(ctx: Context, url: string): Promise<boolean> {
  const hub = url.replace(/\/+$/, '');
  const state = await syncState(ctx);
  if (state.upstreamUrl === hub) return false;
  await updateSyncState(ctx, {
    upstreamUrl: hub,
    upstreamKey: null,
    companyId: null,
    cursor: null,
    resyncing: 0,
    lastError: null,
    lastErrorAt: null,
  });
  ctx.log.info({ upstream: hub }, 'sync upstream set; pairing');
  return true;
}

/**
 * The hub key opens nothing on the kiosk, which holds it only to reach the hub (docs/sync.md): a kiosk made before
 * this rule stored it as a local admin credential, revoked here when the service starts.
 */
export async function refuseUpstreamKeyLocally(ctx: Context): Promise<void> {
  const upstream = await upstreamOf(ctx);
  if (upstream) await revokeKey(ctx, upstream.apiKey);
}
