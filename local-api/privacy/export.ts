import { type AuditActor, auditActor, auditOfObjects, recordAudit } from '../audit/store.ts';
import { type Context, inTransaction } from '../context.ts';
import type { Caller } from '../credentials/caller.ts';
import { readFileBytes } from '../files/bytes.ts';
import { storedFileId } from '../files/store.ts';
import { type MeetingRow, meetingWithoutHost } from '../meetings/objects.ts';
import { type NotificationRow, notificationObjects } from '../notifications/store.ts';
import { emailKey } from '../rules/identity.ts';
import { formatInZone } from '../rules/time.ts';
import { prepared } from '../store/rows.ts';
import { mentionsAny, type PersonIdentifiers, tellingValues } from './person.ts';
import { findPersonsRows, jobsAbout, requirePerson } from './store.ts';

interface FileRow {
  id: string;
  purpose: string;
  mediaType: string;
  extension: string;
  size: number;
  sha256: string;
  createdAt: number;
}

/** The person's pictures and signed NDAs, with their bytes; a file whose bytes are gone is listed without them. */
async function exportedFiles(ctx: Context, caller: Caller, paths: readonly string[]) {
  const files = [];
  for (const path of paths) {
    const id = storedFileId(path);
    const row = (await prepared(ctx.db, 'SELECT * FROM files WHERE id = ? AND companyId = ? AND deletedAt IS NULL').get(
      id ?? '',
      caller.companyId,
    )) as FileRow | undefined;
    if (!row) continue;
    const content =
      (await readFileBytes(ctx, { companyId: caller.companyId, name: `${row.id}.${row.extension}` })) ??
      Buffer.alloc(0);
    files.push({
      name: `${row.id}.${row.extension}`,
      purpose: row.purpose,
      mediaType: row.mediaType,
      size: row.size,
      sha256: row.sha256,
      createdAt: formatInZone(row.createdAt, caller.timeZone),
      contentBase64: content.toString('base64'),
    });
  }
  return files;
}

/**
 * Everything the caller's company holds about a person (LGPD art. 18, GDPR art. 15), found as an erasure finds it:
 * their visitor records, visits, invitees and blocklist entries (as the API shows them), the meetings they are a
 * guest of or named in, notifications that name them, the deliveries that carried them, their pictures and NDAs
 * (bytes in Base64), and the audit log's entries about their records (who read or changed them). The export is
 * itself audited (`privacy.exported`, with the counts), as the caller's or as the given actor's (the device owner's).
 */
export async function exportPerson(
  ctx: Context,
  caller: Caller,
  who: PersonIdentifiers,
  actor: AuditActor = auditActor(caller),
) {
  const person = requirePerson(who);
  return await inTransaction(ctx, async () => {
    const found = await findPersonsRows(ctx, caller.companyId, person);
    const rows = found.flatMap((f) => f.rows);
    const ids = rows.map((row) => row.id);
    const values = tellingValues(rows);
    const objects = async (table: string) => {
      const entry = found.find((f) => f.table.table === table);
      return entry ? await Promise.all(entry.rows.map(async (row) => await entry.table.object(ctx, caller, row))) : [];
    };
    const paths = found.flatMap(({ table, rows: tableRows }) =>
      tableRows.flatMap((row) => table.files.map((column) => row[column]).filter((p) => typeof p === 'string')),
    ) as string[];
    const meetings = (
      (await prepared(ctx.db, 'SELECT * FROM meetings WHERE companyId = ?').all(caller.companyId)) as MeetingRow[]
    )
      .filter(
        (meeting) =>
          (JSON.parse(meeting.guests) as string[]).some((guest) => person.emails.has(emailKey(guest) ?? '')) ||
          mentionsAny([meeting.title, meeting.message, meeting.notes].join('\n'), values),
      )
      .map((meeting) => meetingWithoutHost(meeting, caller));
    const notifications = await notificationObjects(
      ctx,
      caller,
      (
        (await prepared(ctx.db, 'SELECT * FROM notifications WHERE companyId = ? AND message IS NOT NULL').all(
          caller.companyId,
        )) as NotificationRow[]
      ).filter((row) => mentionsAny(row.message, values)),
    );
    const deliveries = (await jobsAbout(ctx, caller.companyId, { ids, values })).map(({ id: _id, ...job }) => ({
      ...job,
      createdAt: formatInZone(job.createdAt, caller.timeZone),
      updatedAt: formatInZone(job.updatedAt, caller.timeZone),
      payload: JSON.parse(job.payload) as unknown,
    }));
    const result = {
      type: 'subjectAccess' as const,
      generatedAt: formatInZone(ctx.clock.now(), caller.timeZone),
      companyId: caller.companyId,
      visitors: await objects('visitors'),
      visits: await objects('visits'),
      invitees: await objects('invitees'),
      blocklist: await objects('blocklist'),
      meetings,
      notifications,
      deliveries,
      files: await exportedFiles(ctx, caller, paths),
      audit: await auditOfObjects(ctx, caller, ids),
    };
    await recordAudit(ctx, actor, {
      action: 'privacy.exported',
      objectType: 'subjectAccess',
      details: {
        visitors: result.visitors.length,
        visits: result.visits.length,
        invitees: result.invitees.length,
        blocklist: result.blocklist.length,
        meetings: meetings.length,
        notifications: notifications.length,
        deliveries: deliveries.length,
        files: result.files.length,
      },
    });
    return result;
  });
}
