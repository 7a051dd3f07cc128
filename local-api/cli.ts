import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import {
  BackupError,
  type BackupSchedule,
  backupDatabase,
  backupFileName,
  backupsDir,
  databaseFile,
  defaultBackupSchedule,
  restoreDatabase,
  verifyDatabaseFile,
} from './backup/backup.ts';
import { companyCaller, createCompany } from './companies/store.ts';
import { credentialsUsage, ownerTokenCommand } from './credentials/commands.ts';
import { deviceCredential } from './device.ts';
import { startGate } from './gate/gate.ts';
import { ApiError } from './http/errors.ts';
import { parseCidrList } from './outgoing/destinations.ts';
import { exportPerson } from './privacy/export.ts';
import { erasureInput } from './privacy/schema.ts';
import { isTimeZone } from './rules/time.ts';
import { openService, startService } from './server.ts';
import { privateDataFolder, privateFolder } from './store/private-files.ts';
import { upstreamInput } from './sync/schema.ts';

const usage = `Usage:
  portaria start [--port <n>] [--data <dir>] [--browser]  the kiosk (browser mode where Electron cannot run)
  portaria serve --port <n> --data <dir> [--host <ip>] the service: kiosk page at /, API at /v1
        [--upstream <hub URL> --upstream-key <key>]   as a kiosk of that hub, for the key's company
                 [--backup-interval <24h|30m|0>] [--backup-keep <n>]   scheduled backups (default 24h, 7 kept)
                 [--allow-destinations <cidr,...>]   ranges webhooks, gates and e-mail may reach besides the
                                                      defaults, kept until changed ('' clears; docs/security.md)
  portaria company create --data <dir> --name <name> [--api-key <key>] [--timezone <IANA zone>]
  portaria privacy export --data <dir> --company <id> [--email <e>] [--cpf <n>] [--document <d>]
                [--name <name> --phone <n>] [--out <file>]   everything held about a person (docs/api.md)
  portaria backup --data <dir> [--out <file>]          an online backup and its digest (<file>.sha256)
  portaria restore --data <dir> --from <file> [--force] [--without-digest]   checks the backup, then restores it
  portaria gate --port <n> --aes-key <key> --username <u> --password <p> [--totp] [--host <ip>]
                [--webhook-secret <s>] [--leeway-ms <n>]   the reference gate (docs/access-control.md)
${credentialsUsage}`;

function fail(message: string): never {
  process.stderr.write(`${message}\n\n${usage}\n`);
  process.exit(2);
}

const durationUnits: Readonly<Record<string, number>> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `90s`, `30m`, `24h`, `7d`; `0` for never. */
function parseDuration(text: string): number | undefined {
  if (text === '0') return 0;
  const match = /^(\d+)(ms|s|m|h|d)$/.exec(text);
  return match ? Number(match[1]) * (durationUnits[match[2] ?? ''] ?? 0) : undefined;
}

function backupSchedule(interval: string | undefined, keep: string | undefined): BackupSchedule {
  const intervalMs = interval === undefined ? defaultBackupSchedule.intervalMs : parseDuration(interval);
  if (intervalMs === undefined) fail(`--backup-interval ${interval} is not a duration like 24h, 30m or 0`);
  const kept = keep === undefined ? defaultBackupSchedule.keep : Number(keep);
  if (!Number.isInteger(kept) || kept < 1) fail(`--backup-keep ${keep} is not a positive whole number`);
  return { intervalMs, keep: kept };
}

async function serve(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      port: { type: 'string' },
      data: { type: 'string' },
      host: { type: 'string' },
      upstream: { type: 'string' },
      'upstream-key': { type: 'string' },
      'backup-interval': { type: 'string' },
      'backup-keep': { type: 'string' },
      'allow-destinations': { type: 'string' },
    },
  });
  if (!values.port || !values.data) fail('serve needs --port and --data');
  const allowed = values['allow-destinations'];
  const destinations = allowed === undefined ? undefined : parseCidrList(allowed);
  if (destinations && !destinations.ok) fail(`--allow-destinations: ${destinations.bad} is not an address or range`);
  const url = values.upstream;
  const apiKey = values['upstream-key'];
  if ((url === undefined) !== (apiKey === undefined)) fail('--upstream and --upstream-key go together');
  const upstream = url !== undefined && apiKey !== undefined ? upstreamInput.safeParse({ url, apiKey }) : undefined;
  if (upstream && !upstream.success) fail('--upstream must be an http(s) URL and --upstream-key 16 characters or more');
  const backups = backupSchedule(values['backup-interval'], values['backup-keep']);
  const service = await startService({
    port: portNumber(values.port),
    dataDir: values.data,
    host: values.host,
    upstream: upstream?.data,
    backups,
    allowDestinations: destinations?.ok ? destinations.cidrs : undefined,
  });
  process.stdout.write(`Portaria listening on ${service.url}\n`);
  closeOnSignal(service.close);
}

