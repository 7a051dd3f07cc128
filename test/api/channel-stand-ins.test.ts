import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type StandIn, startSlack, startTeams, startTwilio, type TwilioStandIn } from '../helpers/channels.ts';

/*
 * The stand-ins of Slack, Teams and Twilio refuse what the real services refuse: the channel tests that pass
 * against them could fail.
 */

let slack: StandIn;
let teams: StandIn;
let twilio: TwilioStandIn;
before(async () => {
  [slack, teams, twilio] = await Promise.all([startSlack(), startTeams(), startTwilio()]);
});
after(async () => {
  await Promise.all([slack.close(), teams.close(), twilio.close()]);
});

const post = async (url: string, body: string, headers: Record<string, string>) => {
  const response = await fetch(url, { method: 'POST', body, headers });
  return [response.status, await response.text()] as const;
};
const json = { 'content-type': 'application/json' };
const button = (fields: Record<string, unknown>) => ({
  type: 'actions',
  elements: [{ type: 'button', text: { type: 'plain_text', text: 'Allow' }, url: 'https://x.test/a', ...fields }],
});

test('Slack: ok for Block Kit it takes, invalid_blocks otherwise', async () => {
  const section = { type: 'section', text: { type: 'mrkdwn', text: '*Hi*' } };
  const message = (blocks: unknown[]) => JSON.stringify({ text: 'Hi', blocks });
  assert.deepEqual(await post(slack.url, message([section, button({})]), json), [200, 'ok']);
  const refused: [string, Record<string, string>][] = [
    [message([section, button({ text: { type: 'mrkdwn', text: 'Allow' } })]), json],
    [message([section, button({ text: { type: 'plain_text', text: 'A'.repeat(76) } })]), json],
    [message([section, button({ url: 'javascript:alert(1)' })]), json],
    [message([section, button({ style: 'secondary' })]), json],
    [message([{ type: 'section', text: { type: 'mrkdwn', text: 'x'.repeat(3001) } }]), json],
    [message([{ type: 'image', image_url: 'https://x.test/p.png' }]), json],
    [JSON.stringify({ blocks: [section] }), json],
    [message([section]), { 'content-type': 'text/plain' }],
  ];
  for (const [body, headers] of refused)
    assert.deepEqual(await post(slack.url, body, headers), [400, 'invalid_blocks']);
});

test('Teams: 202 for a message with an Adaptive Card, 400 otherwise', async () => {
  const card = (content: Record<string, unknown>, contentType = 'application/vnd.microsoft.card.adaptive') =>
    JSON.stringify({ type: 'message', attachments: [{ contentType, content }] });
  const good = {
    $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
    type: 'AdaptiveCard',
    version: '1.4',
    body: [{ type: 'TextBlock', text: 'Hi' }],
    actions: [{ type: 'Action.OpenUrl', title: 'Allow', url: 'https://x.test/a' }],
  };
  assert.equal((await post(teams.url, card(good), json))[0], 202);
  for (const body of [
    card(good, 'application/vnd.microsoft.card.hero'),
    card({ ...good, version: '1.6' }),
    card({ ...good, body: [] }),
    card({ ...good, actions: [{ type: 'Action.Submit', title: 'Allow' }] }),
    JSON.stringify(good),
  ]) {
    assert.equal((await post(teams.url, body, json))[0], 400, body);
  }
});

test('Twilio: 201 queued for an authenticated form with an E.164 To; its errors otherwise', async () => {
  const path = `${twilio.url}/2010-04-01/Accounts/${twilio.accountSid}/Messages.json`;
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const basic = (token: string) => ({
    ...form,
    authorization: `Basic ${Buffer.from(`${twilio.accountSid}:${token}`).toString('base64')}`,
  });
  const fields = (to: string) => new URLSearchParams({ To: to, From: '+15005550006', Body: 'Hi' }).toString();
  const [status, answer] = await post(path, fields('+5511987654321'), basic(twilio.authToken));
  assert.equal(status, 201);
  assert.equal(JSON.parse(answer).status, 'queued');
  assert.equal((await post(path, fields('+5511987654321'), basic('wrong')))[0], 401);
  assert.equal(JSON.parse((await post(path, fields('11987654321'), basic(twilio.authToken)))[1]).code, 21211);
  assert.equal((await post(`${twilio.url}/Messages.json`, fields('+5511987654321'), basic(twilio.authToken)))[0], 404);
  twilio.failWith(500);
  assert.equal((await post(path, fields('+5511987654321'), basic(twilio.authToken)))[0], 500);
  twilio.failWith(undefined);
});
