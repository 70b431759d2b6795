import { and, asc, eq, inArray, isNotNull, sql, type SQL } from 'drizzle-orm';
import { queryRows, type Database } from '../db/client.server';
import { offers, productPhotos, products, sections } from '../db/schema';
import { kopecksToRoubles } from '../core/money';
import { buildCatalogPath, parseCatalogPath, toggleFilterValue, type CatalogFilter, type SortCode } from '../core/catalog-filter';
import { compareSizeIds, sizeFilterId, sizeLabel, sizeLabelFromId, type SizeType } from '../core/sizes';
import type {
  Breadcrumb,
  CatalogListItem,
  CatalogPageResponse,
  CatalogSectionResponse,
  ColorVariant,
  FilterValue,
  MenuSection,
  ProductOffer,
  ProductProperties,
  ProductResponse,
  PropertyValue,
  SectionLink,
  SitemapProducts,
  SortOption,
} from './contract';

export const PAGE_SIZE = 24;

const SORT_NAMES: Record<SortCode, string> = {
  popular: 'По популярности',
  new: 'Сначала новинки',
  price_asc: 'Сначала дешевле',
  price_desc: 'Сначала дороже',
};

type SectionRow = typeof sections.$inferSelect;

/** The catalogue's sections, read once and kept briefly: every listing and product needs them. */
interface SectionIndex {
  byUrl: Map<string, SectionRow>;
  byId: Map<number, SectionRow>;
  byCode: Map<string, SectionRow>;
  childrenOf(id: number): SectionRow[];
  all: SectionRow[];
}

const ALL: SectionRow = { id: 0, code: 'all', name: 'Каталог', url: '/catalog/all/', parentId: null, sort: 0, kind: 'virtual' };
const SECTION_TTL_MS = 30_000;
const sectionCache = new WeakMap<Database, { at: number; index: Promise<SectionIndex> }>();

export function loadSections(db: Database): Promise<SectionIndex> {
  const hit = sectionCache.get(db);
  if (hit && Date.now() - hit.at < SECTION_TTL_MS) return hit.index;
  const index = db
    .select()
    .from(sections)
    .orderBy(asc(sections.sort), asc(sections.id))
    .then((rows) => ({
      all: rows,
      byUrl: new Map(rows.map((r) => [r.url, r])),
      byId: new Map(rows.map((r) => [r.id, r])),
      byCode: new Map(rows.map((r) => [r.code, r])),
      childrenOf: (id: number) => rows.filter((r) => r.parentId === id),
    }));
  index.catch(() => sectionCache.delete(db));
  sectionCache.set(db, { at: Date.now(), index });
  return index;
}

function toLink(s: SectionRow): SectionLink {
  return { CODE: s.code, NAME: s.name, SECTION_PAGE_URL: s.url };
}

/** The menu tree of SPEC §7 `GET /catalog/?iscollection=no`. */
export async function listMenuSections({ db }: { db: Database }): Promise<MenuSection[]> {
  const index = await loadSections(db);
  return index.all
    .filter((r) => r.parentId === null)
    .map((t) => ({ ...toLink(t), SECOND_LVL: index.childrenOf(t.id).map(toLink) }));
}

function resolveSection(index: SectionIndex, path: string): SectionRow | null {
  if (path === '/catalog/' || path === '/catalog/all/') return ALL;
  return index.byUrl.get(path) ?? null;
}

/** Which products a section shows (SPEC §2: new collection and sale are built from flags). */
function scopeOf(section: SectionRow, index: SectionIndex): SQL {
  const active = eq(products.active, true);
  if (section.id === 0) return active;
  if (section.code === 'new-collection') return and(active, eq(products.isNew, true)) as SQL;
  if (section.code === 'promo') return and(active, isNotNull(products.oldPriceKopecks)) as SQL;
  const ids = [section.id, ...index.childrenOf(section.id).map((s) => s.id)];
  return and(active, ids.length === 1 ? eq(products.sectionId, section.id) : inArray(products.sectionId, ids)) as SQL;
}