function portNumber(text: string | undefined): number {
  const port = Number(text);
  if (!text || !Number.isInteger(port) || port < 0 || port > 65535) fail(`--port ${text} is not a port number`);
  return port;
}

async function gate(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'aes-key': { type: 'string' },
      username: { type: 'string' },
      password: { type: 'string' },
      totp: { type: 'boolean', default: false },
      'webhook-secret': { type: 'string' },
      'leeway-ms': { type: 'string', default: '0' },
    },
  });
  const aesKey = values['aes-key'];
  if (!values.port || !aesKey || values.username === undefined || values.password === undefined) {
    fail('gate needs --port, --aes-key, --username and --password');
  }
  const leewayMs = Number(values['leeway-ms']);
  if (!Number.isInteger(leewayMs) || leewayMs < 0) fail(`--leeway-ms ${values['leeway-ms']} is not a whole number`);
  const running = await startGate({
    port: portNumber(values.port),
    host: values.host,
    aesKey,
    username: values.username,
    password: values.password,
    totp: values.totp,
    webhookSecret: values['webhook-secret'],
    leewayMs,
  });
  process.stdout.write(`Gate listening on ${running.url} (${values.totp ? 'TOTP' : 'AES'} codes)\n`);
  closeOnSignal(running.close);
}

function closeOnSignal(close: () => Promise<void>): void {
  let closing = false;
  const stop = () => {
    if (closing) return;
    closing = true;
    close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

function companyCreate(args: string[]): void {
  const { values } = parseArgs({
    args,
    options: {
      data: { type: 'string' },
      name: { type: 'string' },
      'api-key': { type: 'string' },
      timezone: { type: 'string' },
    },
  });
  if (!values.data || !values.name) fail('company create needs --data and --name');
  if (values['api-key'] !== undefined && values['api-key'].length < 16)
    fail('--api-key must have 16 characters or more');
  if (values.timezone !== undefined && !isTimeZone(values.timezone))
    fail(`--timezone ${values.timezone} is not an IANA zone`);
  const ctx = openService({ dataDir: values.data, logLevel: 'warn' });
  const company = createCompany(ctx, { name: values.name, apiKey: values['api-key'], timezone: values.timezone });
  ctx.db.close();
  process.stdout.write(`${JSON.stringify(company)}\n`);
}

/**
 * `portaria privacy export`: the subject-access export of POST /v1/privacy/export, for an operator who holds the
 * data folder (audited as the operator's). Written to `--out` (readable by its owner only) or to stdout.
 */
function privacyExport(args: string[]): void {
  const text = { type: 'string' } as const;
  const { values } = parseArgs({
    args,
    options: { data: text, company: text, out: text, email: text, cpf: text, document: text, name: text, phone: text },
  });
  if (!values.data || !values.company) fail('privacy export needs --data and --company');
  const { email, cpf, document, name, phone } = values;
  const who = erasureInput.safeParse({ email, cpf, document, name, phone });
  if (!who.success)
    fail(`privacy export: ${who.error.issues.map((i) => `--${i.path.join('.')} ${i.message}`).join('; ')}`);
  const ctx = openService({ dataDir: values.data, logLevel: 'warn' });
  try {
    const company = companyCaller(ctx, values.company);
    if (!company) fail(`no company ${values.company} in ${values.data}`);
    const answer = `${JSON.stringify(exportPerson(ctx, { ...company, credentialId: 'device-owner' }, who.data), null, 2)}\n`;
    if (values.out) writeFileSync(values.out, answer, { mode: 0o600 });
    else process.stdout.write(answer);
  } catch (error) {
    if (error instanceof ApiError && error.type === 'MISSING_IDENTIFIER') {
      fail('privacy export needs --email, --cpf, --document, or --name with --phone');
    }
    throw error;
  } finally {
    ctx.db.close();
  }
}

/**
 * `npm start`: the Electron kiosk where it can run (Electron's binary is installed and there is a display);
 * elsewhere, or if Electron fails, the same service in browser mode, so a newcomer's first run always gets a data
 * folder, a company and its key, and the kiosk's address. `--browser` asks for browser mode outright.
 */
async function start(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { port: { type: 'string' }, data: { type: 'string' }, browser: { type: 'boolean' } },
  });
  const data = values.data ?? process.env.PORTARIA_DATA;
  const portText = values.port ?? process.env.PORT;
  // Loaded here only: the shell's launcher pulls in build tools that `serve` and `company` never need.
  const { prepareElectron, runElectron } = await import('../main/start.ts');
  const electron = values.browser ? { reason: '--browser was given' } : await prepareElectron();
  if ('binary' in electron) {
    process.stdout.write(`Starting the Electron kiosk (data folder: ${data ?? "the app's user-data folder"}).\n`);
    const env = {
      ...process.env,
      ...(data ? { PORTARIA_DATA: resolve(data) } : {}),
      ...(portText ? { PORTARIA_PORT: portText } : {}),
    };
    const code = await runElectron(electron.binary, env);
    if (code === 0 || code === null) return;
    process.stdout.write(`Electron exited with code ${code}: starting the kiosk in browser mode instead.\n`);
  } else {
    process.stdout.write(`Not starting the Electron kiosk: ${electron.reason}. Starting it in browser mode.\n`);
  }
  const dataDir = resolve(data ?? join(process.cwd(), '.data'));
  const port = Number(portText ?? 4780);
  const service = await startService({ port, dataDir });
  const { credential, created } = deviceCredential(service.ctx, 'My Company');
  if (created) {
    process.stdout.write(
      `Created company ${credential.companyId}. Its API key (shown once; the kiosk keeps its own copy sealed):\n  ${credential.apiKey}\n`,
    );
  }
  process.stdout.write(`Data folder: ${dataDir}\nKiosk: ${service.url}/\nAPI: ${service.url}/v1\n`);
  closeOnSignal(service.close);
}

