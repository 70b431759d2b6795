import { createHash } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '~/db/client.server';
import {
  appState,
  customers,
  offers,
  orderItems,
  orders,
  pageMeta,
  productPhotos,
  products,
  promoCodes,
  redirects,
  sections,
} from '~/db/schema';
import { GIFT_COVER_OFFER_ID } from '~/core/basket';
import { generateProducts, SECTIONS, type SeedProduct } from './catalog-data';
import type { GarmentArt } from '~/media/garment-art';
import { PAGE_META, PRODUCT_META_TEMPLATE } from '~/content/page-meta';
import { sizeFilterId } from '~/core/sizes';
import { bumpCatalogVersion } from '~/db/catalog-version.server';
import { rebuildSearchTerms } from '~/db/search-terms.server';
import { certificateFixtures, seedCertificates } from './certificates.server';
import { recordOpeningStock } from './opening-stock.server';

// Bump when the seed's shape changes, so existing databases get the new rows.
const SEED_VERSION = 2;
// 1 000 products a batch keeps their offers under PostgreSQL's 65 535 bind parameters.
const BATCH = 1000;

/** The test account of SPEC §9: a fixed phone with one completed order (see README). */
export const TEST_ACCOUNT = {
  phone: '79990000000',
  firstName: 'Анна',
  lastName: 'Тестова',
  email: 'test@vitrina.example',
} as const;

export const SEED_REDIRECTS = [
  { fromPath: '/sale/', toUrl: '/catalog/promo/', status: 301 },
  { fromPath: '/novinki/', toUrl: '/catalog/new-collection/', status: 301 },
  { fromPath: '/gift/', toUrl: '/podarochnye-sertifikaty/', status: 302 },
  { fromPath: '/telegram/', toUrl: 'https://t.me/vitrina_brand', status: 302 },
] as const;

export interface SeedOptions {
  /** How many products the catalogue should have (default 180; benchmarks use up to 100 000). */
  products?: number;
  log?: (message: string) => void;
}

export interface SeedResult {
  skipped: boolean;
  products: number;
}

/** What app_state's 'seed' row records of the seed that ran. */
interface SeedState {
  version?: number;
  products?: number;
  /** `fixturesFingerprint()` when the fixtures were last made sure of. */
  fixtures?: string;
}

// Bump when the code of the fixture steps (upsertPageMeta, seedCommerce, seedCertificates) changes
// what they write: the fingerprint below sums up their data, not their code.
const FIXTURES_VERSION = 1;

/**
 * The fixtures every database is made to match (page metadata, promo codes, the gift cover, the
 * gift certificates), summed up: their data and FIXTURES_VERSION. A start on a database whose
 * recorded fingerprint is this one skips those steps (a restart does no seeding work at all); a
 * deploy that changes any of it, or a database seeded before the fingerprint was recorded, runs
 * them once.
 */
export function fixturesFingerprint(): string {
  return createHash('sha256')
    .update(
      JSON.stringify([
        FIXTURES_VERSION,
        PAGE_META,
        SEED_PROMO_CODES,
        GIFT_COVER,
        GIFT_COVER_PHOTO,
        GIFT_COVER_OFFER_ID,
        certificateFixtures(),
      ]),
    )
    .digest('base64url');
}

async function recordSeed(db: Database, value: SeedState): Promise<void> {
  await db
    .insert(appState)
    .values({ key: 'seed', value })
    .onConflictDoUpdate({ target: appState.key, set: { value, updatedAt: sql`now()` } });
}

/**
 * Builds the demo shop. Idempotent: every row has a natural key and is inserted with
 * ON CONFLICT DO NOTHING, and a finished seed of the same size and version is skipped (its
 * fixtures are made sure of when they changed since: `fixturesFingerprint`).
 */
