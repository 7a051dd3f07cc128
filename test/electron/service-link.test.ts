import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { pinLimits } from '../../local-api/kiosk/routes.ts';
import { checkExitPin, kioskConnection } from '../../main/service-link.ts';
import { startService, type TestService } from '../helpers/service.ts';

let service: TestService;
let company: { id: string; pin: string };

before(async () => {
  service = await startService();
  company = (await service.company('Acme')) as typeof company;
});
after(() => service.stop());

test("the shell's connection is the page's kiosk credential, asked of the service", async () => {
  const connection = await kioskConnection(service.url);
  assert.deepEqual([connection.serviceUrl, connection.companyId], [service.url, company.id]);
  assert.match(connection.apiKey, /^prt_/);
});

test("leaving kiosk mode asks the service's front-desk PIN, and its lockout applies", async () => {
  assert.deepEqual(await checkExitPin(service.url, company.pin), { exited: true });
  assert.deepEqual(await checkExitPin(service.url, '00000000'), { exited: false, reason: 'WRONG_PIN' });
  for (let i = 1; i < pinLimits.maxFailures; i++) await checkExitPin(service.url, '00000000');
  const locked = await checkExitPin(service.url, company.pin);
  assert.equal(locked.exited, false);
  assert.equal(!locked.exited && locked.reason, 'LOCKED');
  assert.ok(!locked.exited && locked.reason === 'LOCKED' && locked.retryAfterMs > 0);
});

test('a service that serves no company, or none at all, cannot let anyone out', async () => {
  const fresh = await startService();
  try {
    assert.deepEqual(await checkExitPin(fresh.url, company.pin), { exited: false, reason: 'UNAVAILABLE' });
    await assert.rejects(kioskConnection(fresh.url), /NOT_ENROLLED/);
  } finally {
    await fresh.stop();
  }
  assert.deepEqual(await checkExitPin(fresh.url, company.pin), { exited: false, reason: 'UNAVAILABLE' });
});
