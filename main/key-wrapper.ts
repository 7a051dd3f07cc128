import { type KeyWrapper, wrappedKeyMarker as marker } from '../local-api/secrets/box.ts';

/** What the shell uses of Electron's `safeStorage`: a parameter, so this module loads without Electron. */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plain: string): Buffer;
  decryptString(encrypted: Buffer): string;
}

/**
 * The device key, wrapped with the operating system's keychain through Electron's safeStorage (DPAPI on
 * Windows, the Keychain on macOS, libsecret or KWallet on Linux). The file starts with a marker so a key the
 * service wrote unwrapped (browser mode, or a machine without a keychain) is still read, and so the service
 * can tell a wrapped key from a damaged one. Where safeStorage is unavailable the key is kept as the service
 * keeps it, plain in a 0600 file: refusing to start would lock the front desk out of its own data.
 */
export function safeStorageKeyWrapper(safeStorage: SafeStorageLike): KeyWrapper {
  return {
    wrap(key) {
      if (!safeStorage.isEncryptionAvailable()) return key;
      return Buffer.concat([marker, safeStorage.encryptString(key.toString('base64'))]);
    },
    unwrap(stored) {
      if (!stored.subarray(0, marker.length).equals(marker)) return stored;
      return Buffer.from(safeStorage.decryptString(stored.subarray(marker.length)), 'base64');
    },
  };
}
