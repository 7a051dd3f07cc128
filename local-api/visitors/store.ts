import { type Context, inTransaction } from '../context.ts';
import type { Caller } from '../credentials/caller.ts';
import { ApiError } from '../http/errors.ts';
import type { ListQuery } from '../http/list-query.ts';
import { forgetDeletedRow, settleErasures } from '../privacy/store.ts';
import { cpfKey, documentKey, emailKey, phoneKey, phoneTail } from '../rules/identity.ts';
import { newRecordId } from '../rules/ids.ts';
import { findLiveRow, insertRow, listRows, prepared, updateRow } from '../store/rows.ts';
import { type VisitorRow, visitorDataFields } from './contract.ts';
import { visitorObject } from './present.ts';

export type VisitorData = Partial<Record<(typeof visitorDataFields)[number], string | null>>;

async function findVisitor(ctx: Context, caller: Caller, id: string): Promise<VisitorRow | undefined> {
  return await findLiveRow<VisitorRow>(ctx.db, 'visitors', caller.companyId, id);
}

export async function getVisitor(ctx: Context, caller: Caller, id: string): Promise<VisitorRow> {
  const row = await findVisitor(ctx, caller, id);
  if (!row) throw new ApiError('NOT_FOUND');
  return row;
}

/** The keys a returning person is recognized by, normalized as the blocklist's. */
const recognitionKeys = (person: VisitorData) => ({
  cpfKey: cpfKey(person.cpf),
  documentKey: documentKey(person.document),
  emailKey: emailKey(person.email),
});

/**
 * The consent columns a check-in's answer to "remember me" writes (docs/security.md, "Returning visitors"): yes
 * keeps the phone's keys the kiosk finds the visitor by; no takes them out, so the visitor can no longer be found.
 * No answer (a check-in that did not ask) changes nothing.
 */
function consentColumns(remember: boolean | null | undefined, phone: string | null | undefined, at: number) {
  if (remember === undefined || remember === null) return {};
  const key = remember ? phoneKey(phone) : null;
  return { rememberConsent: remember ? 1 : 0, rememberConsentAt: at, phoneKey: key, phoneTail: phoneTail(key) };
}

/** A visitor a visit names must be the company's. */
export async function requireVisitor(ctx: Context, caller: Caller, id: string | null | undefined): Promise<void> {
  if (id && !(await findVisitor(ctx, caller, id))) throw new ApiError('VISITOR_NOT_FOUND');
}

/**
 * The visitor record of a person at the door: the one the check-in names, else the one whose CPF, document or
 * e-mail (in that order of trust) matches, else a new one. The record takes the person's newest data (what was
 * given; absent fields keep their value), the host it came for, the answer to "remember me" when the check-in asked
 * it, and counts the visit. Runs inside the check-in's transaction.
 */
export async function recognizeVisitor(
  ctx: Context,
  caller: Caller,
  person: VisitorData,
  at: number,
  visitorId?: string | null,
  visit: { rememberVisitor?: boolean | null | undefined; hostId?: string | null | undefined } = {},
): Promise<string> {
  const keys = recognitionKeys(person);
  let known: VisitorRow | undefined;
  if (visitorId) {
    known = await findVisitor(ctx, caller, visitorId);
    if (!known) throw new ApiError('VISITOR_NOT_FOUND');
  } else {
    for (const key of ['cpfKey', 'documentKey', 'emailKey'] as const) {
      if (keys[key] === null) continue;
      known = (await prepared(
        ctx.db,
        `SELECT * FROM visitors WHERE companyId = ? AND ${key} = ? AND deletedAt IS NULL ORDER BY createdAt LIMIT 1`,
      ).get(caller.companyId, keys[key])) as VisitorRow | undefined;
      if (known) break;
    }
  }
  const given = Object.fromEntries(
    visitorDataFields.filter((field) => person[field] != null && person[field] !== '').map((f) => [f, person[f]]),
  );
  const givenKeys = Object.fromEntries(Object.entries(keys).filter(([, value]) => value !== null));
  const consent = {
    ...consentColumns(visit.rememberVisitor, person.phone || known?.phone, at),
    ...(visit.hostId ? { lastHostId: visit.hostId } : {}),
  };
  if (known) {
    await updateRow(ctx.db, 'visitors', caller.companyId, known.id, {
      ...given,
      ...givenKeys,
      ...consent,
      lastVisitAt: at,
      visitCount: known.visitCount + 1,
      updatedAt: ctx.clock.now(),
    });
    return known.id;
  }
  const id = newRecordId(ctx.random);
  const now = ctx.clock.now();
  await insertRow(ctx.db, 'visitors', {
    ...given,
    ...keys,
    ...consent,
    id,
    companyId: caller.companyId,
    createdAt: now,
    updatedAt: now,
    lastVisitAt: at,
    visitCount: 1,
  });
  return id;
}

/** Forgets a visitor record, keeping none of its data; their visits keep the data they were made with. */
export async function deleteVisitor(ctx: Context, caller: Caller, id: string): Promise<void> {
  await inTransaction(ctx, async () => {
    await getVisitor(ctx, caller, id);
    await ctx.events.decide('visitor.deleted', caller);
    await forgetDeletedRow(ctx, caller.companyId, 'visitors', id, ctx.clock.now());
    const row = (await prepared(ctx.db, 'SELECT * FROM visitors WHERE id = ?').get(id)) as VisitorRow;
    await ctx.events.publish('visitor.deleted', caller, () => visitorObject(row, caller.timeZone));
  });
  await ctx.db.afterCommit(() => settleErasures(ctx));
}

export const listVisitors = async (ctx: Context, caller: Caller, query: ListQuery) =>
  await listRows<VisitorRow>(ctx.db, 'visitors', caller.companyId, query);
