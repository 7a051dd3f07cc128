/**
 * A TCP proxy that holds every chunk `--delay` milliseconds in each direction: PostgreSQL on another machine of the
 * same network, for a service whose every statement is a round trip. Its own process, so the bench's load does not
 * delay it further:
 *
 *   node --import tsx bench/hub/delay-proxy.ts --target 127.0.0.1:5432 [--delay 1]
 *
 * It prints the line every bench server prints (`listening on http://…`, read by servers.ts `startProcess`), though
 * what it carries is PostgreSQL's protocol.
 */
import { connect, createServer, type Socket } from 'node:net';
import { parseArgs } from 'node:util';

/** Writes what `from` sends to `to`, `delayMs` later, in order (timers of one delay fire in the order set). */
function relay(from: Socket, to: Socket, delayMs: number): void {
  from.on('data', (chunk) => {
    setTimeout(() => {
      if (!to.destroyed) to.write(chunk);
    }, delayMs);
  });
  from.on('end', () => setTimeout(() => to.end(), delayMs));
  from.on('error', () => to.destroy());
  from.on('close', () => setTimeout(() => to.destroy(), delayMs));
}

const { values } = parseArgs({ options: { target: { type: 'string' }, delay: { type: 'string', default: '1' } } });
const [host, port] = (values.target ?? '').split(':');
if (!host || !port) throw new Error('usage: delay-proxy.ts --target host:port [--delay ms]');
const delayMs = Number(values.delay);

const server = createServer((client) => {
  client.setNoDelay(true);
  const upstream = connect({ host, port: Number(port), noDelay: true });
  relay(client, upstream, delayMs);
  relay(upstream, client, delayMs);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address() as { port: number };
  process.stdout.write(`delay proxy (${delayMs} ms each way) listening on http://127.0.0.1:${address.port}\n`);
});
process.once('SIGTERM', () => process.exit(0));
