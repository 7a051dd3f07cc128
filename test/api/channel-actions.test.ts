import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { companyCaller, createCompany } from '../../local-api/companies/store.ts';
import { inTransaction } from '../../local-api/context.ts';
import { findHost } from '../../local-api/hosts/store.ts';
import type { MessageAction } from '../../local-api/notifications/channels.ts';
import { notifyHosts } from '../../local-api/notifications/delivery.ts';
import { parseCidr } from '../../local-api/outgoing/destinations.ts';
import { type RunningService, startService } from '../../local-api/server.ts';
import {
  type ReceivedRequest,
  type StandIn,
  startSlack,
  startTeams,
  startTwilio,
  type TwilioStandIn,
} from '../helpers/channels.ts';
import { engineEnv } from '../helpers/postgres.ts';
import { client, removeDir, tempDir } from '../helpers/service.ts';
import { startSmtp, type TestSmtp } from '../helpers/smtp.ts';

/*
 * A message that offers actions (Allow and Deny, docs/api.md, "Public pages") and the visitor's picture, through
 * every channel: buttons in Slack and Teams, link lines in the e-mail and the SMS, `actions` in the webhook.
 */

let service: RunningService;
let smtp: TestSmtp;
let slack: StandIn;
let teams: StandIn;
let twilio: TwilioStandIn;

before(async () => {
  [smtp, slack, teams, twilio] = await Promise.all([startSmtp(), startSlack(), startTeams(), startTwilio()]);
  const dataDir = tempDir();
  service = await startService({
    port: 0,
    dataDir,
    database: (await engineEnv(dataDir)).PORTARIA_DATABASE,
    logLevel: 'silent',
    allowDestinations: [parseCidr('127.0.0.0/8') ?? assert.fail('a range')],
  });
});
after(async () => {
  await service.close();
  removeDir(service.ctx.dataDir);
  await Promise.all([smtp.close(), slack.close(), teams.close(), twilio.close()]);
});

const bodyOf = <T>(request: ReceivedRequest | undefined): T => (request ?? assert.fail('no request')).body as T;

