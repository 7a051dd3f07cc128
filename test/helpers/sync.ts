import { createCompany } from '../../local-api/companies/store.ts';
import type { Context } from '../../local-api/context.ts';
import type { Caller } from '../../local-api/credentials/caller.ts';
import { insertCredential, principalForKey } from '../../local-api/credentials/store.ts';
import { applyPulledPage } from '../../local-api/sync/apply.ts';
import { readChanges } from '../../local-api/sync/feed.ts';
import { hubManagedRule, syncListener } from '../../local-api/sync/listener.ts';
import { acknowledge, pendingBatch } from '../../local-api/sync/outbox.ts';
import { applyPush, clientLastMutationId, type PushResult } from '../../local-api/sync/push.ts';
import { configureUpstream, receiveRemoteHlc, syncState } from '../../local-api/sync/state.ts';
import { manualClock, seededRandom, testContext } from './context.ts';

/** A service in this process, its sync rule and listener subscribed as `startService` does. */
export async function syncedContext(clock: Context['clock'], seed: number): Promise<Context> {
  const ctx = await testContext({ clock, random: seededRandom(seed) });
  ctx.events.addRule(hubManagedRule(ctx));
  ctx.events.subscribe(syncListener(ctx));
  return ctx;
}

export async function callerOf(ctx: Context, apiKey: string): Promise<Caller> {
  const caller = await principalForKey(ctx, apiKey);
  if (!caller || caller.role === 'owner') throw new Error('the key opens no company here');
  return caller;
}

const kioskCallers = new WeakMap<Context, Caller>();

/**
 * The admin of the hub company on a kiosk, with a key made on the kiosk (`portaria keys create`): the hub key opens
 * nothing there (docs/sync.md). The company must have arrived (a first pull).
 */
export async function kioskAdminOf(kiosk: Context, companyId: string): Promise<Caller> {
  let caller = kioskCallers.get(kiosk);
  if (caller?.companyId !== companyId) {
    caller = await callerOf(
      kiosk,
      (await insertCredential(kiosk, { companyId, role: 'admin', label: 'Local admin' })).key,
    );
    kioskCallers.set(kiosk, caller);
  }
  return caller;
}

/**
 * A hub and kiosks in one process, with the HTTP exchange replaced by direct calls and the clocks by hand-moved
 * ones: for the rules (ordering, idempotency, conflicts) without the network.
 */
export async function syncFixture(options: { kiosks?: number; pageLimit?: number } = {}) {
  const hubClock = manualClock();
  const hub = await syncedContext(hubClock, 1);
  const company = await createCompany(hub, { name: 'Acme', timezone: 'America/Sao_Paulo' });
  const hubCaller = await callerOf(hub, company.apiKey);
  const kiosks: { ctx: Context; clock: ReturnType<typeof manualClock> }[] = [];
  for (let i = 0; i < (options.kiosks ?? 1); i++) {
    const clock = manualClock();
    const ctx = await syncedContext(clock, 10 + i);
    await configureUpstream(ctx, { url: 'http://hub.test', apiKey: company.apiKey });
    kiosks.push({ ctx, clock });
  }

  async function pull(kiosk: Context): Promise<number> {
    let applied = 0;
    for (;;) {
      const since = (await syncState(kiosk)).cursor ?? undefined;
      const page = await readChanges(hub, hubCaller.companyId, since, options.pageLimit ?? 500);
      const lastMutationId = await clientLastMutationId(hub, hubCaller.companyId, (await syncState(kiosk)).clientId);
      const startOver = await applyPulledPage(kiosk, { ...page, hlc: (await syncState(hub)).hlc, lastMutationId });
      applied += page.changes.length;
      if (!page.hasMore && !startOver) return applied;
    }
  }

  async function push(kiosk: Context): Promise<PushResult | undefined> {
    const batch = await pendingBatch(kiosk, hubCaller.companyId);
    if (batch.length === 0) return undefined;
    const result = await applyPush(hub, hubCaller, (await syncState(kiosk)).clientId, batch);
    await acknowledge(kiosk, hubCaller.companyId, result.lastMutationId);
    await receiveRemoteHlc(kiosk, result.hlc);
    return result;
  }

  return { hub, hubClock, company, hubCaller, kiosks, pull, push };
}