export async function seedDatabase(db: Database, options: SeedOptions = {}): Promise<SeedResult> {
  const target = options.products ?? 180;
  const log = options.log ?? (() => {});
  const [state] = await db.select().from(appState).where(eq(appState.key, 'seed'));
  const done = state?.value as SeedState | undefined;
  if (done?.version === SEED_VERSION && (done.products ?? 0) >= target) {
    const fixtures = fixturesFingerprint();
    if (done.fixtures !== fixtures) {
      await upsertPageMeta(db);
      await seedCommerce(db);
      if ((await seedCertificates(db)) > 0) await refreshSearchTerms(db);
      await recordSeed(db, { ...done, fixtures });
    }
    return { skipped: true, products: done.products ?? 0 };
  }

  const sectionIds = await seedSections(db);
  await upsertPageMeta(db);
  await db
    .insert(redirects)
    .values([...SEED_REDIRECTS])
    .onConflictDoNothing();

  let batch: SeedProduct[] = [];
  let count = 0;
  const started = Date.now();
  for (const product of generateProducts({ products: target })) {
    batch.push(product);
    if (batch.length === BATCH) {
      await seedProducts(db, batch, sectionIds);
      count += batch.length;
      batch = [];
      if (count % 10_000 === 0)
        log(`seed: ${count} of ${target} products (${Math.round((Date.now() - started) / 1000)} s)`);
    }
  }
  if (batch.length) {
    await seedProducts(db, batch, sectionIds);
    count += batch.length;
  }
  await seedCommerce(db);
  await seedCertificates(db);
  await seedTestAccount(db);
  await refreshSearchTerms(db);
  await bumpCatalogVersion(db);
  await recordSeed(db, { version: SEED_VERSION, products: target, fixtures: fixturesFingerprint() });
  log(`seed: ${count} products ready in ${Math.round((Date.now() - started) / 100) / 10} s`);
  return { skipped: false, products: count };
}

async function seedSections(db: Database): Promise<Map<string, number>> {
  const rows = SECTIONS.map((s) => ({
    code: s.code,
    name: s.name,
    url: s.url,
    sort: s.sort,
    kind: s.sectionKind ?? ('category' as const),
  }));
  await db.insert(sections).values(rows).onConflictDoNothing();
  const all = await db.select({ id: sections.id, code: sections.code }).from(sections);
  const ids = new Map(all.map((s) => [s.code, s.id]));
  for (const s of SECTIONS) {
    if (!s.parentCode) continue;
    const id = ids.get(s.code);
    const parentId = ids.get(s.parentCode);
    if (id && parentId)
      await db
        .update(sections)
        .set({ parentId })
        .where(and(eq(sections.id, id), sql`${sections.parentId} is distinct from ${parentId}`));
  }
  return ids;
}

/** The hidden gift garment cover (core/basket.ts) as a real 0 ₽ offer. */
export const GIFT_COVER = {
  slug: 'chekhol-dlya-odezhdy',
  name: 'Чехол для одежды',
  description: 'Дышащий чехол из хлопка с логотипом Vitrina: в подарок к каждому пальто.',
  article: 'VT-GIFT-COVER',
} as const;

/** The garment cover's photo (media path). */
export const GIFT_COVER_PHOTO = `products/${GIFT_COVER.slug}/cover-1.jpg`;

/**
 * Documented promo codes for trying the basket (README): percent, fixed from a minimum, expired.
 * Sale items take no promo discount ('скидки не суммируются').
 */
export const SEED_PROMO_CODES = [
  { code: 'VITRINA10', kind: 'percent' as const, percent: 10, minBasketKopecks: 0, excludeSale: true },
  { code: 'MINUS1000', kind: 'fixed' as const, amountKopecks: 100_000, minBasketKopecks: 1_000_000, excludeSale: true },
  {
    code: 'OLDCODE',
    kind: 'percent' as const,
    percent: 15,
    minBasketKopecks: 0,
    excludeSale: true,
    validTo: new Date('2025-12-31T20:59:59Z'),
  },
];

