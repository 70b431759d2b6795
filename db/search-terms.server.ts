import { sql } from 'drizzle-orm';
import { queryRows, type Database } from './client.server';

// The typo index of search (search_terms, migrations 0003 and 0026): every word of three letters
// or more of the products' names and colours, lower case, ё as е. A misspelt query word is
// replaced by its nearest term (pg_trgm) before full-text search (models/search.server.ts). The
// seed rebuilds it whole; a product's change adds its new words and drops the words no product
// uses any more, in the change's transaction.

/** The words of a name and a colour as the index keeps them (the same split as updateSearchTerms' SQL). */
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
 * The whole index again from the products (the seed, a bulk import), writing only the
 * difference: the words no product has any more go, the new ones come. The words are split here
 * (termsOf, the same split as updateSearchTerms') rather than by regexp_split_to_table: on PGlite
 * that took 0.1 s of the server's thread at 10 000 products, at the end of every 1C catalogue
 * package; emptied and refilled, the table's trigram index was rewritten whole each time too.
 */
export async function rebuildSearchTerms(db: Database): Promise<void> {
  const [names] = await queryRows<{ t: string | null }>(
    db,
    sql`select string_agg(name || ' ' || color_name, E'\n') as t from products`,
  );
  const words = new Set(termsOf(names?.t ?? ''));
  const have = await queryRows<{ term: string }>(db, sql`select term from search_terms`);
  const gone = have.filter((r) => !words.has(r.term)).map((r) => r.term);
  for (const r of have) words.delete(r.term);
  if (gone.length)
    await db.execute(
      sql`delete from search_terms where term in (select jsonb_array_elements_text(${JSON.stringify(gone)}::jsonb))`,
    );
  if (words.size)
    await db.execute(sql`insert into search_terms (term)
      select jsonb_array_elements_text(${JSON.stringify([...words])}::jsonb) on conflict do nothing`);
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
