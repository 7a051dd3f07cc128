import { createHmac, timingSafeEqual } from 'node:crypto';
import { type Context, inTransaction } from '../context.ts';
import type { Caller } from '../credentials/caller.ts';
import { findHost } from '../hosts/store.ts';
import { ApiError } from '../http/errors.ts';
import { findInvitee } from '../invitees/store.ts';
import { issueTicket } from '../kiosk/tickets.ts';
import type { NotificationSettings } from '../notifications/settings.ts';
import { enqueue } from '../queue/queue.ts';
import { cpfKey, documentKey, emailKey, phoneKey, phoneTail, samePhone } from '../rules/identity.ts';
import { hexId, isUuidV4 } from '../rules/ids.ts';
import { isLanguage, type Language } from '../rules/lang.ts';
import { prepared } from '../store/rows.ts';
import type { VisitorRow } from '../visitors/contract.ts';
import { findVisit } from '../visits/store.ts';
import { type CodeChannel, codeRules } from './schema.ts';

/** The job that sends a one-time code (`returning/delivery.ts`). */
export const returningCodeJobKind = 'returning-code';

/** The ways this company can send a code: e-mail with its SMTP settings, SMS with its Twilio-compatible API. */
export function codeChannelsOf(settings: NotificationSettings | undefined): CodeChannel[] {
  if (!settings) return [];
  const sms = settings.twilioAccountSid !== '' && settings.twilioAuthToken !== '' && settings.twilioFrom !== '';
  return [...(settings.smtpHost !== '' ? ['email' as const] : []), ...(sms ? ['sms' as const] : [])];
}

/** A live visitor record of the caller's company (the first `?`) whose latest answer to "remember me" is yes. */
const consenting = 'companyId = ? AND deletedAt IS NULL AND rememberConsent = 1';

/**
 * The visitor record a person's identifiers name, if that visitor said yes to being remembered (docs/security.md,
 * "Returning visitors"): the one a visit names, when this service has it; else the one whose CPF, document or
 * e-mail matches, as a check-in recognizes them (on a kiosk of a hub, a visit the hub made names the hub's record,
 * which the kiosk has not).
 */
async function consentingVisitor(
  ctx: Context,
  caller: Caller,
  person: { visitorId?: unknown; email?: unknown; cpf?: unknown; document?: unknown },
): Promise<VisitorRow | undefined> {
  if (typeof person.visitorId === 'string') {
    const row = (await prepared(
      ctx.db,
      'SELECT * FROM visitors WHERE id = ? AND companyId = ? AND deletedAt IS NULL',
    ).get(person.visitorId, caller.companyId)) as VisitorRow | undefined;
    // The record the visit names decides: a no there is not overruled by another record's yes.
    if (row) return row.rememberConsent === 1 ? row : undefined;
  }
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  const keys = {
    cpfKey: cpfKey(text(person.cpf)),
    documentKey: documentKey(text(person.document)),
    emailKey: emailKey(text(person.email)),
  };
  for (const [column, key] of Object.entries(keys)) {
    if (key === null) continue;
    const row = (await prepared(
      ctx.db,
      `SELECT * FROM visitors WHERE ${column} = ? AND ${consenting} ORDER BY lastVisitAt DESC LIMIT 1`,
    ).get(key, caller.companyId)) as VisitorRow | undefined;
    if (row) return row;
  }
  return undefined;
}

/**
 * The consenting visitor an earlier badge (`portaria:visit:<id>`) or invitation (`portaria:invitee:<id>`) names:
 * the visit's visitor, or the visitor of the invitation's visit, else the one its identifiers match.
 */
export async function visitorOfCode(ctx: Context, caller: Caller, code: string): Promise<VisitorRow | undefined> {
  const [, kind, id = ''] = /^portaria:(visit|invitee):(.+)$/i.exec(code.trim()) ?? [];
  if (!kind || !isUuidV4(id)) return undefined;
  if (kind.toLowerCase() === 'visit') {
    const visit = await findVisit(ctx, caller, id.toLowerCase());
    return visit && (await consentingVisitor(ctx, caller, visit));
  }
  const invitee = await findInvitee(ctx, caller, id.toLowerCase());
  if (!invitee) return undefined;
  const visit = (await prepared(
    ctx.db,
    `SELECT visitorId FROM visits WHERE inviteeId = ? AND companyId = ? AND deletedAt IS NULL
     ORDER BY checkinAt DESC LIMIT 1`,
  ).get(invitee.id, caller.companyId)) as { visitorId: string | null } | undefined;
  return await consentingVisitor(ctx, caller, { ...invitee, visitorId: visit?.visitorId ?? null });
}

