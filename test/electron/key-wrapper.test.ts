import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { loadDeviceKey, secretBox } from '../../local-api/secrets/box.ts';
import { type SafeStorageLike, safeStorageKeyWrapper } from '../../main/key-wrapper.ts';
import { removeDir, tempDir } from '../helpers/service.ts';

const dirs: string[] = [];
const fresh = () => {
  const dir = tempDir('portaria-key-');
  dirs.push(dir);
  return dir;
};
after(() => {
  for (const dir of dirs) removeDir(dir);
});

/** Stands in for the OS keychain: a reversible transformation that is visibly not the plain text. */
function keychain(available = true): SafeStorageLike {
  const flip = (data: Buffer) => Buffer.from(data.map((byte) => byte ^ 0x5a));
  return {
    isEncryptionAvailable: () => available,
    encryptString: (plain) => flip(Buffer.from(plain, 'utf8')),
    decryptString: (encrypted) => flip(encrypted).toString('utf8'),
  };
}

describe('the device key wrapped with safeStorage', () => {
  test('is written wrapped, not in the clear, and read back as the same key', () => {
    const dir = fresh();
    const wrapper = safeStorageKeyWrapper(keychain());
    const key = loadDeviceKey(dir, wrapper);
    const stored = readFileSync(join(dir, 'device.key'));
    assert.equal(key.length, 32);
    assert.equal(stored.includes(key), false);
    assert.equal(stored.includes(Buffer.from(key.toString('base64'))), false);
    assert.deepEqual(loadDeviceKey(dir, wrapper), key);
  });

  test('a key written unwrapped (browser mode) is still read', () => {
    const dir = fresh();
    const plainKey = loadDeviceKey(dir);
    assert.deepEqual(loadDeviceKey(dir, safeStorageKeyWrapper(keychain())), plainKey);
  });

  test('without a keychain the key is kept as the service keeps it', () => {
    const dir = fresh();
    const key = loadDeviceKey(dir, safeStorageKeyWrapper(keychain(false)));
    assert.deepEqual(readFileSync(join(dir, 'device.key')), key);
  });

  test('the service alone refuses a wrapped key with a clear message instead of using garbage', () => {
    const dir = fresh();
    loadDeviceKey(dir, safeStorageKeyWrapper(keychain()));
    assert.throws(() => loadDeviceKey(dir), /wrapped with the OS keychain/);
  });

  test('a damaged wrapped key stops the service from opening rather than sealing with a wrong key', () => {
    const dir = fresh();
    loadDeviceKey(dir, safeStorageKeyWrapper(keychain()));
    writeFileSync(join(dir, 'device.key'), readFileSync(join(dir, 'device.key')).subarray(0, 30));
    assert.throws(
      () => secretBox(loadDeviceKey(dir, safeStorageKeyWrapper(keychain()))),
      /device key must be 32 bytes/,
    );
  });
});
