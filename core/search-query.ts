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

/**
 * Part of an article number typed without its letters ('00081', '26-00081'): digits and
 * dashes with at least three digits, so a size ('46') or a year alone is not read as one.
 */
export function articleFragment(q: string): string | null {
  const compact = q.trim().replace(/\s+/g, '-');
  if (!/^[\d-]+$/.test(compact) || compact.replace(/-/g, '').length < 3) return null;
  return compact;
}

// The Russian ЙЦУКЕН key under each key of the Latin QWERTY layout (shifted keys too).
const LATIN_KEYS = 'qwertyuiop[]asdfghjkl;\'zxcvbnm,.`QWERTYUIOP{}ASDFGHJKL:"ZXCVBNM<>~';
const RUSSIAN_KEYS = 'йцукенгшщзхъфывапролджэячсмитьбюёЙЦУКЕНГШЩЗХЪФЫВАПРОЛДЖЭЯЧСМИТЬБЮЁ';
const TO_RUSSIAN = new Map([...LATIN_KEYS].map((ch, i) => [ch, RUSSIAN_KEYS[i] as string]));

/**
 * The query as it would read had it been typed with the Russian layout on ('gfkmnj' is
 * 'пальто'); null when it has no Latin letter, so there is nothing to switch. Punctuation keys
 * are letters there (',h.rb' is 'брюки'), so this works on the raw query, before searchWords.
 */
export function switchLayout(q: string): string | null {
  if (!/[a-z]/i.test(q)) return null;
  return [...q].map((ch) => TO_RUSSIAN.get(ch) ?? ch).join('');
}

/**
 * Sizes named among the words ('брюки 46', 'платье m'): the words left to match as text, and
 * the size filter ids asked for (any of them will do). `sizeIds` answers the filter ids a
 * word may mean that the catalogue has ('46' → ['46'], '37' → ['obuv-37']). A query of sizes
 * only is left as it is: there is nothing else to look for.
 */
export function splitSizes(
  words: readonly string[],
  sizeIds: (word: string) => string[],
): { words: string[]; sizes: string[] } {
  const text: string[] = [];
  const sizes = new Set<string>();
  for (const w of words) {
    const ids = sizeIds(w);
    if (ids.length) for (const id of ids) sizes.add(id);
    else text.push(w);
  }
  if (!text.length || !sizes.size) return { words: [...words], sizes: [] };
  return { words: text, sizes: [...sizes] };
}

/** The tsquery of the words: every word must match, the last one as a prefix (the shopper may still be typing). */
export function prefixTsQuery(words: readonly string[]): string {
  return words.map((w, i) => (i === words.length - 1 ? `${w}:*` : w)).join(' & ');
}