/** Commerce fixtures every database needs, added idempotently also to a database seeded before them. */
async function seedCommerce(db: Database): Promise<void> {
  await db.insert(promoCodes).values(SEED_PROMO_CODES).onConflictDoNothing();
  const [section] = await db.select({ id: sections.id }).from(sections).where(eq(sections.code, 'aksessuar'));
  if (!section) return;
  await db
    .insert(products)
    .values({
      ...GIFT_COVER,
      sectionId: section.id,
      kind: 'bag',
      colorName: 'Молочный',
      colorCode: 'molochnyj',
      colorHex: '#efe9dc',
      groupKey: GIFT_COVER.slug,
      priceKopecks: 0,
      // Never listed, searched or opened: it only rides along with coats.
      active: false,
    })
    .onConflictDoNothing();
  const [product] = await db.select({ id: products.id }).from(products).where(eq(products.slug, GIFT_COVER.slug));
  if (!product) return;
  await db
    .insert(offers)
    .values({
      id: GIFT_COVER_OFFER_ID,
      productId: product.id,
      sizeType: 'none',
      size: 'Единый',
      priceKopecks: 0,
      quantity: 0,
    })
    .onConflictDoNothing();
  // Its own picture: a garment cover on a hanger. Databases seeded with the first one (a
  // handbag at …/1.jpg) get this one too; it has a path of its own, because a media path
  // never changes content (caches keep it for a year).
  const art: GarmentArt = { kind: 'garment-cover', color: '#efe9dc', view: 0, seed: 1 };
  await db
    .insert(productPhotos)
    .values({ productId: product.id, position: 1, path: GIFT_COVER_PHOTO, alt: GIFT_COVER.name, art })
    .onConflictDoUpdate({
      target: [productPhotos.productId, productPhotos.position],
      set: { path: GIFT_COVER_PHOTO, art },
      setWhere: sql`${productPhotos.path} <> ${GIFT_COVER_PHOTO}`,
    });
}

/** The content file is the source of truth for page metadata: edits there reach the database. */
async function upsertPageMeta(db: Database): Promise<void> {
  const rows = Object.entries(PAGE_META).map(([path, m]) => ({
    path,
    title: m.title,
    description: m.description,
    keywords: m.keywords,
    seoBottom: m.seoBottom ?? null,
    seoDescription: m.seoDescription ?? null,
  }));
  await db
    .insert(pageMeta)
    .values(rows)
    .onConflictDoUpdate({
      target: pageMeta.path,
      set: {
        title: sql`excluded.title`,
        description: sql`excluded.description`,
        keywords: sql`excluded.keywords`,
        seoBottom: sql`excluded.seo_bottom`,
        seoDescription: sql`excluded.seo_description`,
      },
      // A row staff edited in the back office (version above 1) is theirs: a deploy keeps it.
      setWhere: sql`${pageMeta.version} = 1`,
    });
}

/** Size filter ids a shopper can order now: in stock or open for pre-order. */
export function orderableSizes(p: Pick<SeedProduct, 'offers'>): string[] {
  return p.offers.filter((o) => o.quantity > 0 || o.preorder).map((o) => sizeFilterId(o.sizeType, o.size));
}

/** The typo-correction word list follows the catalogue. */
export async function refreshSearchTerms(db: Database): Promise<void> {
  await rebuildSearchTerms(db);
  // Fresh statistics after a bulk load, so the planner picks the indexes.
  await db.execute(sql`analyze`);
}

function fill(template: string, name: string): string {
  return template.split('{name}').join(name);
}

