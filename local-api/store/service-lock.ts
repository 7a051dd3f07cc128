/**
 * One service per data folder. The service holds an exclusive SQLite lock on `<data>/service.lock.db` for as long
 * as it runs: the operating system's own file lock, which it releases when the process ends however it ends (a
 * crash or a power cut leaves no stale lock behind, and a recycled pid cannot keep a folder locked). Who holds the
 * folder (pid, address) is written beside it in `<data>/service.json` once it listens, for the messages of those
 * refused; only the holder writes or removes that file.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { privateFile } from './private-files.ts';

export interface ServiceHolder {
  pid: number;
  url: string;
}

export class ServiceLockedError extends Error {
  override name = 'ServiceLockedError';
  constructor(
    readonly dataDir: string,
    readonly holder: ServiceHolder | undefined,
  ) {
    const who = holder ? `a Portaria service (pid ${holder.pid}, ${holder.url})` : 'a Portaria service';
    super(`${who} already runs on ${dataDir}`);
  }
}

export interface HeldServiceLock {
  /** Records the address the holder answers at, for the messages of those refused. */
  describe(url: string): void;
  /** Lets the folder go: the holder's record is removed, then the lock. */
  release(): void;
}

const lockFile = (dataDir: string) => join(dataDir, 'service.lock.db');
const holderFile = (dataDir: string) => join(dataDir, 'service.json');

function readHolder(dataDir: string): ServiceHolder | undefined {
  try {
    return JSON.parse(readFileSync(holderFile(dataDir), 'utf8')) as ServiceHolder;
  } catch {
    return undefined;
  }
}

/**
 * Takes the data folder's lock, or throws ServiceLockedError when another holder (in this process or another)
 * has it. `timeout: 0`: a held lock is an answer, not something to wait for.
 */
export function lockDataFolder(dataDir: string): HeldServiceLock {
  privateFile(lockFile(dataDir));
  const db = new Database(lockFile(dataDir), { timeout: 0 });
  try {
    // In exclusive locking mode a connection keeps the lock its first write transaction took until it closes.
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE; COMMIT');
  } catch (error) {
    db.close();
    if ((error as { code?: string }).code === 'SQLITE_BUSY') throw new ServiceLockedError(dataDir, readHolder(dataDir));
    throw error;
  }
  let held = true;
  let described = false;
  return {
    describe(url) {
      if (!held) return;
      writeFileSync(holderFile(dataDir), JSON.stringify({ pid: process.pid, url } satisfies ServiceHolder), {
        mode: 0o600,
      });
      described = true;
    },
    release() {
      if (!held) return;
      held = false;
      if (described) rmSync(holderFile(dataDir), { force: true });
      db.close();
    },
  };
}
