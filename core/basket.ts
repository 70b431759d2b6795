// The basket operations that only the basket page, the login and the server use (core/basket-cookie.ts
// has the cookie codecs, the adds and the header's count, which ride in every page's shell).
import {
  clampQuantity,
  GIFT_COVER_OFFER_ID,
  isCoat,
  isOfferId,
  MAX_LINE_QUANTITY,
  addLine,
  pairs,
  parseCartCookie,
  type Cart,
  type PreorderLine,
  type Preorders,
} from './basket-cookie';

export {
  addLine,
  addPreorder,
  BASKET_NOTICE,
  countBasketItems,
  GIFT_COVER_OFFER_ID,
  isCoat,
  isOfferId,
  MAX_LINE_QUANTITY,
  MAX_LINES,
  MAX_OFFER_ID,
  NOTICE_DURATION_MS,
  parseCartCookie,
  parsePreordersCookie,
  serializeCart,
  serializePreorders,
  type Cart,
  type PreorderLine,
  type PreorderProductData,
  type Preorders,
} from './basket-cookie';

export interface ClearedBasket {
  cart: Map<number, number>;
  preorders: Map<number, PreorderLine>;
  promoCode: null;
}

/** 'id:qty,id:qty' (SPEC §7 ids and preorder_ids) as lines; junk pairs are dropped, quantities kept to 1..99. */
export function parseCartLines(value: string | undefined): { offerId: number; quantity: number }[] {
  return [...parseCartCookie(value)].map(([offerId, quantity]) => ({ offerId, quantity }));
}

/** The `ids` of get_cart/order.php (SPEC §7): 'id:qty' pairs without the gift cover line. */
export function cartForRequest(cart: Cart): string {
  return pairs(cart, false);
}

/** The `preorder_ids` of SPEC §7, same 'id:qty' shape. */
export function preordersForRequest(preorders: Preorders): string {
  const quantities = new Map<number, number>();
  for (const [id, line] of preorders) quantities.set(id, line.quantity);
  return pairs(quantities, false);
}

// ---------------------------------------------------------------------------------------------
// Cart operations (SPEC §4: replace the size or offer, remove, clear)

/**
 * Size change: the line of `fromOfferId` becomes `toOfferId`, keeping its place in the list.
 * When `toOfferId` already has a line the quantities merge there (capped) and the old line goes.
 */
export function replaceOffer(cart: Cart, fromOfferId: number, toOfferId: number): Map<number, number> {
  const moved = cart.get(fromOfferId);
  if (
    moved === undefined ||
    fromOfferId === toOfferId ||
    !isOfferId(toOfferId) ||
    fromOfferId === GIFT_COVER_OFFER_ID ||
    toOfferId === GIFT_COVER_OFFER_ID
  ) {
    return new Map(cart);
  }
  const next = new Map<number, number>();
  const target = cart.get(toOfferId);
  for (const [id, quantity] of cart) {
    if (id === fromOfferId) {
      if (target === undefined) next.set(toOfferId, Math.min(moved, MAX_LINE_QUANTITY));
    } else if (id === toOfferId) {
      next.set(id, Math.min(quantity + moved, MAX_LINE_QUANTITY));
    } else {
      next.set(id, quantity);
    }
  }
  return next;
}

/**
 * The quantity stepper: sets an existing line (capped at MAX_LINE_QUANTITY, fractions dropped);
 * 0 or less removes it. A missing line is not created — adding is addLine's job, and a stale
 * stepper must not bring back a line removed elsewhere.
 */
export function setQuantity(cart: Cart, offerId: number, qty: number): Map<number, number> {
  const next = new Map(cart);
  if (!next.has(offerId) || offerId === GIFT_COVER_OFFER_ID || Number.isNaN(qty)) return next;
  const quantity = Math.min(Math.trunc(qty), MAX_LINE_QUANTITY);
  if (quantity <= 0) next.delete(offerId);
  else next.set(offerId, quantity);
  return next;
}

export function removeLine(cart: Cart, offerId: number): Map<number, number> {
  const next = new Map(cart);
  next.delete(offerId);
  return next;
}

