import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '~/db/client.server';
import { offers, productPhotos, products } from '~/db/schema';

// Reads of the catalogue's products, by id or slug. Only active products are ever returned.

export type ProductRow = typeof products.$inferSelect;
export type OfferRow = typeof offers.$inferSelect;
export type PhotoRow = typeof productPhotos.$inferSelect;

export interface ListingProduct {
  id: number;
  slug: string;
  name: string;
  sectionId: number;
  priceKopecks: number;
  oldPriceKopecks: number | null;
  colorName: string;
  isNew: boolean;
}

/** A page's products in the order given (ids from the listing index); inactive ones drop out. */
export async function getListingProducts({ db, ids }: { db: Database; ids: number[] }): Promise<ListingProduct[]> {
  if (!ids.length) return [];
  const rows = await db
    .select({
      id: products.id,
      slug: products.slug,
      name: products.name,
      sectionId: products.sectionId,
      priceKopecks: products.priceKopecks,
      oldPriceKopecks: products.oldPriceKopecks,
      colorName: products.colorName,
      isNew: products.isNew,
    })
    .from(products)
    .where(and(inArray(products.id, ids), eq(products.active, true)));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** The card photo and its hover photo of a product row, in the same query (no second round trip). */
// Written out in SQL with qualified names: in a one-table select Drizzle renders `${products.id}`
// unqualified, which inside this subquery would mean product_photos.id.
const cardPhotos = sql<
  string[]
>`coalesce((select json_agg(pp.path order by pp.position) from product_photos pp where pp.product_id = "products"."id" and pp.position <= 2), '[]'::json)`;

/** getListingProducts and getCardPhotoPaths in one query: a listing page's cards. */
export async function getListingCards({
  db,
  ids,
}: {
  db: Database;
  ids: number[];
}): Promise<Array<ListingProduct & { photoPaths: string[] }>> {
  if (!ids.length) return [];
  const rows = await db
    .select({
      id: products.id,
      slug: products.slug,
      name: products.name,
      sectionId: products.sectionId,
      priceKopecks: products.priceKopecks,
      oldPriceKopecks: products.oldPriceKopecks,
      colorName: products.colorName,
      isNew: products.isNew,
      photoPaths: cardPhotos,
    })
    .from(products)
    .where(and(inArray(products.id, ids), eq(products.active, true)));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** The first two photo paths of each product (card photo and its hover photo). */
export async function getCardPhotoPaths({ db, ids }: { db: Database; ids: number[] }): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  if (!ids.length) return out;
  const rows = await db
    .select({ productId: productPhotos.productId, path: productPhotos.path })
    .from(productPhotos)
    .where(and(inArray(productPhotos.productId, ids), sql`${productPhotos.position} <= 2`))
    .orderBy(asc(productPhotos.productId), asc(productPhotos.position));
  for (const r of rows) {
    const list = out.get(r.productId) ?? [];
    list.push(r.path);
    out.set(r.productId, list);
  }
  return out;
}

export interface ColorVariantRow {
  id: number;
  slug: string;
  name: string;
  sectionId: number;
  color: string;
  hex: string;
}

export interface ProductDetail {
  product: ProductRow;
  offers: OfferRow[];
  photos: PhotoRow[];
  /** The same model in every colour (this one included), by id. */
  variants: ColorVariantRow[];
  variantPhotos: Map<number, string[]>;
}

/** An active product by its slug with everything its page shows, or null. */
export async function getProductDetail({ db, slug }: { db: Database; slug: string }): Promise<ProductDetail | null> {
  const [product] = await db
    .select()
    .from(products)
    .where(and(eq(products.slug, slug), eq(products.active, true)))
    .limit(1);
  if (!product) return null;
  const [offerRows, photoRows, variants] = await Promise.all([
    db.select().from(offers).where(eq(offers.productId, product.id)).orderBy(asc(offers.sort), asc(offers.id)),
    db.select().from(productPhotos).where(eq(productPhotos.productId, product.id)).orderBy(asc(productPhotos.position)),
    db
      .select({
        id: products.id,
        slug: products.slug,
        name: products.name,
        sectionId: products.sectionId,
        color: products.colorName,
        hex: products.colorHex,
        photoPaths: cardPhotos,
      })
      .from(products)
      .where(and(eq(products.groupKey, product.groupKey), eq(products.active, true)))
      .orderBy(asc(products.id)),
  ]);
  // The variants' card photos came with them (one query fewer, one round trip less).
  const variantPhotos = new Map(variants.map((v) => [v.id, v.photoPaths]));
  return {
    product,
    offers: offerRows,
    photos: photoRows,
    variants: variants.map(({ photoPaths: _, ...v }) => v),
    variantPhotos,
  };
}

export async function countActiveProducts({ db }: { db: Database }): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(products)
    .where(eq(products.active, true));
  return Number(row?.n ?? 0);
}

/** One page of active products' addresses in id order, for the sitemap. */
export async function getSitemapProducts({ db, offset, limit }: { db: Database; offset: number; limit: number }) {
  return db
    .select({ slug: products.slug, sectionId: products.sectionId, createdAt: products.createdAt })
    .from(products)
    .where(eq(products.active, true))
    .orderBy(asc(products.id))
    .limit(limit)
    .offset(offset);
}
