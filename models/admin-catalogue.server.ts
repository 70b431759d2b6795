import { containsPattern } from '~/db/like';
import { and, asc, desc, eq, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Database } from '~/db/client.server';
import {
  offers,
  orderItems,
  pageMeta,
  productPhotos,
  productSections,
  products,
  redirects,
  stockMoves,
  type ProductProperty,
} from '~/db/schema';
import { bumpCatalogVersion } from '~/db/catalog-version.server';
import { termsOf, updateSearchTerms } from '~/db/search-terms.server';
import { parseRoublesToKopecks } from '~/core/money';
import { slugify } from '~/core/slug';
import { sizeLabel, type SizeType } from '~/core/sizes';
import { GARMENT_KINDS } from '~/shared/art';
import { BRAND_PALETTE } from '~/media/palette';
import { loadSections, productUrl, type SectionIndex } from './sections.server';
import { refreshProductSizes } from './stock.server';

// The back office's catalogue (issue #30): products, their sizes (offers) and photos. Each change
// is one of these functions, called by an admin route with the route's transaction as `db`
// (api/admin/catalogue.routes.server.ts): it locks the product row, checks its preconditions
// inside the lock, and answers a refusal `{ ok: false, status, field, error }` (Russian) or the
// change with what it was before and after, for the audit log.
//
// Freshness: every change bumps the catalogue version (db/catalog-version.server.ts) in the same
// transaction, so every process's page cache, memos and listing index see it within the render
// path's bound (docs/render-path.md); the name's and colour's words go into the typo index
// (db/search-terms.server.ts); the Russian full-text vectors are generated columns.
// Quantities never change here: only the stock ledger moves them (models/stock.server.ts).

export type Refusal = { ok: false; status: number; field: string; error: string };
const refuse = (status: number, field: string, error: string): Refusal => ({ ok: false, status, field, error });

export const COMPOSITION_CODE = 'SOSTAV';
export const CARE_CODE = 'REKOMENDATSII_PO_UKHODU';
/** SPEC's article property is the product's article itself (written by the catalogue's mappers). */
const OWN_CODES = new Set([COMPOSITION_CODE, CARE_CODE]);

const MAX_PRICE_KOPECKS = 100_000_000;

export const KIND_LABELS: Record<string, string> = {
  'warm-coat': 'Утеплённое пальто',
  coat: 'Пальто',
  trench: 'Тренч',
  puffer: 'Пуховик',
  blazer: 'Жакет',
  sweater: 'Свитер',
  cardigan: 'Кардиган',
  trousers: 'Брюки',
  shorts: 'Шорты',
  skirt: 'Юбка',
  dress: 'Платье',
  jumpsuit: 'Комбинезон',
  'knit-top': 'Трикотажный топ',
  shirt: 'Рубашка',
  blouse: 'Блузка',
  tshirt: 'Футболка',
  top: 'Топ',
  jeans: 'Джинсы',
  'denim-jacket': 'Джинсовая куртка',
  'fur-coat': 'Шуба',
  bag: 'Сумка',
  scarf: 'Шарф',
  hat: 'Шапка',
  belt: 'Ремень',
  boots: 'Ботинки',
  shoes: 'Туфли',
};
/** The kinds staff may choose (gift certificates and the garment cover are made elsewhere). */
export const STAFF_KINDS = GARMENT_KINDS.filter((k) => k in KIND_LABELS);

/** The brand's palette, for the colour picker (any name and #rrggbb may be typed too). */
export const paletteColors = () => BRAND_PALETTE.map(([name, hex]) => ({ name, hex }));

// --- Reading ------------------------------------------------------------------------------------------

export interface ProductListFilter {
  q?: string | undefined;
  sectionId?: number | undefined;
  active?: boolean | undefined;
  ids?: number[] | undefined;
}
const PRODUCT_SORTS = {
  id: products.id,
  name: products.name,
  article: products.article,
  price_kopecks: products.priceKopecks,
  created_at: products.createdAt,
} as const;
export type ProductSort = keyof typeof PRODUCT_SORTS;

const firstPhoto = sql<
  string | null
>`(select pp.path from ${productPhotos} pp where pp.product_id = ${products.id} order by pp.position limit 1)`;

/**
 * A page of products: `q` is part of the name or the article (trigram indexes on lower(name) and
 * lower(article), so a search stays an index scan at 100 000 products), `sectionId` the own
 * section or a further one, `active` shown or hidden. Newest first by default.
 */
