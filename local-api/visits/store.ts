import { auditActor, recordAudit } from '../audit/store.ts';
import { type BlocklistMatch, screenVisitor } from '../blocklist/store.ts';
import { type Context, inTransaction } from '../context.ts';
import type { Caller } from '../credentials/caller.ts';
import { guestsScope, requireOwnGuest } from '../credentials/guests.ts';
import { checkinAnswers, liveAnswers, unansweredRequired } from '../custom-fields/store.ts';
import type { EventName } from '../events.ts';
import { decodeNda, decodePicture, type FileBatch, inTransactionWithFiles, type Upload } from '../files/store.ts';
import { findHost } from '../hosts/store.ts';
import { ApiError, type ErrorCode } from '../http/errors.ts';
import type { ListQuery, QueryFields } from '../http/list-query.ts';
import type { InviteeRow } from '../invitees/contract.ts';
import { findInvitee, freeCardNumber, markInviteeArrived } from '../invitees/store.ts';
import { findMeeting } from '../meetings/store.ts';
import { blockedNote } from '../notifications/messages.ts';
import { redactText, tellingValues } from '../privacy/person.ts';
import { forgetDeletedRow, settleErasures } from '../privacy/store.ts';
import { registeredUploads } from '../registration/uploads.ts';
import type { PersonAtDoor, PersonIds } from '../rules/identity.ts';
import { isUuidV4, newUuid } from '../rules/ids.ts';
import { parseTimestampInput } from '../rules/time.ts';
import { findLiveRow, insertReturningRow, listRows, objectToRow, prepared, updateRow } from '../store/rows.ts';
import { requireVisitorType, typeRules } from '../visitor-types/store.ts';
import { recognizeVisitor, requireVisitor } from '../visitors/store.ts';
import { type AnswerItem, type VisitRow, visitColumnQueryFields, visitColumns, visitDateFields } from './contract.ts';
import { visitObject } from './present.ts';
import type {
  AuthorizationInput,
  CheckoutInput,
  InviteeCheckinInput,
  ScreenInput,
  VisitCreateInput,
  VisitUpdateInput,
} from './schema.ts';

/** The list-query fields of visits: the visit's own and its host's name. */
export const visitQueryFields: QueryFields = {
  ...visitColumnQueryFields,
  hostName: {
    kind: 'text',
    related: {
      foreignKey: 'hostId',
      select: (comparison) => `SELECT id FROM hosts WHERE companyId = :companyId AND name ${comparison}`,
    },
  },
};

async function findVisitAnyState(ctx: Context, id: string): Promise<VisitRow | undefined> {
  return (await prepared(ctx.db, 'SELECT * FROM visits WHERE id = ?').get(id)) as VisitRow | undefined;
}

export async function findVisit(ctx: Context, caller: Caller, id: string): Promise<VisitRow | undefined> {
  return await findLiveRow<VisitRow>(ctx.db, 'visits', caller.companyId, id, guestsScope(caller));
}

export async function getVisit(ctx: Context, caller: Caller, id: string): Promise<VisitRow> {
  const row = await findVisit(ctx, caller, id);
  if (!row) throw new ApiError('NOT_FOUND');
  return row;
}

function resolveDate(value: string | number | null | undefined, caller: Caller, code: ErrorCode) {
  if (value === null || value === undefined) return value;
  const at = parseTimestampInput(value, caller.timeZone);
  if (at === undefined) throw new ApiError(code);
  return at;
}

/** Dates of a visit input into milliseconds in the company's zone (the check-in and check-out with their codes). */
function resolveDates(input: Record<string, unknown>, caller: Caller): Record<string, unknown> {
  const resolved: Record<string, unknown> = { ...input };
  for (const key of visitDateFields) {
    if (!(key in input)) continue;
    const code: ErrorCode =
      key === 'checkinAt'
        ? 'WRONG_CHECKIN_AT_FORMAT'
        : key === 'checkoutAt'
          ? 'WRONG_CHECKOUT_AT_FORMAT'
          : 'INVALID_PARAMETER';
    resolved[key] = resolveDate(input[key] as string | number | null | undefined, caller, code);
  }
  return resolved;
}

