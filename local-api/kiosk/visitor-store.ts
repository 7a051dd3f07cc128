import type { Context } from '../context.ts';
import type { Caller } from '../credentials/caller.ts';
import { isAnswered } from '../custom-fields/values.ts';
import { fileUrls } from '../files/store.ts';
import { ApiError } from '../http/errors.ts';
import type { InviteeRow } from '../invitees/contract.ts';
import { findInvitee } from '../invitees/store.ts';
import { hostNotice } from '../notifications/delivery.ts';
import { passMessageQueued } from '../pass/message.ts';
import { isUuidV4 } from '../rules/ids.ts';
import { firstNameAndInitial, namesMatch, normalizeName } from '../rules/names.ts';
import { formatInZone, parseDateTime } from '../rules/time.ts';
import { prepared } from '../store/rows.ts';
import { authorizationStatusOut, type VisitRow } from '../visits/contract.ts';
import { findVisit } from '../visits/store.ts';
import { hostSearch, maxNameMatches } from './visitor-schema.ts';

/** The start and end of the caller's day (in the company's zone) around `now`. */
export function dayAround(now: number, timeZone: string): { start: number; end: number } {
  const date = formatInZone(now, timeZone).slice(0, 10);
  const start = parseDateTime(`${date}T00:00:00`, timeZone) ?? now;
  const next = new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  return { start, end: parseDateTime(`${next}T00:00:00`, timeZone) ?? start + 86_400_000 };
}

/**
 * Active hosts one of whose names (or the whole name) starts with the query, ignoring case and accents: "sou"
 * finds Ana Souza. Name and sector only, at most `hostSearch.maxResults`.
 */
export async function findHostsByName(ctx: Context, caller: Caller, query: string) {
  const typed = normalizeName(query);
  if ([...typed.replaceAll(' ', '')].length < hostSearch.minLength)
    throw new ApiError('INVALID_PARAMETER', { field: 'name' });
  const rows = (await prepared(
    ctx.db,
    `SELECT id, name, sector FROM hosts WHERE companyId = ? AND deletedAt IS NULL AND isActive = 1 ORDER BY name, id`,
  ).all(caller.companyId)) as { id: string; name: string; sector: string | null }[];
  const hosts: typeof rows = [];
  for (const row of rows) {
    const name = normalizeName(row.name);
    if (name.startsWith(typed) || name.split(' ').some((word) => word.startsWith(typed))) hosts.push(row);
    if (hosts.length === hostSearch.maxResults) break;
  }
  return hosts;
}

const hostName = async (ctx: Context, caller: Caller, hostId: string | null): Promise<string | null> =>
  hostId === null
    ? null
    : (((await prepared(ctx.db, 'SELECT name FROM hosts WHERE id = ? AND companyId = ?')
        .pluck()
        .get(hostId, caller.companyId)) as string | undefined) ?? null);

/** An invitation by its QR code (`portaria:invitee:<id>`), its id or its card number. */
export async function findInviteeByCode(ctx: Context, caller: Caller, code: string): Promise<InviteeRow | undefined> {
  const text = code.trim();
  const id = /^portaria:invitee:(.+)$/i.exec(text)?.[1] ?? text;
  if (isUuidV4(id)) return await findInvitee(ctx, caller, id.toLowerCase());
  if (!/^\d{1,10}$/.test(text)) return undefined;
  return (await prepared(
    ctx.db,
    'SELECT * FROM invitees WHERE companyId = ? AND cardNumber = ? AND deletedAt IS NULL LIMIT 1',
  ).get(caller.companyId, Number(text))) as InviteeRow | undefined;
}

/** Guests expected today, not canceled or arrived, whose name is the one typed (give or take a typo). */
export async function findInviteesByName(ctx: Context, caller: Caller, name: string): Promise<InviteeRow[]> {
  const { start, end } = dayAround(ctx.clock.now(), caller.timeZone);
  const rows = (await prepared(
    ctx.db,
    `SELECT * FROM invitees WHERE companyId = ? AND deletedAt IS NULL AND status = 'confirmed'
     AND expectedAt >= ? AND expectedAt < ?`,
  ).all(caller.companyId, start, end)) as InviteeRow[];
  return rows.filter((row) => namesMatch(name, String(row.name ?? ''))).slice(0, maxNameMatches);
}