export async function listProducts({
  db,
  filter,
  sort,
  order,
  offset,
  limit,
}: {
  db: Database;
  filter: ProductListFilter;
  sort: ProductSort;
  order: 'asc' | 'desc';
  offset: number;
  limit: number;
}) {
  const where: SQL[] = [];
  if (filter.ids?.length) where.push(inArray(products.id, filter.ids));
  if (filter.active !== undefined) where.push(eq(products.active, filter.active));
  if (filter.sectionId !== undefined)
    where.push(
      or(
        eq(products.sectionId, filter.sectionId),
        sql`exists (select 1 from ${productSections} ps where ps.product_id = ${products.id} and ps.section_id = ${filter.sectionId})`,
      ) as SQL,
    );
  if (filter.q) {
    const like = containsPattern(filter.q.toLowerCase());
    where.push(sql`(lower(${products.name}) like ${like} or lower(${products.article}) like ${like})`);
  }
  const cond = where.length ? and(...where) : undefined;
  const column = PRODUCT_SORTS[sort];
  const rows = await db
    .select({
      id: products.id,
      name: products.name,
      article: products.article,
      slug: products.slug,
      sectionId: products.sectionId,
      priceKopecks: products.priceKopecks,
      oldPriceKopecks: products.oldPriceKopecks,
      isNew: products.isNew,
      active: products.active,
      colorName: products.colorName,
      photo: firstPhoto,
    })
    .from(products)
    .where(cond)
    .orderBy(order === 'asc' ? asc(column) : desc(column), order === 'asc' ? asc(products.id) : desc(products.id))
    .offset(offset)
    .limit(limit);
  const [count] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(products)
    .where(cond);
  return { rows, total: Number(count?.n ?? 0) };
}
export type ProductListRow = Awaited<ReturnType<typeof listProducts>>['rows'][number];

export async function getProductForAdmin(db: Database, id: number) {
  const [product] = await db.select().from(products).where(eq(products.id, id));
  if (!product) return null;
  const [extra, offerRows, photoRows, ordered, index] = await Promise.all([
    db
      .select({ sectionId: productSections.sectionId })
      .from(productSections)
      .where(eq(productSections.productId, id))
      .orderBy(asc(productSections.sectionId)),
    db.select().from(offers).where(eq(offers.productId, id)).orderBy(asc(offers.sort), asc(offers.id)),
    db.select().from(productPhotos).where(eq(productPhotos.productId, id)).orderBy(asc(productPhotos.position)),
    db
      .select({ one: sql<number>`1` })
      .from(orderItems)
      .innerJoin(offers, eq(offers.id, orderItems.offerId))
      .where(eq(offers.productId, id))
      .limit(1),
    loadSections(db, { fresh: true }),
  ]);
  const url = productUrl(product, index);
  const seo = await readSeo(db, url, 'seoDescription');
  return {
    product,
    sectionIds: extra.map((e) => e.sectionId),
    offers: offerRows,
    photos: photoRows,
    ordered: ordered.length > 0,
    url,
    sectionName: index.byId.get(product.sectionId)?.name ?? '',
    seo,
  };
}
export type AdminProduct = NonNullable<Awaited<ReturnType<typeof getProductForAdmin>>>;

// --- SEO (page_meta rows at the page's address) and redirects ---------------------------------------

export interface Seo {
  title: string;
  description: string;
  keywords: string;
  text: string;
}
const EMPTY_SEO: Seo = { title: '', description: '', keywords: '', text: '' };
type SeoTextColumn = 'seoDescription' | 'seoBottom';

export async function readSeo(db: Database, path: string, textColumn: SeoTextColumn): Promise<Seo> {
  const [row] = await db.select().from(pageMeta).where(eq(pageMeta.path, path));
  if (!row) return { ...EMPTY_SEO };
  return { title: row.title, description: row.description, keywords: row.keywords, text: row[textColumn] ?? '' };
}

/** Stores a page's SEO fields (all empty: the row goes and the template speaks). */
export async function writeSeo(db: Database, path: string, seo: Seo, textColumn: SeoTextColumn): Promise<void> {
  if (!seo.title && !seo.description && !seo.keywords && !seo.text) {
    await db.delete(pageMeta).where(eq(pageMeta.path, path));
    return;
  }
  const values = {
    title: seo.title,
    description: seo.description,
    keywords: seo.keywords,
    [textColumn]: seo.text || null,
  };
  await db
    .insert(pageMeta)
    .values({ path, ...values })
    .onConflictDoUpdate({ target: pageMeta.path, set: values });
}

/**
 * A page moved from `from` to `to`: a 301 from the old address (redirects that pointed at it now
 * point at the new one, so no chain), none from the new one (a live page is never redirected),
 * and its SEO row goes with it.
 */
export async function movePage(db: Database, from: string, to: string): Promise<void> {
  if (from === to) return;
  await db.delete(redirects).where(eq(redirects.fromPath, to));
  await db.update(redirects).set({ toUrl: to }).where(eq(redirects.toUrl, from));
  await db
    .insert(redirects)
    .values({ fromPath: from, toUrl: to, status: 301 })
    .onConflictDoUpdate({ target: redirects.fromPath, set: { toUrl: to, status: 301 } });
  const [meta] = await db.select().from(pageMeta).where(eq(pageMeta.path, from));
  if (meta) {
    await db.delete(pageMeta).where(eq(pageMeta.path, to));
    await db.update(pageMeta).set({ path: to }).where(eq(pageMeta.path, from));
  }
}

