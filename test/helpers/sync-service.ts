import { type FaultProxy, startFaultProxy } from './fault-proxy.ts';
import { client, type Reply, startService, type TestService } from './service.ts';

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

export const upstreamArgs = (url: string, apiKey: string) => ['--upstream', url, '--upstream-key', apiKey];

/** Waits until the kiosk has reached its hub once: its local clients can then use the hub company's key. */
export function online(kiosk: TestService, apiKey: string): Promise<Reply> {
  const api = client(kiosk.url, apiKey);
  return waitFor('the kiosk to reach its hub', async () => {
    const status = await api('GET', '/v1/sync/status');
    return status.status === 200 && status.body.state === 'online' && status;
  });
}

/** Starts a kiosk of the hub behind `upstreamUrl` (a proxy, usually) and waits until it is online. */
export async function startKiosk(
  upstreamUrl: string,
  apiKey: string,
  dataDir?: string,
  clockOffsetMs?: number,
): Promise<TestService> {
  const kiosk = await startService({ dataDir, clockOffsetMs, args: upstreamArgs(upstreamUrl, apiKey) });
  try {
    await online(kiosk, apiKey);
  } catch (error) {
    // A kiosk left running would keep the test process alive after the failure is reported.
    await kiosk.stop();
    throw error;
  }
  return kiosk;
}

export interface HubAndKiosk {
  hub: TestService;
  company: { id: string; apiKey: string };
  proxy: FaultProxy;
  kiosk: TestService;
}

/** A hub with one company, and a kiosk of it that reaches the hub through a fault proxy, online. */
export async function startHubAndKiosk(): Promise<HubAndKiosk> {
  const hub = await startService();
  const company = hub.company('Acme');
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
export function settled(kiosk: TestService, apiKey: string): Promise<Reply['body']> {
  return waitFor(
    'the kiosk to push and pull',
    async () => {
      const status = await syncNow(kiosk, apiKey);
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
