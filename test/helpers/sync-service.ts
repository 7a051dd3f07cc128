import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type FaultProxy, startFaultProxy } from './fault-proxy.ts';
import { client, type Reply, runCli, startService, type TestService, tempDir } from './service.ts';

/** Polls `check` until it answers something other than undefined or false; fails after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined | false>,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** `serve` arguments that make it a kiosk of `url`, its key in a file of its own (never on the command line). */
export function upstreamArgs(url: string, apiKey: string): string[] {
  const file = join(tempDir('portaria-upstream-'), 'upstream.key');
  writeFileSync(file, `${apiKey}\n`, { mode: 0o600 });
  return ['--upstream', url, '--upstream-key-file', file];
}

/** Waits until the kiosk has reached its hub once, asking with one of its local keys. */
export function online(kiosk: TestService, localKey: string): Promise<Reply> {
  const api = client(kiosk.url, localKey);
  return waitFor('the kiosk to reach its hub', async () => {
    const status = await api('GET', '/v1/sync/status');
    return status.status === 200 && status.body.state === 'online' && status;
  });
}

/**
 * An admin key of the kiosk's company made on the kiosk, once it adopted the company of its hub: the hub key opens
 * nothing there (docs/sync.md), so its local clients use their own (`portaria keys create`).
 */
export async function localAdminKey(kiosk: TestService): Promise<string> {
  const owner = client(kiosk.url, JSON.parse(await runCli(['owner', 'token', '--data', kiosk.dataDir])).token);
  const companyId = await waitFor('the kiosk to adopt its hub company', async () => {
    const device = await owner('GET', '/v1/device');
    return device.status === 200 && typeof device.body.companyId === 'string' && device.body.companyId;
  });
  const args = ['keys', 'create', '--data', kiosk.dataDir, '--company', companyId, '--role', 'admin'];
  return JSON.parse(await runCli(args)).key;
}

/** A kiosk service and an admin key of its own. */
export type Kiosk = TestService & { apiKey: string };

/** Starts a kiosk of the hub behind `upstreamUrl` (a proxy, usually) and waits until it is online. */
export async function startKiosk(
  upstreamUrl: string,
  apiKey: string,
  dataDir?: string,
  clockOffsetMs?: number,
  /** More `serve` arguments (`--allow-destinations`, for a kiosk that sends mail to a local server). */
  args: string[] = [],
): Promise<Kiosk> {
  const kiosk = await startService({ dataDir, clockOffsetMs, args: [...upstreamArgs(upstreamUrl, apiKey), ...args] });
  try {
    const localKey = await localAdminKey(kiosk);
    await online(kiosk, localKey);
    return Object.assign(kiosk, { apiKey: localKey });
  } catch (error) {
    // A kiosk left running would keep the test process alive after the failure is reported.
    await kiosk.stop();
    throw error;
  }
}

/** Starts a kiosk again on its data folder (its own keys stay), following the hub behind `upstreamUrl`. */
export async function restartKiosk(kiosk: Kiosk, upstreamUrl: string, hubKey: string): Promise<Kiosk> {
  const again = await startService({ dataDir: kiosk.dataDir, args: upstreamArgs(upstreamUrl, hubKey) });
  return Object.assign(again, { apiKey: kiosk.apiKey });
}

export interface HubAndKiosk {
  hub: TestService;
  company: { id: string; apiKey: string };
  proxy: FaultProxy;
  kiosk: Kiosk;
}

/** A hub with one company, and a kiosk of it that reaches the hub through a fault proxy, online. */
export async function startHubAndKiosk(): Promise<HubAndKiosk> {
  const hub = await startService();
  const company = await hub.company('Acme');
  const proxy = await startFaultProxy(hub.url);
  return { hub, company, proxy, kiosk: await startKiosk(proxy.url, company.apiKey) };
}

/** Asks the kiosk to sync now and answers its status once done. */
export async function syncNow(kiosk: TestService, apiKey: string): Promise<Reply['body']> {
  const reply = await client(kiosk.url, apiKey)('POST', '/v1/sync/run');
  if (reply.status !== 200) throw new Error(`sync run answered ${reply.status}: ${JSON.stringify(reply.body)}`);
  return reply.body;
}

/** Syncs until the kiosk is online with nothing pending (within 30 s); answers its status. */
export function settled(kiosk: Kiosk): Promise<Reply['body']> {
  return waitFor(
    'the kiosk to push and pull',
    async () => {
      const status = await syncNow(kiosk, kiosk.apiKey);
      return status.state === 'online' && status.pending === 0 && status;
    },
    30_000,
  );
}

/** Lines the service logged with this message (pino writes one JSON object a line). */
/**
 * The service's log lines with this message once there are at least `count` of them (a line is written by another
 * process, and may reach this one after the HTTP answer that followed it): waits on the condition, not a time.
 */
export async function settledLogLines(
  service: TestService,
  message: string,
  count = 1,
  deadlineMs = 10_000,
): Promise<Record<string, unknown>[]> {
  const until = Date.now() + deadlineMs;
  let lines = logLines(service, message);
  while (lines.length < count && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    lines = logLines(service, message);
  }
  return lines;
}

export function logLines(service: TestService, message: string): Record<string, unknown>[] {
  return service
    .stderr()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((entry) => entry.msg === message);
}