// --- Products -------------------------------------------------------------------------------------

/** What the audit log keeps of a product (the fields staff edit). */
export function productSnapshot(p: typeof products.$inferSelect, sectionIds: number[], seo?: Seo) {
  return {
    name: p.name,
    article: p.article,
    slug: p.slug,
    description: p.description,
    properties: p.properties,
    section_id: p.sectionId,
    section_ids: sectionIds,
    group_key: p.groupKey,
    color_name: p.colorName,
    color_hex: p.colorHex,
    kind: p.kind,
    price_kopecks: p.priceKopecks,
    old_price_kopecks: p.oldPriceKopecks,
    is_new: p.isNew,
    active: p.active,
    ...(seo ? { seo } : {}),
  };
}

export interface ProductInput {
  name?: string | undefined;
  article?: string | undefined;
  slug?: string | undefined;
  description?: string | undefined;
  composition?: string | undefined;
  care?: string | undefined;
  properties?: ProductProperty[] | undefined;
  section_id?: number | undefined;
  section_ids?: number[] | undefined;
  group_key?: string | undefined;
  color_name?: string | undefined;
  color_hex?: string | undefined;
  kind?: string | undefined;
  price?: string | undefined;
  old_price?: string | null | undefined;
  is_new?: boolean | undefined;
  seo?: Seo | undefined;
}

function money(text: string, field: string, what: string): number | Refusal {
  const kopecks = parseRoublesToKopecks(text);
  if (kopecks === null) return refuse(400, field, `${what}: рубли, до двух знаков после запятой`);
  if (kopecks <= 0) return refuse(400, field, `${what} должна быть больше нуля`);
  if (kopecks > MAX_PRICE_KOPECKS) return refuse(400, field, `${what}: не больше 1 000 000 ₽`);
  return kopecks;
}
const isRefusal = (v: unknown): v is Refusal => typeof v === 'object' && v !== null && (v as Refusal).ok === false;

/** The properties as stored: the SPEC list with composition and care among them. */
function mergeProperties(
  current: ProductProperty[],
  input: { properties?: ProductProperty[] | undefined; composition?: string | undefined; care?: string | undefined },
): ProductProperty[] {
  const others = (input.properties ?? current.filter((p) => !OWN_CODES.has(p.code))).filter(
    (p) => !OWN_CODES.has(p.code),
  );
  const composition = input.composition ?? current.find((p) => p.code === COMPOSITION_CODE)?.value ?? '';
  const care = input.care ?? current.find((p) => p.code === CARE_CODE)?.value ?? '';
  const out: ProductProperty[] = [];
  if (composition) out.push({ code: COMPOSITION_CODE, name: 'Состав', value: composition });
  out.push(...others.map((p) => ({ ...p })));
  if (care) out.push({ code: CARE_CODE, name: 'Рекомендации по уходу', value: care });
  return out;
}

export function propertyText(properties: ProductProperty[], code: string): string {
  return properties.find((p) => p.code === code)?.value ?? '';
}

async function checkSections(
  db: Database,
  index: SectionIndex,
  mainId: number | undefined,
  extraIds: number[] | undefined,
): Promise<Refusal | null> {
  void db;
  if (mainId !== undefined) {
    const s = index.byId.get(mainId);
    if (!s) return refuse(400, 'section_id', 'Такого раздела нет');
    if (s.kind !== 'category')
      return refuse(400, 'section_id', `Раздел «${s.name}» собирается сам (новинки, распродажа): выберите другой`);
  }
  for (const id of extraIds ?? []) {
    const s = index.byId.get(id);
    if (!s) return refuse(400, 'section_ids', 'Такого раздела нет');
    if (s.kind !== 'category') return refuse(400, 'section_ids', `Раздел «${s.name}» собирается сам: уберите его`);
  }
  return null;
}

async function slugTaken(db: Database, slug: string, exceptId?: number): Promise<boolean> {
  const rows = await db
    .select({ id: products.id })
    .from(products)
    .where(exceptId === undefined ? eq(products.slug, slug) : and(eq(products.slug, slug), ne(products.id, exceptId)))
    .limit(1);
  return rows.length > 0;
}
async function articleTaken(db: Database, article: string, exceptId?: number): Promise<boolean> {
  const cond = sql`lower(${products.article}) = ${article.toLowerCase()}`;
  const rows = await db
    .select({ id: products.id })
    .from(products)
    .where(exceptId === undefined ? cond : and(cond, ne(products.id, exceptId)))
    .limit(1);
  return rows.length > 0;
}
async function freeSlug(db: Database, base: string): Promise<string> {
  const root = (base || 'tovar').slice(0, 110).replace(/-+$/, '');
  for (let n = 1; n < 1000; n++) {
    const candidate = n === 1 ? root : `${root}-${n}`;
    if (!(await slugTaken(db, candidate))) return candidate;
  }
  return `${root}-${Date.now()}`;
}

