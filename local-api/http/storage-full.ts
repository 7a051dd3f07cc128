import type { RequestHandler } from 'express';

/**
 * Whether an error says the storage is full: SQLite's SQLITE_FULL, PostgreSQL's `disk_full` (SQLSTATE 53100), or
 * the file system's ENOSPC or EDQUOT (a stored file's bytes on SQLite). Pure.
 */
export function isStorageFull(error: unknown): boolean {
  const code = (error as { code?: unknown } | null | undefined)?.code;
  return code === 'SQLITE_FULL' || code === '53100' || code === 'ENOSPC' || code === 'EDQUOT';
}

export interface StorageFullEpisodes {
  /** A write refused for want of space: logged if it begins an episode. */
  refused(error: unknown): void;
  /** A write went through: the episode, if any, is over. */
  wrote(): void;
  /** Ends the episode when a write request (not GET or HEAD) is answered with success. */
  watchWrites: RequestHandler;
}

/**
 * A full disk refuses every write until space is freed, and a kiosk keeps writing: one log line when it begins
 * (not a stack per request) and one when a write succeeds again (docs/reliability.md, "A full disk").
 */
export function storageFullEpisodes(log: { error(message: string): void; info(message: string): void }) {
  let full = false;
  const episodes: StorageFullEpisodes = {
    refused(error) {
      if (full) return;
      full = true;
      const code = String((error as { code?: unknown }).code);
      log.error(`storage full (${code}): writes are answered 507 STORAGE_FULL until space is freed; reads go on`);
    },
    wrote() {
      if (!full) return;
      full = false;
      log.info('storage has room again: writes succeed');
    },
    watchWrites: (req, res, next) => {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.on('finish', () => {
          if (res.statusCode < 400) episodes.wrote();
        });
      }
      next();
    },
  };
  return episodes;
}