/** What the kiosk shows of an invitation it found. */
export async function inviteeShown(ctx: Context, caller: Caller, row: InviteeRow, ticket: string) {
  const expectedAt = Number(row.expectedAt);
  const { start, end } = dayAround(ctx.clock.now(), caller.timeZone);
  return {
    ticket,
    ...firstNameAndInitial(String(row.name ?? '')),
    expectedAt: formatInZone(expectedAt, caller.timeZone),
    expectedToday: expectedAt >= start && expectedAt < end,
    hostName: await hostName(ctx, caller, row.hostId),
    // What the kiosk needs to ask what the invitation lacks: its type, which fields and questions it answered (ids,
    // not the answers), whether it brought a picture, and what the guest pre-registered (docs/kiosk.md).
    visitorTypeId: (row.visitorTypeId as string | null) ?? null,
    answeredFieldIds: [
      ...(JSON.parse(String(row.customFields)) as { id: string; type: string; value?: string | null }[])
        .filter((field) => isAnswered({ type: field.type, options: [], required: true }, field.value ?? undefined))
        .map((field) => field.id),
      ...(JSON.parse(row.questionnaireFields) as { customFieldId: string; value: string }[])
        .filter((answer) => answer.value.trim() !== '')
        .map((answer) => answer.customFieldId),
    ],
    hasPicture: row.pictureFile !== null || Boolean(row.pictureUrl) || row.registrationPicture !== null,
    preRegistered: row.registeredAt !== null,
    hasAgreement: row.registrationNda !== null,
  };
}

/** Visits inside now whose visitor's name is the one typed (give or take a typo). */
export async function findVisitsInsideByName(ctx: Context, caller: Caller, name: string): Promise<VisitRow[]> {
  const rows = (await prepared(
    ctx.db,
    `SELECT * FROM visits WHERE companyId = ? AND deletedAt IS NULL AND isInsideCompany = 1 AND checkoutAt IS NULL`,
  ).all(caller.companyId)) as VisitRow[];
  return rows.filter((row) => namesMatch(name, String(row.name ?? ''))).slice(0, maxNameMatches);
}

/** How long after its check-in a visit that has left is still known by its badge (to say it was checked out). */
const badgeKnownMs = 12 * 3_600_000;

/**
 * The visit a badge names (`portaria:visit:<id>`, or the id): one still inside, or checked in within the last 12
 * hours; undefined for an older one, as for an unknown code.
 */
export async function visitOfBadge(ctx: Context, caller: Caller, code: string): Promise<VisitRow | undefined> {
  const id = /^portaria:visit:(.+)$/i.exec(code.trim())?.[1] ?? code.trim();
  const row = isUuidV4(id) ? await findVisit(ctx, caller, id.toLowerCase()) : undefined;
  if (!row) return undefined;
  const inside = row.isInsideCompany === 1 && row.checkoutAt === null;
  return inside || Number(row.checkinAt) >= ctx.clock.now() - badgeKnownMs ? row : undefined;
}

/** Whether and how far the host was told: the screen says "notified" only once a channel confirmed it. */
async function noticeFields(ctx: Context, caller: Caller, visitId: string) {
  const notice = await hostNotice(ctx, caller.companyId, visitId);
  return { hostNotified: notice === 'notified', hostNotification: notice };
}

/** The visit as the kiosk shows it: the visitor's own details and the host's name. */
export async function kioskVisitObject(ctx: Context, caller: Caller, row: VisitRow) {
  const time = (ms: unknown) => (typeof ms === 'number' ? formatInZone(ms, caller.timeZone) : null);
  const status = row.authorizationStatus as keyof typeof authorizationStatusOut | null;
  return {
    id: row.id,
    name: (row.name as string | null) ?? null,
    company: (row.company as string | null) ?? null,
    hostName: await hostName(ctx, caller, (row.hostId as string | null) ?? null),
    checkinAt: time(row.checkinAt) ?? '',
    checkoutAt: time(row.checkoutAt),
    isInsideCompany: row.isInsideCompany === 1,
    authorizationStatus: (status ? authorizationStatusOut[status] : null) as 'waiting' | 'allowed' | 'denied' | null,
    visitorStatus: row.visitorStatus === 'BLOCKED' ? ('BLOCKED' as const) : null,
    pictureSignedUrl: fileUrls(ctx, row.pictureFile).signedUrl,
    cardNumber: row.cardNumber === null || row.cardNumber === undefined ? null : String(row.cardNumber),
    visitorTypeId: (row.visitorTypeId as string | null) ?? null,
    ...(await noticeFields(ctx, caller, row.id)),
    gateCodeSent: await passMessageQueued(ctx, caller.companyId, row.id),
  };
}