async function replaceExtraSections(db: Database, productId: number, mainId: number, ids: number[]): Promise<void> {
  await db.delete(productSections).where(eq(productSections.productId, productId));
  const unique = [...new Set(ids)].filter((id) => id !== mainId).sort((a, b) => a - b);
  if (unique.length) await db.insert(productSections).values(unique.map((sectionId) => ({ productId, sectionId })));
}

export type ProductChange =
  { ok: true; id: number; before: Record<string, unknown> | null; after: Record<string, unknown> } | Refusal;

export async function createProduct(db: Database, input: ProductInput & { now: Date }): Promise<ProductChange> {
  const index = await loadSections(db, { fresh: true });
  const bad = await checkSections(db, index, input.section_id, input.section_ids);
  if (bad) return bad;
  if (!input.kind || !(STAFF_KINDS as readonly string[]).includes(input.kind))
    return refuse(400, 'kind', 'Выберите вид изделия из списка');
  const price = money(input.price ?? '', 'price', 'Цена');
  if (isRefusal(price)) return price;
  const old = input.old_price ? money(input.old_price, 'old_price', 'Старая цена') : null;
  if (isRefusal(old)) return old;
  if (old !== null && old <= price) return refuse(400, 'old_price', 'Старая цена должна быть больше цены');
  const article = (input.article ?? '').trim();
  if (await articleTaken(db, article)) return refuse(409, 'article', `Товар с артикулом ${article} уже есть`);
  const colorName = (input.color_name ?? '').trim();
  const colorCode = slugify(colorName) || 'cvet';
  let slug = input.slug;
  if (slug) {
    if (await slugTaken(db, slug)) return refuse(409, 'slug', 'Этот адрес уже занят другим товаром');
  } else slug = await freeSlug(db, slugify(`${input.name ?? ''} ${colorName}`));
  const [row] = await db
    .insert(products)
    .values({
      slug,
      name: input.name ?? '',
      description: input.description ?? '',
      sectionId: input.section_id as number,
      kind: input.kind,
      colorName,
      colorCode,
      colorHex: (input.color_hex ?? '#000000').toLowerCase(),
      groupKey: input.group_key || slugify(input.name ?? '') || slug,
      isNew: input.is_new ?? false,
      priceKopecks: price,
      oldPriceKopecks: old,
      article,
      properties: mergeProperties([], input),
      // A new product is hidden until staff show it (activateProduct checks it can be sold).
      active: false,
      createdAt: input.now,
    })
    .returning();
  if (!row) throw new Error('product insert returned nothing');
  await replaceExtraSections(db, row.id, row.sectionId, input.section_ids ?? []);
  const seo = input.seo ?? { ...EMPTY_SEO };
  await writeSeo(db, productUrl(row, index), seo, 'seoDescription');
  await updateSearchTerms(db, [], termsOf(row.name, row.colorName));
  await bumpCatalogVersion(db);
  const sectionIds = [...new Set(input.section_ids ?? [])].filter((id) => id !== row.sectionId).sort((a, b) => a - b);
  return { ok: true, id: row.id, before: null, after: productSnapshot(row, sectionIds, seo) };
}

async function lockProduct(db: Database, id: number) {
  const [row] = await db.select().from(products).where(eq(products.id, id)).for('update');
  return row ?? null;
}

/** Only the fields that differ, before and after: the audit row of a PATCH. */
function diff(before: Record<string, unknown>, after: Record<string, unknown>) {
  const b: Record<string, unknown> = {};
  const a: Record<string, unknown> = {};
  for (const k of Object.keys(after))
    if (JSON.stringify(before[k]) !== JSON.stringify(after[k])) {
      b[k] = before[k];
      a[k] = after[k];
    }
  return { before: b, after: a };
}

