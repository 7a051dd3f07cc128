import { auditActor, recordAudit } from '../audit/store.ts';
import { type BlocklistMatch, screenVisitor } from '../blocklist/store.ts';
import { type Context, inTransaction } from '../context.ts';
import type { Caller } from '../credentials/caller.ts';
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

function findVisitAnyState(ctx: Context, id: string): VisitRow | undefined {
  return prepared(ctx.db, 'SELECT * FROM visits WHERE id = ?').get(id) as VisitRow | undefined;
}

export function findVisit(ctx: Context, caller: Caller, id: string): VisitRow | undefined {
  return findLiveRow<VisitRow>(ctx.db, 'visits', caller.companyId, id);
}

export function getVisit(ctx: Context, caller: Caller, id: string): VisitRow {
  const row = findVisit(ctx, caller, id);
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

function requireHost(ctx: Context, caller: Caller, hostId: string | null | undefined): void {
  if (hostId && !findHost(ctx, caller, hostId)) throw new ApiError('HOST_NOT_FOUND');
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
function ownReferences<T extends VisitReferences>(ctx: Context, caller: Caller, fields: T, replayed: boolean): T {
  const checked = { ...fields };
  const own = (table: 'hosts' | 'meetings', id: string, live: boolean, code: ErrorCode) => {
    if (live) return id;
    if (!replayed) throw new ApiError(code);
    return companyHasRow(ctx, caller, table, id) ? id : null;
  };
  if (checked.meetingId) {
    const id = checked.meetingId;
    checked.meetingId = own('meetings', id, findMeeting(ctx, caller, id) !== undefined, 'MEETING_NOT_FOUND');
  }
  for (const key of ['checkinByHostId', 'checkoutByHostId'] as const) {
    const id = checked[key];
    if (id) checked[key] = own('hosts', id, findHost(ctx, caller, id) !== undefined, 'HOST_NOT_FOUND');
  }
  return checked;
}

function publishVisit(ctx: Context, caller: Caller, name: EventName, row: VisitRow): void {
  ctx.events.publish(name, caller, () => visitObject(ctx, caller, row), row);
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
function fileColumns(uploads: VisitUploads, files: FileBatch, current?: VisitRow) {
  const columns: { pictureFile?: string | null; ndaFile?: string | null } = {};
  if (uploads.picture !== undefined) {
    files.retire(current?.pictureFile);
    columns.pictureFile = uploads.picture && files.save(uploads.picture);
  }
  if (uploads.nda !== undefined) {
    files.retire(current?.ndaFile);
    columns.ndaFile = uploads.nda && files.save(uploads.nda);
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
function atTheDoor(
  ctx: Context,
  caller: Caller,
  person: PersonAtDoor & Record<string, string | null | undefined>,
  at: number,
  requested: { visitorId?: string | null; visitorStatus?: string | null; statusNote?: string | null },
  options: CheckinOptions,
) {
  const match = screenVisitor(ctx, caller, person);
  const held = match?.on === 'name';
  const blocked = match !== undefined && !held;
  const requestedBlock = requested.visitorStatus === 'BLOCKED';
  return {
    visitorId: recognizeVisitor(ctx, caller, person, at, options.replayed ? undefined : requested.visitorId),
    visitorStatus: blocked ? 'BLOCKED' : (requested.visitorStatus ?? null),
    statusNote: match ? blockedNote(caller.lang, match.on, match.entry.reason) : (requested.statusNote ?? null),
    heldAtDoor: held,
    ...(held && !options.replayed ? { authorizationStatus: 'AWAITING' as const } : {}),
    letIn: !requestedBlock && (options.replayed || !blocked),
  };
}

/** Whether the company has the row, live or deleted. */
function companyHasRow(ctx: Context, caller: Caller, table: 'hosts' | 'invitees' | 'meetings', id: string): boolean {
  return (
    prepared(ctx.db, `SELECT 1 FROM ${table} WHERE id = ? AND companyId = ?`).get(id, caller.companyId) !== undefined
  );
}

type WalkInFields = Omit<VisitCreateInput['visit'], 'customFields' | 'questionnaireFields' | 'feedbacks'>;

/**
 * The hosts and invitation a check-in refers to. At the door they must be live. A replayed check-in happened
 * already: a host or an invitation deleted meanwhile does not undo it. The visit keeps each reference the company
 * still has a row for (a deleted one), drops one it has none for (lost to a restore from a backup), and is flagged
 * for review when the invitation or the visit's host is gone.
 */
function checkinReferences(ctx: Context, caller: Caller, fields: WalkInFields, options: CheckinOptions) {
  if (!options.replayed) {
    requireHost(ctx, caller, fields.hostId);
    requireHost(ctx, caller, fields.authorizedById);
    return { fields, inviteeId: null };
  }
  const kept = (table: 'hosts' | 'invitees', id: string | null | undefined) =>
    id && companyHasRow(ctx, caller, table, id) ? id : null;
  const hostGone = Boolean(fields.hostId) && !findHost(ctx, caller, String(fields.hostId));
  const authorizerGone = Boolean(fields.authorizedById) && !findHost(ctx, caller, String(fields.authorizedById));
  const lostInvitee = options.lostInviteeId;
  const flag = lostInvitee !== undefined ? 'INVITEE_NOT_FOUND' : hostGone ? 'HOST_NOT_FOUND' : null;
  return {
    fields: {
      ...fields,
      ...(hostGone ? { hostId: kept('hosts', fields.hostId) } : {}),
      ...(authorizerGone ? { authorizedById: kept('hosts', fields.authorizedById) } : {}),
      ...(flag ? { statusNote: flag, authorizationStatus: 'AWAITING' as const } : {}),
    },
    inviteeId: kept('invitees', lostInvitee),
  };
}

/**
 * Walk-in check-in. The visit's id is made by the client, so a retried POST (the kiosk lost the answer) finds
 * the visit it already made and answers it unchanged instead of creating a second one.
 */
export function checkinWalkIn(
  ctx: Context,
  caller: Caller,
  input: VisitCreateInput,
  options: CheckinOptions = {},
): VisitRow {
  const { visit, visitor } = input;
  if (!isUuidV4(visit.id)) throw new ApiError('INVALID_ID');
  const uploads = decodeUploads(input);
  return inTransactionWithFiles(ctx, caller, (files) => {
    const existing = findVisitAnyState(ctx, visit.id);
    if (existing) {
      if (existing.companyId !== caller.companyId || existing.deletedAt !== null) throw new ApiError('ALREADY_EXISTS');
      return existing;
    }
    if (!visitor.name) throw new ApiError('MISSING_NAME');
    const { companyId: _ignored, customFields, questionnaireFields, feedbacks, ...requested } = visit;
    if (!options.replayed) requireVisitorType(ctx, caller, visit.visitorTypeId);
    const rules = typeRules(ctx, caller, visit.visitorTypeId);
    const references = checkinReferences(ctx, caller, requested, options);
    const fields = ownReferences(ctx, caller, references.fields, options.replayed === true);
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
    const answers = checkinAnswers(
      ctx,
      caller,
      { customFields, questionnaireFields, feedbacks },
      answerMode(options),
      rules?.customFieldIds ?? null,
    );
    ctx.events.decide('visit.checkin', caller);
    const { letIn, ...door } = atTheDoor(ctx, caller, visitor, checkinAt, fields, options);
    const row = insertReturningRow<VisitRow>(ctx.db, 'visits', {
      ...objectToRow({ ...dates, ...visitor, ...answers, ...door }, visitColumns),
      ...fileColumns(uploads, files),
      ...(inviteeId ? { inviteeId } : {}),
      checkinType: visit.checkinType ?? 'API',
      cardNumber: visit.cardNumber ?? String(freeCardNumber(ctx, caller)),
      checkinAt,
      checkoutAt,
      isInsideCompany: checkoutAt === null && letIn ? 1 : 0,
      companyId: caller.companyId,
      createdAt: now,
      updatedAt: now,
    });
    publishVisit(ctx, caller, 'visit.checkin', row);
    return row;
  });
}

function openVisitOfInvitee(ctx: Context, caller: Caller, inviteeId: string): VisitRow | undefined {
  return prepared(
    ctx.db,
    `SELECT * FROM visits WHERE inviteeId = ? AND companyId = ? AND deletedAt IS NULL
     ORDER BY checkoutAt IS NULL DESC, checkinAt DESC LIMIT 1`,
  ).get(inviteeId, caller.companyId) as VisitRow | undefined;
}

function requireInvitee(ctx: Context, caller: Caller, inviteeId: string): InviteeRow {
  const invitee = findInvitee(ctx, caller, inviteeId);
  if (!invitee) throw new ApiError('INVITEE_NOT_FOUND');
  return invitee;
}

/**
 * Checks an invitee in: the visit copies the invitee's data and card number, the invitee becomes `arrived`, and
 * the visit waits for the host when the invitee requires authorization. Checking in an invitee who is inside
 * already answers that visit (a retried scan is not a second entry).
 */
export function checkinInvitee(
  ctx: Context,
  caller: Caller,
  inviteeId: string,
  input: InviteeCheckinInput,
  options: CheckinOptions = {},
): VisitRow {
  if (input.id !== undefined && !isUuidV4(input.id)) throw new ApiError('INVALID_ID');
  const uploads = decodeUploads(input);
  return inTransactionWithFiles(ctx, caller, (files) => {
    const invitee = requireInvitee(ctx, caller, inviteeId);
    if (input.id) {
      const existing = findVisitAnyState(ctx, input.id);
      if (existing) {
        if (existing.companyId !== caller.companyId || existing.inviteeId !== inviteeId) {
          throw new ApiError('ALREADY_EXISTS');
        }
        return existing;
      }
    }
    const open = openVisitOfInvitee(ctx, caller, inviteeId);
    const canceled = invitee.status === 'canceled';
    if (open && open.checkoutAt === null && !options.replayed) return open;
    if (canceled && !options.replayed) throw new ApiError('INVITEE_CANCELED');
    const flag = canceled ? 'INVITEE_CANCELED' : open && open.checkoutAt === null ? 'ALREADY_INSIDE' : null;
    const now = ctx.clock.now();
    const checkinAt = (resolveDate(input.checkinAt, caller, 'WRONG_CHECKIN_AT_FORMAT') as number | undefined) ?? now;
    const id = input.id ?? newUuid(ctx.random);
    const visitorTypeId = (invitee.visitorTypeId as string | null) ?? null;
    const rules = typeRules(ctx, caller, visitorTypeId);
    const asked = rules?.customFieldIds ?? null;
    const given = {
      customFields: mergeAnswers(liveAnswers(ctx, caller, inviteeAnswers(invitee)), input.customFields ?? []),
      questionnaireFields: input.questionnaireFields,
    };
    const waived = input.waiveReason !== undefined && !options.replayed && !options.stoppedAtDoor;
    const answers = checkinAnswers(ctx, caller, given, waived ? 'waived' : answerMode(options), asked);
    ctx.events.decide('visit.checkin', caller);
    if (waived) {
      // The log is append-only, out of an erasure's reach: the reason is kept without the visitor's data.
      const reason = redactText(input.waiveReason ?? '', tellingValues([invitee]));
      recordAudit(ctx, auditActor(caller), {
        action: 'visit.requirements.waived',
        objectType: 'visit',
        objectId: id,
        details: { reason, unanswered: unansweredRequired(ctx, caller, answers, asked) },
      });
    }
    const person = invitee as InviteeRow & PersonIds & Record<string, string | null>;
    const { letIn, ...door } = atTheDoor(ctx, caller, person, checkinAt, {}, options);
    const row = insertReturningRow<VisitRow>(ctx.db, 'visits', {
      ...objectToRow({ ...answers, ...door }, visitColumns),
      ...fileColumns(uploads, files),
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
      ndaSignature: input.ndaSignature ?? null,
      cardNumber: String(invitee.cardNumber),
      expectedAt: invitee.expectedAt,
      checkinAt,
      checkinType: input.checkinType ?? 'INVITES',
      checkinByIpadId: input.checkinByIpadId ?? null,
      checkinByHostId: input.checkinByHostId ?? null,
      authorizationStatus:
        door.authorizationStatus ??
        (flag !== null || invitee.requiresAuthorization === 1 || rules?.requireAuthorization ? 'AWAITING' : null),
      statusNote: door.statusNote ?? flag,
      isInsideCompany: letIn ? 1 : 0,
    });
    if (!canceled) markInviteeArrived(ctx, caller, inviteeId);
    publishVisit(ctx, caller, 'visit.checkin', row);
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
export function screenCheckin(ctx: Context, caller: Caller, input: ScreenInput): { stop: boolean } {
  if (!isUuidV4(input.visit.id)) throw new ApiError('INVALID_ID');
  if (input.inviteeId !== undefined) {
    const invitee = requireInvitee(ctx, caller, input.inviteeId);
    if (
      !findVisitAnyState(ctx, input.visit.id) &&
      !stopsAtDoor(screenVisitor(ctx, caller, invitee as InviteeRow & PersonIds))
    ) {
      return { stop: false };
    }
    const visit = checkinInvitee(ctx, caller, input.inviteeId, { id: input.visit.id }, { stoppedAtDoor: true });
    return { stop: visit.visitorStatus === 'BLOCKED' };
  }
  const visitor = input.visitor ?? {};
  if (!findVisitAnyState(ctx, input.visit.id) && !stopsAtDoor(screenVisitor(ctx, caller, visitor)))
    return { stop: false };
  const visit = checkinWalkIn(ctx, caller, { visit: input.visit, visitor }, { stoppedAtDoor: true });
  return { stop: visit.visitorStatus === 'BLOCKED' };
}

/** The invitee's answers completed by those given at check-in: one per field, the later one kept. */
function mergeAnswers(registered: readonly AnswerItem[], given: readonly AnswerItem[]): AnswerItem[] {
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

function applyCheckout(ctx: Context, caller: Caller, row: VisitRow, input: CheckoutInput): VisitRow {
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
    checkoutByHostId: ownReferences(ctx, caller, input, caller.replayedFor !== undefined).checkoutByHostId ?? null,
    checkoutByIpadId: input.checkoutByIpadId ?? null,
    updatedAt: now,
  };
  ctx.events.decide('visit.checkout', caller);
  updateRow(ctx.db, 'visits', caller.companyId, row.id, changes);
  // The stored row is the one read with exactly these columns set: no need to read it back.
  const updated: VisitRow = { ...row, ...changes };
  publishVisit(ctx, caller, 'visit.checkout', updated);
  return updated;
}

/** Ends a visit's presence. A visit checked out stays checked out: a second check-out is ALREADY_CHECKOUT. */
export function checkoutVisit(ctx: Context, caller: Caller, id: string, input: CheckoutInput): VisitRow {
  return inTransaction(ctx, () => applyCheckout(ctx, caller, getVisit(ctx, caller, id), input));
}

/** Checks out the invitee's visit that is still open. */
export function checkoutInvitee(ctx: Context, caller: Caller, inviteeId: string, input: CheckoutInput): VisitRow {
  return inTransaction(ctx, () => {
    requireInvitee(ctx, caller, inviteeId);
    const visit = openVisitOfInvitee(ctx, caller, inviteeId);
    if (!visit) throw new ApiError('NOT_FOUND');
    return applyCheckout(ctx, caller, visit, input);
  });
}

export function authorizeVisit(
  ctx: Context,
  caller: Caller,
  id: string,
  status: 'ALLOWED' | 'DENIED',
  input: AuthorizationInput,
): VisitRow {
  return inTransaction(ctx, () => {
    getVisit(ctx, caller, id);
    requireHost(ctx, caller, input.authorizedById);
    const event = status === 'ALLOWED' ? 'visit.allowed' : 'visit.denied';
    ctx.events.decide(event, caller);
    const now = ctx.clock.now();
    updateRow(ctx.db, 'visits', caller.companyId, id, {
      authorizationStatus: status,
      authorizedAt: now,
      authorizedById: input.authorizedById ?? null,
      authorizationVia: input.authorizationVia ?? 'DASHBOARD',
      updatedAt: now,
    });
    const row = getVisit(ctx, caller, id);
    publishVisit(ctx, caller, event, row);
    return row;
  });
}

/** Updates a visit; `uploads` are its files, from the input's Base64 fields unless sent as themselves. */
export function updateVisit(
  ctx: Context,
  caller: Caller,
  id: string,
  input: VisitUpdateInput,
  uploads: VisitUploads = decodeUploads(input),
): VisitRow {
  return inTransactionWithFiles(ctx, caller, (files) => {
    const current = getVisit(ctx, caller, id);
    const { customFields, questionnaireFields, feedbacks, ...given } = input.visit ?? {};
    const fields = ownReferences(ctx, caller, given, caller.replayedFor !== undefined);
    requireHost(ctx, caller, fields.hostId);
    requireHost(ctx, caller, fields.authorizedById);
    requireVisitor(ctx, caller, fields.visitorId);
    const answers = checkinAnswers(ctx, caller, { customFields, questionnaireFields, feedbacks }, 'update');
    ctx.events.decide('visit.updated', caller);
    updateRow(ctx.db, 'visits', caller.companyId, id, {
      ...objectToRow({ ...resolveDates(fields, caller), ...input.visitor, ...answers }, visitColumns),
      ...fileColumns(uploads, files, current),
      updatedAt: ctx.clock.now(),
    });
    const row = getVisit(ctx, caller, id);
    publishVisit(ctx, caller, 'visit.updated', row);
    return row;
  });
}

/** Replaces a visit's picture or signed NDA with the file sent as itself (PUT /v1/visit/:id/picture and /nda). */
export function putVisitFile(ctx: Context, caller: Caller, id: string, file: Upload): VisitRow {
  const uploads = file.purpose === 'visit-nda' ? { picture: undefined, nda: file } : { picture: file, nda: undefined };
  return updateVisit(ctx, caller, id, {}, uploads);
}

/** Deletes a visit, keeping none of the visitor's data in its row (see `forgetDeletedRow`). */
export function deleteVisit(ctx: Context, caller: Caller, id: string): void {
  inTransaction(ctx, () => {
    getVisit(ctx, caller, id);
    ctx.events.decide('visit.deleted', caller);
    forgetDeletedRow(ctx, caller.companyId, 'visits', id, ctx.clock.now());
    publishVisit(
      ctx,
      caller,
      'visit.deleted',
      prepared(ctx.db, 'SELECT * FROM visits WHERE id = ?').get(id) as VisitRow,
    );
  });
  settleErasures(ctx);
}

export const listVisits = (ctx: Context, caller: Caller, query: ListQuery) =>
  listRows<VisitRow>(ctx.db, 'visits', caller.companyId, query);