function sizeCond(f: CatalogFilter): SQL | undefined {
  return f.size.length ? sql`${products.sizes} && ${sql.param(f.size)}::text[]` : undefined;
}
function colorCond(f: CatalogFilter): SQL | undefined {
  return f.color.length ? inArray(products.colorCode, f.color) : undefined;
}
function priceCond(f: CatalogFilter): SQL | undefined {
  const parts: SQL[] = [];
  if (f.price.from !== null) parts.push(sql`${products.priceKopecks} >= ${f.price.from * 100}`);
  if (f.price.to !== null) parts.push(sql`${products.priceKopecks} <= ${f.price.to * 100}`);
  return parts.length ? (and(...parts) as SQL) : undefined;
}

const ORDER: Record<SortCode, SQL[]> = {
  popular: [sql`${products.popularity} desc`, sql`${products.id} asc`],
  new: [sql`${products.createdAt} desc`, sql`${products.id} desc`],
  price_asc: [sql`${products.priceKopecks} asc`, sql`${products.id} asc`],
  price_desc: [sql`${products.priceKopecks} desc`, sql`${products.id} desc`],
};

interface Facets {
  sizes: Map<string, number>;
  colors: Map<string, { name: string; hex: string; count: number }>;
  min: number;
  max: number;
}

async function sizeCounts(db: Database, where: SQL): Promise<Map<string, number>> {
  const rows = await queryRows<{ size: string; n: number }>(
    db,
    sql`select s as size, count(*)::int as n from ${products}, unnest(${products.sizes}) s where ${where} group by s`,
  );
  return new Map(rows.map((r) => [r.size, Number(r.n)]));
}

async function colorCounts(db: Database, where: SQL): Promise<Facets['colors']> {
  const rows = await db
    .select({ code: products.colorCode, name: products.colorName, hex: products.colorHex, n: sql<number>`count(*)::int` })
    .from(products)
    .where(where)
    .groupBy(products.colorCode, products.colorName, products.colorHex);
  const out: Facets['colors'] = new Map();
  for (const r of rows) {
    const prev = out.get(r.code);
    out.set(r.code, { name: r.name, hex: r.hex, count: (prev?.count ?? 0) + Number(r.n) });
  }
  return out;
}

/**
 * Size and colour counts under filters, from one pass over the section: each row is read
 * once with a flag per filter, then counted twice in memory.
 */
async function filteredFacets(
  db: Database,
  scope: SQL,
  bySize: SQL | undefined,
  byColor: SQL | undefined,
  byPrice: SQL | undefined,
): Promise<Pick<Facets, 'sizes' | 'colors'>> {
  const flag = (cond: SQL | undefined) => cond ?? sql`true`;
  const rows = await queryRows<{ facet: 'size' | 'color'; value: string; n: number }>(
    db,
    sql`with base as materialized (
          select ${products.sizes} as sizes, ${products.colorCode} as color,
                 ${flag(bySize)} as size_ok, ${flag(byColor)} as color_ok, ${flag(byPrice)} as price_ok
          from ${products} where ${scope}
        )
        select 'size' as facet, s as value, count(*)::int as n from base, unnest(base.sizes) s where color_ok and price_ok group by s
        union all
        select 'color' as facet, color as value, count(*)::int as n from base where size_ok and price_ok group by color`,
  );
  const sizes = new Map<string, number>();
  const colors: Facets['colors'] = new Map();
  for (const r of rows) {
    if (r.facet === 'size') sizes.set(r.value, Number(r.n));
    else colors.set(r.value, { name: '', hex: '', count: Number(r.n) });
  }
  return { sizes, colors };
}

// A section's facets without filters change only with the catalogue: keep them briefly.
const FACET_TTL_MS = 30_000;
const facetCache = new WeakMap<Database, Map<string, { at: number; facets: Promise<Facets> }>>();

function sectionFacets(db: Database, section: SectionRow, scope: SQL): Promise<Facets> {
  let perDb = facetCache.get(db);
  if (!perDb) facetCache.set(db, (perDb = new Map()));
  const hit = perDb.get(section.code);
  if (hit && Date.now() - hit.at < FACET_TTL_MS) return hit.facets;
  const facets = (async () => {
    const sizes = await sizeCounts(db, scope);
    const colors = await colorCounts(db, scope);
    const [range] = await db
      .select({ min: sql<number>`coalesce(min(${products.priceKopecks}), 0)`, max: sql<number>`coalesce(max(${products.priceKopecks}), 0)` })
      .from(products)
      .where(scope);
    return { sizes, colors, min: Math.floor(Number(range?.min ?? 0) / 100), max: Math.ceil(Number(range?.max ?? 0) / 100) };
  })();
  facets.catch(() => perDb.delete(section.code));
  perDb.set(section.code, { at: Date.now(), facets });
  return facets;
}

