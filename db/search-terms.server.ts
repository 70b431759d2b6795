import { sql } from 'drizzle-orm';
import type { Database } from './client.server';

// The typo index of search (search_terms, migrations 0003 and 0026): every word of three letters
// or more of the products' names and colours, lower case, ё as е. A misspelt query word is
// replaced by its nearest term (pg_trgm) before full-text search (models/search.server.ts). The
// seed rebuilds it whole; a product's change adds its new words and drops the words no product
// uses any more, in the change's transaction.

/** The words of a name and a colour as the index keeps them (the same split as the SQL below). */
export function termsOf(...texts: string[]): string[] {
  const words = texts
    .join(' ')
    .toLowerCase()
    .replace(/ё/g, 'е')
    .split(/[^а-яa-z0-9]+/)
    .filter((w) => w.length >= 3);
  return [...new Set(words)].sort();
}

/**
 * The whole index again from the products (the seed, a bulk import), in one statement that
 * writes only the difference: the words no product has any more go, the new ones come. Emptied
 * and filled again, every 1C catalogue package rewrote the whole trigram index (on PGlite the
 * guests wait for that).
 */
export async function rebuildSearchTerms(db: Database): Promise<void> {
  await db.execute(sql`
    with words as materialized (
      select distinct word from products,
        regexp_split_to_table(translate(lower(name || ' ' || color_name), 'ё', 'е'), '[^а-яa-z0-9]+') as word
      where length(word) >= 3),
    gone as (delete from search_terms t where not exists (select 1 from words w where w.word = t.term))
    insert into search_terms (term) select word from words
    where not exists (select 1 from search_terms t where t.term = words.word)
    on conflict do nothing`);
}

/**
 * One product's name or colour changed from `before` to `after` (their terms): the new words go
 * in, and each word it no longer has goes out unless another product still has it.
 */
export async function updateSearchTerms(db: Database, before: string[], after: string[]): Promise<void> {
  const added = after.filter((t) => !before.includes(t));
  const gone = before.filter((t) => !after.includes(t));
  if (added.length)
    await db.execute(
      sql`insert into search_terms (term) values ${sql.join(
        added.map((t) => sql`(${t})`),
        sql`, `,
      )} on conflict do nothing`,
    );
  for (const term of gone)
    await db.execute(sql`delete from search_terms where term = ${term} and not exists (
      select 1 from products
      where translate(lower(name || ' ' || color_name), 'ё', 'е') ~ ${`(^|[^а-яa-z0-9])${term}($|[^а-яa-z0-9])`})`);
}
