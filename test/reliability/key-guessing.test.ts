/**
 * Wrong API keys are slowed without ever refusing a right one (docs/reliability.md, "Wrong API keys"): failures are
 * counted per source and per key prefix, a forwarded address counts only from a proxy the device owner declared,
 * and a valid credential is answered whatever was guessed before it. Runs on PostgreSQL too
 * (test/helpers/with-postgres.ts), where the counts live in the database.
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { createCompany } from '../../local-api/companies/store.ts';
import { enrolDevice } from '../../local-api/device.ts';
import { keyGuessLimits } from '../../local-api/http/key-guessing.ts';
import { openFrontDeskSession } from '../../local-api/kiosk/frontdesk.ts';
import { parseCidrList } from '../../local-api/outgoing/destinations.ts';
import { type RunningService, type StartOptions, startService } from '../../local-api/server.ts';
import { manualClock } from '../helpers/context.ts';
import { engineEnv } from '../helpers/postgres.ts';
import { cli, removeDir, startService as startServe, tempDir } from '../helpers/service.ts';
import { callerOf } from '../helpers/sync.ts';

interface Answer {
  status: number;
  retryAfter?: string;
  type?: string;
}

/** A GET answered with its status, its Retry-After and its body's `type`, sent from the given local address. */
function get(url: string, path: string, headers: Record<string, string>, localAddress = '127.0.0.1'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { headers, localAddress, signal: AbortSignal.timeout(5_000) }, (res) => {
      let text = '';
      res.on('data', (chunk) => {
        text += chunk;
      });
      res.on('end', () => {
        const answer: Answer = { status: res.statusCode ?? 0 };
        if (res.headers['retry-after'] !== undefined) answer.retryAfter = res.headers['retry-after'];
        if (answer.status !== 200) answer.type = JSON.parse(text).type;
        resolve(answer);
      });
    });
    req.on('error', reject);
    req.end();
  });
}

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const { maxFailures, lockMs } = keyGuessLimits;
const locked: Answer = { status: 429, retryAfter: String(lockMs / 1000), type: 'TOO_MANY_REQUESTS' };