/** SPEC §7 `GET {current path}`: a listing or a product, or null (404). */
export async function getCatalogPage({
  db,
  path,
  sort,
  page,
  offerId,
}: {
  db: Database;
  path: string;
  sort: SortCode;
  page: number;
  offerId?: number | null;
}): Promise<CatalogPageResponse | null> {
  const parsed = parseCatalogPath(path);
  if (parsed.kind === 'invalid') return null;
  const index = await loadSections(db);
  const section = resolveSection(index, parsed.sectionPath);
  if (section) return getListing({ db, index, section, filter: parsed.filter, sort, page });
  if (parsed.filtered) return null;
  // Not a section: maybe '{section path}{slug}/'.
  const m = /^(\/catalog\/(?:.+\/)?)([a-z0-9-]+)\/$/.exec(parsed.sectionPath);
  if (!m) return null;
  const parent = resolveSection(index, m[1] as string);
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
  section: SectionRow;
  filter: CatalogFilter;
  sort: SortCode;
  page: number;
}): Promise<CatalogSectionResponse> {
  const scope = scopeOf(section, index);
  const bySize = sizeCond(filter);
  const byColor = colorCond(filter);
  const byPrice = priceCond(filter);
  const where = and(scope, bySize, byColor, byPrice) as SQL;

  const base = await sectionFacets(db, section, scope);
  const rows = await db
    .select({
      id: products.id,
      slug: products.slug,
      name: products.name,
      sectionId: products.sectionId,
      price: products.priceKopecks,
      oldPrice: products.oldPriceKopecks,
      color: products.colorName,
      isNew: products.isNew,
      total: sql<number>`count(*) over ()`.mapWith(Number),
    })
    .from(products)
    .where(where)
    .orderBy(...ORDER[sort])
    .limit(PAGE_SIZE)
    .offset((page - 1) * PAGE_SIZE);
  // Past the last page the window count is gone with the rows: count separately then.
  const total = rows[0]?.total ?? (await countWhere(db, where));

  // Each facet counts with the other facets' filters applied, never its own.
  const { sizes, colors } = bySize || byColor || byPrice ? await filteredFacets(db, scope, bySize, byColor, byPrice) : base;
  const photos = await firstPhotos(db, rows.map((r) => r.id));

  const contextual = section.id === 0 || section.code === 'new-collection';
  const items: CatalogListItem[] = rows.map((p) => {
    const pics = photos.get(p.id) ?? [];
    return {
      ID: p.id,
      NAME: p.name,
      DETAIL_PAGE_URL: contextual ? `${section.url}${p.slug}/` : productUrl(p, index),
      PRICE: kopecksToRoubles(p.price),
      OLD_PRICE: p.oldPrice === null ? null : kopecksToRoubles(p.oldPrice),
      PREVIEW_PICTURE: pics[0] ?? null,
      SECOND_PICTURE: pics[1] ?? null,
      COLOR: p.color,
      IS_NEW: p.isNew,
    };
  });

  const sectionPath = section.url;
  const sizeValues: FilterValue[] = [...base.sizes.keys()].sort(compareSizeIds).map((id) => {
    const count = sizes.get(id) ?? 0;
    const checked = filter.size.includes(id);
    return { URL_ID: id, VALUE: sizeLabelFromId(id), COUNT: count, DISABLED: count === 0 && !checked, CHECKED: checked, URL: buildCatalogPath(sectionPath, toggleFilterValue(filter, 'size', id)) };
  });
  const colorValues: FilterValue[] = [...base.colors.entries()]
    .sort((a, b) => a[1].name.localeCompare(b[1].name, 'ru'))
    .map(([code, c]) => {
      const count = colors.get(code)?.count ?? 0;
      const checked = filter.color.includes(code);
      return { URL_ID: code, VALUE: c.name, HEX: c.hex, COUNT: count, DISABLED: count === 0 && !checked, CHECKED: checked, URL: buildCatalogPath(sectionPath, toggleFilterValue(filter, 'color', code)) };
    });

  const sorts: SortOption[] = (Object.keys(SORT_NAMES) as SortCode[]).map((code) => ({ CODE: code, NAME: SORT_NAMES[code], SELECTED: code === sort }));
  return {
    SECTION: toLink(section),
    BREADCRUMBS: breadcrumbsOf(section, index),
    ITEMS: items,
    FILTER: [
      { CODE: 'size', NAME: 'Размер', MULTIPLE: true, VALUES: sizeValues },
      { CODE: 'color', NAME: 'Цвет', MULTIPLE: true, VALUES: colorValues },
      { CODE: 'price', NAME: 'Цена', MULTIPLE: false, VALUES: { MIN: base.min, MAX: base.max, FROM: filter.price.from, TO: filter.price.to } },
    ],
    SORTS: sorts,
    CANONICAL_URL: buildCatalogPath(section.id === 0 ? '/catalog/' : sectionPath, filter),
    NAV_STRING: { CURRENT_PAGE: page, PAGE_COUNT: Math.max(1, Math.ceil(total / PAGE_SIZE)), PAGE_SIZE, ITEMS_COUNT: total },
  };
}

