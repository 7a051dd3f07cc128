import { defaultBackupSchedule } from '../../local-api/backup/backup.ts';
import { parseCidrList } from '../../local-api/outgoing/destinations.ts';
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

export const serve = command({
  name: 'serve',
  summary: 'The service: the kiosk page at /, the API at /v1.',
  options: {
    port: servicePortOption,
    data: { type: 'string', value: '<dir>', help: 'the data folder (created when missing)', required: true },
    database: databaseOption,
    host: { type: 'string', value: '<ip>', help: 'the address to listen on (default 127.0.0.1, this machine only)' },
    upstream: { type: 'string', value: '<hub URL>', help: 'run as a kiosk of this hub (docs/sync.md)' },
    'upstream-key': { type: 'string', value: '<key>', help: "the hub's API key for this kiosk's company" },
    'backup-interval': { type: 'string', value: '<24h|30m|0>', help: 'scheduled backups (default 24h; 0: none)' },
    'backup-keep': { type: 'string', value: '<n>', help: 'scheduled backups kept (default 7)' },
    'allow-destinations': {
      type: 'string',
      value: '<cidr,...>',
      help: "ranges webhooks, gates and e-mail may reach besides the defaults, kept until changed ('' clears; docs/security.md)",
    },
  },
  details:
    "Only one service runs on a data folder's SQLite file at a time: a second one is refused. Hub processes that\n" +
    'share a PostgreSQL database (--database) may run side by side: docs/deployment.md.',
  async run(values) {
    const allowed = values['allow-destinations'];
    const destinations = allowed === undefined ? undefined : parseCidrList(allowed);
    if (destinations && !destinations.ok) {
      throw new UsageError(
        `--allow-destinations: ${destinations.bad} is not an address or range: give ones like 10.0.0.0/8`,
      );
    }
    const url = values.upstream;
    const apiKey = values['upstream-key'];
    if ((url === undefined) !== (apiKey === undefined)) {
      throw new UsageError('--upstream and --upstream-key go together: give both, or neither');
    }
    const upstream = url !== undefined && apiKey !== undefined ? upstreamInput.safeParse({ url, apiKey }) : undefined;
    if (upstream && !upstream.success) {
      throw new UsageError('--upstream must be an http(s) URL and --upstream-key 16 characters or more');
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
      allowDestinations: destinations?.ok ? destinations.cidrs : undefined,
    });
    closeOnSignal(service.close);
    process.stdout.write(`Portaria listening on ${service.url}\n`);
  },
});