export async function updateProduct(db: Database, id: number, input: ProductInput): Promise<ProductChange> {
  const current = await lockProduct(db, id);
  if (!current) return refuse(404, 'id', 'Товар не найден');
  const index = await loadSections(db, { fresh: true });
  const bad = await checkSections(db, index, input.section_id, input.section_ids);
  if (bad) return bad;
  if (
    input.kind !== undefined &&
    !(STAFF_KINDS as readonly string[]).includes(input.kind) &&
    input.kind !== current.kind
  )
    return refuse(400, 'kind', 'Выберите вид изделия из списка');
  const price = input.price !== undefined ? money(input.price, 'price', 'Цена') : current.priceKopecks;
  if (isRefusal(price)) return price;
  const old =
    input.old_price === undefined
      ? current.oldPriceKopecks
      : input.old_price
        ? money(input.old_price, 'old_price', 'Старая цена')
        : null;
  if (isRefusal(old)) return old;
  if (old !== null && old <= price) return refuse(400, 'old_price', 'Старая цена должна быть больше цены');
  if (input.article !== undefined && (await articleTaken(db, input.article, id)))
    return refuse(409, 'article', `Товар с артикулом ${input.article} уже есть`);
  if (input.slug !== undefined && (await slugTaken(db, input.slug, id)))
    return refuse(409, 'slug', 'Этот адрес уже занят другим товаром');

  const extraBefore = (
    await db.select({ s: productSections.sectionId }).from(productSections).where(eq(productSections.productId, id))
  )
    .map((r) => r.s)
    .sort((a, b) => a - b);
  const oldUrl = productUrl(current, index);
  const seoBefore = await readSeo(db, oldUrl, 'seoDescription');
  const colorName = input.color_name?.trim() ?? current.colorName;
  const set = {
    name: input.name ?? current.name,
    article: input.article ?? current.article,
    slug: input.slug ?? current.slug,
    description: input.description ?? current.description,
    properties:
      input.properties !== undefined || input.composition !== undefined || input.care !== undefined
        ? mergeProperties(current.properties, input)
        : current.properties,
    sectionId: input.section_id ?? current.sectionId,
    groupKey: input.group_key ?? current.groupKey,
    colorName,
    colorCode: input.color_name !== undefined ? slugify(colorName) || 'cvet' : current.colorCode,
    colorHex: input.color_hex?.toLowerCase() ?? current.colorHex,
    kind: input.kind ?? current.kind,
    priceKopecks: price,
    oldPriceKopecks: old,
    isNew: input.is_new ?? current.isNew,
  };
  const [row] = await db.update(products).set(set).where(eq(products.id, id)).returning();
  if (!row) throw new Error('product update returned nothing');

  // Sizes without a price of their own follow the product's price (and old price).
  if (price !== current.priceKopecks || old !== current.oldPriceKopecks)
    await db
      .update(offers)
      .set({ priceKopecks: price, oldPriceKopecks: old })
      .where(
        and(
          eq(offers.productId, id),
          eq(offers.priceKopecks, current.priceKopecks),
          current.oldPriceKopecks === null
            ? sql`${offers.oldPriceKopecks} is null`
            : eq(offers.oldPriceKopecks, current.oldPriceKopecks),
        ),
      );
  const extraAfter =
    input.section_ids !== undefined || input.section_id !== undefined
      ? [...new Set(input.section_ids ?? extraBefore)].filter((s) => s !== row.sectionId).sort((a, b) => a - b)
      : extraBefore;
  if (JSON.stringify(extraAfter) !== JSON.stringify(extraBefore))
    await replaceExtraSections(db, id, row.sectionId, extraAfter);
  const newUrl = productUrl(row, index);
  await movePage(db, oldUrl, newUrl);
  const seoAfter = input.seo ?? seoBefore;
  if (input.seo !== undefined) await writeSeo(db, newUrl, input.seo, 'seoDescription');
  if (row.name !== current.name || row.colorName !== current.colorName)
    await updateSearchTerms(db, termsOf(current.name, current.colorName), termsOf(row.name, row.colorName));
  const d = diff(productSnapshot(current, extraBefore, seoBefore), productSnapshot(row, extraAfter, seoAfter));
  if (Object.keys(d.after).length === 0) return refuse(409, 'id', 'Ничего не изменилось');
  await bumpCatalogVersion(db);
  return { ok: true, id, before: d.before, after: d.after };
}

/** Shows (activate) or hides a product; shown only with a size and a price. Never deletes. */
export async function setProductActive(db: Database, id: number, active: boolean): Promise<ProductChange> {
  const current = await lockProduct(db, id);
  if (!current) return refuse(404, 'id', 'Товар не найден');
  if (current.active === active)
    return refuse(409, 'active', active ? 'Товар уже показан в магазине' : 'Товар уже скрыт');
  if (active) {
    const [n] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(offers)
      .where(eq(offers.productId, id));
    if (!n || Number(n.n) === 0)
      return refuse(409, 'offers', 'Добавьте хотя бы один размер: без размеров товар не купить');
  }
  await db.update(products).set({ active }).where(eq(products.id, id));
  await bumpCatalogVersion(db);
  return { ok: true, id, before: { active: current.active }, after: { active } };
}

/**
 * A copy to start a similar product from (another colour of the model, the next season's): every
 * field, section and size (without stock, barcodes or photos), hidden, under a new article.
 */