async function requireHost(ctx: Context, caller: Caller, hostId: string | null | undefined): Promise<void> {
  if (hostId && !(await findHost(ctx, caller, hostId))) throw new ApiError('HOST_NOT_FOUND');
}

interface VisitReferences {
  meetingId?: string | null;
  checkinByHostId?: string | null;
  checkoutByHostId?: string | null;
}

/**
 * The visit's other references (its meeting, the hosts who checked it in and out) must name the company's own
 * live rows: another company's id, or an unknown one, is refused. A replayed write happened already at a kiosk
 * and is kept, as `checkinReferences` keeps it: a reference to a row the company deleted meanwhile stays, one the
 * company has no row for is dropped (null).
 */
async function ownReferences<T extends VisitReferences>(
  ctx: Context,
  caller: Caller,
  fields: T,
  replayed: boolean,
): Promise<T> {
  const checked = { ...fields };
  const own = async (table: 'hosts' | 'meetings', id: string, live: boolean, code: ErrorCode) => {
    if (live) return id;
    if (!replayed) throw new ApiError(code);
    return (await companyHasRow(ctx, caller, table, id)) ? id : null;
  };
  if (checked.meetingId) {
    const id = checked.meetingId;
    checked.meetingId = await own(
      'meetings',
      id,
      (await findMeeting(ctx, caller, id)) !== undefined,
      'MEETING_NOT_FOUND',
    );
  }
  for (const key of ['checkinByHostId', 'checkoutByHostId'] as const) {
    const id = checked[key];
    if (id) checked[key] = await own('hosts', id, (await findHost(ctx, caller, id)) !== undefined, 'HOST_NOT_FOUND');
  }
  return checked;
}

async function publishVisit(ctx: Context, caller: Caller, name: EventName, row: VisitRow): Promise<void> {
  await ctx.events.publish(name, caller, async () => await visitObject(ctx, caller, row), row);
}

/** A check-in's files, decoded and checked before the write begins: undefined not sent, null removed. */
interface VisitUploads {
  picture: Upload | null | undefined;
  nda: Upload | null | undefined;
}

function decodeUploads(input: { visitPicture?: string | null; visitNda?: string | null }): VisitUploads {
  const decode = (text: string | null | undefined, read: (text: string) => Upload) =>
    text === undefined ? undefined : text ? read(text) : null;
  return {
    picture: decode(input.visitPicture, (text) => decodePicture(text, 'visitPicture', 'visit-picture')),
    nda: decode(input.visitNda, (text) => decodeNda(text, 'visitNda')),
  };
}

/** The visit's file columns after the uploads: new files saved, the ones they replace retired. */
async function fileColumns(uploads: VisitUploads, files: FileBatch, current?: VisitRow) {
  const columns: { pictureFile?: string | null; ndaFile?: string | null } = {};
  if (uploads.picture !== undefined) {
    await files.retire(current?.pictureFile);
    columns.pictureFile = uploads.picture && (await files.save(uploads.picture));
  }
  if (uploads.nda !== undefined) {
    await files.retire(current?.ndaFile);
    columns.ndaFile = uploads.nda && (await files.save(uploads.nda));
  }
  return columns;
}

export interface CheckinOptions {
  /**
   * The check-in already happened, at a kiosk that was offline (a sync replay, docs/sync.md). It is recorded even
   * when the kiosk could not know better: an invitee canceled or inside already, a host deleted meanwhile; such a
   * visit is flagged for review (`statusNote` says why, the authorization waits) instead of refused. Its answers
   * were checked by the kiosk, against the definitions it had, and are kept as they are.
   */
  replayed?: boolean;
  /**
   * A replayed check-in of an invitation this service no longer has (deleted meanwhile, or lost to a restore from
   * a backup), recorded as a walk-in from the kiosk's own record of the visit and flagged INVITEE_NOT_FOUND.
   */
  lostInviteeId?: string;
  /**
   * The visitor is stopped by the blocklist before finishing the kiosk's steps (`screenCheckin`): the visit is
   * recorded with what is known so far, without the answers a complete check-in requires.
   */
  stoppedAtDoor?: boolean;
}

