import { GIFT_COVER_OFFER_ID, giftCoverQuantity, MAX_LINE_QUANTITY } from './basket';
import { isOnSale } from './pricing';
import { evaluatePromo, type PromoCode } from './promo';

// The server's view of a basket: what the shopper asked for, checked against the catalogue
// (unknown offers dropped, quantities cut to stock, pre-orders only where allowed, gift covers
// recounted), then priced in kopecks with the promo spread over the lines. get_cart.php shows
// it; the one order function places exactly it. Pure: the caller reads the offers.

/** What the catalogue says of one offer today. */
export interface OfferFacts {
  offerId: number;
  productName: string;
  sizeLabel: string;
  priceKopecks: number;
  oldPriceKopecks: number | null;
  /** In stock now. */
  available: number;
  /** Can be ordered ahead while out of stock. */
  preorder: boolean;
  /** Sold at all (product active); the gift cover is sold only as a gift. */
  active: boolean;
  /** A gift certificate (no promo, no bonuses, not payable with certificates); absent or null otherwise. */
  certificate?: 'electronic' | 'plastic' | null;
}

export interface RequestedLine {
  offerId: number;
  quantity: number;
}

export interface BasketLine {
  offerId: number;
  quantity: number;
  isPreorder: boolean;
  isGift: boolean;
  priceKopecks: number;
  oldPriceKopecks: number | null;
  sumKopecks: number;
  discountKopecks: number;
  certificate: 'electronic' | 'plastic' | null;
}

export interface ReconciledBasket {
  cart: RequestedLine[];
  preorders: RequestedLine[];
  giftCovers: number;
  /** Repairs the shopper should hear about, in Russian. */
  notices: string[];
  /** Offers that could not be kept in the cart because they are sold out (orders refuse these). */
  soldOut: OfferFacts[];
}

export const NOTICE_GONE = 'Некоторых товаров больше нет в продаже: мы убрали их из корзины';

export function noticeCut(facts: OfferFacts): string {
  return `«${facts.productName}», размер ${facts.sizeLabel}: в наличии только ${facts.available} шт.`;
}

export function noticeSoldOut(facts: OfferFacts): string {
  return `«${facts.productName}», размер ${facts.sizeLabel}: закончился`;
}

export function noticeNoPreorder(facts: OfferFacts): string {
  return `«${facts.productName}», размер ${facts.sizeLabel}: предзаказ недоступен`;
}

/**
 * The basket as it can be sold. Cart lines: unknown or inactive offers dropped, quantities cut
 * to stock (a sold-out line leaves the cart). Pre-order lines: only offers open for pre-order.
 * The gift cover is never taken from the request: it is recounted from the coats.
 */
export function reconcileBasket(input: {
  cart: readonly RequestedLine[];
  preorders: readonly RequestedLine[];
  offers: ReadonlyMap<number, OfferFacts>;
}): ReconciledBasket {
  const notices = new Set<string>();
  const soldOut: OfferFacts[] = [];
  const cart: RequestedLine[] = [];
  const preorders: RequestedLine[] = [];
  for (const line of input.cart) {
    if (line.offerId === GIFT_COVER_OFFER_ID) continue;
    const facts = input.offers.get(line.offerId);
    if (!facts || !facts.active) {
      notices.add(NOTICE_GONE);
      continue;
    }
    const quantity = Math.min(line.quantity, MAX_LINE_QUANTITY, Math.max(0, facts.available));
    if (quantity <= 0) {
      notices.add(noticeSoldOut(facts));
      soldOut.push(facts);
      continue;
    }
    if (quantity < line.quantity) notices.add(noticeCut(facts));
    cart.push({ offerId: line.offerId, quantity });
  }
  for (const line of input.preorders) {
    if (line.offerId === GIFT_COVER_OFFER_ID) continue;
    const facts = input.offers.get(line.offerId);
    if (!facts || !facts.active) {
      notices.add(NOTICE_GONE);
      continue;
    }
    if (!facts.preorder) {
      notices.add(noticeNoPreorder(facts));
      continue;
    }
    preorders.push({ offerId: line.offerId, quantity: Math.min(line.quantity, MAX_LINE_QUANTITY) });
  }
  const nameOf = (offerId: number) => input.offers.get(offerId)?.productName ?? '';
  const giftCovers = giftCoverQuantity(
    [...cart, ...preorders].map((l) => ({ offerId: l.offerId, quantity: l.quantity, productName: nameOf(l.offerId) })),
  );
  return { cart, preorders, giftCovers, notices: [...notices], soldOut };
}

