import type { Database } from '~/db/client.server';
import { kopecksToRoubles } from '~/core/money';
import {
  articleFragment,
  articlePrefix,
  MAX_QUERY,
  SEARCH_LIMIT,
  searchWords,
  splitSizes,
  switchLayout,
} from '~/core/search-query';
import { sizeIdsOfWord } from '~/core/sizes';
import { mediaUrl } from '~/shared/image-url';
import type { SearchResponse } from '~/shared/contract';
import {
  findProductIdsByArticle,
  findProductIdsByText,
  getNearestTerms,
  getSearchHitRows,
} from '~/models/search.server';
import { loadSections, productUrl } from '~/models/sections.server';
import { catalogIndex } from '~/models/catalog-index.server';

/**
 * SPEC §7 `GET /api/search?q=`: Russian full text (word forms), prefixes while typing,
 * one typo per word (nearest catalogue word by trigram similarity), article numbers whole or
 * in part, a size among the words ('брюки 46'), and a query typed with the Latin layout on
 * ('gfkmnj' for 'пальто') when it finds nothing as typed.
 */
export async function searchProducts({
  db,
  q,
  limit = SEARCH_LIMIT,
}: {
  db: Database;
  q: string;
  limit?: number;
}): Promise<SearchResponse> {
  const query = q.trim().slice(0, MAX_QUERY);
  const words = searchWords(query);
  // Blank or punctuation-only: no hits, and the database is not asked.
  if (words.length === 0) return { hits: [], query, total: 0 };

  let ids = await find(db, query, limit);
  if (ids.length === 0) {
    const switched = switchLayout(query);
    if (switched) ids = await find(db, switched, limit);
  }
  const [index, rows] = await Promise.all([loadSections(db), getSearchHitRows({ db, ids })]);
  const hits = rows.map((p) => ({
    id: p.id,
    name: p.name,
    url: productUrl(p, index),
    image: p.photo ? mediaUrl(p.photo) : null,
    price: kopecksToRoubles(p.priceKopecks),
    old_price: p.oldPriceKopecks === null ? null : kopecksToRoubles(p.oldPriceKopecks),
    color: p.colorName,
  }));
  return { hits, query, total: ids.length };
}

/** The ids one reading of the query finds: an article number (whole, then in part), else text with any sizes named. */
async function find(db: Database, query: string, limit: number): Promise<number[]> {
  const words = searchWords(query);
  if (words.length === 0) return [];
  const article = articlePrefix(query);
  if (article) {
    const ids = await findProductIdsByArticle({ db, prefix: article, limit });
    if (ids.length) return ids;
  }
  const fragment = articleFragment(query);
  if (fragment) {
    const ids = await findProductIdsByArticle({ db, prefix: fragment, limit, anywhere: true });
    if (ids.length) return ids;
  }
  // Only sizes some product has count as sizes: the in-process catalogue index knows them.
  const index = await catalogIndex(db);
  const split = splitSizes(words, (w) => sizeIdsOfWord(w).filter((id) => index.hasSize(id)));
  return byText(db, split.words, split.sizes, limit);
}

/** Two tiers: name, colour and article matches first, then description-only matches. */
async function byText(db: Database, words: string[], sizes: string[], limit: number): Promise<number[]> {
  let named = await findProductIdsByText({ db, words, tier: 'name', limit, sizes });
  if (named.length === 0) {
    // Nothing by name: a misspelt word is likelier than a word found only in descriptions.
    const corrected = await getNearestTerms({ db, words });
    if (corrected.join(' ') !== words.join(' ')) {
      named = await findProductIdsByText({ db, words: corrected, tier: 'name', limit, sizes });
      if (named.length > 0) words = corrected;
    }
  }
  if (named.length >= limit) return named;
  const more = await findProductIdsByText({ db, words, tier: 'all', limit: limit + named.length, sizes });
  const seen = new Set(named);
  return [...named, ...more.filter((id) => !seen.has(id))].slice(0, limit);
}
