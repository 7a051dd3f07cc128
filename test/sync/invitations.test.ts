import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Context } from '../../local-api/context.ts';
import { hostCreateInput } from '../../local-api/hosts/schema.ts';
import { createHost } from '../../local-api/hosts/store.ts';
import { ApiError } from '../../local-api/http/errors.ts';
import { validate } from '../../local-api/http/fields.ts';
import { invitationJobKind } from '../../local-api/invitations/queue.ts';
import { resendInvitation } from '../../local-api/invitations/store.ts';
import { inviteeCreateInput } from '../../local-api/invitees/schema.ts';
import { createInvitee, updateInvitee } from '../../local-api/invitees/store.ts';
import { saveNotificationSettings } from '../../local-api/notifications/settings.ts';
import { kioskAdminOf, syncFixture } from '../helpers/sync.ts';

/*
 * The hub sends invitations (docs/api.md, "Invitation e-mails"): a kiosk pulls its hub's invitees, and its
 * notification settings, as rows, and sends nothing for them; an invitee write there is refused.
 */

const invitationJobs = async (ctx: Context) =>
  (await ctx.db.prepare('SELECT idempotencyKey FROM jobs WHERE kind = ?').all(invitationJobKind)) as {
    idempotencyKey: string;
  }[];

test("a kiosk that pulls its hub's invitees and e-mail settings queues no invitation; the hub queued each once", async () => {
  const fixture = await syncFixture();
  const { hub, hubCaller, company } = fixture;
  await saveNotificationSettings(hub, hubCaller, { smtpHost: 'smtp.test' });
  const ana = await createHost(hub, hubCaller, validate(hostCreateInput, { name: 'Ana', email: 'ana@acme.test' }));
  const invitee = await createInvitee(
    hub,
    hubCaller,
    validate(inviteeCreateInput, { name: 'Ivo', email: 'ivo@x.test', hostId: ana.id, expectedAt: 1_900_000_000 }),
  );
  const kiosk = fixture.kiosks[0]?.ctx as Context;
  await fixture.pull(kiosk);
  await updateInvitee(hub, hubCaller, invitee.id, { expectedAt: 1_900_003_600 });
  await fixture.pull(kiosk);
  const pulled = (await kiosk.db.prepare('SELECT expectedAt FROM invitees WHERE id = ?').get(invitee.id)) as {
    expectedAt: number;
  };
  assert.equal(pulled.expectedAt, 1_900_003_600_000, 'the kiosk has the invitee as the hub changed it');
  assert.ok(await kiosk.db.prepare('SELECT 1 FROM notification_settings WHERE smtpHost = ?').get('smtp.test'));
  assert.deepEqual(await invitationJobs(kiosk), []);
  assert.deepEqual(
    (await invitationJobs(hub)).map((job) => job.idempotencyKey),
    [`${invitee.id}:0`, `${invitee.id}:1`],
  );
  const caller = await kioskAdminOf(kiosk, company.id);
  await assert.rejects(
    async () => await resendInvitation(kiosk, caller, invitee.id),
    (error: unknown) => error instanceof ApiError && error.type === 'MANAGED_BY_HUB',
  );
  assert.deepEqual(await invitationJobs(kiosk), []);
});