/**
 * The kiosk that checked a visitor in, for the analytics by kiosk (docs/console.md, "Analytics"): the kiosk's own
 * credential at its screen; on a hub, the kiosk device (its `sync` credential) that replayed it, whatever id the
 * kiosk wrote for itself; else what the client said.
 */
function checkinKiosk(caller: Caller, given: string | null | undefined): string | null {
  if (caller.role === 'sync' || (caller.role === 'kiosk' && !given)) return caller.credentialId;
  return given ?? null;
}

/** Answers are checked at the door; a replay's were checked by the kiosk. */
const answerMode = (options: CheckinOptions) =>
  options.replayed ? 'replay' : options.stoppedAtDoor ? 'waived' : 'checkin';

/**
 * The door's part of a check-in: the visitor record (a returning visitor is recognized) and the blocklist. A
 * visitor who matches an entry's identifier is recorded as BLOCKED with a note in the company's language, and is
 * not let in. One whose name is an entry's with no identifier to tell them apart is held (`heldAtDoor`): the visit
 * waits for the front desk's decision, as one waiting for approval does, with a note saying why. A replayed
 * check-in happened already, at a kiosk: who entered is the kiosk's record (it may not have known the entry), so a
 * match marks the visit, which alerts the door's hosts, without changing its presence or authorization; and the
 * kiosk's own visitor id means nothing here, the person is recognized by their identifiers.
 */
async function atTheDoor(
  ctx: Context,
  caller: Caller,
  person: PersonAtDoor & Record<string, string | null | undefined>,
  at: number,
  requested: {
    visitorId?: string | null;
    visitorStatus?: string | null;
    statusNote?: string | null;
    rememberVisitor?: boolean | null;
    hostId?: string | null;
  },
  options: CheckinOptions,
) {
  const match = await screenVisitor(ctx, caller, person);
  const held = match?.on === 'name';
  const blocked = match !== undefined && !held;
  const requestedBlock = requested.visitorStatus === 'BLOCKED';
  return {
    visitorId: await recognizeVisitor(
      ctx,
      caller,
      person,
      at,
      options.replayed ? undefined : requested.visitorId,
      requested,
    ),
    visitorStatus: blocked ? 'BLOCKED' : (requested.visitorStatus ?? null),
    statusNote: match ? blockedNote(caller.lang, match.on, match.entry.reason) : (requested.statusNote ?? null),
    heldAtDoor: held,
    ...(held && !options.replayed ? { authorizationStatus: 'AWAITING' as const } : {}),
    letIn: !requestedBlock && (options.replayed || !blocked),
  };
}

/** Whether the company has the row, live or deleted. */
async function companyHasRow(
  ctx: Context,
  caller: Caller,
  table: 'hosts' | 'invitees' | 'meetings',
  id: string,
): Promise<boolean> {
  return (
    (await prepared(ctx.db, `SELECT 1 FROM ${table} WHERE id = ? AND companyId = ?`).get(id, caller.companyId)) !==
    undefined
  );
}

type WalkInFields = Omit<VisitCreateInput['visit'], 'customFields' | 'questionnaireFields' | 'feedbacks'>;

/**
 * The hosts and invitation a check-in refers to. At the door they must be live. A replayed check-in happened
 * already: a host or an invitation deleted meanwhile does not undo it. The visit keeps each reference the company
 * still has a row for (a deleted one), drops one it has none for (lost to a restore from a backup), and is flagged
 * for review when the invitation or the visit's host is gone.
 */
