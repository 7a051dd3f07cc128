import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/*
 * Visitor data is for the service's user only (docs/reliability.md, "File permissions"): folders 0700, files 0600,
 * whatever the umask, and also when a folder made by an older version (or by hand) is opened again.
 */

/** Creates the folder (and its parents) if needed, and makes it the user's alone. */
export function privateFolder(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}

/**
 * The data folder, made the user's alone with everything at its top: the database and its companions, the device
 * key, the lock, the folders of backups and files (whose contents are created private). A folder an older version
 * left readable is corrected when it is opened.
 */
export function privateDataFolder(dir: string): void {
  privateFolder(dir);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) chmodSync(join(dir, entry.name), 0o700);
    else if (entry.isFile()) chmodSync(join(dir, entry.name), 0o600);
  }
}

/** Makes an existing file the user's alone; a missing one is left missing. */
export function tightenFile(file: string): void {
  if (existsSync(file)) chmodSync(file, 0o600);
}

/** Creates the file empty if it is missing (mode 0600 from the start, never readable by others for a moment). */
export function privateFile(file: string): void {
  closeSync(openSync(file, 'a', 0o600));
  chmodSync(file, 0o600);
}

/**
 * A SQLite database and its companions. SQLite creates the WAL and shared-memory files with the database file's
 * mode, so a database created 0600 keeps them 0600; the chmods correct files an older version left readable.
 */
export function privateDatabase(file: string): void {
  privateFile(file);
  for (const companion of [`${file}-wal`, `${file}-shm`, `${file}-journal`]) tightenFile(companion);
}
