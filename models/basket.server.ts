import { sql } from 'drizzle-orm';
import { queryPrepared, type Database } from '~/db/client.server';
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
  intlSize: string | null;
  sort: number;
  /** The product's kind and parcel weight (the delivery calculator's parcel). */
  kind: string;
  weightGrams: number | null;
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
  // An id no offer can have (beyond the column's range) is simply not found.
  const ids = offerIds.filter((id) => Number.isInteger(id) && id >= 1 && id <= 2_147_483_647);
  if (ids.length === 0) return out;
  // Every size of the requested offers' products with the product's first photo, in one
  // statement written out: the basket, the checkout and every order read it, and the query
  // builder's mapping was a visible share of an order's CPU (bench:orders). The ids go as JSON:
  // PostgreSQL guesses the rows of an array's elements from the array a custom plan sees, so it
  // planned this statement anew at every call; a JSON list's guess is the same in the generic
  // plan, which it then keeps (queryPrepared).
  const rows = await queryPrepared<{
    offer_id: number;
    product_id: number;
    size_type: string;
    size: string;
    intl_size: string | null;
    sort: number;
    price_kopecks: number;
    old_price_kopecks: number | null;
    available: number;
    preorder: boolean;
    product_name: string;
    product_slug: string;
    section_id: number;
    color_name: string;
    active: boolean;
    certificate: 'electronic' | 'plastic' | null;
    kind: string;
    weight_grams: number | null;
    photo: string | null;
  }>(
    db,
    sql`select o.id as offer_id, o.product_id, o.size_type, o.size, o.intl_size, o.sort, o.price_kopecks,
               o.old_price_kopecks, o.quantity as available, o.preorder, p.name as product_name,
               p.slug as product_slug, p.section_id, p.color_name, p.active, p.certificate, p.kind,
               p.weight_grams, ph.path as photo
        from offers o
        join products p on p.id = o.product_id
        left join product_photos ph on ph.product_id = o.product_id and ph.position = 1
        where o.product_id in (select product_id from offers
                               where id in (select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)::int))
        order by o.product_id, o.sort, o.id`,
  );
  for (const r of rows) {
    const sizeType = r.size_type as SizeType;
    const offerId = Number(r.offer_id);
    const productId = Number(r.product_id);
    out.offers.set(offerId, {
      offerId,
      productId,
      sizeType,
      size: r.size,
      intlSize: r.intl_size,
      sort: Number(r.sort),
      priceKopecks: Number(r.price_kopecks),
      oldPriceKopecks: r.old_price_kopecks === null ? null : Number(r.old_price_kopecks),
      available: Number(r.available),
      preorder: r.preorder,
      productName: r.product_name,
      productSlug: r.product_slug,
      sectionId: Number(r.section_id),
      colorName: r.color_name,
      active: r.active,
      certificate: r.certificate,
      kind: r.kind,
      weightGrams: r.weight_grams === null ? null : Number(r.weight_grams),
      sizeLabel: sizeLabel(sizeType, r.size, r.intl_size),
    });
    const list = out.offersOfProduct.get(productId) ?? [];
    list.push(offerId);
    out.offersOfProduct.set(productId, list);
    if (r.photo !== null) out.photos.set(productId, r.photo);
  }
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
  catalog: given,
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
  /** The catalogue of these lines and the gift cover, read by the caller just now: not read again. */
  catalog?: BasketCatalog;
  /** Runs once the catalogue is read, before pricing (an order refuses lines there and takes stock). */
  onCatalog?: (catalog: BasketCatalog) => Promise<void>;
}): Promise<LoadedBasket> {
  const catalog =
    given ??
    (await getBasketCatalog({
      db,
      offerIds: [...cart, ...preorders].map((l) => l.offerId).concat(GIFT_COVER_OFFER_ID),
    }));
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