export async function copyProduct(
  db: Database,
  id: number,
  input: { article: string; slug?: string | undefined; name?: string | undefined; now: Date },
): Promise<ProductChange> {
  const source = await lockProduct(db, id);
  if (!source) return refuse(404, 'id', 'Товар не найден');
  if (await articleTaken(db, input.article))
    return refuse(409, 'article', `Товар с артикулом ${input.article} уже есть`);
  let slug = input.slug;
  if (slug) {
    if (await slugTaken(db, slug)) return refuse(409, 'slug', 'Этот адрес уже занят другим товаром');
  } else slug = await freeSlug(db, `${source.slug}-${slugify(input.article)}`);
  const { id: _id, searchVector: _s, nameVector: _n, externalId: _e, ...fields } = source;
  const [row] = await db
    .insert(products)
    .values({
      ...fields,
      slug,
      article: input.article,
      name: input.name ?? source.name,
      active: false,
      popularity: 0,
      sizes: [],
      createdAt: input.now,
    })
    .returning();
  if (!row) throw new Error('product copy returned nothing');
  const extra = await db
    .select({ sectionId: productSections.sectionId })
    .from(productSections)
    .where(eq(productSections.productId, id));
  if (extra.length) await db.insert(productSections).values(extra.map((e) => ({ productId: row.id, ...e })));
  const sizes = await db.select().from(offers).where(eq(offers.productId, id)).orderBy(asc(offers.id));
  if (sizes.length)
    await db.insert(offers).values(
      sizes.map((o) => ({
        productId: row.id,
        sizeType: o.sizeType,
        size: o.size,
        intlSize: o.intlSize,
        sort: o.sort,
        priceKopecks: o.priceKopecks,
        oldPriceKopecks: o.oldPriceKopecks,
        preorder: o.preorder,
      })),
    );
  await refreshProductSizes({ db, productId: row.id });
  await updateSearchTerms(db, [], termsOf(row.name, row.colorName));
  await bumpCatalogVersion(db);
  return {
    ok: true,
    id: row.id,
    before: null,
    after: {
      ...productSnapshot(
        row,
        extra.map((e) => e.sectionId).sort((a, b) => a - b),
      ),
      copied_from: id,
    },
  };
}

// --- Offers (sizes) -------------------------------------------------------------------------------------

const INTL: Record<string, string> = {
  '40': 'XXS',
  '42': 'XS',
  '44': 'S',
  '46': 'M',
  '48': 'L',
  '50': 'XL',
  '52': 'XXL',
};

export function offerSnapshot(o: typeof offers.$inferSelect) {
  return {
    size_type: o.sizeType,
    size: o.size,
    label: sizeLabel(o.sizeType as SizeType, o.size, o.intlSize),
    price_kopecks: o.priceKopecks,
    old_price_kopecks: o.oldPriceKopecks,
    preorder: o.preorder,
    barcode: o.barcode,
    sort: o.sort,
  };
}

export type OfferChange =
  | {
      ok: true;
      offerId: number;
      productId: number;
      before: Record<string, unknown> | null;
      after: Record<string, unknown> | null;
    }
  | Refusal;

async function barcodeTaken(db: Database, barcode: string, exceptOfferId?: number): Promise<boolean> {
  const rows = await db
    .select({ id: offers.id })
    .from(offers)
    .where(
      exceptOfferId === undefined
        ? eq(offers.barcode, barcode)
        : and(eq(offers.barcode, barcode), ne(offers.id, exceptOfferId)),
    )
    .limit(1);
  return rows.length > 0;
}

export async function addOffer(
  db: Database,
  productId: number,
  input: {
    size_type: SizeType;
    size: string;
    price?: string | null | undefined;
    preorder: boolean;
    barcode?: string | null | undefined;
  },
): Promise<OfferChange> {
  const product = await lockProduct(db, productId);
  if (!product) return refuse(404, 'id', 'Товар не найден');
  const size = input.size_type === 'shoes' || input.size_type === 'clothes' ? input.size.toUpperCase() : input.size;
  if (input.size_type === 'shoes' && !/^\d{2}(?:[.,]5)?$/.test(size))
    return refuse(400, 'size', 'Размер обуви: число (37, 38,5)');
  const existing = await db
    .select({ id: offers.id })
    .from(offers)
    .where(and(eq(offers.productId, productId), eq(offers.size, size)));
  if (existing.length) return refuse(409, 'size', `Размер ${size} уже есть у этого товара`);
  const price = input.price ? money(input.price, 'price', 'Цена размера') : product.priceKopecks;
  if (isRefusal(price)) return price;
  const barcode = input.barcode || null;
  if (barcode && (await barcodeTaken(db, barcode)))
    return refuse(409, 'barcode', 'Такой штрихкод уже есть у другого размера');
  const [last] = await db
    .select({ sort: sql<number>`coalesce(max(${offers.sort}), 0)::int` })
    .from(offers)
    .where(eq(offers.productId, productId));
  const numeric = Number(size.replace(',', '.'));
  const [row] = await db
    .insert(offers)
    .values({
      productId,
      sizeType: input.size_type,
      size,
      intlSize: input.size_type === 'clothes' ? (INTL[size] ?? null) : null,
      sort: Number.isFinite(numeric) && numeric > 0 ? Math.round(numeric * 10) : Number(last?.sort ?? 0) + 10,
      priceKopecks: price,
      oldPriceKopecks: input.price ? null : product.oldPriceKopecks,
      quantity: 0,
      preorder: input.preorder,
      barcode,
    })
    .returning();
  if (!row) throw new Error('offer insert returned nothing');
  await refreshProductSizes({ db, productId });
  await bumpCatalogVersion(db);
  return { ok: true, offerId: row.id, productId, before: null, after: offerSnapshot(row) };
}