export interface PricedBasket {
  lines: BasketLine[];
  totalKopecks: number;
  discountKopecks: number;
  payKopecks: number;
  /** Items as the header counts them: gift covers never count. */
  quantity: number;
  promo: { status: 'none' } | { status: 'valid'; code: string } | { status: 'invalid'; code: string; error: string };
}

/**
 * Prices a reconciled basket in kopecks: lines (cart, then pre-orders, then the gift cover at
 * its catalogue price, 0 ₽), the promo (core/promo.ts) spread over them so the line discounts
 * add up exactly to the order's discount.
 */
export function priceBasket(input: {
  basket: Pick<ReconciledBasket, 'cart' | 'preorders' | 'giftCovers'>;
  offers: ReadonlyMap<number, OfferFacts>;
  giftCover: Pick<OfferFacts, 'priceKopecks'> | null;
  promoCode: string | null;
  promo: PromoCode | null;
  now: Date;
}): PricedBasket {
  const lines: BasketLine[] = [];
  const push = (
    offerId: number,
    quantity: number,
    isPreorder: boolean,
    isGift: boolean,
    price: number,
    oldPrice: number | null,
    certificate: BasketLine['certificate'] = null,
  ) =>
    lines.push({
      offerId,
      quantity,
      isPreorder,
      isGift,
      priceKopecks: price,
      oldPriceKopecks: oldPrice,
      sumKopecks: price * quantity,
      discountKopecks: 0,
      certificate,
    });
  for (const [list, isPreorder] of [
    [input.basket.cart, false],
    [input.basket.preorders, true],
  ] as const) {
    for (const line of list) {
      const facts = input.offers.get(line.offerId);
      if (facts)
        push(
          line.offerId,
          line.quantity,
          isPreorder,
          false,
          facts.priceKopecks,
          facts.oldPriceKopecks,
          facts.certificate ?? null,
        );
    }
  }
  if (input.basket.giftCovers > 0 && input.giftCover)
    push(GIFT_COVER_OFFER_ID, input.basket.giftCovers, false, true, input.giftCover.priceKopecks, null);

  const totalKopecks = lines.reduce((sum, l) => sum + l.sumKopecks, 0);
  const quantity = lines.reduce((sum, l) => sum + (l.isGift ? 0 : l.quantity), 0);
  let promo: PricedBasket['promo'] = { status: 'none' };
  let discountKopecks = 0;
  if (input.promoCode) {
    const result = evaluatePromo({
      promo: input.promo,
      lines: lines.map((l, i) => ({
        key: String(i),
        priceKopecks: l.priceKopecks,
        quantity: l.quantity,
        onSale: isOnSale(l.priceKopecks, l.oldPriceKopecks),
        certificate: l.certificate !== null,
      })),
      now: input.now,
    });
    if (result.status === 'valid') {
      promo = { status: 'valid', code: input.promoCode };
      discountKopecks = result.discountKopecks;
      lines.forEach((l, i) => (l.discountKopecks = result.lineDiscounts.get(String(i)) ?? 0));
    } else {
      promo = { status: 'invalid', code: input.promoCode, error: result.error };
    }
  }
  return { lines, totalKopecks, discountKopecks, payKopecks: totalKopecks - discountKopecks, quantity, promo };
}
