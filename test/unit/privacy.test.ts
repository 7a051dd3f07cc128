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
import { saveRetention, startRetentionSweeper, sweepAll } from '../../local-api/privacy/store.ts';
import { checkinWalkIn } from '../../local-api/visits/store.ts';
import { manualClock, testContext } from '../helpers/context.ts';
import { removeDir, tempDir } from '../helpers/service.ts';

const dayMs = 86_400_000;
const dirs: string[] = [];
after(() => {
  for (const dir of dirs) removeDir(dir);
});

function setUp() {
  const root = tempDir();
  dirs.push(root);
  const dataDir = join(root, 'data');
  const clock = manualClock();
  const ctx = testContext({ clock, dataDir });
  ctx.events.subscribe(auditListener(ctx));
  const caller = companyCaller(ctx, createCompany(ctx, { name: 'Files Co', timezone: 'UTC' }).id) as Caller;
  const visit = (files: { pictureFile?: string; ndaFile?: string } = {}) => {
    const id = randomUUID();
    checkinWalkIn(ctx, caller, { visit: { id }, visitor: { name: 'Vic Visitor' } });
    ctx.db
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

const visitRow = (ctx: Context, id: string) =>
  ctx.db.prepare('SELECT name, deletedAt, pictureFile, ndaFile FROM visits WHERE id = ?').get(id) as {
    name: string | null;
    deletedAt: number | null;
  };

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !condition(); waited += 10) {
    assert.ok(waited < 5_000, `${what} within 5 s`);
    await sleep(10);
  }
}

test('the retention sweep deletes the pictures and NDAs of the visits it removes, and nothing outside the data folder', () => {
  const { root, dataDir, clock, ctx, caller, visit, file } = setUp();
  const picture = file(join(dataDir, 'files', 'a.jpg'));
  const nda = file(join(dataDir, 'files', 'a.pdf'));
  const outside = file(join(root, 'outside.jpg'));
  const old = visit({ pictureFile: 'files/a.jpg', ndaFile: nda });
  const escaping = visit({ pictureFile: '../outside.jpg' });
  saveRetention(ctx, caller, 30);
  assert.equal(visitRow(ctx, old).deletedAt, null, 'a visit of today is kept');

  clock.advance(31 * dayMs);
  const kept = visit();
  sweepAll(ctx);
  assert.equal(visitRow(ctx, old).name, null);
  assert.notEqual(visitRow(ctx, old).deletedAt, null);
  assert.notEqual(visitRow(ctx, escaping).deletedAt, null);
  assert.equal(visitRow(ctx, kept).name, 'Vic Visitor');
  assert.equal(existsSync(picture), false);
  assert.equal(existsSync(nda), false);
  assert.equal(existsSync(outside), true, 'a path leading out of the data folder is never deleted');
  assert.deepEqual(ctx.db.prepare('SELECT * FROM file_deletions').all(), []);
  const audit = ctx.db.prepare("SELECT details FROM audit_log WHERE action = 'privacy.retention.swept'").all();
  assert.deepEqual(audit, [
    {
      details:
        '{"retentionDays":30,"visits":2,"invitees":0,"visitors":2,"files":3,"meetings":0,"notifications":0,"jobs":0}',
    },
  ]);
  ctx.db.close();
});

test('files left queued by a crash between the commit and the unlink are deleted at the next start', async () => {
  const { dataDir, ctx, file } = setUp();
  const leftover = file(join(dataDir, 'files', 'left.jpg'));
  ctx.db
    .prepare('INSERT INTO file_deletions (path, companyId, createdAt) VALUES (?, ?, ?)')
    .run('files/left.jpg', 'x', 0);
  const sweeper = startRetentionSweeper(ctx, 60_000);
  await until(() => !existsSync(leftover), 'the left-over file is deleted');
  sweeper.stop();
  ctx.db.close();
});

test('the daily sweep runs on its timer and counts days on the injected clock', async () => {
  const { clock, ctx, caller, visit } = setUp();
  const id = visit();
  saveRetention(ctx, caller, 1);
  const sweeper = startRetentionSweeper(ctx, 20);
  await sleep(60);
  assert.equal(visitRow(ctx, id).deletedAt, null, 'not a day old on the clock yet');
  clock.advance(2 * dayMs);
  await until(() => visitRow(ctx, id).deletedAt !== null, 'the visit is swept');
  sweeper.stop();
  ctx.db.close();
});
