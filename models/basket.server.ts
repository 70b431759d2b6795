import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Database } from '~/db/client.server';
import { offers, productPhotos, products } from '~/db/schema';
import { sizeLabel, type SizeType } from '~/core/sizes';
import { GIFT_COVER_OFFER_ID, giftCoverQuantity, parseCartLines } from '~/core/basket';
import { normalizePromoCode } from '~/core/promo';
import {
  priceBasket,
  reconcileBasket,
  type OfferFacts,
  type PricedBasket,
  type ReconciledBasket,
  type RequestedLine,
} from '~/core/basket-pricing';
import { getPromoCode } from './promo.server';

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

export interface LoadedBasket {
  catalog: BasketCatalog;
  /** The lines priced: reconciled with the catalogue, or as asked (`lines: 'as-asked'`, no notices). */
  basket: ReconciledBasket;
  priced: PricedBasket;
}

/**
 * The one basket pipeline (get_cart.php, checkout and the order all price through it): the
 * catalogue of the requested offers and the gift cover read; the lines reconciled with it (cut to
 * stock, lines no longer sold dropped with notices) or, for an order, taken as asked after
 * `onCatalog` checked them (and took their stock); the promo read (under its row lock for an
 * order); the basket priced in kopecks from the database only.
 */
export async function loadPricedBasket({
  db,
  cart,
  preorders,
  promoCode,
  customerId,
  now,
  lines = 'reconcile',
  lockPromo = false,
  onCatalog,
}: {
  db: Database;
  cart: readonly RequestedLine[];
  preorders: readonly RequestedLine[];
  /** Normalised (core/promo.ts normalizePromoCode), or null. */
  promoCode: string | null;
  customerId: number | null;
  now: Date;
  lines?: 'reconcile' | 'as-asked';
  lockPromo?: boolean;
  /** Runs once the catalogue is read, before pricing (an order refuses lines there and takes stock). */
  onCatalog?: (catalog: BasketCatalog) => Promise<void>;
}): Promise<LoadedBasket> {
  const catalog = await getBasketCatalog({
    db,
    offerIds: [...cart, ...preorders].map((l) => l.offerId).concat(GIFT_COVER_OFFER_ID),
  });
  if (onCatalog) await onCatalog(catalog);
  const basket =
    lines === 'reconcile'
      ? reconcileBasket({ cart, preorders, offers: catalog.offers })
      : asAsked(cart, preorders, catalog);
  const promo = promoCode ? await getPromoCode({ db, code: promoCode, customerId, forUpdate: lockPromo }) : null;
  const priced = priceBasket({
    basket,
    offers: catalog.offers,
    giftCover: catalog.offers.get(GIFT_COVER_OFFER_ID) ?? null,
    promoCode,
    promo,
    now,
  });
  return { catalog, basket, priced };
}

/** An order's lines as asked (already checked), gift covers recounted. */
function asAsked(
  cart: readonly RequestedLine[],
  preorders: readonly RequestedLine[],
  catalog: BasketCatalog,
): ReconciledBasket {
  const named = [...cart, ...preorders].map((l) => ({
    ...l,
    productName: catalog.offers.get(l.offerId)?.productName ?? '',
  }));
  return { cart: [...cart], preorders: [...preorders], giftCovers: giftCoverQuantity(named), notices: [], soldOut: [] };
}

/** A basket as the storefront sends it (SPEC §7 `ids`, `preorder_ids`, `promo_code`, as typed). */
export interface BasketRequest {
  db: Database;
  ids?: string | undefined;
  preorderIds?: string | undefined;
  promoCode?: string | null | undefined;
  customerId?: number | null;
  now?: Date;
}

/** The storefront's basket through the one pipeline: its lines parsed, its promo code normalised, reconciled and priced. */
export function loadRequestedBasket(request: BasketRequest): Promise<LoadedBasket> {
  return loadPricedBasket({
    db: request.db,
    cart: parseCartLines(request.ids),
    preorders: parseCartLines(request.preorderIds),
    promoCode: normalizePromoCode(request.promoCode ?? undefined),
    customerId: request.customerId ?? null,
    now: request.now ?? new Date(),
  });
}
