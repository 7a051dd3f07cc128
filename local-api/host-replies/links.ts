import type { Context } from '../context.ts';
import type { MessageAction } from '../notifications/channels.ts';
import { publicLink } from '../public/links.ts';

/** How long the links of a check-in's message work: a visitor who waits longer has gone to the reception. */
export const replyLinkLifetimeMs = 4 * 3_600_000;

/** The labels of a message's links, in the message's language. */
export interface ReplyLabels {
  allowLabel: string;
  denyLabel: string;
  onMyWayLabel: string;
}

/**
 * The links a host's "your visitor is here" message carries (docs/api.md, "Deciding from the message"): Allow and
 * Deny for a visit waiting for the host, "I'm on my way" otherwise; each its own single-use link of purpose
 * `decide`, expiring after `replyLinkLifetimeMs`. None where the service has no public address.
 */
export async function replyActions(
  ctx: Pick<Context, 'db' | 'secrets' | 'random' | 'runtime' | 'clock'>,
  companyId: string,
  visitId: string,
  awaiting: boolean,
  labels: ReplyLabels,
): Promise<MessageAction[]> {
  const expiresAt = ctx.clock.now() + replyLinkLifetimeMs;
  const link = async () => await publicLink(ctx, companyId, { purpose: 'decide', subjectId: visitId, expiresAt });
  const wanted: Omit<MessageAction, 'url'>[] = awaiting
    ? [
        { id: 'allow', label: labels.allowLabel, style: 'primary' },
        { id: 'deny', label: labels.denyLabel, style: 'danger' },
      ]
    : [{ id: 'onMyWay', label: labels.onMyWayLabel, style: 'primary' }];
  const actions: MessageAction[] = [];
  for (const action of wanted) {
    const url = await link();
    if (url === undefined) return [];
    actions.push({ ...action, url });
  }
  return actions;
}
