import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { basename, join } from 'node:path';
import { test } from 'node:test';
import { createApp } from '../../local-api/app.ts';
import { createCompany } from '../../local-api/companies/store.ts';
import type { Caller } from '../../local-api/credentials/caller.ts';
import { decodePicture, fileUrls, inTransactionWithFiles } from '../../local-api/files/store.ts';
import { manualClock, seededRandom, testContext } from '../helpers/context.ts';
import { pngBytes } from '../helpers/files.ts';

async function setup() {
  const clock = manualClock();
  const ctx = await testContext({ clock, random: seededRandom(3) });
  const company = await createCompany(ctx, { name: 'Acme', timezone: 'UTC' });
  const caller: Caller = { companyId: company.id, timeZone: 'UTC', lang: 'en', role: 'admin', credentialId: 'test' };
  const filesOf = () => {
    const dir = join(ctx.dataDir, 'files', company.id);
    return existsSync(dir) ? readdirSync(dir) : [];
  };
  const upload = decodePicture(pngBytes().toString('base64'), 'visitPicture', 'visit-picture');
  return { clock, ctx, caller, filesOf, upload };
}

test('a write that fails after saving a file leaves neither the file nor its row', async () => {
  const { ctx, caller, filesOf, upload } = await setup();
  await assert.rejects(
    async () =>
      await inTransactionWithFiles(ctx, caller, async (files) => {
        await files.save(upload);
        assert.equal(filesOf().length, 1, 'written before the commit');
        throw new Error('the check-in failed after the file was written');
      }),
    /failed after/,
  );
  assert.deepEqual(filesOf(), []);
  assert.deepEqual(await ctx.db.prepare('SELECT COUNT(*) AS n FROM files').get(), { n: 0 });
});

test('a retired file is removed once the write commits, and kept when it rolls back', async () => {
  const { ctx, caller, filesOf, upload } = await setup();
  const name = await inTransactionWithFiles(ctx, caller, async (files) => await files.save(upload));
  assert.deepEqual(filesOf(), [basename(name)]);
  await assert.rejects(
    async () =>
      await inTransactionWithFiles(ctx, caller, async (files) => {
        await files.retire(name);
        throw new Error('rolled back');
      }),
  );
  assert.deepEqual(filesOf(), [basename(name)], 'the rolled-back write still owns it');
  await inTransactionWithFiles(ctx, caller, async (files) => await files.retire(name));
  assert.deepEqual(filesOf(), []);
});

test('a signed link opens its file over HTTP without the key until it expires', async () => {
  const { clock, ctx, caller, upload } = await setup();
  const name = await inTransactionWithFiles(ctx, caller, async (files) => await files.save(upload));
  const { signedUrl } = fileUrls(ctx, name);
  const expires = Number(/expires=(\d+)/.exec(signedUrl ?? '')?.[1]) * 1000;
  assert.ok(expires - clock.now() >= 10 * 60_000 && expires - clock.now() <= 15 * 60_000, 'lives 10 to 15 minutes');
  const server = createApp(ctx).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    clock.set(expires - 1000);
    assert.equal((await fetch(base + signedUrl)).status, 200);
    clock.set(expires + 1000);
    const expired = await fetch(base + signedUrl);
    assert.deepEqual([expired.status, await expired.json()], [403, { type: 'LINK_EXPIRED' }]);
    const link = new URL(base + signedUrl);
    const unsigned = await fetch(`${base}${link.pathname}?expires=${link.searchParams.get('expires')}`);
    assert.equal(unsigned.status, 401);
  } finally {
    server.close();
    await ctx.db.close();
  }
});

test('the same link is produced within its 5-minute step, so answers stay stable', async () => {
  const { clock, ctx, caller, upload } = await setup();
  const name = await inTransactionWithFiles(ctx, caller, async (files) => await files.save(upload));
  clock.set(Date.UTC(2026, 10, 22, 12, 0, 1));
  const first = fileUrls(ctx, name).signedUrl;
  clock.advance(60_000);
  assert.equal(fileUrls(ctx, name).signedUrl, first);
  clock.advance(5 * 60_000);
  assert.notEqual(fileUrls(ctx, name).signedUrl, first);
});

test('a link expiring later than any link is given is refused, and a link opens only its own company files', async () => {
  const { clock, ctx, caller, upload } = await setup();
  const name = await inTransactionWithFiles(ctx, caller, async (files) => await files.save(upload));
  const now = clock.now();
  clock.set(Date.UTC(2100, 0, 1));
  const farOff = fileUrls(ctx, name).signedUrl;
  clock.set(now);
  const own = fileUrls(ctx, name).signedUrl ?? '';
  const otherCompany = await createCompany(ctx, { name: 'Globex', timezone: 'UTC' });
  const foreignPath = join('files', otherCompany.id, basename(name));
  const foreign = fileUrls(ctx, foreignPath).signedUrl ?? '';
  const server = createApp(ctx).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const tooLong = await fetch(base + farOff);
    assert.deepEqual([tooLong.status, await tooLong.json()], [401, { type: 'UNAUTHORIZED' }], 'a link for 2100');
    assert.equal((await fetch(base + own)).status, 200);
    assert.equal(
      (await fetch(base + foreign)).status,
      401,
      "a link signed for another company's file of that name opens nothing",
    );
    const withOtherKey = await fetch(base + own, { headers: { authorization: `Bearer ${otherCompany.apiKey}` } });
    assert.equal(withOtherKey.status, 404, "another company's key with this company's link: judged by the key");
  } finally {
    server.close();
    await ctx.db.close();
  }
});