async function checkinReferences(ctx: Context, caller: Caller, fields: WalkInFields, options: CheckinOptions) {
  if (!options.replayed) {
    await requireHost(ctx, caller, fields.hostId);
    await requireHost(ctx, caller, fields.authorizedById);
    return { fields, inviteeId: null };
  }
  const kept = async (table: 'hosts' | 'invitees', id: string | null | undefined) =>
    id && (await companyHasRow(ctx, caller, table, id)) ? id : null;
  const hostGone = Boolean(fields.hostId) && !(await findHost(ctx, caller, String(fields.hostId)));
  const authorizerGone =
    Boolean(fields.authorizedById) && !(await findHost(ctx, caller, String(fields.authorizedById)));
  const lostInvitee = options.lostInviteeId;
  const flag = lostInvitee !== undefined ? 'INVITEE_NOT_FOUND' : hostGone ? 'HOST_NOT_FOUND' : null;
  return {
    fields: {
      ...fields,
      ...(hostGone ? { hostId: await kept('hosts', fields.hostId) } : {}),
      ...(authorizerGone ? { authorizedById: await kept('hosts', fields.authorizedById) } : {}),
      ...(flag ? { statusNote: flag, authorizationStatus: 'AWAITING' as const } : {}),
    },
    inviteeId: await kept('invitees', lostInvitee),
  };
}

/**
 * Walk-in check-in. The visit's id is made by the client, so a retried POST (the kiosk lost the answer) finds
 * the visit it already made and answers it unchanged instead of creating a second one.
 */
export async function checkinWalkIn(
  ctx: Context,
  caller: Caller,
  input: VisitCreateInput,
  options: CheckinOptions = {},
): Promise<VisitRow> {
  const { visit, visitor } = input;
  if (!isUuidV4(visit.id)) throw new ApiError('INVALID_ID');
  const uploads = decodeUploads(input);
  return await inTransactionWithFiles(ctx, caller, async (files) => {
    const existing = await findVisitAnyState(ctx, visit.id);
    if (existing) {
      if (existing.companyId !== caller.companyId || existing.deletedAt !== null) throw new ApiError('ALREADY_EXISTS');
      return existing;
    }
    if (!visitor.name) throw new ApiError('MISSING_NAME');
    const { companyId: _ignored, customFields, questionnaireFields, feedbacks, ...requested } = visit;
    if (!options.replayed) await requireVisitorType(ctx, caller, visit.visitorTypeId);
    const rules = await typeRules(ctx, caller, visit.visitorTypeId);
    const references = await checkinReferences(ctx, caller, requested, options);
    const fields = await ownReferences(ctx, caller, references.fields, options.replayed === true);
    const { inviteeId } = references;
    // The type's approval rule, unless the client decided the authorization itself.
    if (fields.authorizationStatus === undefined && rules?.requireAuthorization)
      fields.authorizationStatus = 'AWAITING';
    const dates = resolveDates(fields, caller);
    const now = ctx.clock.now();
    const checkinAt = (dates.checkinAt as number | undefined) ?? now;
    const checkoutAt = (dates.checkoutAt as number | null | undefined) ?? null;
    if (checkoutAt !== null && Math.floor(checkoutAt / 1000) < Math.floor(checkinAt / 1000)) {
      throw new ApiError('CHECKOUT_AT_BEFORE_CHECKIN');
    }
    const answers = await checkinAnswers(
      ctx,
      caller,
      { customFields, questionnaireFields, feedbacks },
      answerMode(options),
      rules?.customFieldIds ?? null,
    );
    await ctx.events.decide('visit.checkin', caller);
    const { letIn, ...door } = await atTheDoor(ctx, caller, visitor, checkinAt, fields, options);
    const row = await insertReturningRow<VisitRow>(ctx.db, 'visits', {
      ...objectToRow({ ...dates, ...visitor, ...answers, ...door }, visitColumns),
      ...(await fileColumns(uploads, files)),
      ...(inviteeId ? { inviteeId } : {}),
      checkinType: visit.checkinType ?? 'API',
      checkinByIpadId: checkinKiosk(caller, fields.checkinByIpadId),
      cardNumber: visit.cardNumber ?? String(await freeCardNumber(ctx, caller)),
      checkinAt,
      checkoutAt,
      isInsideCompany: checkoutAt === null && letIn ? 1 : 0,
      companyId: caller.companyId,
      createdAt: now,
      updatedAt: now,
    });
    await publishVisit(ctx, caller, 'visit.checkin', row);
    return row;
  });
}

