import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { auditListener } from '../../local-api/audit/store.ts';
import { companyCaller, createCompany } from '../../local-api/companies/store.ts';
import type { Context } from '../../local-api/context.ts';
import type { Caller } from '../../local-api/credentials/caller.ts';
import { eraseVisitor, saveRetention, startRetentionSweeper, sweepAll } from '../../local-api/privacy/store.ts';
import { enqueue } from '../../local-api/queue/queue.ts';
import { deleteVisitor } from '../../local-api/visitors/store.ts';
import { checkinWalkIn, deleteVisit } from '../../local-api/visits/store.ts';
import { manualClock, testContext } from '../helpers/context.ts';
import { removeDir, tempDir } from '../helpers/service.ts';

const dayMs = 86_400_000;
const dirs: string[] = [];
after(() => {
  for (const dir of dirs) removeDir(dir);
});

async function setUp() {
  const root = tempDir();
  dirs.push(root);
  const dataDir = join(root, 'data');
  const clock = manualClock();
  const ctx = await testContext({ clock, dataDir });
  ctx.events.subscribe(auditListener(ctx));
  const caller = (await companyCaller(
    ctx,
    (
      await createCompany(ctx, { name: 'Files Co', timezone: 'UTC' })
    ).id,
  )) as Caller;
  const visit = async (files: { pictureFile?: string; ndaFile?: string } = {}) => {
    const id = randomUUID();
    await checkinWalkIn(ctx, caller, { visit: { id }, visitor: { name: 'Vic Visitor' } });
    await ctx.db
      .prepare('UPDATE visits SET pictureFile = ?, ndaFile = ? WHERE id = ?')
      .run(files.pictureFile ?? null, files.ndaFile ?? null, id);
    return id;
  };
  const file = (path: string) => {
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, 'picture bytes');
    return path;
  };
  return { root, dataDir, clock, ctx, caller, visit, file };
}

const visitRow = async (ctx: Context, id: string) =>
  (await ctx.db.prepare('SELECT name, deletedAt, pictureFile, ndaFile FROM visits WHERE id = ?').get(id)) as {
    name: string | null;
    deletedAt: number | null;
  };

async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let waited = 0; !(await condition()); waited += 10) {
    assert.ok(waited < 5_000, `${what} within 5 s`);
    await sleep(10);
  }
}

test('the retention sweep deletes the pictures and NDAs of the visits it removes, and nothing outside the data folder', async () => {
  const { root, dataDir, clock, ctx, caller, visit, file } = await setUp();
  const stored = (name: string) => `files/${caller.companyId}/${name}`;
  const picture = file(join(dataDir, stored(`${'a'.repeat(32)}.jpg`)));
  const nda = file(join(dataDir, stored(`${'a'.repeat(32)}.pdf`)));
  const outside = file(join(root, `${'b'.repeat(32)}.jpg`));
  const old = await visit({ pictureFile: stored(`${'a'.repeat(32)}.jpg`), ndaFile: stored(`${'a'.repeat(32)}.pdf`) });
  const escaping = await visit({ pictureFile: `../${'b'.repeat(32)}.jpg` });
  await saveRetention(ctx, caller, 30);
  assert.equal((await visitRow(ctx, old)).deletedAt, null, 'a visit of today is kept');

  clock.advance(31 * dayMs);
  const kept = await visit();
  await sweepAll(ctx);
  assert.equal((await visitRow(ctx, old)).name, null);
  assert.notEqual((await visitRow(ctx, old)).deletedAt, null);
  assert.notEqual((await visitRow(ctx, escaping)).deletedAt, null);
  assert.equal((await visitRow(ctx, kept)).name, 'Vic Visitor');
  assert.equal(existsSync(picture), false);
  assert.equal(existsSync(nda), false);
  assert.equal(existsSync(outside), true, 'a path leading out of the data folder is never deleted');
  assert.deepEqual(await ctx.db.prepare('SELECT * FROM file_deletions').all(), []);
  const audit = await ctx.db.prepare("SELECT details FROM audit_log WHERE action = 'privacy.retention.swept'").all();
  assert.deepEqual(audit, [
    {
      details:
        '{"retentionDays":30,"visits":2,"invitees":0,"visitors":2,"files":3,"meetings":0,"notifications":0,"jobs":0}',
    },
  ]);
  await ctx.db.close();
});

test('files left queued by a crash between the commit and the unlink are deleted at the next start', async () => {
  const { dataDir, ctx, file } = await setUp();
  const leftover = file(join(dataDir, 'files', 'left.jpg'));
  await ctx.db
    .prepare('INSERT INTO file_deletions (path, companyId, createdAt) VALUES (?, ?, ?)')
    .run('files/left.jpg', 'x', 0);
  const sweeper = startRetentionSweeper(ctx, 60_000);
  await until(() => !existsSync(leftover), 'the left-over file is deleted');
  sweeper.stop();
  await ctx.db.close();
});

