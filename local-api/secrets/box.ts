import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createFileDurably } from '../store/durable-file.ts';

/**
 * Encrypts secrets (access-control AES keys and passwords, the company's integration tokens) before they reach
 * SQLite, with AES-256-GCM under a device key that lives outside the database: a copied database file alone
 * gives none of them away.
 */
export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
  /** A 32-byte key for one purpose (signing file links…), derived from the device key with HKDF-SHA256. */
  deriveKey(purpose: string): Buffer;
}

const prefix = 'sealed:v1:';

export function secretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new Error('device key must be 32 bytes');
  return {
    seal(plain) {
      if (plain === '') return '';
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return prefix + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
    },
    open(sealed) {
      if (sealed === '') return '';
      if (!sealed.startsWith(prefix)) throw new Error('value is not sealed');
      const raw = Buffer.from(sealed.slice(prefix.length), 'base64');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    },
    deriveKey(purpose) {
      return Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), `portaria:${purpose}`, 32));
    },
  };
}

/**
 * The device key, kept in `<data>/device.key` (mode 0600) beside the database, never inside it. The Electron
 * shell wraps this file with the OS keychain (safeStorage) through `wrap`/`unwrap`.
 */
export interface KeyWrapper {
  wrap(key: Buffer): Buffer;
  unwrap(stored: Buffer): Buffer;
}

/** Key files wrapped by the Electron shell (main/key-wrapper.ts) start with this line. */
export const wrappedKeyMarker = Buffer.from('portaria-safe-storage:v1\n');

const plainFile: KeyWrapper = {
  wrap: (key) => key,
  unwrap(stored) {
    if (stored.subarray(0, wrappedKeyMarker.length).equals(wrappedKeyMarker)) {
      throw new Error('device.key is wrapped with the OS keychain by the Portaria app: open this data folder with it');
    }
    return stored;
  },
};

/** The device's key in its data folder: beside the SQLite database, or alone in a hub's folder on PostgreSQL. */
export const deviceKeyFile = (dataDir: string) => join(dataDir, 'device.key');

export function loadDeviceKey(dataDir: string, wrapper: KeyWrapper = plainFile): Buffer {
  const file = deviceKeyFile(dataDir);
  if (existsSync(file)) return wrapper.unwrap(readFileSync(file));
  const key = randomBytes(32);
  createFileDurably(file, wrapper.wrap(key), 0o600);
  return key;
}