async function openVisitOfInvitee(ctx: Context, caller: Caller, inviteeId: string): Promise<VisitRow | undefined> {
  return (await prepared(
    ctx.db,
    `SELECT * FROM visits WHERE inviteeId = ? AND companyId = ? AND deletedAt IS NULL
     ORDER BY checkoutAt IS NULL DESC, checkinAt DESC LIMIT 1`,
  ).get(inviteeId, caller.companyId)) as VisitRow | undefined;
}

async function requireInvitee(ctx: Context, caller: Caller, inviteeId: string): Promise<InviteeRow> {
  const invitee = await findInvitee(ctx, caller, inviteeId);
  if (!invitee) throw new ApiError('INVITEE_NOT_FOUND');
  return invitee;
}

/**
 * Checks an invitee in: the visit copies the invitee's data and card number, the invitee becomes `arrived`, and
 * the visit waits for the host when the invitee requires authorization. Checking in an invitee who is inside
 * already answers that visit (a retried scan is not a second entry).
 */
export async function checkinInvitee(
  ctx: Context,
  caller: Caller,
  inviteeId: string,
  input: InviteeCheckinInput,
  options: CheckinOptions = {},
): Promise<VisitRow> {
  if (input.id !== undefined && !isUuidV4(input.id)) throw new ApiError('INVALID_ID');
  const uploads = decodeUploads(input);
  return await inTransactionWithFiles(ctx, caller, async (files) => {
    const invitee = await requireInvitee(ctx, caller, inviteeId);
    if (input.id) {
      const existing = await findVisitAnyState(ctx, input.id);
      if (existing) {
        if (existing.companyId !== caller.companyId || existing.inviteeId !== inviteeId) {
          throw new ApiError('ALREADY_EXISTS');
        }
        return existing;
      }
    }
    const open = await openVisitOfInvitee(ctx, caller, inviteeId);
    const canceled = invitee.status === 'canceled';
    if (open && open.checkoutAt === null && !options.replayed) return open;
    if (canceled && !options.replayed) throw new ApiError('INVITEE_CANCELED');
    const flag = canceled ? 'INVITEE_CANCELED' : open && open.checkoutAt === null ? 'ALREADY_INSIDE' : null;
    const now = ctx.clock.now();
    const checkinAt = (resolveDate(input.checkinAt, caller, 'WRONG_CHECKIN_AT_FORMAT') as number | undefined) ?? now;
    const id = input.id ?? newUuid(ctx.random);
    const visitorTypeId = (invitee.visitorTypeId as string | null) ?? null;
    const rules = await typeRules(ctx, caller, visitorTypeId);
    const asked = rules?.customFieldIds ?? null;
    // What the guest pre-registered stands where the check-in brings nothing of its own (docs/kiosk.md).
    const registered = registeredUploads(invitee);
    const given = {
      customFields: mergeAnswers(await liveAnswers(ctx, caller, inviteeAnswers(invitee)), input.customFields ?? []),
      questionnaireFields:
        invitee.registeredAt === null
          ? input.questionnaireFields
          : mergeAnswers(JSON.parse(invitee.questionnaireFields) as AnswerItem[], input.questionnaireFields ?? []),
    };
    const waived = input.waiveReason !== undefined && !options.replayed && !options.stoppedAtDoor;
    const answers = await checkinAnswers(ctx, caller, given, waived ? 'waived' : answerMode(options), asked);
    await ctx.events.decide('visit.checkin', caller);
    if (waived) {
      // The log is append-only, out of an erasure's reach: the reason is kept without the visitor's data.
      const reason = redactText(input.waiveReason ?? '', tellingValues([invitee]));
      await recordAudit(ctx, auditActor(caller), {
        action: 'visit.requirements.waived',
        objectType: 'visit',
        objectId: id,
        details: { reason, unanswered: await unansweredRequired(ctx, caller, answers, asked) },
      });
    }
    const person = invitee as InviteeRow & PersonIds & Record<string, string | null>;
    const { letIn, ...door } = await atTheDoor(ctx, caller, person, checkinAt, {}, options);
    const row = await insertReturningRow<VisitRow>(ctx.db, 'visits', {
      ...objectToRow({ ...answers, ...door }, visitColumns),
      ...(await fileColumns(
        {
          picture: uploads.picture === undefined ? registered.picture : uploads.picture,
          nda: uploads.nda === undefined ? registered.nda : uploads.nda,
        },
        files,
      )),
      id,
      companyId: caller.companyId,
      createdAt: now,
      updatedAt: now,
      inviteeId,
      hostId: invitee.hostId,
      visitorTypeId,
      meetingId: invitee.meetingId,
      name: invitee.name,
      email: invitee.email,
      phone: invitee.phone,
      cpf: invitee.cpf,
      rg: invitee.rg,
      document: invitee.document,
      address: invitee.address,
      company: invitee.company,
      position: invitee.position,
      sector: invitee.sector,
      notes: input.notes ?? invitee.notes,
      ndaSignature: input.ndaSignature ?? (input.visitNda === undefined ? invitee.ndaSignature : null),
      cardNumber: String(invitee.cardNumber),
      expectedAt: invitee.expectedAt,
      checkinAt,
      checkinType: input.checkinType ?? 'INVITES',
      checkinByIpadId: checkinKiosk(caller, input.checkinByIpadId),
      checkinByHostId: input.checkinByHostId ?? null,
      authorizationStatus:
        door.authorizationStatus ??
        (flag !== null || invitee.requiresAuthorization === 1 || rules?.requireAuthorization ? 'AWAITING' : null),
      statusNote: door.statusNote ?? flag,
      isInsideCompany: letIn ? 1 : 0,
    });
    if (!canceled) await markInviteeArrived(ctx, caller, inviteeId);
    await publishVisit(ctx, caller, 'visit.checkin', row);
    return row;
  });
}