/** `portaria backup`: SQLite's online backup, so the service may keep running (and writing) meanwhile. */
async function backup(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { data: { type: 'string' }, out: { type: 'string' } } });
  if (!values.data) fail('backup needs --data');
  const dataDir = resolve(values.data);
  if (!existsSync(databaseFile(dataDir))) fail(`${dataDir} holds no Portaria database`);
  privateDataFolder(dataDir);
  if (values.out === undefined) privateFolder(backupsDir(dataDir));
  const out = resolve(values.out ?? join(backupsDir(dataDir), backupFileName(Date.now())));
  const db = new Database(databaseFile(dataDir), { fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  try {
    const written = await backupDatabase(db, out);
    const schemaVersion = verifyDatabaseFile(written.file);
    process.stdout.write(`${JSON.stringify({ ...written, schemaVersion })}\n`);
  } finally {
    db.close();
  }
}

async function restore(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      data: { type: 'string' },
      from: { type: 'string' },
      force: { type: 'boolean' },
      'without-digest': { type: 'boolean' },
    },
  });
  if (!values.data || !values.from) fail('restore needs --data and --from');
  try {
    const restored = await restoreDatabase(resolve(values.data), resolve(values.from), {
      force: values.force,
      withoutDigest: values['without-digest'],
    });
    process.stdout.write(`${JSON.stringify({ restored: resolve(values.from), ...restored })}\n`);
  } catch (error) {
    if (!(error instanceof BackupError)) throw error;
    process.stderr.write(`restore refused: ${error.message}\n`);
    process.exit(1);
  }
}

export async function main(argv: string[]): Promise<void> {
  const [command, sub, ...rest] = argv;
  if (command === 'serve') return serve(argv.slice(1));
  if (command === 'backup') return backup(argv.slice(1));
  if (command === 'restore') return restore(argv.slice(1));
  if (command === 'start') return start(argv.slice(1));
  if (command === 'gate') return gate(argv.slice(1));
  if (command === 'company' && sub === 'create') return companyCreate(rest);
  if (command === 'privacy' && sub === 'export') return privacyExport(rest);
  if (command === 'owner' && sub === 'token') return ownerTokenCommand(rest, fail);
  fail(command ? `unknown command: ${argv.join(' ')}` : 'no command given');
}
