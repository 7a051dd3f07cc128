import type { Context } from '../context.ts';
import { revokeKey } from '../credentials/store.ts';
import { hexId } from '../rules/ids.ts';
import { prepared } from '../store/rows.ts';
import { formatHlc, parseHlc, receiveHlc, tickHlc, zeroHlc } from './hlc.ts';

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
export async function ensureSyncState(ctx: Pick<Context, 'db' | 'random'>): Promise<void> {
  const nodeId = hexId(ctx.random, 16);
  await prepared(
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

function storedHlc(state: SyncState) {
  return parseHlc(state.hlc) ?? zeroHlc(state.nodeId);
}

/** The timestamp of a local write; the clock is saved with the write (call inside its transaction). */
export async function nextHlc(ctx: Pick<Context, 'db' | 'clock'>): Promise<string> {
  const next = formatHlc(tickHlc(storedHlc(await syncState(ctx)), ctx.clock.now()));
  await updateSyncState(ctx, { hlc: next });
  return next;
}

/** Advances the clock past a timestamp received from another service. */
export async function receiveRemoteHlc(ctx: Pick<Context, 'db' | 'clock'>, remote: string): Promise<void> {
  const parsed = parseHlc(remote);
  if (!parsed) return;
  const state = await syncState(ctx);
  await updateSyncState(ctx, { hlc: formatHlc(receiveHlc(storedHlc(state), parsed, ctx.clock.now())) });
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
 * The hub key opens nothing on the kiosk, which holds it only to reach the hub (docs/sync.md): a kiosk made before
 * this rule stored it as a local admin credential, revoked here when the service starts.
 */
export async function refuseUpstreamKeyLocally(ctx: Context): Promise<void> {
  const upstream = await upstreamOf(ctx);
  if (upstream) await revokeKey(ctx, upstream.apiKey);
}
