/**
 * Names as a visitor types them at the kiosk: compared without case, accents, punctuation or extra spaces, and
 * close enough when a typo or two apart (fewer for short names), never by a prefix: typing a few letters finds
 * nobody.
 */
export function normalizeName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Edits (insertions, deletions, substitutions, swaps of neighbours) between two strings. */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 1; j <= b.length; j++) (rows[0] as number[])[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const row = rows[i] as number[];
    const above = rows[i - 1] as number[];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min((above[j] as number) + 1, (row[j - 1] as number) + 1, (above[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, ((rows[i - 2] as number[])[j - 2] as number) + 1);
      }
      row[j] = best;
    }
  }
  return (rows[a.length] as number[])[b.length] as number;
}

/** The shortest name the kiosk looks up by (in letters, after normalising). */
export const minNameLength = 3;

/** Whether what was typed names this person: the whole name, give or take one typo per 8 letters (two at most). */
export function namesMatch(typed: string, stored: string): boolean {
  const a = normalizeName(typed);
  const b = normalizeName(stored);
  if (a.length < minNameLength || b.length === 0) return false;
  const allowed = Math.min(2, Math.floor(b.length / 8));
  return Math.abs(a.length - b.length) <= allowed && editDistance(a, b) <= allowed;
}

/** What the kiosk's screen may show of a person: the first name and the initial of the last ("Ana S."). */
export function firstNameAndInitial(name: string | null): { firstName: string; initial: string } {
  const words = (name ?? '').trim().split(/\s+/).filter(Boolean);
  const last = words.length > 1 ? (words[words.length - 1] ?? '') : '';
  return { firstName: words[0] ?? '', initial: last ? `${[...last][0]?.toUpperCase()}.` : '' };
}