async function lockOffer(db: Database, productId: number, offerId: number) {
  const product = await lockProduct(db, productId);
  if (!product) return null;
  const [offer] = await db
    .select()
    .from(offers)
    .where(and(eq(offers.id, offerId), eq(offers.productId, productId)))
    .for('update');
  return offer ? { product, offer } : null;
}

export async function updateOffer(
  db: Database,
  productId: number,
  offerId: number,
  input: {
    price?: string | null | undefined;
    preorder?: boolean | undefined;
    barcode?: string | null | undefined;
    sort?: number | undefined;
  },
): Promise<OfferChange> {
  const found = await lockOffer(db, productId, offerId);
  if (!found) return refuse(404, 'id', 'Размер не найден');
  const { product, offer } = found;
  let price = offer.priceKopecks;
  let oldPrice = offer.oldPriceKopecks;
  if (input.price !== undefined) {
    if (input.price) {
      const p = money(input.price, 'price', 'Цена размера');
      if (isRefusal(p)) return p;
      price = p;
      oldPrice = oldPrice !== null && oldPrice > p ? oldPrice : null;
    } else {
      price = product.priceKopecks;
      oldPrice = product.oldPriceKopecks;
    }
  }
  const barcode = input.barcode === undefined ? offer.barcode : input.barcode || null;
  if (barcode && barcode !== offer.barcode && (await barcodeTaken(db, barcode, offerId)))
    return refuse(409, 'barcode', 'Такой штрихкод уже есть у другого размера');
  const [row] = await db
    .update(offers)
    .set({
      priceKopecks: price,
      oldPriceKopecks: oldPrice,
      preorder: input.preorder ?? offer.preorder,
      barcode,
      sort: input.sort ?? offer.sort,
    })
    .where(eq(offers.id, offerId))
    .returning();
  if (!row) throw new Error('offer update returned nothing');
  const d = diff(offerSnapshot(offer), offerSnapshot(row));
  if (Object.keys(d.after).length === 0) return refuse(409, 'id', 'Ничего не изменилось');
  if (row.preorder !== offer.preorder) await refreshProductSizes({ db, productId });
  await bumpCatalogVersion(db);
  return { ok: true, offerId, productId, before: d.before, after: d.after };
}

/**
 * Removes a size made by mistake: only one that no order holds and whose stock never moved (a size
 * with history stays: set its stock to 0 through the ledger and it is no longer sold).
 */
export async function removeOffer(db: Database, productId: number, offerId: number): Promise<OfferChange> {
  const found = await lockOffer(db, productId, offerId);
  if (!found) return refuse(404, 'id', 'Размер не найден');
  const { offer } = found;
  const [ordered] = await db
    .select({ one: sql`1` })
    .from(orderItems)
    .where(eq(orderItems.offerId, offerId))
    .limit(1);
  if (ordered) return refuse(409, 'id', 'Этот размер есть в заказах: его нельзя удалить, только обнулить остаток');
  const [moved] = await db
    .select({ one: sql`1` })
    .from(stockMoves)
    .where(eq(stockMoves.offerId, offerId))
    .limit(1);
  if (moved || offer.quantity > 0)
    return refuse(
      409,
      'id',
      'У размера есть история остатков: его нельзя удалить. Спишите остаток до 0 и снимите предзаказ — размер не будут продавать',
    );
  await db.delete(offers).where(eq(offers.id, offerId));
  const [left] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(offers)
    .where(eq(offers.productId, productId));
  if (found.product.active && Number(left?.n ?? 0) === 0)
    return refuse(409, 'id', 'Это последний размер показанного товара: сначала скройте товар');
  await refreshProductSizes({ db, productId });
  await bumpCatalogVersion(db);
  return { ok: true, offerId, productId, before: offerSnapshot(offer), after: null };
}

// --- Photos ----------------------------------------------------------------------------------------------

export type PhotoChange =
  { ok: true; productId: number; before: unknown; after: unknown; removedPaths: string[] } | Refusal;

export const MAX_PHOTOS_PER_PRODUCT = 30;

