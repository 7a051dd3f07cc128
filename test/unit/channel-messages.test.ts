import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  type Delivery,
  slackLimits,
  slackMessage,
  smsText,
  teamsMessage,
} from '../../local-api/notifications/channels.ts';
import { reminderTime } from '../../local-api/notifications/reminders.ts';

const delivery = (fields: Partial<Delivery> = {}): Delivery => ({
  key: 'k',
  to: [],
  subject: 'Your visitor Walter has arrived',
  text: 'Walter checked in.',
  body: {},
  ...fields,
});

test("Slack: every field within Slack's limits, cut with an ellipsis", () => {
  const message = slackMessage(
    delivery({
      text: 'x'.repeat(5000),
      actions: [{ id: 'allow', label: 'A'.repeat(100), url: 'https://visit.test/p/decide/t', style: 'primary' }],
      pictureUrl: `https://visit.test/${'p'.repeat(3000)}`,
    }),
  ) as { blocks: { type: string; text?: { text: string }; elements?: { text: { text: string } }[] }[] };
  const [section, actions, ...rest] = message.blocks;
  assert.equal(section?.text?.text.length, slackLimits.sectionText);
  assert.ok(section?.text?.text.endsWith('…'));
  assert.equal(actions?.type, 'actions', 'a picture address over 3000 characters is left out, not cut');
  assert.equal(actions?.elements?.[0]?.text.text.length, slackLimits.buttonText);
  assert.deepEqual(rest, []);
});

test('Slack: &, < and > escaped in the blocks and the fallback, so no mention or link comes from a name', () => {
  const message = slackMessage(delivery({ subject: 'A <!here> & <https://evil.test|click>', recipient: 'For Ana' }));
  const raw = JSON.stringify(message);
  assert.equal(raw.includes('<'), false);
  assert.match(String(message.text), /^For Ana: A &lt;!here&gt; &amp; &lt;https:\/\/evil\.test\|click&gt;/);
});

test('Teams: action styles as Adaptive Cards name them; no picture, no Image', () => {
  const card = teamsMessage(
    delivery({
      actions: [
        { id: 'allow', label: 'Allow', url: 'https://visit.test/a', style: 'primary' },
        { id: 'deny', label: 'Deny', url: 'https://visit.test/d', style: 'danger' },
        { id: 'open', label: 'Open', url: 'https://visit.test/o' },
      ],
    }),
  ) as { attachments: { content: { body: { type: string }[]; actions: Record<string, unknown>[] } }[] };
  const content = card.attachments[0]?.content;
  assert.deepEqual(
    content?.actions.map((action) => action.style),
    ['positive', 'destructive', undefined],
  );
  assert.deepEqual(
    content?.body.map((element) => element.type),
    ['RichTextBlock', 'RichTextBlock'],
  );
});

test('SMS: the message kept to three segments, then every link whole', () => {
  const url = `https://visit.test/p/decide/${'t'.repeat(200)}`;
  const text = smsText({ text: 'y'.repeat(1000), actions: [{ id: 'allow', label: 'Allow', url }] });
  assert.equal(text, `${'y'.repeat(479)}…\n\nAllow: ${url}`);
});

test('the reminder is due its lead time before the guest, at once within it, never after the expected time', () => {
  const minute = 60_000;
  const now = 1_000 * minute;
  assert.equal(reminderTime(now + 60 * minute, 15, now), now + 45 * minute);
  assert.equal(reminderTime(now + 10 * minute, 15, now), now);
  assert.equal(reminderTime(now + 10 * minute, 0, now), now + 10 * minute);
  assert.equal(reminderTime(now, 15, now), undefined);
  assert.equal(reminderTime(now - minute, 15, now), undefined);
});