/**
 * Whether a match stops the visitor before the kiosk's later steps: a match by name only does not, the visitor
 * goes on and their check-in is held for the front desk (the screen they end on says only that the reception will
 * confirm their visit).
 */
const stopsAtDoor = (match: BlocklistMatch | undefined) => match !== undefined && match.on !== 'name';

/**
 * The blocklist asked before the kiosk's later steps (picture, agreement), right after the visitor said who they
 * are. A match records the visit at once, as the check-in would (BLOCKED, not let in, the door's hosts told), so
 * a visitor learns nothing more by asking than by checking in; no match records nothing. The answer says only
 * whether to stop: never why, nor anything of the entry.
 */
export async function screenCheckin(ctx: Context, caller: Caller, input: ScreenInput): Promise<{ stop: boolean }> {
  if (!isUuidV4(input.visit.id)) throw new ApiError('INVALID_ID');
  if (input.inviteeId !== undefined) {
    const invitee = await requireInvitee(ctx, caller, input.inviteeId);
    if (
      !(await findVisitAnyState(ctx, input.visit.id)) &&
      !stopsAtDoor(await screenVisitor(ctx, caller, invitee as InviteeRow & PersonIds))
    ) {
      return { stop: false };
    }
    const visit = await checkinInvitee(ctx, caller, input.inviteeId, { id: input.visit.id }, { stoppedAtDoor: true });
    return { stop: visit.visitorStatus === 'BLOCKED' };
  }
  const visitor = input.visitor ?? {};
  if (!(await findVisitAnyState(ctx, input.visit.id)) && !stopsAtDoor(await screenVisitor(ctx, caller, visitor)))
    return { stop: false };
  const visit = await checkinWalkIn(ctx, caller, { visit: input.visit, visitor }, { stoppedAtDoor: true });
  return { stop: visit.visitorStatus === 'BLOCKED' };
}

