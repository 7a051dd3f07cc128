import { z } from 'zod';
import { auditActor, recordAudit } from '../audit/store.ts';
import { type Context, inTransaction } from '../context.ts';
import type { Caller } from '../credentials/caller.ts';
import { frontDeskSession, insertCredential, pruneSessions } from '../credentials/store.ts';
import { formatInZone } from '../rules/time.ts';
import { prepared } from '../store/rows.ts';

export const frontDeskSessionObject = z.object({
  token: z.string().describe('send it as `Authorization: Bearer <token>`; shown once'),
  role: z.literal('frontdesk'),
  expiresAt: z.string().describe('the latest the session can last'),
  idleSeconds: z.number().int().describe('the session ends after this long without a request'),
});

/** A front-desk session: a `frontdesk` credential for the PIN holder, idle-limited and short-lived. */
export async function openFrontDeskSession(
  ctx: Context,
  caller: Caller,
): Promise<z.output<typeof frontDeskSessionObject>> {
  const expiresAt = ctx.clock.now() + frontDeskSession.maxMs;
  const { key } = await inTransaction(ctx, async () => {
    await pruneSessions(ctx, caller.companyId);
    const session = await insertCredential(ctx, {
      companyId: caller.companyId,
      role: 'frontdesk',
      label: 'Front desk',
      expiresAt,
    });
    await recordAudit(ctx, auditActor(caller), {
      action: 'frontdesk.session.opened',
      objectType: 'credential',
      objectId: session.id,
    });
    return session;
  });
  return {
    token: key,
    role: 'frontdesk',
    expiresAt: formatInZone(expiresAt, caller.timeZone),
    idleSeconds: frontDeskSession.idleMs / 1000,
  };
}

/** Ends every front-desk session of the company (its PIN was cleared or changed by the admin). */
export async function endFrontDeskSessions(ctx: Context, caller: Caller): Promise<void> {
  const ended = (
    await prepared(
      ctx.db,
      "UPDATE credentials SET revokedAt = ? WHERE companyId = ? AND role = 'frontdesk' AND revokedAt IS NULL",
    ).run(ctx.clock.now(), caller.companyId)
  ).changes;
  if (ended > 0) {
    await recordAudit(ctx, auditActor(caller), {
      action: 'frontdesk.sessions.ended',
      objectType: 'credential',
      details: { sessions: ended },
    });
  }
}
