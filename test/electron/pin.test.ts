import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import {
  ensureKioskPin,
  filePinStore,
  forgetInitialPin,
  hashPin,
  initialPinFile,
  type PinStore,
  pinGate,
} from '../../main/pin.ts';
import { removeDir, tempDir } from '../helpers/service.ts';

const dir = tempDir('portaria-pin-');
after(() => removeDir(dir));

describe('the PIN store', () => {
  test('the first start creates a PIN: its hash, and the PIN itself in a 0600 file until first used', () => {
    assert.deepEqual(
      ensureKioskPin(dir, () => '482913'),
      { created: true },
    );
    assert.deepEqual(
      ensureKioskPin(dir, () => '000000'),
      { created: false },
      'never replaced',
    );
    const stored = readFileSync(join(dir, 'kiosk-pin.json'), 'utf8');
    assert.doesNotMatch(stored, /482913/);
    assert.equal(readFileSync(join(dir, initialPinFile), 'utf8').split('\n')[0], '482913');
    assert.equal(statSync(join(dir, initialPinFile)).mode & 0o777, 0o600);
    assert.equal(statSync(join(dir, 'kiosk-pin.json')).mode & 0o777, 0o600);
    const store = filePinStore(dir);
    assert.equal(store.isSet(), true);
    assert.equal(store.matches('482913'), true);
    assert.equal(store.matches('482914'), false);
    assert.equal(store.matches('48291'), false);
    forgetInitialPin(dir);
    assert.equal(existsSync(join(dir, initialPinFile)), false);
  });

  test('a PIN changed on disk applies at the next check', () => {
    const store = filePinStore(dir);
    writeFileSync(join(dir, 'kiosk-pin.json'), hashPin('7777', Buffer.alloc(16, 1)));
    assert.equal(store.matches('7777'), true);
    assert.equal(store.matches('482913'), false);
  });

  test('a folder without a PIN has none', () => {
    const empty = tempDir('portaria-pin-empty-');
    try {
      assert.equal(filePinStore(empty).isSet(), false);
      assert.equal(filePinStore(empty).matches('1234'), false);
    } finally {
      removeDir(empty);
    }
  });
});

describe('the PIN gate', () => {
  const store: PinStore = { isSet: () => true, matches: (pin) => pin === '2468' };

  test('lets the right PIN through and refuses a wrong one', () => {
    const gate = pinGate(store, { now: () => 0 });
    assert.deepEqual(gate.check('2468'), { exited: true });
    assert.deepEqual(gate.check('1357'), { exited: false, reason: 'WRONG_PIN' });
  });

  test('locks after five wrong PINs, even against the right one, then opens again', () => {
    let now = 1000;
    const gate = pinGate(store, { now: () => now }, { maxFailures: 5, windowMs: 600_000, lockMs: 60_000 });
    for (let i = 0; i < 5; i++) assert.equal(gate.check('0000').exited, false);
    assert.deepEqual(gate.check('2468'), { exited: false, reason: 'LOCKED', retryAfterMs: 60_000 });
    now += 59_999;
    assert.deepEqual(gate.check('2468'), { exited: false, reason: 'LOCKED', retryAfterMs: 1 });
    now += 1;
    assert.deepEqual(gate.check('2468'), { exited: true });
  });

  test('a success resets the count; without a PIN nothing opens the gate', () => {
    const gate = pinGate(store, { now: () => 0 }, { maxFailures: 2, windowMs: 1000, lockMs: 1000 });
    gate.check('0000');
    gate.check('2468');
    assert.deepEqual(gate.check('0000'), { exited: false, reason: 'WRONG_PIN' }, 'one failure since the success');
    const unset = pinGate({ isSet: () => false, matches: () => true }, { now: () => 0 });
    assert.deepEqual(unset.check('2468'), { exited: false, reason: 'NO_PIN_SET' });
  });
});
