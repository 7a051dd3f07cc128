import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { companyForKey, createCompany } from '../../local-api/companies/store.ts';
import { testContext } from '../helpers/context.ts';

// companyForKey keeps the callers it found: these are the changes that must still be seen on the next request.

test('a key revoked or a company changed on the same connection is seen at once', () => {
  const ctx = testContext();
  const { id, apiKey } = createCompany(ctx, { name: 'Acme', apiKey: 'same-connection-key-0001', timezone: 'UTC' });
  assert.equal(companyForKey(ctx, apiKey)?.companyId, id);
  ctx.db.prepare("UPDATE companies SET timezone = 'Europe/Berlin' WHERE id = ?").run(id);
  assert.equal(companyForKey(ctx, apiKey)?.timeZone, 'Europe/Berlin');
  ctx.db.prepare('UPDATE api_keys SET revokedAt = 1 WHERE companyId = ?').run(id);
  assert.equal(companyForKey(ctx, apiKey), undefined);
  ctx.db.close();
});

test('a key revoked or a company deleted by another connection is seen at once', () => {
  const ctx = testContext();
  const { id, apiKey } = createCompany(ctx, { name: 'Acme', apiKey: 'other-connection-key-0001', timezone: 'UTC' });
  assert.equal(companyForKey(ctx, apiKey)?.companyId, id);
  const other = new Database(join(ctx.dataDir, 'portaria.db'));
  other.prepare('UPDATE companies SET deletedAt = 1 WHERE id = ?').run(id);
  assert.equal(companyForKey(ctx, apiKey), undefined);
  other.prepare('UPDATE companies SET deletedAt = NULL WHERE id = ?').run(id);
  assert.equal(companyForKey(ctx, apiKey)?.companyId, id);
  other.prepare('UPDATE api_keys SET revokedAt = 1 WHERE companyId = ?').run(id);
  assert.equal(companyForKey(ctx, apiKey), undefined);
  other.close();
  ctx.db.close();
});

test('an unknown key is not remembered: a company made afterwards with it is found', () => {
  const ctx = testContext();
  assert.equal(companyForKey(ctx, 'later-company-key-0001'), undefined);
  const { id } = createCompany(ctx, { name: 'Later', apiKey: 'later-company-key-0001' });
  assert.equal(companyForKey(ctx, 'later-company-key-0001')?.companyId, id);
  ctx.db.close();
});
