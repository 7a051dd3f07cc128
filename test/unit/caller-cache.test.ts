import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { createCompany } from '../../local-api/companies/store.ts';
import { frontDeskSession, insertCredential, principalForKey } from '../../local-api/credentials/store.ts';
import { manualClock, testContext } from '../helpers/context.ts';

// principalForKey keeps the principals it found: these are the changes that must still be seen on the next request.

const companyOf = (principal: Awaited<ReturnType<typeof principalForKey>>) =>
  principal && 'companyId' in principal ? principal.companyId : undefined;

test('a key revoked or a company changed on the same connection is seen at once', async () => {
  const ctx = await testContext();
  const { id, apiKey } = await createCompany(ctx, {
    name: 'Acme',
    apiKey: 'same-connection-key-0001',
    timezone: 'UTC',
  });
  assert.equal(companyOf(await principalForKey(ctx, apiKey)), id);
  await ctx.db.prepare("UPDATE companies SET timezone = 'Europe/Berlin' WHERE id = ?").run(id);
  const caller = await principalForKey(ctx, apiKey);
  assert.equal(caller && 'timeZone' in caller ? caller.timeZone : undefined, 'Europe/Berlin');
  await ctx.db.prepare('UPDATE credentials SET revokedAt = 1 WHERE companyId = ?').run(id);
  assert.equal(await principalForKey(ctx, apiKey), undefined);
  await ctx.db.close();
});

test('a key revoked or a company deleted by another connection is seen at once', async () => {
  const ctx = await testContext();
  const { id, apiKey } = await createCompany(ctx, {
    name: 'Acme',
    apiKey: 'other-connection-key-0001',
    timezone: 'UTC',
  });
  assert.equal(companyOf(await principalForKey(ctx, apiKey)), id);
  const other = new Database(join(ctx.dataDir, 'portaria.db'));
  other.prepare('UPDATE companies SET deletedAt = 1 WHERE id = ?').run(id);
  assert.equal(await principalForKey(ctx, apiKey), undefined);
  other.prepare('UPDATE companies SET deletedAt = NULL WHERE id = ?').run(id);
  assert.equal(companyOf(await principalForKey(ctx, apiKey)), id);
  other.prepare('UPDATE credentials SET revokedAt = 1 WHERE companyId = ?').run(id);
  assert.equal(await principalForKey(ctx, apiKey), undefined);
  other.close();
  await ctx.db.close();
});

test('an unknown key is not remembered: a company made afterwards with it is found', async () => {
  const ctx = await testContext();
  assert.equal(await principalForKey(ctx, 'later-company-key-0001'), undefined);
  const { id } = await createCompany(ctx, { name: 'Later', apiKey: 'later-company-key-0001' });
  assert.equal(companyOf(await principalForKey(ctx, 'later-company-key-0001')), id);
  await ctx.db.close();
});

test('a role changed on the same connection is seen at once; writing the last use keeps the cache', async () => {
  const clock = manualClock();
  const ctx = await testContext({ clock });
  const { apiKey } = await createCompany(ctx, { name: 'Acme', apiKey: 'role-change-key-0001' });
  assert.equal((await principalForKey(ctx, apiKey))?.role, 'admin');
  clock.advance(120_000);
  const used = await principalForKey(ctx, apiKey);
  const { lastUsedAt } = (await ctx.db
    .prepare('SELECT lastUsedAt FROM credentials WHERE prefix = ?')
    .get(apiKey.slice(0, 12))) as {
    lastUsedAt: number;
  };
  assert.equal(lastUsedAt, clock.now(), 'the last use is written');
  assert.equal(await principalForKey(ctx, apiKey), used, 'the same cached principal');
  await ctx.db.prepare("UPDATE credentials SET role = 'readonly'").run();
  assert.equal((await principalForKey(ctx, apiKey))?.role, 'readonly');
  await ctx.db.close();
});

test('a front-desk session ends after its idle time and at its end, cached or not', async () => {
  const clock = manualClock();
  const ctx = await testContext({ clock });
  const { id } = await createCompany(ctx, { name: 'Acme' });
  const session = await insertCredential(ctx, {
    companyId: id,
    role: 'frontdesk',
    label: 'Front desk',
    expiresAt: clock.now() + frontDeskSession.maxMs,
  });
  assert.equal((await principalForKey(ctx, session.key))?.role, 'frontdesk');
  clock.advance(frontDeskSession.idleMs - 1);
  assert.equal((await principalForKey(ctx, session.key))?.role, 'frontdesk', 'used just in time');
  clock.advance(frontDeskSession.idleMs);
  assert.equal(await principalForKey(ctx, session.key), undefined, 'idle too long');

  const busy = await insertCredential(ctx, {
    companyId: id,
    role: 'frontdesk',
    label: 'Front desk',
    expiresAt: clock.now() + 1000,
  });
  assert.equal((await principalForKey(ctx, busy.key))?.role, 'frontdesk');
  clock.advance(1000);
  assert.equal(await principalForKey(ctx, busy.key), undefined, 'past its end');
  await ctx.db.close();
});
