import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { queryRows, type Database } from '~/db/client.server';
import { products } from '~/db/schema';
import { kopecksToRoubles } from '~/core/money';
import { loadSections, mediaUrl, productUrl } from './catalog.server';
import { productPhotos } from '~/db/schema';
import type { SearchHit, SearchResponse } from '~/shared/contract';

const MAX_WORDS = 6;
const MAX_WORD = 40;
export const SEARCH_LIMIT = 24;

/** Lower-case words of a query: letters and digits only, so nothing reaches tsquery syntax. */
export function searchWords(q: string): string[] {
  return (q.toLowerCase().replace(/ё/g, 'е').match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, MAX_WORDS).map((w) => w.slice(0, MAX_WORD));
}

/** An article number typed as such: 'VT-26-00153', 'vt2600153', '00153'. */
function articlePattern(q: string): string | null {
  const compact = q.trim().toLowerCase();
  if (/^vt[-\s]?\d/.test(compact)) return compact.replace(/\s+/g, '-');
  if (/^\d{4,5}$/.test(compact)) return null;
  return null;
}

/**
 * SPEC §7 `GET /api/search?q=`: Russian full text (word forms), prefixes while typing,
 * one typo per word (nearest catalogue word by trigram similarity), article numbers.
 */
export async function searchProducts({ db, q, limit = SEARCH_LIMIT }: { db: Database; q: string; limit?: number }): Promise<SearchResponse> {
  const query = q.trim().slice(0, 200);
  const words = searchWords(query);
  // Blank or punctuation-only: no hits, and the database is not asked.
  if (words.length === 0) return { hits: [], query, total: 0 };

  const article = articlePattern(query);
  let ids = article ? await byArticle(db, article, limit) : [];
  if (ids.length === 0) ids = await byText(db, words, limit);
  return { hits: await toHits(db, ids), query, total: ids.length };
}

/**
 * Ranked in two tiers: products whose name, colour or article match come first, then those
 * that match only in the description; within a tier, the most popular first. Ordering by an
 * indexed column (not ts_rank over every match) keeps common words fast at any catalogue size.
 */
async function byText(db: Database, words: string[], limit: number): Promise<number[]> {
  let named = await matchText(db, words, 'name', limit);
  if (named.length === 0) {
    // Nothing by name: a misspelt word is likelier than a word found only in descriptions.
    const corrected = await correctWords(db, words);
    if (corrected.join(' ') !== words.join(' ')) {
      named = await matchText(db, corrected, 'name', limit);
      if (named.length > 0) words = corrected;
    }
  }
  if (named.length >= limit) return named;
  const more = await matchText(db, words, 'all', limit + named.length);
  const seen = new Set(named);
  return [...named, ...more.filter((id) => !seen.has(id))].slice(0, limit);
}

async function byArticle(db: Database, pattern: string, limit: number): Promise<number[]> {
  const rows = await db
    .select({ id: products.id })
    .from(products)
    .where(and(eq(products.active, true), sql`lower(${products.article}) like ${`${pattern.replace(/[%_\\]/g, '')}%`}`))
    .orderBy(products.article)
    .limit(limit);
  return rows.map((r) => r.id);
}

async function matchText(db: Database, words: string[], tier: 'name' | 'all', limit: number): Promise<number[]> {
  // Every word must match, the last one as a prefix (the shopper may still be typing).
  const tsquery = words.map((w, i) => (i === words.length - 1 ? `${w}:*` : w)).join(' & ');
  const vector = tier === 'name' ? products.nameVector : products.searchVector;
  const rows = await db
    .select({ id: products.id })
    .from(products)
    .where(and(eq(products.active, true), sql`${vector} @@ to_tsquery('russian', ${tsquery})`))
    .orderBy(desc(products.popularity), products.id)
    .limit(limit);
  return rows.map((r) => r.id);
}

/** Each word not in the catalogue's vocabulary becomes its nearest catalogue word. */
async function correctWords(db: Database, words: string[]): Promise<string[]> {
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

async function toHits(db: Database, ids: number[]): Promise<SearchHit[]> {
  if (ids.length === 0) return [];
  const index = await loadSections(db);
  const rows = await db
    .select({
      product: {
        id: products.id,
        name: products.name,
        slug: products.slug,
        sectionId: products.sectionId,
        priceKopecks: products.priceKopecks,
        oldPriceKopecks: products.oldPriceKopecks,
        colorName: products.colorName,
      },
      photo: productPhotos.path,
    })
    .from(products)
    .leftJoin(productPhotos, and(eq(productPhotos.productId, products.id), eq(productPhotos.position, 1)))
    .where(inArray(products.id, ids));
  const byId = new Map(rows.map((r) => [r.product.id, r]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    if (!row) return [];
    const p = row.product;
    return [
      {
        id: p.id,
        name: p.name,
        url: productUrl(p, index),
        image: row.photo ? mediaUrl(row.photo) : null,
        price: kopecksToRoubles(p.priceKopecks),
        old_price: p.oldPriceKopecks === null ? null : kopecksToRoubles(p.oldPriceKopecks),
        color: p.colorName,
      },
    ];
  });
}
