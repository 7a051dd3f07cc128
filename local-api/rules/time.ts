const offsetFormatters = new Map<string, Intl.DateTimeFormat>();

function offsetFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = offsetFormatters.get(timeZone);
  if (!formatter) {
    // Only the year beside the offset ("2025, GMT-03:00"): format() of this is several times cheaper than
    // formatToParts(), and every time field of every object in a list goes through it.
    formatter = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', timeZoneName: 'longOffset' });
    offsetFormatters.set(timeZone, formatter);
  }
  return formatter;
}

export function isTimeZone(name: string): boolean {
  try {
    offsetFormatter(name);
    return true;
  } catch {
    return false;
  }
}

/** The zone's offset from UTC at that instant, in minutes (east positive). */
export function zoneOffsetMinutes(epochMs: number, timeZone: string): number {
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(offsetFormatter(timeZone).format(epochMs));
  if (!match) return 0; // "GMT" alone: UTC itself
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return match[1] === '-' ? -minutes : minutes;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** ISO 8601 with the zone's offset and no fractional seconds, as the interface shows: 2019-07-09T08:02:17-03:00. */
export function formatInZone(epochMs: number, timeZone: string): string {
  const offset = zoneOffsetMinutes(epochMs, timeZone);
  const local = new Date(Math.floor(epochMs / 1000) * 1000 + offset * 60_000);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  return (
    `${pad(local.getUTCFullYear(), 4)}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}` +
    `T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}` +
    `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`
  );
}

const isoDateTime =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * Parses an ISO 8601 date or date-time into Unix milliseconds. A time without an offset is read in `timeZone`
 * (the company's), as a person at that reception means it. Returns undefined when the text is not a real date.
 */
export function parseDateTime(text: string, timeZone: string): number | undefined {
  const m = isoDateTime.exec(text.trim());
  if (!m) return undefined;
  const [year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0] = m.slice(1, 7).map((v) => Number(v ?? 0));
  const fraction = m[7] ? Number(`0.${m[7]}`) * 1000 : 0;
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return undefined;
  const wallClock = Date.UTC(year, month - 1, day, hour, minute, second, Math.floor(fraction));
  const check = new Date(wallClock);
  if (check.getUTCDate() !== day || check.getUTCMonth() !== month - 1) return undefined; // 2024-02-31
  const zone = m[8];
  if (zone === 'Z') return wallClock;
  if (zone) {
    const digits = zone.replace(':', '');
    const minutes = Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5));
    return wallClock - (digits[0] === '-' ? -minutes : minutes) * 60_000;
  }
  // No offset: find the instant whose wall clock in the zone is this one (two passes settle DST edges).
  let guess = wallClock - zoneOffsetMinutes(wallClock, timeZone) * 60_000;
  guess = wallClock - zoneOffsetMinutes(guess, timeZone) * 60_000;
  return guess;
}

/**
 * The instants a time is written for, years 0000 to 9999, as ISO text has them: beyond, the time zone rules cannot
 * place it (a number of seconds sent as milliseconds lands in year 50,000) and no page could show it.
 */
const instantRange = { min: Date.parse('0000-01-01T00:00:00Z'), max: Date.parse('9999-12-31T23:59:59.999Z') };

/** Milliseconds of a count of Unix seconds, when it is an instant of years 0000 to 9999. */
function fromUnixSeconds(seconds: number): number | undefined {
  const ms = Math.round(seconds * 1000);
  return Number.isFinite(ms) && ms >= instantRange.min && ms <= instantRange.max ? ms : undefined;
}

/** Unix seconds (as the list queries take them) or ISO text: both are accepted where a date is input. */
export function parseTimestampInput(value: unknown, timeZone: string): number | undefined {
  if (typeof value === 'number') return fromUnixSeconds(value);
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  if (/^-?\d+(\.\d+)?$/.test(value.trim())) return fromUnixSeconds(Number(value));
  return parseDateTime(value, timeZone);
}

export const defaultTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
