import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Database } from '~/db/client.server';
import { catalogIndex, type Scope } from './catalog-index.server';
import { offers, productPhotos, products, sections } from '~/db/schema';
import { kopecksToRoubles } from '~/core/money';
import { buildCatalogPath, parseCatalogPath, toggleFilterValue, type CatalogFilter, type SortCode } from '~/core/catalog-filter';
import { compareSizeIds, sizeFilterId, sizeLabel, sizeLabelFromId, type SizeType } from '~/core/sizes';
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
} from '~/shared/contract';

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
function scopeOf(section: SectionRow, index: SectionIndex): Scope {
  if (section.id === 0) return { sectionIds: null };
  if (section.code === 'new-collection') return { sectionIds: null, isNew: true };
  if (section.code === 'promo') return { sectionIds: null, onSale: true };
  return { sectionIds: new Set([section.id, ...index.childrenOf(section.id).map((s) => s.id)]) };
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
  const found = (await catalogIndex(db)).query(scopeOf(section, index), filter, sort, (page - 1) * PAGE_SIZE, PAGE_SIZE);
  const total = found.total;
  const rows = await productsByIds(db, found.ids);
  const photos = await firstPhotos(db, found.ids);

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

  // Facet links and the canonical URL share one base: the whole catalogue is /catalog/.
  const sectionPath = section.id === 0 ? '/catalog/' : section.url;
  const sizeValues: FilterValue[] = [...found.scopeSizes].sort(compareSizeIds).map((id) => {
    const count = found.sizeCounts.get(id) ?? 0;
    const checked = filter.size.includes(id);
    return { URL_ID: id, VALUE: sizeLabelFromId(id), COUNT: count, DISABLED: count === 0 && !checked, CHECKED: checked, URL: buildCatalogPath(sectionPath, toggleFilterValue(filter, 'size', id)) };
  });
  const colorValues: FilterValue[] = [...found.scopeColors.entries()]
    .sort((a, b) => a[1].name.localeCompare(b[1].name, 'ru'))
    .map(([code, c]) => {
      const count = found.colorCounts.get(code) ?? 0;
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
      {
        CODE: 'price',
        NAME: 'Цена',
        MULTIPLE: false,
        VALUES: { MIN: Math.floor(found.minPrice / 100), MAX: Math.ceil(found.maxPrice / 100), FROM: filter.price.from, TO: filter.price.to },
      },
    ],
    SORTS: sorts,
    CANONICAL_URL: buildCatalogPath(sectionPath, filter),
    NAV_STRING: { CURRENT_PAGE: page, PAGE_COUNT: Math.max(1, Math.ceil(total / PAGE_SIZE)), PAGE_SIZE, ITEMS_COUNT: total },
  };
}

async function countWhere(db: Database, where: SQL): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(products).where(where);
  return Number(row?.n ?? 0);
}

/** A page's products in the order given (ids from the index); inactive ones drop out. */
async function productsByIds(db: Database, ids: number[]) {
  if (!ids.length) return [];
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
    })
    .from(products)
    .where(and(inArray(products.id, ids), eq(products.active, true)));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
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