async function countWhere(db: Database, where: SQL): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(products).where(where);
  return Number(row?.n ?? 0);
}

async function firstPhotos(db: Database, ids: number[]): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  if (!ids.length) return out;
  const rows = await db
    .select({ productId: productPhotos.productId, path: productPhotos.path })
    .from(productPhotos)
    .where(and(inArray(productPhotos.productId, ids), sql`${productPhotos.position} <= 2`))
    .orderBy(asc(productPhotos.productId), asc(productPhotos.position));
  for (const r of rows) {
    const list = out.get(r.productId) ?? [];
    list.push(mediaUrl(r.path));
    out.set(r.productId, list);
  }
  return out;
}

function breadcrumbsOf(section: SectionRow, index: SectionIndex): Breadcrumb[] {
  const crumbs: Breadcrumb[] = [{ NAME: 'Каталог', URL: '/catalog/' }];
  const parent = section.parentId ? index.byId.get(section.parentId) : undefined;
  if (parent) crumbs.push({ NAME: parent.name, URL: parent.url });
  if (section.id !== 0) crumbs.push({ NAME: section.name, URL: section.url });
  return crumbs;
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
  section: SectionRow;
  slug: string;
  offerId: number | null;
}): Promise<ProductResponse | null> {
  const [p] = await db
    .select()
    .from(products)
    .where(and(eq(products.slug, slug), eq(products.active, true)))
    .limit(1);
  if (!p) return null;
  // A product is reachable under its own section, the whole catalogue, and the new
  // collection or sale when it belongs there; any other path is not an address of it.
  const own = index.byId.get(p.sectionId);
  const reachable =
    section.id === 0 ||
    section.id === p.sectionId ||
    (section.code === 'new-collection' && p.isNew) ||
    (section.code === 'promo' && p.oldPriceKopecks !== null);
  if (!reachable || !own) return null;

  const [offerRows, photoRows, variants] = await Promise.all([
    db.select().from(offers).where(eq(offers.productId, p.id)).orderBy(asc(offers.sort), asc(offers.id)),
    db.select().from(productPhotos).where(eq(productPhotos.productId, p.id)).orderBy(asc(productPhotos.position)),
    db
      .select({ id: products.id, slug: products.slug, name: products.name, sectionId: products.sectionId, color: products.colorName, hex: products.colorHex })
      .from(products)
      .where(and(eq(products.groupKey, p.groupKey), eq(products.active, true)))
      .orderBy(asc(products.id)),
  ]);
  const variantPhotos = await firstPhotos(
    db,
    variants.map((v) => v.id),
  );

  const canonical = productUrl(p, index);
  const single = offerRows.length === 1;
  const offerList: ProductOffer[] = offerRows.map((o) => {
    const type = o.sizeType as SizeType;
    const label = sizeLabel(type, o.size, o.intlSize);
    const size = { LABEL: label, VALUE: o.size };
    return {
      ID: o.id,
      SELECTED: offerId === o.id || (single && offerId === null),
      AVAILABLE: o.quantity > 0 ? 'Y' : 'N',
      IS_PREORDER: o.quantity <= 0 && o.preorder ? 'Y' : 'N',
      IS_OFFER: type === 'shoes' ? { SIZES_SHOES: size } : { SIZES_CLOTHES: size },
      SIZE_ID: sizeFilterId(type, o.size),
      PRICE: kopecksToRoubles(o.priceKopecks),
      OLD_PRICE: o.oldPriceKopecks === null ? null : kopecksToRoubles(o.oldPriceKopecks),
      QUANTITY: o.quantity,
      IMAGE_SRC: photoRows[0] ? mediaUrl(photoRows[0].path) : null,
      DETAIL_PAGE_URL: `${canonical}?offer=${o.id}`,
      PROPERTIES: { SIZE: { NAME: 'Размер', VALUE: label, DESCRIPTION: '' } },
    };
  });

  const properties: Record<string, PropertyValue> = {};
  for (const prop of p.properties) {
    const existing = properties[prop.code];
    if (prop.code === 'CML2_ATTRIBUTES') {
      const values = existing && Array.isArray(existing.VALUE) ? existing.VALUE : [];
      const names = existing && Array.isArray(existing.DESCRIPTION) ? existing.DESCRIPTION : [];
      properties[prop.code] = { NAME: prop.name, VALUE: [...values, prop.value], DESCRIPTION: [...names, prop.description ?? ''] };
    } else {
      properties[prop.code] = { NAME: prop.name, VALUE: prop.value, DESCRIPTION: prop.description ?? '' };
    }
  }

  const otherLinks: ColorVariant[] = variants.map((v) => ({
    ID: v.id,
    NAME: v.name,
    COLOR: v.color,
    HEX: v.hex,
    DETAIL_PAGE_URL: productUrl(v, index),
    IMAGE_SRC: variantPhotos.get(v.id)?.[0] ?? null,
    IS_ACTIVE_PAGE: v.id === p.id,
  }));

  const crumbs = breadcrumbsOf(section.id === 0 ? ALL : section, index);
  return {
    ITEM: {
      ID: p.id,
      NAME: p.name,
      DESCRIPTION: p.description,
      DETAIL_PAGE_URL: canonical,
      SECTION: toLink(own),
      COLOR: p.colorName,
      IS_NEW: p.isNew,
      PRICE: { PRICE: kopecksToRoubles(p.oldPriceKopecks ?? p.priceKopecks), DISCOUNT_PRICE: kopecksToRoubles(p.priceKopecks) },
      // MORE_PHOTO's value is a list of photos, unlike every other property's.
      PROPERTIES: Object.assign(properties, {
        MORE_PHOTO: {
          NAME: 'Фото',
          VALUE: photoRows.map((ph) => ({ ID: ph.id, FULL: mediaUrl(ph.path), ALT: ph.alt, WIDTH: ph.width, HEIGHT: ph.height })),
          DESCRIPTION: '',
        },
      }) as unknown as ProductProperties,
      OFFERS: offerList,
      OTHER_LINK: otherLinks,
    },
    BREADCRUMBS: crumbs,
  };
}

