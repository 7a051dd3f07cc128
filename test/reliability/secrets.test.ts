import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, test } from 'node:test';
import { createLogger } from '../../local-api/log.ts';
import { rawExchange } from '../helpers/raw-http.ts';
import { allowLoopback, client, runCli, startService, type TestService } from '../helpers/service.ts';

/*
 * API keys, the gate's AES key and password reach the service in requests (good and bad ones, at debug level)
 * and must not be found in clear in the database file, its WAL, any other file of the data folder, or the log.
 */

const unique = () => randomBytes(9).toString('base64url');
const secrets = {
  aesKey: `aes-${unique()}`,
  password: `pw-${unique()}`,
  webhookSecret: `hook-${unique()}`,
  refusedAesKey: `aes-refused-${unique()}`,
  malformedPassword: `pw-malformed-${unique()}`,
  chosenApiKey: `chosen-key-${unique()}`,
};
let service: TestService;
let apiKey: string;

before(async () => {
  // The webhook and gate saved here point at loopback, which the device owner allows.
  service = await startService({ args: allowLoopback, env: { PORTARIA_LOG_LEVEL: 'debug' } });
  apiKey = (await service.company('Secretive')).apiKey;
  await runCli(['company', 'create', '--data', service.dataDir, '--name', 'Chosen', '--api-key', secrets.chosenApiKey]);
});
after(() => service.stop());

/** Every file under the data folder, as bytes. */
function dataFiles(dir: string): [string, Buffer][] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? dataFiles(path) : [[path, readFileSync(path)] as [string, Buffer]];
  });
}

function assertNowhere(when: string): void {
  const places: [string, Buffer][] = [
    ...dataFiles(service.dataDir),
    ['the log (stderr)', Buffer.from(service.stderr())],
  ];
  for (const [name, value] of Object.entries({ ...secrets, apiKey })) {
    for (const [place, bytes] of places) {
      assert.equal(bytes.includes(value), false, `${when}: ${name} found in clear in ${place}`);
    }
  }
}

test('secrets and API keys are in no file of the data folder and not in the log, even at debug level', async () => {
  const api = client(service.url, apiKey);
  // Subscribed to every event first: the configuration's events are queued for it, and must carry no secret.
  const hook = await api('POST', '/v1/webhooks', {
    url: 'http://127.0.0.1:9/hook',
    events: ['*'],
    secret: secrets.webhookSecret,
  });
  assert.equal(hook.status, 200, JSON.stringify(hook.body));
  const saved = await api('POST', '/v1/integration/access', {
    enabled: true,
    aesKey: secrets.aesKey,
    password: secrets.password,
    username: 'gate',
    url: 'http://127.0.0.1:9/gate',
  });
  assert.equal(saved.status, 200);
  assert.equal((await api('GET', '/v1/integration/access')).body.password, secrets.password, 'opened for the owner');

  // Error paths carrying secrets: a refused value, a body that is not JSON, wrong and right keys in every form.
  const refused = await api('POST', '/v1/integration/access', { aesKey: secrets.refusedAesKey, qrcodeDuration: 'x' });
  assert.equal(refused.status, 400);
  const malformed = await api('POST', '/v1/integration/access', `{"password":"${secrets.malformedPassword}",`, {
    'content-type': 'application/json',
  });
  assert.equal(malformed.status, 400);
  const { port } = new URL(service.url);
  await rawExchange(
    Number(port),
    `POST /v1/integration/access HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${apiKey}\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"password":"${secrets.malformedPassword}"`,
    { afterWrite: 'half' },
  );
  const anonymous = client(service.url);
  const credentials: Record<string, string>[] = [
    { authorization: `Bearer ${apiKey}x` },
    { authentication: `Basic ${secrets.chosenApiKey}` },
    { authorization: `Basic ${Buffer.from(`${apiKey}:`).toString('base64')}` },
    { authorization: `Bearer ${apiKey}`, authentication: `Basic ${apiKey}` },
    { authorization: `Bearer ${secrets.chosenApiKey.slice(0, -1)}` },
  ];
  for (const headers of credentials) await anonymous('GET', '/v1/hosts', undefined, headers);
  assert.match(service.stderr(), /"msg":"request"/, 'requests were logged at debug level');

  assertNowhere('while the service runs (database and WAL)');
  await service.stop();
  assertNowhere('after the service stopped (WAL checkpointed into the database)');
});

test('the logger redacts credentials and secret fields if a log line ever carries them', () => {
  let written = '';
  const sink = new Writable({
    write(chunk, _encoding, done) {
      written += chunk;
      done();
    },
  });
  const log = createLogger('debug', sink);
  log.info(
    {
      req: { headers: { authorization: `Bearer ${apiKey}`, authentication: `Basic ${apiKey}` } },
      config: { aesKey: secrets.aesKey, password: secrets.password },
      err: { body: `{"password":"${secrets.password}"}` },
      apiKey,
    },
    'a line that should never be written',
  );
  for (const value of [apiKey, secrets.aesKey, secrets.password]) assert.equal(written.includes(value), false, value);
  assert.match(written, /\[redacted\]/);
});
