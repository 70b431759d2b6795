import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Database } from '~/db/client.server';
import { offers, productPhotos, products } from '~/db/schema';
import { sizeLabel, type SizeType } from '~/core/sizes';
import type { OfferFacts } from '~/core/basket-pricing';

// What the basket needs of the catalogue: each requested offer's facts (price, stock,
// pre-order, whether it is still sold) and, to show a line, its product and sibling sizes.

export interface BasketOfferRow extends OfferFacts {
  productId: number;
  productSlug: string;
  sectionId: number;
  colorName: string;
  sizeType: SizeType;
  size: string;
  sort: number;
}

export interface BasketCatalog {
  /** The requested offers and every other size of their products, by offer id. */
  offers: Map<number, BasketOfferRow>;
  /** Offer ids of each product, in size order. */
  offersOfProduct: Map<number, number[]>;
  /** The first photo path of each product. */
  photos: Map<number, string>;
}

export async function getBasketCatalog({ db, offerIds }: { db: Database; offerIds: number[] }): Promise<BasketCatalog> {
  const out: BasketCatalog = { offers: new Map(), offersOfProduct: new Map(), photos: new Map() };
  if (offerIds.length === 0) return out;
  // Every size of the requested offers' products, in one query.
  const ofRequested = db.select({ productId: offers.productId }).from(offers).where(inArray(offers.id, offerIds));
  const [rows, photoRows] = await Promise.all([
    db
      .select({
        offerId: offers.id,
        productId: offers.productId,
        sizeType: offers.sizeType,
        size: offers.size,
        intlSize: offers.intlSize,
        sort: offers.sort,
        priceKopecks: offers.priceKopecks,
        oldPriceKopecks: offers.oldPriceKopecks,
        available: offers.quantity,
        preorder: offers.preorder,
        productName: products.name,
        productSlug: products.slug,
        sectionId: products.sectionId,
        colorName: products.colorName,
        active: products.active,
        certificate: products.certificate,
      })
      .from(offers)
      .innerJoin(products, eq(products.id, offers.productId))
      .where(inArray(offers.productId, ofRequested))
      .orderBy(asc(offers.productId), asc(offers.sort), asc(offers.id)),
    db
      .select({ productId: productPhotos.productId, path: productPhotos.path })
      .from(productPhotos)
      .where(and(inArray(productPhotos.productId, ofRequested), eq(productPhotos.position, 1))),
  ]);
  for (const r of rows) {
    const sizeType = r.sizeType as SizeType;
    out.offers.set(r.offerId, { ...r, sizeType, sizeLabel: sizeLabel(sizeType, r.size, r.intlSize) });
    const list = out.offersOfProduct.get(r.productId) ?? [];
    list.push(r.offerId);
    out.offersOfProduct.set(r.productId, list);
  }
  for (const p of photoRows) out.photos.set(p.productId, p.path);
  return out;
}