/** An address as typed: an e-mail (it has an @) or a phone (8 digits or more); else INVALID_PARAMETER. */
export function addressOf(typed: string): { channel: CodeChannel; key: string } {
  if (typed.includes('@')) {
    const key = emailKey(typed);
    if (key && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(key)) return { channel: 'email', key };
  } else {
    const key = phoneKey(typed);
    if (key) return { channel: 'sms', key };
  }
  throw new ApiError('INVALID_PARAMETER', { field: 'address' });
}

/** The consenting visitor an address names: by the e-mail key, or by the phone kept for lookups. */
async function visitorOfAddress(
  ctx: Context,
  caller: Caller,
  address: { channel: CodeChannel; key: string },
): Promise<VisitorRow | undefined> {
  if (address.channel === 'email') {
    return (await prepared(
      ctx.db,
      `SELECT * FROM visitors WHERE emailKey = ? AND ${consenting} ORDER BY lastVisitAt DESC LIMIT 1`,
    ).get(address.key, caller.companyId)) as VisitorRow | undefined;
  }
  const rows = (await prepared(
    ctx.db,
    `SELECT * FROM visitors WHERE phoneTail = ? AND ${consenting} ORDER BY lastVisitAt DESC`,
  ).all(phoneTail(address.key), caller.companyId)) as VisitorRow[];
  return rows.find((row) => row.phoneKey !== null && samePhone(String(row.phoneKey), address.key));
}

/**
 * The calling code the typed number has in front of the one the record keeps ("55" when "+55 11 98765-4321" was
 * typed and "11 98765-4321" kept): with it, a number kept without its country can be texted. Empty otherwise.
 */
function callingCodeTyped(address: { channel: CodeChannel; key: string }, visitor: VisitorRow | undefined): string {
  const kept = typeof visitor?.phoneKey === 'string' ? visitor.phoneKey : '';
  if (address.channel !== 'sms' || kept === '' || !address.key.endsWith(kept)) return '';
  return address.key.slice(0, address.key.length - kept.length);
}

/** Six digits, uniform: 32-bit draws above the last whole million are drawn again. */
function newCode(ctx: Context): string {
  const limit = Math.floor(2 ** 32 / 10 ** codeRules.digits) * 10 ** codeRules.digits;
  for (;;) {
    const value = ctx.random.bytes(4).readUInt32BE(0);
    if (value < limit) return String(value % 10 ** codeRules.digits).padStart(codeRules.digits, '0');
  }
}

const hashKeys = new WeakMap<Context['secrets'], Buffer>();

/** The stored form of a code: an HMAC with a key derived from the device key, bound to its challenge. */
function codeHash(ctx: Context, challenge: string, code: string): Buffer {
  let key = hashKeys.get(ctx.secrets);
  if (!key) {
    key = ctx.secrets.deriveKey('returning-codes');
    hashKeys.set(ctx.secrets, key);
  }
  return createHmac('sha256', key).update(`${challenge}.${code}`).digest();
}

/**
 * Starts a proof by code: makes a code for the address and queues its message, whether or not the address is of a
 * visitor who can be found. The same steps run either way (the job looks the visitor up when it sends), so neither
 * the answer nor its time says whether the address is known.
 */