async function photoList(db: Database, productId: number) {
  return db
    .select()
    .from(productPhotos)
    .where(eq(productPhotos.productId, productId))
    .orderBy(asc(productPhotos.position));
}
const photoSnap = (rows: (typeof productPhotos.$inferSelect)[]) =>
  rows.map((p) => ({ id: p.id, position: p.position, path: p.path, alt: p.alt }));

/** Rewrites positions 1..n in the given order (through negative positions: the pair is unique). */
async function renumber(db: Database, ids: number[]): Promise<void> {
  for (const [i, id] of ids.entries())
    await db
      .update(productPhotos)
      .set({ position: -(i + 1) })
      .where(eq(productPhotos.id, id));
  for (const [i, id] of ids.entries())
    await db
      .update(productPhotos)
      .set({ position: i + 1 })
      .where(eq(productPhotos.id, id));
}

/** Photos already written under new media paths become the product's last ones. */
export async function addPhotos(
  db: Database,
  productId: number,
  stored: { path: string; width: number; height: number; alt: string }[],
): Promise<PhotoChange> {
  const product = await lockProduct(db, productId);
  if (!product) return refuse(404, 'id', 'Товар не найден');
  const before = await photoList(db, productId);
  if (before.length + stored.length > MAX_PHOTOS_PER_PRODUCT)
    return refuse(409, 'files', `У товара может быть не больше ${MAX_PHOTOS_PER_PRODUCT} фотографий`);
  const start = before.reduce((m, p) => Math.max(m, p.position), 0);
  await db.insert(productPhotos).values(
    stored.map((s, i) => ({
      productId,
      position: start + i + 1,
      path: s.path,
      alt: s.alt,
      width: s.width,
      height: s.height,
    })),
  );
  await bumpCatalogVersion(db);
  return {
    ok: true,
    productId,
    before: photoSnap(before),
    after: photoSnap(await photoList(db, productId)),
    removedPaths: [],
  };
}

export async function setPhotoAlt(db: Database, productId: number, photoId: number, alt: string): Promise<PhotoChange> {
  const product = await lockProduct(db, productId);
  if (!product) return refuse(404, 'id', 'Товар не найден');
  const [photo] = await db
    .select()
    .from(productPhotos)
    .where(and(eq(productPhotos.id, photoId), eq(productPhotos.productId, productId)));
  if (!photo) return refuse(404, 'photo_id', 'Фотография не найдена');
  if (photo.alt === alt) return refuse(409, 'alt', 'Ничего не изменилось');
  await db.update(productPhotos).set({ alt }).where(eq(productPhotos.id, photoId));
  await bumpCatalogVersion(db);
  return {
    ok: true,
    productId,
    before: { id: photoId, alt: photo.alt },
    after: { id: photoId, alt },
    removedPaths: [],
  };
}

export async function orderPhotos(db: Database, productId: number, ids: number[]): Promise<PhotoChange> {
  const product = await lockProduct(db, productId);
  if (!product) return refuse(404, 'id', 'Товар не найден');
  const before = await photoList(db, productId);
  const have = before.map((p) => p.id);
  if (ids.length !== have.length || new Set(ids).size !== ids.length || ids.some((id) => !have.includes(id)))
    return refuse(400, 'ids', 'Перечислите все фотографии товара, каждую один раз');
  if (ids.every((id, i) => have[i] === id)) return refuse(409, 'ids', 'Порядок не изменился');
  await renumber(db, ids);
  await bumpCatalogVersion(db);
  return {
    ok: true,
    productId,
    before: have,
    after: ids,
    removedPaths: [],
  };
}

/** Removes a photo; its file goes after the commit (its path is never used again). */
export async function removePhoto(db: Database, productId: number, photoId: number): Promise<PhotoChange> {
  const product = await lockProduct(db, productId);
  if (!product) return refuse(404, 'id', 'Товар не найден');
  const before = await photoList(db, productId);
  const photo = before.find((p) => p.id === photoId);
  if (!photo) return refuse(404, 'photo_id', 'Фотография не найдена');
  await db.delete(productPhotos).where(eq(productPhotos.id, photoId));
  await renumber(
    db,
    before.filter((p) => p.id !== photoId).map((p) => p.id),
  );
  await bumpCatalogVersion(db);
  return {
    ok: true,
    productId,
    before: photoSnap([photo])[0],
    after: null,
    // Seeded demo photos are drawn from their art on demand; only uploads are files of their own.
    removedPaths: photo.art ? [] : [photo.path],
  };
}

/** The sections the product form offers: category sections, with their path for reading. */
export async function sectionChoices(db: Database) {
  const index = await loadSections(db, { fresh: true });
  return index.all.map((s) => {
    const parent = s.parentId ? index.byId.get(s.parentId) : undefined;
    return { id: s.id, name: s.name, path: parent ? `${parent.name} / ${s.name}` : s.name, kind: s.kind, url: s.url };
  });
}
