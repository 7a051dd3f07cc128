/**
 * The hub's side of pokes in one process (docs/sync.md, "Pokes"): a SQLite hub tells its subscribers of a company
 * once that company's feed moved and its write committed, never another company's subscribers; a burst of writes
 * is coalesced; the caps per credential and per company hold.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { createCompany } from '../../local-api/companies/store.ts';
import { createHost } from '../../local-api/hosts/store.ts';
import { ApiError } from '../../local-api/http/errors.ts';
import { createLogger } from '../../local-api/log.ts';
import { createPokes, type PokeSubscriber, pokeLimits } from '../../local-api/sync/pokes.ts';
import { seededRandom, testContext } from '../helpers/context.ts';
import { callerOf } from '../helpers/sync.ts';

const ctx = await testContext();
after(async () => {
  await ctx.pokes.close();
  await ctx.db.close();
});

const acme = await createCompany(ctx, { name: 'Acme' });
const beta = await createCompany(ctx, { name: 'Beta' });
const acmeAdmin = await callerOf(ctx, acme.apiKey);
const betaAdmin = await callerOf(ctx, beta.apiKey);

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A subscriber that counts its pokes. */
function counter(kiosk = 'kiosk-1') {
  const seen = { pokes: 0, ended: false };
  const subscriber: PokeSubscriber = {
    kiosk,
    poke: () => {
      seen.pokes++;
    },
    end: () => {
      seen.ended = true;
    },
  };
  return { seen, subscriber };
}

async function until(what: string, check: () => boolean): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await settle(5);
  }
}

test("a write pokes its company's subscribers once committed, and no other company's", async () => {
  const acmeKiosk = counter();
  const betaKiosk = counter();
  const stopAcme = ctx.pokes.subscribe(acme.id, acmeKiosk.subscriber);
  const stopBeta = ctx.pokes.subscribe(beta.id, betaKiosk.subscriber);
  // A transaction held open: its write is not readable yet, so nobody is told to pull it.
  let commit = () => {};
  const held = new Promise<void>((resolve) => {
    commit = resolve;
  });
  const writing = ctx.db.transaction(async () => {
    await createHost(ctx, acmeAdmin, { name: 'Ana', email: 'ana@acme.test' });
    await held;
  });
  try {
    await settle(100);
    assert.equal(acmeKiosk.seen.pokes, 0, 'told before the commit');
    commit();
    await writing;
    await until('the poke after the commit', () => acmeKiosk.seen.pokes === 1);
    await settle(100);
    assert.equal(betaKiosk.seen.pokes, 0, "another company's write reached Beta's subscriber");
  } finally {
    commit();
    await writing;
    stopAcme();
    stopBeta();
  }
});

test('a burst of writes is one poke at once and one at the end of the window', async () => {
  const kiosk = counter();
  const stop = ctx.pokes.subscribe(beta.id, kiosk.subscriber);
  try {
    for (let i = 0; i < 20; i++) {
      await createHost(ctx, betaAdmin, { name: `Host ${i}`, email: `host${i}@beta.test` });
    }
    await until('the first poke', () => kiosk.seen.pokes >= 1);
    await settle(200);
    assert.ok(kiosk.seen.pokes <= 3, `${kiosk.seen.pokes} pokes for one burst`);
  } finally {
    stop();
  }
});

test("a kiosk's streams past its cap end its oldest; a company's past its cap are refused", async () => {
  const other = await testContext();
  const pokes = createPokes(
    { sqlite: other.db },
    {
      log: createLogger('silent'),
      random: seededRandom(),
      limits: { ...pokeLimits, perKiosk: 2, perCompany: 3 },
    },
  );
  try {
    const first = counter('kiosk-1');
    const second = counter('kiosk-1');
    const third = counter('kiosk-1');
    pokes.subscribe(acme.id, first.subscriber);
    pokes.subscribe(acme.id, second.subscriber);
    pokes.subscribe(acme.id, third.subscriber);
    assert.deepEqual(
      [first.seen.ended, second.seen.ended, third.seen.ended],
      [true, false, false],
      'the oldest stream of the kiosk makes room',
    );
    pokes.subscribe(acme.id, counter('kiosk-2').subscriber);
    assert.throws(
      () => pokes.subscribe(acme.id, counter('kiosk-3').subscriber),
      (error) => error instanceof ApiError && error.type === 'TOO_MANY_STREAMS',
    );
    // Another company's streams are counted apart.
    pokes.subscribe(beta.id, counter('kiosk-3').subscriber);
  } finally {
    await pokes.close();
    await other.pokes.close();
    await other.db.close();
  }
});
