import type { Database } from '~/db/client.server';
import { parseCatalogPath, buildCatalogPath, type SortCode } from '~/core/catalog-filter';
import { linksUnderSection, opensUnder, sectionScope } from '~/core/catalog-scope';
import { isOnSale } from '~/core/pricing';
import type { CatalogPageResponse, CatalogSectionResponse, ProductResponse, SitemapProducts } from '~/shared/contract';
import { catalogIndex } from '~/models/catalog-index.server';
import { productRatings } from '~/models/reviews.server';
import { countActiveProducts, getListingCards, getProductDetail, getSitemapProducts } from '~/models/products.server';
import {
  ALL_SECTION,
  loadSections,
  productUrl,
  sectionByPath,
  type Section,
  type SectionIndex,
} from '~/models/sections.server';
import {
  toBreadcrumbs,
  toFilterBlocks,
  toListItem,
  toMenu,
  toProductItem,
  toSectionLink,
  toSortOptions,
} from './mappers';
import type { CatalogFilter } from '~/core/catalog-filter';
import { UNANNOUNCED_CHANGE_TTL_MS, versionedMemo } from '~/api/meta/data-version.server';

export const PAGE_SIZE = 24;
export const SITEMAP_PAGE_SIZE = 40_000;

/** The menu tree of SPEC §7 `GET /catalog/?iscollection=no`. */
export async function getMenu({ db }: { db: Database }) {
  // Every page's header needs it: kept until the data version (catalogue version) changes.
  return menuMemo(db, '', async () => toMenu(await loadSections(db, { fresh: true })));
}
const menuMemo = versionedMemo<ReturnType<typeof toMenu>>(1);

interface CatalogPageArgs {
  db: Database;
  path: string;
  sort: SortCode;
  page: number;
  offerId?: number | null;
}

/**
 * SPEC §7 `GET {current path}`: a listing or a product, or null (404). Kept per address until
 * the data version changes (a stock, price or availability change is seen within the version
 * check, as the guest page cache sees it), for at most UNANNOUNCED_CHANGE_TTL_MS, and for the
 * PAGE_ANSWER_ENTRIES most recent addresses: a page cache miss, a logged-in customer's page and
 * the browser's own calls then skip the queries.
 */
export function getCatalogPage(args: CatalogPageArgs): Promise<CatalogPageResponse | null> {
  const key = `${args.path}\n${args.sort}\n${args.page}\n${args.offerId ?? ''}`;
  return pageMemo(args.db, key, () => readCatalogPage(args));
}
export const PAGE_ANSWER_ENTRIES = 1000;
const pageMemo = versionedMemo<CatalogPageResponse | null>(PAGE_ANSWER_ENTRIES, { ttlMs: UNANNOUNCED_CHANGE_TTL_MS });

async function readCatalogPage({
  db,
  path,
  sort,
  page,
  offerId,
}: CatalogPageArgs): Promise<CatalogPageResponse | null> {
  const parsed = parseCatalogPath(path);
  if (parsed.kind === 'invalid') return null;
  const index = await loadSections(db, { fresh: true });
  const section = sectionByPath(index, parsed.sectionPath);
  if (section) return getListing({ db, index, section, filter: parsed.filter, sort, page });
  if (parsed.filtered) return null;
  // Not a section: maybe '{section path}{slug}/'.
  const m = /^(\/catalog\/(?:.+\/)?)([a-z0-9-]+)\/$/.exec(parsed.sectionPath);
  if (!m) return null;
  const parent = sectionByPath(index, m[1] as string);
  if (!parent) return null;
  return getProduct({ db, index, section: parent, slug: m[2] as string, offerId: offerId ?? null });
}

async function getListing({
  db,
  index,
  section,
  filter,
  sort,
  page,
}: {
  db: Database;
  index: SectionIndex;
  section: Section;
  filter: CatalogFilter;
  sort: SortCode;
  page: number;
}): Promise<CatalogSectionResponse> {
  const scope = sectionScope(
    section,
    index.childrenOf(section.id).map((s) => s.id),
  );
  const found = (await catalogIndex(db)).query(scope, filter, sort, (page - 1) * PAGE_SIZE, PAGE_SIZE);
  const [rows, ratings] = await Promise.all([getListingCards({ db, ids: found.ids }), productRatings(db, found.ids)]);
  const contextual = linksUnderSection(section);
  // Facet links and the canonical URL share one base: the whole catalogue is /catalog/.
  const sectionPath = section.kind === 'all' ? '/catalog/' : section.url;
  return {
    SECTION: toSectionLink(section),
    BREADCRUMBS: toBreadcrumbs(section, index),
    ITEMS: rows.map((p) =>
      withRating(
        toListItem(p, p.photoPaths, contextual ? `${section.url}${p.slug}/` : productUrl(p, index)),
        ratings.get(p.id),
      ),
    ),
    FILTER: toFilterBlocks(found, filter, sectionPath),
    SORTS: toSortOptions(sort),
    CANONICAL_URL: buildCatalogPath(sectionPath, filter),
    NAV_STRING: {
      CURRENT_PAGE: page,
      PAGE_COUNT: Math.max(1, Math.ceil(found.total / PAGE_SIZE)),
      PAGE_SIZE,
      ITEMS_COUNT: found.total,
    },
  };
}

async function getProduct({
  db,
  index,
  section,
  slug,
  offerId,
}: {
  db: Database;
  index: SectionIndex;
  section: Section;
  slug: string;
  offerId: number | null;
}): Promise<ProductResponse | null> {
  const detail = await getProductDetail({ db, slug });
  if (!detail) return null;
  const p = detail.product;
  const own = index.byId.get(p.sectionId);
  if (
    !own ||
    !opensUnder(section, {
      sectionId: p.sectionId,
      isNew: p.isNew,
      onSale: isOnSale(p.priceKopecks, p.oldPriceKopecks),
    })
  )
    return null;
  return {
    ITEM: toProductItem(detail, index, own, offerId),
    BREADCRUMBS: toBreadcrumbs(section.kind === 'all' ? ALL_SECTION : section, index),
  };
}

/** One page of every product's canonical address, for the sitemap (sitemaps hold 50 000 at most). */
export async function listProductUrls({ db, page }: { db: Database; page: number }): Promise<SitemapProducts> {
  const [index, total, rows] = await Promise.all([
    loadSections(db),
    countActiveProducts({ db }),
    getSitemapProducts({ db, offset: (page - 1) * SITEMAP_PAGE_SIZE, limit: SITEMAP_PAGE_SIZE }),
  ]);
  return {
    urls: rows.map((r) => ({ loc: productUrl(r, index), lastmod: r.createdAt.toISOString().slice(0, 10) })),
    page,
    pageCount: Math.max(1, Math.ceil(total / SITEMAP_PAGE_SIZE)),
  };
}

/** A card with its product's published rating (issue #32), when it has one. */
function withRating<T extends object>(item: T, rating: { average: number; count: number } | undefined): T {
  return rating ? { ...item, RATING: { VALUE: rating.average, COUNT: rating.count } } : item;
}