test('Allow and Deny are buttons in Slack and Teams, links in the e-mail and the SMS; the picture is shown', async () => {
  const { ctx } = service;
  const company = await createCompany(ctx, { name: 'Acme', timezone: 'UTC' });
  const api = client(service.url, company.apiKey);
  const saved = await api('POST', '/v1/integration/notifications', {
    smtpHost: '127.0.0.1',
    smtpPort: smtp.port,
    smtpSecurity: 'none',
    slackWebhookUrl: `${slack.url}/services/T/B/X`,
    teamsWebhookUrl: `${teams.url}/workflows/1`,
    twilioAccountSid: twilio.accountSid,
    twilioAuthToken: twilio.authToken,
    twilioFrom: '+15005550006',
    twilioBaseUrl: twilio.url,
  });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  const hostId = (
    await api('POST', '/v1/hosts', {
      name: 'Helena',
      email: 'helena@acme.test',
      phone: '030 1234567',
      countryCode: '+49',
    })
  ).body.id as string;
  const caller = (await companyCaller(ctx, company.id)) ?? assert.fail('the company');
  const host = (await findHost(ctx, caller, hostId)) ?? assert.fail('the host');
  const actions: MessageAction[] = [
    { id: 'allow', label: 'Allow', url: 'https://visit.acme.test/p/decide/allow-token', style: 'primary' },
    { id: 'deny', label: 'Deny', url: 'https://visit.acme.test/p/decide/deny-token', style: 'danger' },
  ];
  const pictureUrl = 'https://visit.acme.test/p/picture/token';
  await inTransaction(ctx, () =>
    notifyHosts(ctx, caller, { key: 'decide:visit-1' }, [host], {
      subject: 'Walter is waiting for your approval',
      text: 'Walter (Initech) checked in and waits at the reception.',
      kind: 'visit.checkin',
      details: { visitId: 'visit-1' },
      actions,
      pictureUrl,
    }),
  );
  const [[posted], [card], [sms], [mail]] = await Promise.all([
    slack.waitFor(1),
    teams.waitFor(1),
    twilio.waitFor(1),
    smtp.waitFor(1),
  ]);

  const { blocks } = bodyOf<{ blocks: Record<string, unknown>[] }>(posted);
  assert.deepEqual(
    blocks.map((block) => block.type),
    ['section', 'image', 'actions'],
  );
  assert.deepEqual(blocks[1], {
    type: 'image',
    image_url: pictureUrl,
    alt_text: 'Walter is waiting for your approval',
  });
  assert.deepEqual(blocks[2]?.elements, [
    {
      type: 'button',
      action_id: 'allow',
      text: { type: 'plain_text', text: 'Allow', emoji: true },
      url: actions[0]?.url,
      style: 'primary',
    },
    {
      type: 'button',
      action_id: 'deny',
      text: { type: 'plain_text', text: 'Deny', emoji: true },
      url: actions[1]?.url,
      style: 'danger',
    },
  ]);

  const { attachments } = bodyOf<{ attachments: { content: Record<string, unknown> }[] }>(card);
  const content = attachments[0]?.content ?? {};
  assert.deepEqual(content.actions, [
    { type: 'Action.OpenUrl', title: 'Allow', url: actions[0]?.url, style: 'positive' },
    { type: 'Action.OpenUrl', title: 'Deny', url: actions[1]?.url, style: 'destructive' },
  ]);
  assert.ok(
    (content.body as Record<string, unknown>[]).some(
      (element) => element.type === 'Image' && element.url === pictureUrl,
    ),
  );

  const form = bodyOf<Record<string, string>>(sms);
  assert.equal(form.To, '+49301234567');
  assert.equal(
    form.Body,
    `Walter (Initech) checked in and waits at the reception.\n\nAllow: ${actions[0]?.url}\nDeny: ${actions[1]?.url}`,
  );
  assert.match(mail?.text ?? '', /Allow: https:\/\/visit\.acme\.test\/p\/decide\/allow-token\r?\nDeny: https:/);
});

test('a picture Slack cannot download does not cost the message: it goes again without it', async () => {
  const { ctx } = service;
  const blind = await startSlack({ unreachableImages: true });
  try {
    const company = await createCompany(ctx, { name: 'Intranet', timezone: 'UTC' });
    const api = client(service.url, company.apiKey);
    const saved = await api('POST', '/v1/integration/notifications', {
      slackWebhookUrl: `${blind.url}/services/T/B/X`,
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    const hostId = (await api('POST', '/v1/hosts', { name: 'Ines', email: 'ines@intranet.test' })).body.id as string;
    const caller = (await companyCaller(ctx, company.id)) ?? assert.fail('the company');
    const host = (await findHost(ctx, caller, hostId)) ?? assert.fail('the host');
    await inTransaction(ctx, () =>
      notifyHosts(ctx, caller, { key: 'decide:visit-2' }, [host], {
        subject: 'Walter is waiting for your approval',
        text: 'Walter checked in.',
        kind: 'visit.checkin',
        details: { visitId: 'visit-2' },
        actions: [{ id: 'allow', label: 'Allow', url: 'https://visit.intranet.test/p/decide/a', style: 'primary' }],
        pictureUrl: 'http://kiosk.intranet.test/p/picture/token',
      }),
    );
    const [posted] = await blind.waitFor(1);
    const { blocks } = bodyOf<{ blocks: { type: string }[] }>(posted);
    assert.deepEqual(
      blocks.map((block) => block.type),
      ['section', 'actions'],
    );
    assert.deepEqual(
      blind.received.map((request) => request.problems),
      [['downloading image failed'], []],
    );
  } finally {
    await blind.close();
  }
});
