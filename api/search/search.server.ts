import type { Database } from '~/db/client.server';
import { kopecksToRoubles } from '~/core/money';
import { articlePrefix, MAX_QUERY, SEARCH_LIMIT, searchWords } from '~/core/search-query';
import { mediaUrl } from '~/shared/image-url';
import type { SearchResponse } from '~/shared/contract';
import { findProductIdsByArticle, findProductIdsByText, getNearestTerms, getSearchHitRows } from '~/models/search.server';
import { loadSections, productUrl } from '~/models/sections.server';

/**
 * SPEC §7 `GET /api/search?q=`: Russian full text (word forms), prefixes while typing,
 * one typo per word (nearest catalogue word by trigram similarity), article numbers.
 */
export async function searchProducts({ db, q, limit = SEARCH_LIMIT }: { db: Database; q: string; limit?: number }): Promise<SearchResponse> {
  const query = q.trim().slice(0, MAX_QUERY);
  const words = searchWords(query);
  // Blank or punctuation-only: no hits, and the database is not asked.
  if (words.length === 0) return { hits: [], query, total: 0 };

  const article = articlePrefix(query);
  let ids = article ? await findProductIdsByArticle({ db, prefix: article, limit }) : [];
  if (ids.length === 0) ids = await byText(db, words, limit);
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

/** Two tiers: name, colour and article matches first, then description-only matches. */
async function byText(db: Database, words: string[], limit: number): Promise<number[]> {
  let named = await findProductIdsByText({ db, words, tier: 'name', limit });
  if (named.length === 0) {
    // Nothing by name: a misspelt word is likelier than a word found only in descriptions.
    const corrected = await getNearestTerms({ db, words });
    if (corrected.join(' ') !== words.join(' ')) {
      named = await findProductIdsByText({ db, words: corrected, tier: 'name', limit });
      if (named.length > 0) words = corrected;
    }
  }
  if (named.length >= limit) return named;
  const more = await findProductIdsByText({ db, words, tier: 'all', limit: limit + named.length });
  const seen = new Set(named);
  return [...named, ...more.filter((id) => !seen.has(id))].slice(0, limit);
}
