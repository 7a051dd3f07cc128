import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { startGate } from '../../local-api/gate/gate.ts';
import { deliveryHeader, signatureHeader, signBody } from '../../local-api/webhooks/signature.ts';
import { gateCredentials, startGateProcess } from '../helpers/gate.ts';
import { removeDir, tempDir } from '../helpers/service.ts';

/* The reference gate remembers the deliveries it has seen across restarts (and kills), within a bound. */

const basic = `Basic ${Buffer.from(`${gateCredentials.username}:${gateCredentials.password}`).toString('base64')}`;
const webhookSecret = 'gate-webhook-secret-0123456789';

async function callback(url: string, key: string) {
  const reply = await fetch(`${url}/callback`, {
    method: 'POST',
    headers: { authorization: basic, 'idempotency-key': key, 'content-type': 'application/json' },
    body: JSON.stringify({ event: 'visit.checkin', cardNumber: 12, visitor: { name: 'Secret Name' } }),
  });
  assert.equal(reply.status, 200);
  return ((await reply.json()) as { duplicate: boolean }).duplicate;
}

async function webhook(url: string, delivery: string) {
  const body = JSON.stringify({ event: 'visit.checkin', name: 'Secret Name' });
  const reply = await fetch(`${url}/webhook`, {
    method: 'POST',
    headers: { [deliveryHeader]: delivery, [signatureHeader]: signBody(webhookSecret, body) },
    body,
  });
  assert.equal(reply.status, 200);
  return ((await reply.json()) as { duplicate: boolean }).duplicate;
}

test('a callback and a webhook delivered again after the gate was killed and restarted are recognised', async () => {
  const options = { aesKey: 'gate-keys-aes-key-0123456789', webhookSecret };
  const first = await startGateProcess(options);
  const [callbackKey, deliveryKey] = [`visit.checkin.${randomUUID()}`, randomUUID()];
  try {
    assert.equal(await callback(first.url, callbackKey), false);
    assert.equal(await webhook(first.url, deliveryKey), false);
  } finally {
    first.process.kill('SIGKILL');
    await new Promise((resolve) => first.process.once('exit', resolve));
  }
  const again = await startGateProcess({ ...options, dataDir: first.dataDir, port: first.port });
  try {
    assert.equal(await callback(again.url, callbackKey), true, 'the callback is a duplicate');
    assert.equal(await webhook(again.url, deliveryKey), true, 'the webhook is a duplicate');
    assert.equal(await callback(again.url, `visit.checkin.${randomUUID()}`), false, 'a new key is new');
    const state = await again.received();
    assert.deepEqual([state.duplicateCallbacks, state.duplicateWebhooks], [1, 1]);
    // Only keys are kept on disk: never a body, which carries the visitor's data.
    for (const file of readdirSync(again.dataDir)) {
      assert.equal(readFileSync(join(again.dataDir, file)).includes('Secret Name'), false, file);
    }
  } finally {
    await again.stop();
    removeDir(first.dataDir);
  }
});

test('the keys kept are bounded: the oldest are forgotten first', async () => {
  const dataDir = tempDir('portaria-gate-');
  const gate = await startGate({
    port: 0,
    aesKey: 'gate-keys-aes-key-0123456789',
    ...gateCredentials,
    dataDir,
    maxKeys: 3,
    print: () => undefined,
  });
  try {
    for (const key of ['k1', 'k2', 'k3', 'k4']) assert.equal(await callback(gate.url, key), false);
    assert.equal(await callback(gate.url, 'k4'), true);
    assert.equal(await callback(gate.url, 'k2'), true);
    assert.equal(await callback(gate.url, 'k1'), false, 'the oldest was forgotten');
  } finally {
    await gate.close();
  }
  const db = new Database(join(dataDir, 'gate.db'), { readonly: true });
  try {
    assert.deepEqual(
      (db.prepare('SELECT key FROM seen_keys ORDER BY seq').all() as { key: string }[]).map((r) => r.key),
      ['k3', 'k4', 'k1'],
    );
  } finally {
    db.close();
    removeDir(dataDir);
  }
});