async function seedProducts(db: Database, batch: SeedProduct[], sectionIds: Map<string, number>): Promise<void> {
  const sectionUrl = new Map(SECTIONS.map((s) => [s.code, s.url]));
  await db
    .insert(products)
    .values(
      batch.map((p) => {
        const sectionId = sectionIds.get(p.sectionCode);
        if (!sectionId) throw new Error(`seed: unknown section ${p.sectionCode}`);
        return {
          slug: p.slug,
          name: p.name,
          description: p.description,
          sectionId,
          kind: p.kind,
          colorName: p.colorName,
          colorCode: p.colorCode,
          colorHex: p.colorHex,
          groupKey: p.groupKey,
          isNew: p.isNew,
          popularity: p.popularity,
          priceKopecks: p.priceKopecks,
          oldPriceKopecks: p.oldPriceKopecks,
          article: p.properties.find((x) => x.code === 'CML2_ARTICLE')?.value ?? `VT-${p.index}`,
          properties: p.properties,
          createdAt: new Date(p.createdAt),
          sizes: orderableSizes(p),
          certificate: p.certificate,
        };
      }),
    )
    // A database seeded before sizes existed gets them; nothing else is overwritten.
    .onConflictDoUpdate({
      target: products.slug,
      set: { sizes: sql`excluded.sizes` },
      where: sql`${products.sizes} = '{}'::text[]`,
    });

  const idRows = await db
    .select({ id: products.id, slug: products.slug })
    .from(products)
    .where(
      inArray(
        products.slug,
        batch.map((p) => p.slug),
      ),
    );
  const idOf = new Map(idRows.map((r) => [r.slug, r.id]));

  const offerRows: (typeof offers.$inferInsert)[] = [];
  const photoRows: (typeof productPhotos.$inferInsert)[] = [];
  const metaRows: (typeof pageMeta.$inferInsert)[] = [];
  for (const p of batch) {
    const productId = idOf.get(p.slug);
    if (!productId) continue;
    p.offers.forEach((o, i) =>
      offerRows.push({
        productId,
        sizeType: o.sizeType,
        size: o.size,
        intlSize: o.intlSize,
        sort: i,
        priceKopecks: p.priceKopecks,
        oldPriceKopecks: p.oldPriceKopecks,
        quantity: o.quantity,
        preorder: o.preorder,
      }),
    );
    for (let n = 1; n <= p.photoCount; n++) {
      const art: GarmentArt = {
        kind: p.kind,
        color: p.colorHex,
        view: n - 1,
        seed: p.index * 7 + n,
        ...(p.certificate ? { nominal: p.priceKopecks / 100 } : {}),
      };
      photoRows.push({
        productId,
        position: n,
        path: `products/${p.slug}/${n}.jpg`,
        alt: `${p.name}, ${p.colorName.toLowerCase()}, фото ${n}`,
        art,
      });
    }
    if (p.seoDescription) {
      const path = `${sectionUrl.get(p.sectionCode) ?? '/catalog/all/'}${p.slug}/`;
      metaRows.push({
        path,
        title: fill(PRODUCT_META_TEMPLATE.title, p.name),
        description: fill(PRODUCT_META_TEMPLATE.description, p.name),
        keywords: fill(PRODUCT_META_TEMPLATE.keywords, p.name),
        seoDescription: p.seoDescription,
      });
    }
  }
  if (offerRows.length)
    await recordOpeningStock(
      db,
      await db
        .insert(offers)
        .values(offerRows)
        .onConflictDoNothing()
        .returning({ id: offers.id, quantity: offers.quantity }),
    );
  if (photoRows.length) await db.insert(productPhotos).values(photoRows).onConflictDoNothing();
  if (metaRows.length) await db.insert(pageMeta).values(metaRows).onConflictDoNothing();
}

/** SPEC §9: the test account exists and gets a sample completed order when it has none (at seeding, and again at its login). */
export async function seedTestAccount(db: Database): Promise<void> {
  await db
    .insert(customers)
    .values({ ...TEST_ACCOUNT })
    .onConflictDoNothing();
  const [customer] = await db.select().from(customers).where(eq(customers.phone, TEST_ACCOUNT.phone));
  if (!customer) return;
  const [existing] = await db.select({ id: orders.id }).from(orders).where(eq(orders.customerId, customer.id)).limit(1);
  if (existing) return;

  const picks = await db
    .select({ offer: offers, product: products })
    .from(offers)
    .innerJoin(products, eq(products.id, offers.productId))
    .where(sql`${offers.quantity} > 0`)
    .orderBy(offers.id)
    .limit(2);
  if (picks.length === 0) return;
  const total = picks.reduce((sum, p) => sum + p.offer.priceKopecks, 0);
  await db.transaction(async (tx) => {
    const [order] = await tx
      .insert(orders)
      .values({
        customerId: customer.id,
        status: 'completed',
        fields: {
          firstname: TEST_ACCOUNT.firstName,
          lastname: TEST_ACCOUNT.lastName,
          phone: TEST_ACCOUNT.phone,
          email: TEST_ACCOUNT.email,
          city: 'Москва',
        },
        itemsTotalKopecks: total,
        deliveryCostKopecks: 70_000,
        totalKopecks: total + 70_000,
        createdAt: new Date('2026-10-02T12:00:00Z'),
      })
      .returning({ id: orders.id });
    if (!order) return;
    await tx.insert(orderItems).values(
      picks.map((p) => ({
        orderId: order.id,
        offerId: p.offer.id,
        title: p.product.name,
        size: p.offer.size,
        color: p.product.colorName,
        image: `/media/products/${p.product.slug}/1.jpg`,
        priceKopecks: p.offer.priceKopecks,
        quantity: 1,
      })),
    );
  });
}