/** SPEC §4: clearing empties both maps and also drops the promo code. */
export function clearBasket(): ClearedBasket {
  return { cart: new Map(), preorders: new Map(), promoCode: null };
}

// ---------------------------------------------------------------------------------------------
// Pre-order operations

/** Same rules as setQuantity: existing lines only; 0 or less removes. */
export function setPreorderQuantity(preorders: Preorders, offerId: number, qty: number): Map<number, PreorderLine> {
  const next = new Map(preorders);
  const existing = next.get(offerId);
  if (!existing || Number.isNaN(qty)) return next;
  const quantity = Math.min(Math.trunc(qty), MAX_LINE_QUANTITY);
  if (quantity <= 0) next.delete(offerId);
  else next.set(offerId, { ...existing, quantity });
  return next;
}

export function removePreorder(preorders: Preorders, offerId: number): Map<number, PreorderLine> {
  const next = new Map(preorders);
  next.delete(offerId);
  return next;
}

// ---------------------------------------------------------------------------------------------
// Gift garment cover (SPEC §4): one free cover per coat, derived, never chosen

export interface CoatCountLine {
  offerId: number;
  productName: string;
  quantity: number;
}

export interface OfferName {
  offerId: number;
  productName: string;
}

/**
 * The one rule for how many covers a basket gets, shared by the storefront and the server:
 * the total quantity of coat lines, normal and pre-ordered alike (a pre-ordered coat is still a
 * coat and ships with its cover). The cover's own line never counts, malformed quantities count
 * as nothing, and the result is capped at MAX_LINE_QUANTITY like any line — so a shopper never
 * gets more covers than coats.
 */
export function giftCoverQuantity(lines: readonly CoatCountLine[]): number {
  let total = 0;
  for (const line of lines) {
    if (line.offerId === GIFT_COVER_OFFER_ID || !isCoat(line.productName)) continue;
    total += clampQuantity(line.quantity);
  }
  return Math.min(total, MAX_LINE_QUANTITY);
}

/**
 * The cart with the gift cover line set to giftCoverQuantity of its lines plus the pre-orders
 * (removed at 0; an existing gift line keeps its place, a new one goes last). `names` maps
 * offers to product names — pass the loaded server basket's names; an offer without a name
 * counts as no coat, and a pre-order falls back to its cookie NAME. The storefront uses that
 * display data only to show the line; the server recomputes covers from catalogue names.
 */
export function applyGiftCover(cart: Cart, names: readonly OfferName[], preorders?: Preorders): Map<number, number> {
  const nameOf = new Map<number, string>();
  for (const n of names) nameOf.set(n.offerId, n.productName);
  const lines: CoatCountLine[] = [];
  for (const [offerId, quantity] of cart) lines.push({ offerId, quantity, productName: nameOf.get(offerId) ?? '' });
  for (const [offerId, line] of preorders ?? []) {
    lines.push({ offerId, quantity: line.quantity, productName: nameOf.get(offerId) ?? line.productData.NAME });
  }
  const covers = giftCoverQuantity(lines);

  const next = new Map<number, number>();
  for (const [offerId, quantity] of cart) {
    if (offerId !== GIFT_COVER_OFFER_ID) next.set(offerId, quantity);
    else if (covers > 0) next.set(offerId, covers);
  }
  if (covers > 0 && !next.has(GIFT_COVER_OFFER_ID)) next.set(GIFT_COVER_OFFER_ID, covers);
  return next;
}

/**
 * A customer's two baskets as one (the guest's at login into the one kept on the server):
 * quantities of the same offer added (capped), the server's lines first, then the guest's new
 * ones, gift covers left out (they are recounted from the coats). 'id:qty' lists in and out.
 */
export function mergeCartLists(kept: string | null | undefined, guest: string | null | undefined): string {
  let merged: Map<number, number> = new Map();
  for (const list of [kept, guest]) for (const [id, qty] of parseCartCookie(list)) merged = addLine(merged, id, qty);
  return cartForRequest(merged);
}
