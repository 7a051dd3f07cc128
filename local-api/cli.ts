import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createCompany } from './companies/store.ts';
import { deviceCredential } from './device.ts';
import { isTimeZone } from './rules/time.ts';
import { openService, startService } from './server.ts';
import { upstreamInput } from './sync/schema.ts';

const usage = `Usage:
  portaria start [--port <n>] [--data <dir>]          the kiosk (browser mode where Electron cannot run)
  portaria serve --port <n> --data <dir> [--host <ip>] the service: kiosk page at /, API at /v1
        [--upstream <hub URL> --upstream-key <key>]   as a kiosk of that hub, for the key's company
  portaria company create --data <dir> --name <name> [--api-key <key>] [--timezone <IANA zone>]`;

function fail(message: string): never {
  process.stderr.write(`${message}\n\n${usage}\n`);
  process.exit(2);
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
    },
  });
  if (!values.port || !values.data) fail('serve needs --port and --data');
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port ${values.port} is not a port number`);
  const url = values.upstream;
  const apiKey = values['upstream-key'];
  if ((url === undefined) !== (apiKey === undefined)) fail('--upstream and --upstream-key go together');
  const upstream = url !== undefined && apiKey !== undefined ? upstreamInput.safeParse({ url, apiKey }) : undefined;
  if (upstream && !upstream.success) fail('--upstream must be an http(s) URL and --upstream-key 16 characters or more');
  const service = await startService({ port, dataDir: values.data, host: values.host, upstream: upstream?.data });
  process.stdout.write(`Portaria listening on ${service.url}\n`);
  closeOnSignal(service.close);
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

/** `npm start`: a newcomer's first run gets a data folder, a company and its key, and the kiosk's address. */
async function start(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { port: { type: 'string' }, data: { type: 'string' } } });
  const dataDir = resolve(values.data ?? process.env.PORTARIA_DATA ?? join(process.cwd(), '.data'));
  const port = Number(values.port ?? process.env.PORT ?? 4780);
  process.stdout.write('Electron is not started by this command yet: starting the kiosk in browser mode.\n');
  const service = await startService({ port, dataDir });
  const { credential, created } = deviceCredential(service.ctx, 'My Company');
  if (created) process.stdout.write(`Created company ${credential.companyId}; API key: ${credential.apiKey}\n`);
  process.stdout.write(
    `Data folder: ${dataDir}\nKiosk: ${service.url}/\nAPI: ${service.url}/v1 (key in ${join(dataDir, 'device.json')})\n`,
  );
  closeOnSignal(service.close);
}

export async function main(argv: string[]): Promise<void> {
  const [command, sub, ...rest] = argv;
  if (command === 'serve') return serve(argv.slice(1));
  if (command === 'start') return start(argv.slice(1));
  if (command === 'company' && sub === 'create') return companyCreate(rest);
  fail(command ? `unknown command: ${argv.join(' ')}` : 'no command given');
}
