import { companyCaller } from '../companies/store.ts';
import { type Context, inTransaction } from '../context.ts';
import type { Caller } from '../credentials/caller.ts';
import { ApiError } from '../http/errors.ts';
import { consumeLink, type LinkClaims } from '../public/links.ts';
import { prepared } from '../store/rows.ts';
import type { VisitRow } from '../visits/contract.ts';
import { authorizeVisit } from '../visits/store.ts';

/** What a host answered from their message's page. */
export const hostAnswers = ['ALLOWED', 'DENIED', 'ON_MY_WAY'] as const;
export type HostAnswer = (typeof hostAnswers)[number];

/** A host's reply to a check-in's message: when they first opened its page, and when and what they answered. */
export interface HostReplyRow {
  id: string;
  companyId: string;
  hostId: string | null;
  openedAt: number | null;
  answeredAt: number | null;
  answer: HostAnswer | null;
  updatedAt: number;
}

export async function findHostReply(
  ctx: Pick<Context, 'db'>,
  companyId: string,
  visitId: string,
): Promise<HostReplyRow | undefined> {
  return (await prepared(ctx.db, 'SELECT * FROM host_replies WHERE id = ? AND companyId = ?').get(
    visitId,
    companyId,
  )) as HostReplyRow | undefined;
}

/**
 * The company's visit a link names; undefined when this service does not hold it (yet). A visit deleted since (or
 * erased) makes the link `LINK_INVALID`: there is nothing left to decide.
 */
export async function visitOfLink(ctx: Pick<Context, 'db'>, claims: LinkClaims): Promise<VisitRow | undefined> {
  const row = (await prepared(ctx.db, 'SELECT * FROM visits WHERE id = ? AND companyId = ?').get(
    claims.subjectId,
    claims.companyId,
  )) as VisitRow | undefined;
  if (row && row.deletedAt !== null) throw new ApiError('LINK_INVALID');
  return row;
}

/**
 * Notes that the host opened the message's page, the first time only (a later open changes nothing, and so sends
 * nothing down the feed). A mail scanner that fetches the link counts as an open: the page cannot tell them apart.
 */
export async function recordOpened(ctx: Pick<Context, 'db' | 'clock'>, visit: VisitRow): Promise<void> {
  const now = ctx.clock.now();
  await prepared(
    ctx.db,
    `INSERT INTO host_replies (id, companyId, hostId, openedAt, answeredAt, answer, updatedAt)
     VALUES (?, ?, ?, ?, NULL, NULL, ?) ON CONFLICT (id) DO NOTHING`,
  ).run(visit.id, visit.companyId, visit.hostId ?? null, now, now);
}

async function recordAnswer(ctx: Pick<Context, 'db' | 'clock'>, visit: VisitRow, answer: HostAnswer): Promise<void> {
  const now = ctx.clock.now();
  await prepared(
    ctx.db,
    `INSERT INTO host_replies (id, companyId, hostId, openedAt, answeredAt, answer, updatedAt)
     VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET answeredAt = excluded.answeredAt, answer = excluded.answer,
       updatedAt = excluded.updatedAt`,
  ).run(visit.id, visit.companyId, visit.hostId ?? null, now, now, answer, now);
}

/**
 * Who acts when a host answers from a link: the company, as the link's own credential (the audit log records
 * `decide-link` and, for an allow or deny, the host as `actorHostId`), in the language of the host's browser.
 */
async function linkCaller(ctx: Context, companyId: string, lang: string): Promise<Caller> {
  const caller = await companyCaller(ctx, companyId);
  if (!caller) throw new ApiError('LINK_INVALID');
  return { ...caller, lang, role: 'frontdesk', credentialId: 'decide-link' };
}

/** What a host's answer came to: done now, already decided by someone, or the visit not yet at this service. */
export type ReplyOutcome =
  | { kind: 'done'; visit: VisitRow; answer: HostAnswer }
  | { kind: 'decided'; visit: VisitRow }
  | { kind: 'reception'; visit: VisitRow }
  | { kind: 'notHere' };

/**
 * A host's answer from the page of a link, in one transaction: the link is used up (single-use; a second POST is
 * `LINK_USED`) and, for an allow or deny of a visit still waiting, the visit is decided as the API decides it, by
 * the visit's host (`authorizedById`), `authorizationVia: LINK`. A visit someone decided already is left as it is
 * (and the link unused), and so is one held at the door for the front desk. A visit this service does not hold yet (the kiosk has not pushed it) changes nothing.
 */
export async function answerFromLink(
  ctx: Context,
  claims: LinkClaims,
  answer: HostAnswer,
  lang: string,
): Promise<ReplyOutcome> {
  return await inTransaction(ctx, async () => {
    const visit = await visitOfLink(ctx, claims);
    if (!visit) return { kind: 'notHere' };
    const deciding = answer !== 'ON_MY_WAY';
    if (deciding && visit.authorizationStatus !== 'AWAITING') return { kind: 'decided', visit };
    // Held at the door (the hub's blocklist names the visitor): the front desk decides, not the host's link.
    if (deciding && visit.heldAtDoor) return { kind: 'reception', visit };
    if (!(await consumeLink(ctx, claims))) throw new ApiError('LINK_USED');
    let answered = visit;
    if (deciding) {
      const caller = await linkCaller(ctx, claims.companyId, lang);
      answered = await authorizeVisit(ctx, caller, visit.id, answer, {
        authorizedById: visit.hostId ?? undefined,
        authorizationVia: 'LINK',
      });
    }
    await recordAnswer(ctx, visit, answer);
    return { kind: 'done', visit: answered, answer };
  });
}
