import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { queryRows, type Database } from '~/db/client.server';
import { productPhotos, products } from '~/db/schema';
import { prefixTsQuery } from '~/core/search-query';

// Product search in SQL: PostgreSQL full text ('russian' configuration) and pg_trgm.

/**
 * Active products whose article starts with the prefix ('vt-26-0008'), or holds the fragment
 * anywhere ('00081', with `anywhere`: a trigram index answers it), by article.
 */
export async function findProductIdsByArticle({
  db,
  prefix,
  limit,
  anywhere = false,
}: {
  db: Database;
  prefix: string;
  limit: number;
  anywhere?: boolean;
}): Promise<number[]> {
  const pattern = `${anywhere ? '%' : ''}${prefix}%`;
  const rows = await db
    .select({ id: products.id })
    .from(products)
    .where(and(eq(products.active, true), sql`lower(${products.article}) like ${pattern}`))
    .orderBy(products.article)
    .limit(limit);
  return rows.map((r) => r.id);
}

/**
 * Active products matching every word ('name': name, colour and article; 'all': descriptions
 * too), most popular first: ordering by an indexed column, not ts_rank over every match,
 * keeps common words fast at any catalogue size. With `sizes`: only products orderable now
 * in one of these size filter ids.
 */
export async function findProductIdsByText({
  db,
  words,
  tier,
  limit,
  sizes = [],
}: {
  db: Database;
  words: string[];
  tier: 'name' | 'all';
  limit: number;
  sizes?: readonly string[];
}): Promise<number[]> {
  const vector = tier === 'name' ? products.nameVector : products.searchVector;
  const sized = sizes.length ? sql`${products.sizes} && ${textArray(sizes)}` : undefined;
  const rows = await db
    .select({ id: products.id })
    .from(products)
    .where(and(eq(products.active, true), sql`${vector} @@ to_tsquery('russian', ${prefixTsQuery(words)})`, sized))
    .orderBy(desc(products.popularity), products.id)
    .limit(limit);
  return rows.map((r) => r.id);
}

const textArray = (values: readonly string[]) =>
  sql`array[${sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )}]::text[]`;

/** Each word not in the catalogue's vocabulary becomes its nearest catalogue word (trigram similarity). */
export async function getNearestTerms({ db, words }: { db: Database; words: string[] }): Promise<string[]> {
  const out: string[] = [];
  for (const word of words) {
    if (word.length < 3 || /^\d+$/.test(word)) {
      out.push(word);
      continue;
    }
    const rows = await queryRows<{ term: string }>(
      db,
      sql`select term from search_terms where term % ${word} order by similarity(term, ${word}) desc, term limit 1`,
    );
    out.push(rows[0]?.term ?? word);
  }
  return out;
}

/** The products of the ids with their first photo, in the order given. */
export async function getSearchHitRows({ db, ids }: { db: Database; ids: number[] }) {
  if (ids.length === 0) return [];
  const rows = await db
    .select({
      id: products.id,
      name: products.name,
      slug: products.slug,
      sectionId: products.sectionId,
      priceKopecks: products.priceKopecks,
      oldPriceKopecks: products.oldPriceKopecks,
      colorName: products.colorName,
      photo: productPhotos.path,
    })
    .from(products)
    .leftJoin(productPhotos, and(eq(productPhotos.productId, products.id), eq(productPhotos.position, 1)))
    .where(inArray(products.id, ids));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
