/**
 * An instant as a `datetime-local` control shows it in the company's zone ("2026-12-01T09:30"), which the service
 * reads back in the same zone (an expected time without an offset). Pure.
 */
export function localInput(timeZone: string, at: Date): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

/** The next whole hour from `now`: the time a new invitation starts with. Pure. */
export const nextHour = (now: Date): Date => new Date(Math.ceil(now.getTime() / 3_600_000) * 3_600_000);

/** The instant a day ("2026-12-01") begins in the company's zone, in milliseconds. Pure. */
export function startOfDay(timeZone: string, day: string): number {
  const midnightUtc = Date.parse(`${day}T00:00:00Z`);
  // The zone's wall clock at that instant, read as if it were UTC, is off by the zone's offset.
  const shown = Date.parse(`${localInput(timeZone, new Date(midnightUtc))}:00Z`);
  return midnightUtc - (shown - midnightUtc);
}
