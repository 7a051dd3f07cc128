/** Letters a visitor types before any name is shown: the kiosk never lists who else is expected or inside. */
export const minSearchLength = 3;

/** Text folded for matching what a visitor types: lower case, without accents ("João" is found by "joao"). */
export function fold(text: string | null | undefined): string {
  return (text ?? '').normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim();
}

/**
 * The items whose words start with every word typed ("ana s" finds "Ana Souza"), best first: those whose first
 * field starts with the query, then the rest in their order. At most `limit` are answered.
 */
export function matching<T>(
  items: readonly T[],
  query: string,
  fields: (item: T) => (string | null | undefined)[],
  limit = 8,
): T[] {
  const words = fold(query).split(/\s+/).filter(Boolean);
  if (words.length === 0) return [];
  const scored: { item: T; score: number }[] = [];
  items.forEach((item, index) => {
    const texts = fields(item).map(fold);
    const itemWords = texts.flatMap((t) => t.split(/[\s\-/.,]+/));
    if (!words.every((w) => itemWords.some((iw) => iw.startsWith(w)))) return;
    const first = texts[0] ?? '';
    scored.push({ item, score: (first.startsWith(words.join(' ')) ? 0 : 1) * items.length + index });
  });
  return scored
    .sort((a, b) => a.score - b.score)
    .slice(0, limit)
    .map((s) => s.item);
}