describe('wrong API keys', () => {
  const clock = manualClock();
  let service: RunningService;
  let dataDir: string;
  let apiKey: string;
  let companyId: string;

  async function start(options: Partial<StartOptions> = {}) {
    dataDir = tempDir();
    const database = (await engineEnv(dataDir)).PORTARIA_DATABASE;
    service = await startService({ port: 0, dataDir, database, logLevel: 'silent', clock, ...options });
    ({ apiKey, id: companyId } = await createCompany(service.ctx, { name: 'Key Co' }));
  }
  const hosts = (headers: Record<string, string>, from?: string) => get(service.url, '/v1/hosts', headers, from);

  beforeEach(() => start());
  afterEach(async () => {
    await service.close();
    removeDir(dataDir);
    clock.advance(lockMs);
  });

  test('from one address are answered 429 past the limit, and its right key still answers 200', async () => {
    for (let i = 0; i < 20; i++) {
      assert.equal((await hosts({})).status, 401, 'no credentials guess nothing and are not counted');
    }
    const answers: Answer[] = [];
    for (let i = 0; i < 50; i++) answers.push(await hosts(bearer(`prt_wrong_${i}_${'x'.repeat(20)}`)));
    assert.deepEqual(answers.slice(0, maxFailures), Array(maxFailures).fill({ status: 401, type: 'UNAUTHORIZED' }));
    assert.deepEqual(answers.slice(maxFailures), Array(50 - maxFailures).fill(locked), 'guessing goes on refused');
    assert.equal((await hosts(bearer(apiKey))).status, 200, 'the right key after 50 wrong ones');
    assert.equal((await hosts({ authorization: `Basic ${Buffer.from(`${apiKey}:`).toString('base64')}` })).status, 200);

    clock.advance(lockMs - 1_000);
    assert.equal((await hosts(bearer('prt_still_wrong_000000000'))).retryAfter, '1');
    clock.advance(1_000);
    assert.deepEqual(await hosts(bearer('prt_wrong_again_00000000')), { status: 401, type: 'UNAUTHORIZED' });
  });

  test('from rotating addresses lock neither a new client nor a new kiosk joining', async () => {
    let guesses = 0;
    for (let source = 2; source < 12; source++) {
      for (let i = 0; i < maxFailures + 2; i++) {
        await hosts(bearer(`prt_${source}_${i}_guess_${'y'.repeat(20)}`), `127.0.0.${source}`);
        guesses++;
      }
    }
    assert.equal((await hosts(bearer(apiKey), '127.0.0.200')).status, 200, 'a right key from an address never seen');
    // A kiosk joins a hub with a sync credential it has not used before, from an address the hub never saw.
    const sync = await fetch(`${service.url}/v1/credentials`, {
      method: 'POST',
      headers: { ...bearer(apiKey), 'content-type': 'application/json' },
      body: JSON.stringify({ role: 'sync', label: 'New kiosk' }),
    }).then((r) => r.json() as Promise<{ key: string }>);
    const joined = await get(service.url, '/v1/sync/changes', bearer(sync.key), '127.0.0.201');
    assert.equal(joined.status, 200, `a new kiosk joins after ${guesses} guesses from 10 addresses`);
  });

  test("the front desk's ended session does not lock the lobby's kiosk credential", async () => {
    const kioskKey = (await enrolDevice(service.ctx, companyId)).kioskKey;
    const { token } = await openFrontDeskSession(service.ctx, await callerOf(service.ctx, apiKey));
    clock.advance(24 * 3_600_000);
    for (let i = 0; i < 3 * maxFailures; i++) {
      assert.notEqual((await hosts(bearer(token))).status, 200, 'the ended session is refused');
    }
    assert.equal((await get(service.url, '/v1/kiosk/company', bearer(kioskKey))).status, 200, 'the lobby screen');
  });

  test('aimed at one key prefix are answered 429 from any address, other prefixes 401', async () => {
    const prefix = apiKey.slice(0, 12);
    for (let i = 0; i < maxFailures; i++) {
      await hosts(bearer(`${prefix}guess${i}${'z'.repeat(30)}`), `127.0.1.${i + 1}`);
    }
    assert.deepEqual(await hosts(bearer(`${prefix}another${'z'.repeat(30)}`), '127.0.2.1'), locked);
    assert.deepEqual(await hosts(bearer(`prt_elsewhere${'z'.repeat(30)}`), '127.0.2.2'), {
      status: 401,
      type: 'UNAUTHORIZED',
    });
    assert.equal((await hosts(bearer(apiKey), '127.0.2.3')).status, 200, 'the key of that prefix itself');
    const nul = { authorization: `Basic ${Buffer.from(':prt_\u0000\u00ff\ud800x').toString('base64')}` };
    assert.deepEqual(await hosts(nul, '127.0.2.4'), { status: 401, type: 'UNAUTHORIZED' }, 'any character counts');
  });

  test('X-Forwarded-For is not honoured unless the proxy is declared', async () => {
    for (let i = 0; i < maxFailures; i++) {
      await hosts({ ...bearer(`prt_fwd_${i}_${'w'.repeat(30)}`), 'x-forwarded-for': `203.0.113.${i + 1}` });
    }
    assert.deepEqual(
      await hosts({ ...bearer(`prt_fwd_x_${'w'.repeat(30)}`), 'x-forwarded-for': '203.0.113.99' }),
      locked,
      'an undeclared proxy: the guesses count against the socket, whatever the header says',
    );
  });

  test('behind a declared proxy, each forwarded client is counted by itself', async () => {
    await service.close();
    removeDir(dataDir);
    const trusted = parseCidrList('127.0.0.1/32');
    assert.ok(trusted.ok);
    await start({ trustProxy: trusted.cidrs });
    const via = (client: string) => ({ 'x-forwarded-for': `198.51.100.7, ${client}` });
    for (let i = 0; i < maxFailures; i++) {
      await hosts({ ...bearer(`prt_lb_${i}_${'v'.repeat(30)}`), ...via('203.0.113.5') });
    }
    assert.deepEqual(await hosts({ ...bearer(`prt_lb_x_${'v'.repeat(30)}`), ...via('203.0.113.5') }), locked);
    assert.deepEqual(await hosts({ ...bearer(`prt_lb_y_${'v'.repeat(30)}`), ...via('203.0.113.6') }), {
      status: 401,
      type: 'UNAUTHORIZED',
    });
    // An undeclared peer's header is its own claim: counted against the peer.
    for (let i = 0; i < maxFailures; i++) {
      await hosts({ ...bearer(`prt_peer_${i}_${'v'.repeat(30)}`), ...via(`203.0.113.${20 + i}`) }, '127.0.0.9');
    }
    assert.deepEqual(
      await hosts({ ...bearer(`prt_peer_x_${'v'.repeat(30)}`), ...via('203.0.113.77') }, '127.0.0.9'),
      locked,
    );
  });
});

test('serve --trust-proxy declares the proxies, and refuses what is not a range', async () => {
  const refused = await cli(['serve', '--port', '0', '--data', tempDir(), '--trust-proxy', '10.0.0.0/33']);
  assert.equal(refused.status, 2);
  assert.match(refused.stderr, /--trust-proxy: 10\.0\.0\.0\/33 is not an address or range/);
  const service = await startServe({ args: ['--trust-proxy', '127.0.0.0/8'] });
  try {
    const { apiKey } = await service.company();
    const via = (client: string, key: string) => ({ ...bearer(key), 'x-forwarded-for': client });
    for (let i = 0; i < maxFailures; i++) await get(service.url, '/v1/hosts', via('203.0.113.5', `prt_cli_${i}`));
    assert.deepEqual(await get(service.url, '/v1/hosts', via('203.0.113.5', 'prt_cli_x')), locked);
    assert.equal((await get(service.url, '/v1/hosts', via('203.0.113.6', 'prt_cli_y'))).status, 401);
    assert.equal((await get(service.url, '/v1/hosts', via('203.0.113.5', apiKey))).status, 200);
  } finally {
    await service.stop();
    removeDir(service.dataDir);
  }
});