test('the daily sweep runs on its timer and counts days on the injected clock', async () => {
  const { clock, ctx, caller, visit } = await setUp();
  const id = await visit();
  await saveRetention(ctx, caller, 1);
  const sweeper = startRetentionSweeper(ctx, 20);
  await sleep(60);
  assert.equal((await visitRow(ctx, id)).deletedAt, null, 'not a day old on the clock yet');
  clock.advance(2 * dayMs);
  await until(async () => (await visitRow(ctx, id)).deletedAt !== null, 'the visit is swept');
  sweeper.stop();
  await ctx.db.close();
});

test('an erasure drops the deliveries about the person, rewrites the others that name them, keeps proof of the sent', async () => {
  const { ctx, caller } = await setUp();
  const visit = randomUUID();
  await checkinWalkIn(ctx, caller, {
    visit: { id: visit },
    visitor: { name: 'Quitéria Queue', phone: '+55 11 91111-2222', email: 'quiteria@queue.test' },
  });
  const job = async (key: string, payload: unknown) =>
    await enqueue(ctx, { companyId: caller.companyId, kind: 'webhook.delivery', idempotencyKey: key, payload });
  await job('about-the-visit', { event: 'visit.checkin', body: JSON.stringify({ id: visit, name: 'Quitéria Queue' }) });
  await job('names-her', {
    event: 'meeting.created',
    body: JSON.stringify({ guests: ['QUITERIA@queue.test', 'x@y.test'] }),
  });
  await job('sent', { event: 'visit.checkin', body: JSON.stringify({ id: visit }) });
  await job('someone-else', { event: 'visit.checkin', body: JSON.stringify({ name: 'Other Person' }) });
  await ctx.db.prepare("UPDATE jobs SET status = 'done' WHERE idempotencyKey = 'sent'").run();

  const counts = await eraseVisitor(ctx, caller, { name: ' quiteria  QUEUE ', phone: '11 91111 2222' });
  assert.equal(counts.visits, 1, 'found by name and phone, written another way');
  assert.equal(counts.deliveries, 3);
  const jobs = Object.fromEntries(
    ((await ctx.db.prepare('SELECT idempotencyKey, status, payload FROM jobs').all()) as Record<string, string>[]).map(
      (row) => [row.idempotencyKey, [row.status, row.payload]],
    ),
  );
  assert.equal(jobs['about-the-visit'], undefined, 'dropped: its news went with the row');
  const rewritten = JSON.parse(JSON.parse(jobs['names-her']?.[1] ?? '{}').body);
  assert.deepEqual(rewritten.guests, ['[erased]', 'x@y.test'], 'sent without her');
  assert.deepEqual(jobs.sent, ['done', '{"erased":true}'], 'a sent delivery keeps only its proof');
  assert.match(jobs['someone-else']?.[1] ?? '', /Other Person/);
  await assert.rejects(async () => await eraseVisitor(ctx, caller, { name: 'Quitéria Queue' }), /MISSING_IDENTIFIER/);
  await assert.rejects(
    async () => await eraseVisitor(ctx, caller, { phone: '+55 11 91111-2222' }),
    /MISSING_IDENTIFIER/,
  );
  await ctx.db.close();
});

test('a deleted visit and a deleted visitor record keep none of the person', async () => {
  const { ctx, caller } = await setUp();
  const id = randomUUID();
  await checkinWalkIn(ctx, caller, { visit: { id }, visitor: { name: 'Della Deleted', phone: '+55 11 93333-4444' } });
  const visitorId = (
    (await ctx.db.prepare('SELECT visitorId FROM visits WHERE id = ?').get(id)) as { visitorId: string }
  ).visitorId;
  await deleteVisit(ctx, caller, id);
  await deleteVisitor(ctx, caller, visitorId);
  const visit = (await ctx.db.prepare('SELECT name, phone, deletedAt FROM visits WHERE id = ?').get(id)) as Record<
    string,
    unknown
  >;
  assert.deepEqual([visit.name, visit.phone, typeof visit.deletedAt], [null, null, 'number']);
  const record = await ctx.db.prepare('SELECT name, phone FROM visitors WHERE id = ?').get(visitorId);
  assert.deepEqual(record, { name: null, phone: null });
  await ctx.db.close();
});

test("retention takes a visit's deliveries with it, whatever their own age", async () => {
  const { ctx, caller, clock, visit } = await setUp();
  const old = await visit();
  await ctx.db.prepare('UPDATE visits SET checkinAt = ? WHERE id = ?').run(clock.now() - 40 * dayMs, old);
  for (const [key, status] of [
    ['pending-about-old', 'pending'],
    ['done-about-old', 'done'],
  ]) {
    await enqueue(ctx, {
      companyId: caller.companyId,
      kind: 'webhook.delivery',
      idempotencyKey: String(key),
      payload: { body: JSON.stringify({ id: old, name: 'Vic Visitor' }) },
    });
    await ctx.db.prepare('UPDATE jobs SET status = ? WHERE idempotencyKey = ?').run(status, key);
  }
  await saveRetention(ctx, caller, 30);
  assert.deepEqual(await ctx.db.prepare('SELECT idempotencyKey, payload FROM jobs').all(), [
    { idempotencyKey: 'done-about-old', payload: '{"erased":true}' },
  ]);
  await ctx.db.close();
});