/** The canonical product address: under its own section. */
export function productUrl(p: { slug: string; sectionId: number }, index: Pick<SectionIndex, 'byId'>): string {
  const s = index.byId.get(p.sectionId);
  return `${s ? s.url : '/catalog/all/'}${p.slug}/`;
}

export function mediaUrl(path: string): string {
  return `/media/${path}`;
}

export const SITEMAP_PAGE_SIZE = 40_000;

/** One page of every product's canonical address, for the sitemap (sitemaps hold 50 000 at most). */
export async function listProductUrls({ db, page }: { db: Database; page: number }): Promise<SitemapProducts> {
  const index = await loadSections(db);
  const total = await countWhere(db, eq(products.active, true));
  const rows = await db
    .select({ slug: products.slug, sectionId: products.sectionId, createdAt: products.createdAt })
    .from(products)
    .where(eq(products.active, true))
    .orderBy(asc(products.id))
    .limit(SITEMAP_PAGE_SIZE)
    .offset((page - 1) * SITEMAP_PAGE_SIZE);
  return {
    urls: rows.map((r) => ({ loc: productUrl(r, index), lastmod: r.createdAt.toISOString().slice(0, 10) })),
    page,
    pageCount: Math.max(1, Math.ceil(total / SITEMAP_PAGE_SIZE)),
  };
}