/** The invitee's answers completed by those given at check-in: one per field, the later one kept. */
export function mergeAnswers(registered: readonly AnswerItem[], given: readonly AnswerItem[]): AnswerItem[] {
  const fresh = new Set(given.map((answer) => answer.customFieldId));
  return [...registered.filter((answer) => !fresh.has(answer.customFieldId)), ...given];
}

/** The invitee's Custom Field Objects as the visit's answers. */
export function inviteeAnswers(invitee: InviteeRow): AnswerItem[] {
  const fields = JSON.parse(String(invitee.customFields)) as {
    id: string;
    name: string;
    type: string;
    value?: string;
  }[];
  return fields.map((f) => ({ customFieldId: f.id, name: f.name, type: f.type, value: f.value ?? '' }));
}

async function applyCheckout(ctx: Context, caller: Caller, row: VisitRow, input: CheckoutInput): Promise<VisitRow> {
  if (row.checkoutAt !== null) throw new ApiError('ALREADY_CHECKOUT');
  const now = ctx.clock.now();
  // A check-out "now" of a visit stamped later than now (by a device clock running ahead) ends it at its check-in:
  // the person is leaving, and a visit that cannot be closed would count them inside for ever.
  const checkoutAt =
    (resolveDate(input.checkoutAt, caller, 'WRONG_CHECKOUT_AT_FORMAT') as number | undefined) ??
    Math.max(now, row.checkinAt);
  if (Math.floor(checkoutAt / 1000) < Math.floor(row.checkinAt / 1000))
    throw new ApiError('CHECKOUT_AT_BEFORE_CHECKIN');
  const changes = {
    checkoutAt,
    isInsideCompany: 0,
    checkoutType: input.checkoutType ?? 'API',
    checkoutByHostId:
      (await ownReferences(ctx, caller, input, caller.replayedFor !== undefined)).checkoutByHostId ?? null,
    checkoutByIpadId: input.checkoutByIpadId ?? null,
    updatedAt: now,
  };
  await ctx.events.decide('visit.checkout', caller);
  await updateRow(ctx.db, 'visits', caller.companyId, row.id, changes);
  // The stored row is the one read with exactly these columns set: no need to read it back.
  const updated: VisitRow = { ...row, ...changes };
  await publishVisit(ctx, caller, 'visit.checkout', updated);
  return updated;
}

/** Ends a visit's presence. A visit checked out stays checked out: a second check-out is ALREADY_CHECKOUT. */
export async function checkoutVisit(ctx: Context, caller: Caller, id: string, input: CheckoutInput): Promise<VisitRow> {
  return await inTransaction(ctx, async () => await applyCheckout(ctx, caller, await getVisit(ctx, caller, id), input));
}

/** Checks out the invitee's visit that is still open. */
export async function checkoutInvitee(
  ctx: Context,
  caller: Caller,
  inviteeId: string,
  input: CheckoutInput,
): Promise<VisitRow> {
  return await inTransaction(ctx, async () => {
    await requireInvitee(ctx, caller, inviteeId);
    const visit = await openVisitOfInvitee(ctx, caller, inviteeId);
    if (!visit) throw new ApiError('NOT_FOUND');
    return await applyCheckout(ctx, caller, visit, input);
  });
}

