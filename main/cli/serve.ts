import { readFileSync } from 'node:fs';
import { defaultBackupSchedule } from '../../local-api/backup/backup.ts';
import { type Cidr, parseCidrList } from '../../local-api/outgoing/destinations.ts';
import { upstreamInput } from '../../local-api/sync/schema.ts';
import { command, UsageError } from './command.ts';
import {
  database,
  databaseOption,
  dataFolder,
  duration,
  servicePort,
  servicePortOption,
  wholeNumber,
} from './inputs.ts';
import { closeOnSignal, startServiceOrExplain } from './service.ts';
import { version } from './version.ts';

/** A list of address ranges given to an option, or undefined when the option is not given. */
function cidrsOption(text: string | undefined, option: string): Cidr[] | undefined {
  if (text === undefined) return undefined;
  const parsed = parseCidrList(text);
  if (!parsed.ok)
    throw new UsageError(`${option}: ${parsed.bad} is not an address or range: give ones like 10.0.0.0/8`);
  return parsed.cidrs;
}

/** A kiosk's pause between syncs: a second at least (a busy loop otherwise), an hour at most (a stale desk). */
/**
 * `--public-url`: an http(s) origin. No path: the pages load their files from the root of the host
 * (docs/deployment.md, "The public address").
 */
function publicUrlOption(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const url = URL.canParse(text) ? new URL(text) : undefined;
  if (
    !url ||
    !/^https?:$/.test(url.protocol) ||
    url.pathname !== '/' ||
    url.search !== '' ||
    url.hash !== '' ||
    url.username !== ''
  ) {
    throw new UsageError(
      `--public-url ${text}: give an http(s) address without a path, such as https://visitors.example.com`,
    );
  }
  return url.origin;
}

function syncInterval(text: string): number {
  const ms = duration(text, '--sync-interval');
  if (ms < 1_000 || ms > 3_600_000) throw new UsageError(`--sync-interval ${text}: give one from 1s to 1h`);
  return ms;
}

/**
 * The hub key, from a file or the environment: a command-line argument stays in `/proc/<pid>/cmdline`, which every
 * local user can read for the kiosk's lifetime. `--upstream-key` still works, with a warning. The environment is
 * read only with `--upstream`, so a key left in a service's environment does not make a hub a kiosk.
 */
function upstreamKey(file: string | undefined, given: string | undefined, withUpstream: boolean): string | undefined {
  if (file !== undefined && given !== undefined) {
    throw new UsageError('--upstream-key-file and --upstream-key name the same key: give one');
  }
  if (given !== undefined) {
    process.stderr.write(
      'portaria: warning: --upstream-key leaves the key in the process list, readable by every local user: ' +
        'give --upstream-key-file <path> or PORTARIA_UPSTREAM_KEY instead (docs/sync.md)\n',
    );
    return given;
  }
  if (file !== undefined) {
    try {
      return readFileSync(file, 'utf8').trim();
    } catch (error) {
      throw new UsageError(`--upstream-key-file: cannot read ${file}: ${(error as NodeJS.ErrnoException).code}`);
    }
  }
  return withUpstream ? process.env.PORTARIA_UPSTREAM_KEY?.trim() || undefined : undefined;
}

export const serve = command({
  name: 'serve',
  summary: 'The service: the kiosk page at /, the API at /v1.',
  options: {
    port: servicePortOption,
    data: { type: 'string', value: '<dir>', help: 'the data folder (created when missing)', required: true },
    database: databaseOption,
    host: { type: 'string', value: '<ip>', help: 'the address to listen on (default 127.0.0.1, this machine only)' },
    upstream: {
      type: 'string',
      value: '<hub URL>',
      help: "run as a kiosk of this hub; without a key it shows a pairing code for the hub's console (docs/sync.md)",
    },
    'upstream-key-file': {
      type: 'string',
      value: '<path>',
      help: "a file holding the hub's API key for this kiosk's company; or PORTARIA_UPSTREAM_KEY",
    },
    'upstream-key': {
      type: 'string',
      value: '<key>',
      help: 'the key itself: other local users can read it in the process list; prefer --upstream-key-file',
    },
    'sync-interval': {
      type: 'string',
      value: '<5s>',
      help: "a kiosk's pause between syncs when no poke from its hub comes sooner (default 5s; docs/sync.md)",
    },
    'public-url': {
      type: 'string',
      value: '<URL>',
      help: 'where people outside reach this service: links in e-mails and messages point there (docs/deployment.md)',
    },
    'backup-interval': { type: 'string', value: '<24h|30m|0>', help: 'scheduled backups (default 24h; 0: none)' },
    'backup-keep': { type: 'string', value: '<n>', help: 'scheduled backups kept (default 7)' },
    'allow-destinations': {
      type: 'string',
      value: '<cidr,...>',
      help: "ranges webhooks, gates and e-mail may reach besides the defaults, kept until changed ('' clears; docs/security.md)",
    },
    'trust-proxy': {
      type: 'string',
      value: '<cidr,...>',
      help: 'proxies whose X-Forwarded-For names the client, e.g. your load balancer (docs/deployment.md)',
    },
  },
  details:
    "Only one service runs on a data folder's SQLite file at a time: a second one is refused. Hub processes that\n" +
    'share a PostgreSQL database (--database) may run side by side: docs/deployment.md.',
  async run(values) {
    const destinations = cidrsOption(values['allow-destinations'], '--allow-destinations');
    const trustProxy = cidrsOption(values['trust-proxy'], '--trust-proxy');
    const url = values.upstream;
    if (url === undefined && (values['upstream-key-file'] ?? values['upstream-key']) !== undefined) {
      throw new UsageError('an upstream key goes with --upstream: give --upstream <hub URL> too, or no key');
    }
    const apiKey = upstreamKey(values['upstream-key-file'], values['upstream-key'], url !== undefined);
    // Without a key the kiosk pairs: it shows a code that an administrator types in at the hub (docs/sync.md).
    const upstream =
      url === undefined
        ? undefined
        : apiKey === undefined
          ? upstreamInput.pick({ url: true }).safeParse({ url })
          : upstreamInput.safeParse({ url, apiKey });
    if (upstream && !upstream.success) {
      throw new UsageError('--upstream must be an http(s) URL and its key 16 characters or more');
    }
    const interval = values['backup-interval'];
    const keep = values['backup-keep'];
    const backups = {
      intervalMs: interval === undefined ? defaultBackupSchedule.intervalMs : duration(interval, '--backup-interval'),
      keep: keep === undefined ? defaultBackupSchedule.keep : wholeNumber(keep, '--backup-keep', 1),
    };
    const service = await startServiceOrExplain({
      port: servicePort(values.port),
      dataDir: dataFolder(values.data),
      database: database(values.database),
      host: values.host,
      upstream: upstream?.data,
      backups,
      ...(values['sync-interval'] === undefined ? {} : { syncPollMs: syncInterval(values['sync-interval']) }),
      allowDestinations: destinations,
      trustProxy,
      publicUrl: publicUrlOption(values['public-url']),
      appVersion: version(),
    });
    closeOnSignal(service.close);
    process.stdout.write(`Portaria listening on ${service.url}\n`);
  },
});
