import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { type GateProcess, startGateProcess } from '../helpers/gate.ts';
import { openPass, passLinkTo } from '../helpers/pass.ts';
import { allowLoopback, client, startService, type TestService } from '../helpers/service.ts';
import { smtpSettingsOf, startSmtp, type TestSmtp } from '../helpers/smtp.ts';
import { type Kiosk, settled, startKiosk, waitFor } from '../helpers/sync-service.ts';

/*
 * A kiosk of a hub with a public address (docs/access-control.md, "The pass page"): the kiosk that takes the
 * walk-in sends the message from its own queue, linking to the hub's address; the hub's page shows the pass once
 * the check-in has reached it.
 */

const aesKey = 'f0e1d2c3b4a5968778695a4b3c2d1e0ff0e1d2c3b4a5968778695a4b3c2d1e0f';
const publicUrl = 'https://visitors.acme.test';

let hub: TestService;
let kiosk: Kiosk;
let smtp: TestSmtp;
let gate: GateProcess;
let hostId: string;

before(async () => {
  [smtp, gate, hub] = await Promise.all([
    startSmtp(),
    startGateProcess({ aesKey }),
    startService({ args: ['--public-url', publicUrl, ...allowLoopback] }),
  ]);
  const company = await hub.company('Acme', 'UTC');
  const admin = client(hub.url, company.apiKey);
  hostId = (await admin('POST', '/v1/hosts', { name: 'Ana Souza', email: 'ana@acme.test', isActive: true })).body.id;
  assert.equal((await admin('POST', '/v1/integration/notifications', smtpSettingsOf(smtp))).status, 200);
  const access = { enabled: true, aesKey, staticVisitorQRCode: true };
  assert.equal((await admin('POST', '/v1/integration/access', access)).status, 200);
  kiosk = await startKiosk(hub.url, company.apiKey, undefined, undefined, allowLoopback);
  await settled(kiosk);
});
after(() => Promise.all([kiosk?.stop(), hub?.stop(), smtp?.close(), gate?.stop()]));

test("a kiosk's walk-in is sent a link to its hub's pass page, which shows the code once the visit has synced", async () => {
  const session = (await (await fetch(`${kiosk.url}/kiosk/session`)).json()) as { apiKey: string };
  const screen = client(kiosk.url, session.apiKey);
  assert.equal(
    (await screen('GET', '/v1/kiosk/company')).body.passLinks,
    true,
    "the hub's address serves, and the kiosk sends e-mail",
  );
  const id = randomUUID();
  const checkin = await screen('POST', '/v1/kiosk/walkin', {
    visit: { id, hostId },
    visitor: { name: 'Kai Remote', email: 'kai@visitor.test' },
  });
  assert.equal(checkin.status, 200, JSON.stringify(checkin.body));

  const { link } = await passLinkTo(smtp, 'kai@visitor.test', publicUrl);
  await settled(kiosk);
  const page = await waitFor('the visit to reach the hub', async () => {
    const opened = await openPass(hub.url, new URL(link).pathname);
    return opened.code !== undefined && opened;
  });
  const verdict = await gate.verify(page.code ?? '');
  assert.deepEqual([verdict.valid, verdict.cardNumber], [true, Number(checkin.body.cardNumber)]);
  // Sent once, by the kiosk: the hub, replaying the check-in, sends nothing.
  await new Promise((resolve) => setTimeout(resolve, 500));
  assert.equal(smtp.mails.filter((mail) => mail.to.includes('kai@visitor.test')).length, 1);
});
