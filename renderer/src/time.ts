/** The calendar day of an instant in a zone, as `YYYY-MM-DD`. */
export function dayIn(timeZone: string, at: Date | string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(at),
  );
}

export const isToday = (timeZone: string, at: string, now = new Date()) => dayIn(timeZone, at) === dayIn(timeZone, now);

/** A time of day in the visitor's language and the company's zone: "14:05", "2:05 PM". */
export const timeOfDay = (lang: string, timeZone: string, at: string | Date) =>
  new Intl.DateTimeFormat(lang, { timeZone, hour: 'numeric', minute: '2-digit' }).format(new Date(at));

export const dateAndTime = (lang: string, timeZone: string, at: string | Date) =>
  new Intl.DateTimeFormat(lang, { timeZone, dateStyle: 'medium', timeStyle: 'short' }).format(new Date(at));

export const longDate = (lang: string, timeZone: string, at: string | Date) =>
  new Intl.DateTimeFormat(lang, { timeZone, dateStyle: 'long' }).format(new Date(at));

export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
