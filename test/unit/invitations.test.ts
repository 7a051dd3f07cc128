import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createCompany } from '../../local-api/companies/store.ts';
import { hostCreateInput } from '../../local-api/hosts/schema.ts';
import { createHost } from '../../local-api/hosts/store.ts';
import { validate } from '../../local-api/http/fields.ts';
import { type InvitationPayload, invitationChange, invitationJobKind } from '../../local-api/invitations/queue.ts';
import { deliverInvitation } from '../../local-api/invitations/send.ts';
import type { InviteeRow } from '../../local-api/invitees/contract.ts';
import { inviteeCreateInput } from '../../local-api/invitees/schema.ts';
import { createInvitee, updateInvitee } from '../../local-api/invitees/store.ts';
import { saveNotificationSettings } from '../../local-api/notifications/settings.ts';
import type { Job } from '../../local-api/queue/queue.ts';
import { testContext } from '../helpers/context.ts';
import { callerOf } from '../helpers/sync.ts';

const invitee = (fields: Partial<InviteeRow> = {}) =>
  ({
    id: 'i',
    email: 'ivo@x.test',
    status: 'confirmed',
    expectedAt: 1_000,
    hostId: 'h',
    deletedAt: null,
    ...fields,
  }) as InviteeRow;

test('which message a write of an invitee calls for', () => {
  const confirmed = invitee();
  const cases: [string, InviteeRow | undefined, InviteeRow, boolean, string | undefined][] = [
    ['made', undefined, confirmed, false, 'invite'],
    ['made canceled', undefined, invitee({ status: 'canceled' }), false, undefined],
    ['made arrived', undefined, invitee({ status: 'arrived' }), false, undefined],
    ['moved', confirmed, invitee({ expectedAt: 2_000 }), false, 'update'],
    ['another host', confirmed, invitee({ hostId: 'g' }), false, 'update'],
    ['its meeting moved', confirmed, confirmed, true, 'update'],
    ['another field', confirmed, invitee({ company: 'Initech' }), false, undefined],
    ['another address', confirmed, invitee({ email: 'ivo@y.test' }), false, 'invite'],
    ['canceled', confirmed, invitee({ status: 'canceled' }), false, 'cancel'],
    ['deleted', confirmed, invitee({ deletedAt: 5 }), false, 'cancel'],
    ['confirmed again', invitee({ status: 'canceled' }), confirmed, false, 'invite'],
    [
      'canceled, then deleted',
      invitee({ status: 'canceled' }),
      invitee({ status: 'canceled', deletedAt: 5 }),
      false,
      undefined,
    ],
    ['checked in', confirmed, invitee({ status: 'arrived' }), false, undefined],
    [
      'arrived, then deleted',
      invitee({ status: 'arrived' }),
      invitee({ status: 'arrived', deletedAt: 5 }),
      false,
      undefined,
    ],
  ];
  for (const [what, before, after, moved, expected] of cases) {
    assert.equal(invitationChange(before, after, moved), expected, what);
  }
});

test('a queued invitation superseded by a later change is not sent: the later one says it all', async () => {
  const ctx = await testContext();
  const company = await createCompany(ctx, { name: 'Acme', timezone: 'America/Sao_Paulo' });
  const caller = await callerOf(ctx, company.apiKey);
  // An address nothing answers at: a message the handler tried to send would fail the test.
  await saveNotificationSettings(ctx, caller, { smtpHost: '127.0.0.1', smtpPort: 9 });
  const host = await createHost(ctx, caller, validate(hostCreateInput, { name: 'Ana', email: 'ana@acme.test' }));
  const row = await createInvitee(
    ctx,
    caller,
    validate(inviteeCreateInput, { name: 'Ivo', email: 'ivo@x.test', hostId: host.id, expectedAt: 1_900_000_000 }),
  );
  await updateInvitee(ctx, caller, row.id, { expectedAt: 1_900_003_600 });
  const jobs = (await ctx.db
    .prepare('SELECT * FROM jobs WHERE kind = ? ORDER BY id')
    .all(invitationJobKind)) as (Job & { payload: string })[];
  assert.deepEqual(
    jobs.map((job) => JSON.parse(job.payload) as InvitationPayload),
    [
      { inviteeId: row.id, sequence: 0, change: 'invite' },
      { inviteeId: row.id, sequence: 1, change: 'update' },
    ],
  );
  const [first, second] = jobs.map((job) => ({ ...job, payload: JSON.parse(job.payload) as unknown }));
  const send = deliverInvitation(ctx);
  await send(first as Job, new AbortController().signal);
  await assert.rejects(
    async () => await send(second as Job, new AbortController().signal),
    /SMTP 127\.0\.0\.1:9/,
    'the current one is sent',
  );
  await ctx.db.close();
});