export async function authorizeVisit(
  ctx: Context,
  caller: Caller,
  id: string,
  status: 'ALLOWED' | 'DENIED',
  input: AuthorizationInput,
): Promise<VisitRow> {
  return await inTransaction(ctx, async () => {
    requireOwnGuest(caller, 'decide', (await getVisit(ctx, caller, id)).hostId);
    // A person's decision is theirs unless they name who decided; one who decides for their own visitors only
    // names only themselves.
    const authorizedById = input.authorizedById ?? caller.hostId;
    requireOwnGuest(caller, 'decide', authorizedById);
    await requireHost(ctx, caller, authorizedById);
    const event = status === 'ALLOWED' ? 'visit.allowed' : 'visit.denied';
    await ctx.events.decide(event, caller);
    const now = ctx.clock.now();
    await updateRow(ctx.db, 'visits', caller.companyId, id, {
      authorizationStatus: status,
      authorizedAt: now,
      authorizedById: authorizedById ?? null,
      authorizationVia: input.authorizationVia ?? 'DASHBOARD',
      updatedAt: now,
    });
    const row = await getVisit(ctx, caller, id);
    await publishVisit(ctx, caller, event, row);
    return row;
  });
}

/** Updates a visit; `uploads` are its files, from the input's Base64 fields unless sent as themselves. */
export async function updateVisit(
  ctx: Context,
  caller: Caller,
  id: string,
  input: VisitUpdateInput,
  uploads: VisitUploads = decodeUploads(input),
): Promise<VisitRow> {
  return await inTransactionWithFiles(ctx, caller, async (files) => {
    const current = await getVisit(ctx, caller, id);
    const { customFields, questionnaireFields, feedbacks, ...given } = input.visit ?? {};
    const fields = await ownReferences(ctx, caller, given, caller.replayedFor !== undefined);
    await requireHost(ctx, caller, fields.hostId);
    await requireHost(ctx, caller, fields.authorizedById);
    await requireVisitor(ctx, caller, fields.visitorId);
    const answers = await checkinAnswers(ctx, caller, { customFields, questionnaireFields, feedbacks }, 'update');
    await ctx.events.decide('visit.updated', caller);
    await updateRow(ctx.db, 'visits', caller.companyId, id, {
      ...objectToRow({ ...resolveDates(fields, caller), ...input.visitor, ...answers }, visitColumns),
      ...(await fileColumns(uploads, files, current)),
      updatedAt: ctx.clock.now(),
    });
    const row = await getVisit(ctx, caller, id);
    await publishVisit(ctx, caller, 'visit.updated', row);
    return row;
  });
}

/** Replaces a visit's picture or signed NDA with the file sent as itself (PUT /v1/visit/:id/picture and /nda). */
export async function putVisitFile(ctx: Context, caller: Caller, id: string, file: Upload): Promise<VisitRow> {
  const uploads = file.purpose === 'visit-nda' ? { picture: undefined, nda: file } : { picture: file, nda: undefined };
  return await updateVisit(ctx, caller, id, {}, uploads);
}

/** Deletes a visit, keeping none of the visitor's data in its row (see `forgetDeletedRow`). */
export async function deleteVisit(ctx: Context, caller: Caller, id: string): Promise<void> {
  await inTransaction(ctx, async () => {
    await getVisit(ctx, caller, id);
    await ctx.events.decide('visit.deleted', caller);
    await forgetDeletedRow(ctx, caller.companyId, 'visits', id, ctx.clock.now());
    await publishVisit(
      ctx,
      caller,
      'visit.deleted',
      (await prepared(ctx.db, 'SELECT * FROM visits WHERE id = ?').get(id)) as VisitRow,
    );
  });
  await ctx.db.afterCommit(() => settleErasures(ctx));
}

export const listVisits = async (ctx: Context, caller: Caller, query: ListQuery) =>
  await listRows<VisitRow>(ctx.db, 'visits', caller.companyId, query, guestsScope(caller));