export async function startChallenge(
  ctx: Context,
  caller: Caller,
  address: { channel: CodeChannel; key: string },
  lang: Language | undefined,
): Promise<{ challenge: string; expiresAt: number }> {
  return await inTransaction(ctx, async () => {
    const now = ctx.clock.now();
    await prepared(ctx.db, 'DELETE FROM returning_codes WHERE expiresAt <= ?').run(now);
    const visitor = await visitorOfAddress(ctx, caller, address);
    const challenge = hexId(ctx.random, 16);
    const code = newCode(ctx);
    const expiresAt = now + codeRules.lifetimeMs;
    await prepared(
      ctx.db,
      `INSERT INTO returning_codes (id, companyId, credentialId, visitorId, codeHash, attempts, expiresAt, createdAt)
       VALUES (?, ?, ?, ?, ?, 0, ?, ?)`,
    ).run(
      challenge,
      caller.companyId,
      caller.credentialId,
      visitor?.id ?? null,
      codeHash(ctx, challenge, code).toString('hex'),
      expiresAt,
      now,
    );
    await enqueue(ctx, {
      companyId: caller.companyId,
      kind: returningCodeJobKind,
      idempotencyKey: challenge,
      // The code travels sealed: the queue is no place for it in clear.
      payload: {
        challenge,
        channel: address.channel,
        lang: lang && isLanguage(lang) ? lang : caller.lang,
        code: ctx.secrets.seal(code),
        callingCode: callingCodeTyped(address, visitor),
      },
      endpoint: address.channel,
      priority: 'urgent',
      giveUpAfterMs: codeRules.lifetimeMs,
    });
    return { challenge, expiresAt };
  });
}

interface CodeRow {
  id: string;
  visitorId: string | null;
  codeHash: string;
  attempts: number;
  expiresAt: number;
}

/**
 * Checks a code against its challenge (made at this kiosk, live, with attempts left), in constant time. A right
 * code ends the challenge and answers its visitor, if they can still be found; a wrong one counts, and the last
 * allowed ends it. Answers the visitor, or what went wrong.
 */
export async function verifyChallenge(
  ctx: Context,
  caller: Caller,
  challenge: string,
  code: string,
): Promise<{ visitor: VisitorRow } | { wrong: number } | { expired: true }> {
  return await inTransaction(ctx, async () => {
    const row = (await prepared(
      ctx.db,
      'SELECT * FROM returning_codes WHERE id = ? AND companyId = ? AND credentialId = ?',
    ).get(challenge, caller.companyId, caller.credentialId)) as CodeRow | undefined;
    if (!row || Number(row.expiresAt) <= ctx.clock.now() || Number(row.attempts) >= codeRules.maxAttempts) {
      return { expired: true as const };
    }
    const typed = code.replace(/\s/g, '');
    const right =
      /^\d+$/.test(typed) && timingSafeEqual(codeHash(ctx, row.id, typed), Buffer.from(row.codeHash, 'hex'));
    const visitor =
      right && row.visitorId ? await consentingVisitor(ctx, caller, { visitorId: row.visitorId }) : undefined;
    if (visitor) {
      await prepared(ctx.db, 'DELETE FROM returning_codes WHERE id = ?').run(row.id);
      return { visitor };
    }
    const attempts = Number(row.attempts) + 1;
    await prepared(ctx.db, 'UPDATE returning_codes SET attempts = ? WHERE id = ?').run(attempts, row.id);
    return { wrong: codeRules.maxAttempts - attempts };
  });
}

/** The identifiers a visitor record keeps (e-mail, phone, CPF, RG, document), those it has. */
export async function identifiersKept(
  ctx: Context,
  caller: Caller,
  visitorId: string,
): Promise<Partial<Record<'email' | 'phone' | 'cpf' | 'rg' | 'document', string>>> {
  const row = (await prepared(
    ctx.db,
    'SELECT email, phone, cpf, rg, document FROM visitors WHERE id = ? AND companyId = ? AND deletedAt IS NULL',
  ).get(visitorId, caller.companyId)) as Record<string, string | null> | undefined;
  return Object.fromEntries(Object.entries(row ?? {}).filter(([, value]) => value !== null && value !== ''));
}

/**
 * What the kiosk fills in for a visitor who proved who they are: their name and company, and the host of their
 * latest visit while an active host; with the ticket that lets the check-in update this visitor's record.
 */
export async function returningShown(ctx: Context, caller: Caller, visitor: VisitorRow) {
  const hostId = visitor.lastHostId;
  const host = typeof hostId === 'string' ? await findHost(ctx, caller, hostId) : undefined;
  return {
    ticket: issueTicket(ctx, caller.companyId, 'returning-visitor', visitor.id),
    name: (visitor.name as string | null) ?? null,
    company: (visitor.company as string | null) ?? null,
    host:
      host && host.isActive === 1
        ? { id: host.id, name: String(host.name), sector: (host.sector as string | null) ?? null }
        : null,
  };
}
