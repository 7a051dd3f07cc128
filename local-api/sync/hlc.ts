/**
 * Hybrid logical clocks (Kulkarni et al., 2014): a timestamp that follows the wall clock where it can and a counter
 * where it cannot. Every service ticks its clock for each write it makes and advances it past every timestamp it
 * receives, so a write made after seeing another always carries a later timestamp, even on a kiosk whose clock is
 * minutes behind. Ties between services are broken by the node id, so all of them order any two writes alike.
 *
 * Timestamps travel and are stored as text whose byte order is their order: 15 digits of milliseconds, 4 hex
 * digits of counter, the node id.
 */
export interface Hlc {
  wallMs: number;
  counter: number;
  node: string;
}

const maxCounter = 0xffff;
const wallDigits = 15;

/** A counter past its 16 bits moves the clock one millisecond ahead instead. */
function settle(wallMs: number, counter: number, node: string): Hlc {
  return counter > maxCounter ? { wallMs: wallMs + 1, counter: 0, node } : { wallMs, counter, node };
}

/** The timestamp of a new local write, `now` being the wall clock. */
export function tickHlc(last: Hlc, now: number): Hlc {
  if (now > last.wallMs) return { wallMs: now, counter: 0, node: last.node };
  return settle(last.wallMs, last.counter + 1, last.node);
}

/** The local clock after receiving `remote`: later than both, and than the wall clock when it can be. */
export function receiveHlc(local: Hlc, remote: Hlc, now: number): Hlc {
  const wallMs = Math.max(local.wallMs, remote.wallMs, now);
  let counter = 0;
  if (wallMs === local.wallMs && wallMs === remote.wallMs) counter = Math.max(local.counter, remote.counter) + 1;
  else if (wallMs === local.wallMs) counter = local.counter + 1;
  else if (wallMs === remote.wallMs) counter = remote.counter + 1;
  return settle(wallMs, counter, local.node);
}

export function formatHlc(hlc: Hlc): string {
  return `${String(hlc.wallMs).padStart(wallDigits, '0')}-${hlc.counter.toString(16).padStart(4, '0')}-${hlc.node}`;
}

const pattern = /^(\d{15})-([0-9a-f]{4})-([0-9A-Za-z_]{1,64})$/;

export function parseHlc(text: string): Hlc | undefined {
  const match = pattern.exec(text);
  if (!match) return undefined;
  return { wallMs: Number(match[1]), counter: Number.parseInt(String(match[2]), 16), node: String(match[3]) };
}

export const isHlc = (text: string): boolean => pattern.test(text);

/** Orders formatted timestamps: negative when `a` is earlier. */
export function compareHlc(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The clock of a node that has not ticked yet. */
export const zeroHlc = (node: string): Hlc => ({ wallMs: 0, counter: 0, node });
