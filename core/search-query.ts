// What a search box query means before any database sees it (SPEC §7 `GET /api/search?q=`).

const MAX_WORDS = 6;
const MAX_WORD = 40;
export const SEARCH_LIMIT = 24;
export const MAX_QUERY = 200;

/** Lower-case words of a query, ё read as е: letters and digits only, so nothing reaches tsquery syntax. */
export function searchWords(q: string): string[] {
  return (
    q
      .toLowerCase()
      .replace(/ё/g, 'е')
      .match(/[\p{L}\p{N}]+/gu) ?? []
  )
    .slice(0, MAX_WORDS)
    .map((w) => w.slice(0, MAX_WORD));
}

/** An article number typed as such ('VT-26-00153', 'vt 26'), as a lower-case prefix; null otherwise. */
export function articlePrefix(q: string): string | null {
  const compact = q.trim().toLowerCase();
  if (/^vt[-\s]?\d/.test(compact)) return compact.replace(/\s+/g, '-').replace(/[%_\\]/g, '');
  return null;
}

/** The tsquery of the words: every word must match, the last one as a prefix (the shopper may still be typing). */
export function prefixTsQuery(words: readonly string[]): string {
  return words.map((w, i) => (i === words.length - 1 ? `${w}:*` : w)).join(' & ');
}
