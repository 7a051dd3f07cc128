import { afterCommit, beforeCommit, type Context, runtimePart } from '../context.ts';
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
}

/** Creates the row on a new database; ids come from the context's randomness. */
export function ensureSyncState(ctx: Pick<Context, 'db' | 'random'>): void {
  const nodeId = hexId(ctx.random, 16);
  prepared(
    ctx.db,
    'INSERT INTO sync_state (id, nodeId, clientId, hlc) VALUES (1, ?, ?, ?) ON CONFLICT (id) DO NOTHING',
  ).run(nodeId, hexId(ctx.random, 16), formatHlc(zeroHlc(nodeId)));
}

/**
 * The sync identity a database takes when it is restored from a backup: a new node id, its clock kept. The node id
 * names the feed in its kiosks' cursors: a restored hub's feed is another one than the one they followed, even once
 * it has grown past their positions, so each starts it over and sends again what it holds (recovery.ts).
 */
export function renewedIdentity(hlc: string, nodeId: string): { nodeId: string; hlc: string } {
  return { nodeId, hlc: formatHlc({ ...(parseHlc(hlc) ?? zeroHlc(nodeId)), node: nodeId }) };
}

export function syncState(ctx: Pick<Context, 'db'>): SyncState {
  return prepared(ctx.db, 'SELECT * FROM sync_state WHERE id = 1').get() as SyncState;
}

type StateChange = Partial<Omit<SyncState, 'nodeId'>>;

export function updateSyncState(ctx: Pick<Context, 'db'>, change: StateChange): void {
  const columns = Object.keys(change);
  if (columns.length === 0) return;
  prepared(ctx.db, `UPDATE sync_state SET ${columns.map((c) => `${c} = :${c}`).join(', ')} WHERE id = 1`).run(change);
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

function syncClock(ctx: Pick<Context, 'db' | 'runtime'>): SyncClock {
  return runtimePart(ctx, 'sync.clock', () => {
    const state = prepared(ctx.db, 'SELECT nodeId, hlc FROM sync_state WHERE id = 1').get() as
      | Pick<SyncState, 'nodeId' | 'hlc'>
      | undefined;
    const node = state?.nodeId ?? 'unknown';
    const stored = (state && parseHlc(state.hlc)) ?? zeroHlc(node);
    return { last: { ...stored, node }, stored: { ...stored, node } };
  });
}

const later = (a: Hlc, b: Hlc) => (compareHlc(formatHlc(a), formatHlc(b)) >= 0 ? a : b);

/** Keeps the stored bound ahead of the clock: raised (by one statement) when the clock passes it. */
function keepBound(ctx: Pick<Context, 'db' | 'clock' | 'runtime'>, clock: SyncClock): void {
  if (compareHlc(formatHlc(clock.last), formatHlc(clock.stored)) <= 0) return;
  const raise = () => {
    const bound: Hlc = {
      wallMs: Math.max(clock.last.wallMs, ctx.clock.now()) + clockLeaseMs,
      counter: 0,
      node: clock.last.node,
    };
    const text = formatHlc(bound);
    // Another process sharing the database may have raised it further: the bound only goes up.
    prepared(ctx.db, 'UPDATE sync_state SET hlc = ? WHERE id = 1 AND hlc < ?').run(text, text);
    return bound;
  };
  let raised: Hlc | undefined;
  // In a transaction the bound commits with the timestamps it covers, and counts once it has committed.
  const inside = beforeCommit(ctx, 'sync.clock', () => {
    raised = raise();
  });
  if (!inside) {
    clock.stored = later(clock.stored, raise());
    return;
  }
  afterCommit(ctx, 'sync.clock', () => {
    if (raised) clock.stored = later(clock.stored, raised);
  });
}

/** The clock now, as this service answers it to others (a page, a push's answer). */
export function currentHlc(ctx: Pick<Context, 'db' | 'runtime'>): string {
  return formatHlc(syncClock(ctx).last);
}

/** The timestamp of a local write (call inside its transaction: the clock's bound is kept with it). */
export function nextHlc(ctx: Pick<Context, 'db' | 'clock' | 'runtime'>): string {
  const clock = syncClock(ctx);
  clock.last = tickHlc(clock.last, ctx.clock.now());
  keepBound(ctx, clock);
  return formatHlc(clock.last);
}

/** Advances the clock past a timestamp received from another service. */
export function receiveRemoteHlc(ctx: Pick<Context, 'db' | 'clock' | 'runtime'>, remote: string): void {
  const parsed = parseHlc(remote);
  if (!parsed) return;
  const clock = syncClock(ctx);
  clock.last = receiveHlc(clock.last, parsed, ctx.clock.now());
  keepBound(ctx, clock);
}

export interface Upstream {
  url: string;
  apiKey: string;
  /** Known once the hub has answered. */
  companyId: string | null;
}

export function upstreamOf(ctx: Pick<Context, 'db' | 'secrets'>): Upstream | undefined {
  const state = syncState(ctx);
  if (!state.upstreamUrl || !state.upstreamKey) return undefined;
  return { url: state.upstreamUrl, apiKey: ctx.secrets.open(state.upstreamKey), companyId: state.companyId };
}

/**
 * Points this service at a hub, making it a kiosk. A new key starts the feed over (it may be another company's).
 * The same URL and key change nothing, so a kiosk restarted with its flags keeps its place in the feed.
 */
export function configureUpstream(ctx: Context, input: { url: string; apiKey: string }): boolean {
  const url = input.url.replace(/\/+$/, '');
  const current = upstreamOf(ctx);
  if (current && current.url === url && current.apiKey === input.apiKey) return false;
  ctx.db
    .transaction(() => {
      const keyChanged = current?.apiKey !== input.apiKey;
      updateSyncState(ctx, {
        upstreamUrl: url,
        upstreamKey: ctx.secrets.seal(input.apiKey),
        ...(keyChanged ? { companyId: null, cursor: null, resyncing: 0 } : {}),
        lastError: null,
        lastErrorAt: null,
      });
    })
    .immediate();
  ctx.log.info({ upstream: url }, 'sync upstream set');
  return true;
}

/**
 * The hub key opens nothing on the kiosk, which holds it only to reach the hub (docs/sync.md): a kiosk made before
 * this rule stored it as a local admin credential, revoked here when the service starts.
 */
export function refuseUpstreamKeyLocally(ctx: Context): void {
  const upstream = upstreamOf(ctx);
  if (upstream) revokeKey(ctx, upstream.apiKey);
}
