import { auditActor, recordAudit } from '../audit/store.ts';
import { type Context, inTransaction } from '../context.ts';
import type { Caller } from '../credentials/caller.ts';
import { ApiError } from '../http/errors.ts';
import type { ListQuery, QueryFields } from '../http/list-query.ts';
import { requireAllowedDestination } from '../outgoing/policy.ts';
import { newUuid } from '../rules/ids.ts';
import { insertRow, listRows, objectToRow, prepared, queryFieldsOf, rowToObject, updateRow } from '../store/rows.ts';
import { maxWebhooksPerCompany, type WebhookCreateInput, type WebhookUpdateInput, webhookColumns } from './schema.ts';

export type WebhookRow = Record<string, unknown> & {
  id: string;
  companyId: string;
  url: string;
  events: string;
  secret: string;
  isActive: number;
  deletedAt: number | null;
};

/** The webhook object. The secret is shown once, in the answer to the POST that made it; never read back after. */
export function webhookObject(row: WebhookRow, caller: Caller, shownSecret?: string): Record<string, unknown> {
  const {
    companyId: _company,
    secret: _sealed,
    deletedAt: _deleted,
    ...object
  } = rowToObject(row, webhookColumns, caller.timeZone);
  return { ...object, type: 'webhook', ...(shownSecret !== undefined ? { secret: shownSecret } : {}) };
}

/** A webhook as its audit entries show it: its id and whether it is on (its URL and secret stay out). */
const auditedWebhook = (row: WebhookRow) => ({
  objectType: 'webhook',
  objectId: row.id,
  details: { isActive: row.isActive === 1 },
});

export async function getWebhook(ctx: Context, caller: Caller, id: string): Promise<WebhookRow> {
  const row = (await prepared(
    ctx.db,
    'SELECT * FROM webhooks WHERE id = ? AND companyId = ? AND deletedAt IS NULL',
  ).get(id, caller.companyId)) as WebhookRow | undefined;
  if (!row) throw new ApiError('NOT_FOUND');
  return row;
}

/** Queryable as every list is (docs/api.md, "Lists"): the URL and the times and activity of the webhook. */
export const webhookQueryFields: QueryFields = queryFieldsOf(['url'], webhookColumns);

export const listWebhooks = async (ctx: Context, caller: Caller, query: ListQuery) =>
  await listRows<WebhookRow>(ctx.db, 'webhooks', caller.companyId, query);

/** Sealed before storage, like every secret; the field is dropped when the input has none. */
function sealedSecret(ctx: Context, secret: string | undefined): { secret?: string } {
  return secret === undefined ? {} : { secret: ctx.secrets.seal(secret) };
}

export async function createWebhook(
  ctx: Context,
  caller: Caller,
  input: WebhookCreateInput,
): Promise<{ row: WebhookRow; secret: string }> {
  await requireAllowedDestination(ctx, 'url', { url: input.url });
  const secret = input.secret ?? `whsec_${ctx.random.bytes(24).toString('base64url')}`;
  return await inTransaction(ctx, async () => {
    const { count } = (await prepared(
      ctx.db,
      'SELECT COUNT(*) AS count FROM webhooks WHERE companyId = ? AND deletedAt IS NULL',
    ).get(caller.companyId)) as { count: number };
    if (count >= maxWebhooksPerCompany) throw new ApiError('TOO_MANY_WEBHOOKS');
    const id = newUuid(ctx.random);
    const now = ctx.clock.now();
    await insertRow(ctx.db, 'webhooks', {
      ...objectToRow({ ...input, events: input.events ?? ['*'] }, webhookColumns),
      ...sealedSecret(ctx, secret),
      id,
      companyId: caller.companyId,
      createdAt: now,
      updatedAt: now,
    });
    const row = await getWebhook(ctx, caller, id);
    await recordAudit(ctx, auditActor(caller), { action: 'webhook.created', ...auditedWebhook(row) });
    return { row, secret };
  });
}

export async function updateWebhook(
  ctx: Context,
  caller: Caller,
  id: string,
  input: WebhookUpdateInput,
): Promise<WebhookRow> {
  if (input.url !== undefined) await requireAllowedDestination(ctx, 'url', { url: input.url });
  return await inTransaction(ctx, async () => {
    await getWebhook(ctx, caller, id);
    await updateRow(ctx.db, 'webhooks', caller.companyId, id, {
      ...objectToRow({ ...input, secret: undefined }, webhookColumns),
      ...sealedSecret(ctx, input.secret),
      updatedAt: ctx.clock.now(),
    });
    const row = await getWebhook(ctx, caller, id);
    await recordAudit(ctx, auditActor(caller), { action: 'webhook.updated', ...auditedWebhook(row) });
    return row;
  });
}

export async function deleteWebhook(ctx: Context, caller: Caller, id: string): Promise<void> {
  await inTransaction(ctx, async () => {
    await getWebhook(ctx, caller, id);
    const now = ctx.clock.now();
    await updateRow(ctx.db, 'webhooks', caller.companyId, id, { deletedAt: now, updatedAt: now });
    await recordAudit(ctx, auditActor(caller), { action: 'webhook.deleted', objectType: 'webhook', objectId: id });
  });
}
