/** The values commands take (ports, durations, folders), each checked with a one-line error naming the fix. */
import { accessSync, constants, mkdirSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { CommandFailure, UsageError } from './command.ts';

/** The options several commands share, spelled once so that their help reads the same in each. */
export const dataOption = { type: 'string', value: '<dir>', help: 'the data folder', required: true } as const;
export const databaseOption = {
  type: 'string',
  value: '<postgres://…>',
  help: "a PostgreSQL database instead of the data folder's SQLite file (a hub: docs/deployment.md); or PORTARIA_DATABASE",
} as const;

/**
 * The PostgreSQL database a command uses: `--database`, else `PORTARIA_DATABASE`, else none (SQLite). Only a
 * postgres:// URL is taken; the error never repeats it, since it may hold a password.
 */
export function database(text: string | undefined, env = process.env.PORTARIA_DATABASE): string | undefined {
  const url = text ?? (env === '' ? undefined : env);
  if (url === undefined) return undefined;
  if (!/^postgres(ql)?:\/\/[^\s]+$/.test(url)) {
    throw new UsageError(
      `${text === undefined ? 'PORTARIA_DATABASE' : '--database'} is not a PostgreSQL URL: give one like postgres://user:password@host:5432/portaria`,
    );
  }
  return url;
}

export const companyOption = {
  type: 'string',
  value: '<id>',
  help: "the company's id (as company create printed it)",
  required: true,
} as const;
export const portOption = {
  type: 'string',
  value: '<n>',
  help: 'the port to listen on (0: any free one)',
  required: true,
} as const;

/** The service's port when none is given: `start`'s and `serve`'s, the one the docs' examples use. */
export const defaultServicePort = 4780;

export const servicePortOption = {
  type: 'string',
  value: '<n>',
  help: `the service's port (default ${defaultServicePort}, or $PORT; 0: any free one)`,
} as const;

/** The service's port: `--port`, else `PORT`, else the default; a wrong value names where it came from. */
export function servicePort(text: string | undefined, env = process.env.PORT): number {
  const given = text ?? env;
  return given === undefined ? defaultServicePort : port(given, text === undefined ? 'PORT' : '--port');
}

export function port(text: string, option = '--port'): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value > 65535) {
    throw new UsageError(
      `${option} ${text} is not a port number: give a whole number from 0 to 65535 (0: any free one)`,
    );
  }
  return value;
}

export function wholeNumber(text: string, option: string, least = 0): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < least) {
    throw new UsageError(`${option} ${text} is not a whole number${least > 0 ? ` of ${least} or more` : ''}`);
  }
  return value;
}

const durationUnits: Readonly<Record<string, number>> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `90s`, `30m`, `24h`, `7d`; `0` for never. */
export function duration(text: string, option: string): number {
  if (text === '0') return 0;
  const match = /^(\d+)(ms|s|m|h|d)$/.exec(text);
  if (!match) throw new UsageError(`${option} ${text} is not a duration: give one like 24h, 30m, 90s, or 0 for never`);
  return Number(match[1]) * (durationUnits[match[2] ?? ''] ?? 0);
}

/**
 * A data folder the service can use: created when missing, refused when it is a file or this user may not write
 * it. Checked before anything opens it, so the answer names the folder rather than a file deep inside.
 */
export function dataFolder(text: string, option = '--data'): string {
  const dir = resolve(text);
  const fix = 'give a folder this user may write to (it is created when missing)';
  try {
    if (statSync(dir, { throwIfNoEntry: false })?.isDirectory() === false) {
      throw new CommandFailure(`${option} ${text} is a file, not a folder: ${fix}`);
    }
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK | constants.X_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTDIR') throw new CommandFailure(`${option} ${text} lies inside a file, not a folder: ${fix}`);
    if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
      throw new CommandFailure(`${option} ${text} cannot be written by this user (${code}): ${fix}`);
    }
    throw error;
  }
  return dir;
}

/** What listening on a host and port failed with, in words, or undefined for a failure this does not know. */
export function listenFailure(error: unknown, host: string, portNumber: number): CommandFailure | undefined {
  const code = (error as NodeJS.ErrnoException).code;
  switch (code) {
    case 'EADDRINUSE':
      return new CommandFailure(
        `port ${portNumber} on ${host} is in use by another program: stop it, or choose another --port (0 takes a free one)`,
      );
    case 'EACCES':
      return new CommandFailure(`port ${portNumber} needs privileges this user lacks: choose a --port above 1023`);
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new CommandFailure(
        `--host ${host} is not an address of this machine: give one of its own, 127.0.0.1 (the default) or 0.0.0.0 for all`,
      );
    default:
      return undefined;
  }
}
