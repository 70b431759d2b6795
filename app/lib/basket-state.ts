import { useSyncExternalStore } from 'react';
import { COOKIE, readCookie } from '~/shared/cookies';
import {
  addLine,
  addPreorder,
  GIFT_COVER_OFFER_ID,
  isCoat,
  MAX_LINE_QUANTITY,
  parseCartCookie,
  parsePreordersCookie,
  serializeCart,
  serializePreorders,
  type Cart,
  type PreorderLine,
  type PreorderProductData,
  type Preorders,
} from '~/core/basket-cookie';
import { normalizePromoCode } from '~/core/promo';
import type { BasketItem, BasketOffer } from '~/shared/contract';
import { announceCookieChange, documentCookie, forgetCookieString, subscribeToCookies } from './shopper-state';

// The guest basket of SPEC §4, kept wholly in the `cart`, `preorders` and `promo_code` cookies
// (path /, 30 days, SameSite=Lax) through core/basket's codecs. The server reads the same cookies
// (the /basket/ loader); the browser writes them here, then tells the shell (header and tab-bar
// counts) at once. Every write goes through writeBasket.

export interface BasketCookies {
  cart: Cart;
  preorders: Preorders;
  promoCode: string | null;
}

export const BASKET_COOKIE_MAX_AGE = 30 * 24 * 60 * 60;

const EMPTY: BasketCookies = { cart: new Map(), preorders: new Map(), promoCode: null };

/** The basket in a Cookie header (server) or document.cookie (browser). Never throws. */
export function readBasketCookies(cookieHeader: string | null | undefined): BasketCookies {
  return {
    cart: parseCartCookie(readCookie(cookieHeader, COOKIE.cart)),
    preorders: parsePreordersCookie(readCookie(cookieHeader, COOKIE.preorders)),
    promoCode: normalizePromoCode(readCookie(cookieHeader, COOKIE.promoCode)),
  };
}

export function isBasketEmpty(basket: Pick<BasketCookies, 'cart' | 'preorders'>): boolean {
  for (const id of basket.cart.keys()) if (id !== GIFT_COVER_OFFER_ID) return false;
  return basket.preorders.size === 0;
}

let cached: { raw: string; value: BasketCookies } | null = null;

function snapshot(): BasketCookies {
  const raw = documentCookie();
  if (cached?.raw !== raw) cached = { raw, value: readBasketCookies(raw) };
  return cached.value;
}

/**
 * The basket as the browser's cookies hold it, kept current; null during server rendering and
 * hydration (the server renders one page for every guest, so it never knows the basket there).
 */
export function useBasketCookies(): BasketCookies | null {
  return useSyncExternalStore(subscribeToCookies, snapshot, () => null);
}

/** The basket in the browser's cookies now (event handlers only). */
export function currentBasket(): BasketCookies {
  return typeof document === 'undefined' ? EMPTY : snapshot();
}

/** A basket cookie as a Set-Cookie / document.cookie value; an empty value removes it rather than keeping ''. */
export function basketCookie(name: string, value: string): string {
  const attributes =
    value === '' ? 'Path=/; Max-Age=0; SameSite=Lax' : `Path=/; Max-Age=${BASKET_COOKIE_MAX_AGE}; SameSite=Lax`;
  return `${name}=${encodeURIComponent(value)}; ${attributes}`;
}

function setCookie(name: string, value: string): void {
  document.cookie = basketCookie(name, value);
  forgetCookieString();
}

/** The offer a basket line holds (IN_BASKET), among every size of its product. */
export function lineOffer(item: BasketItem): BasketOffer | undefined {
  return item.OFFERS.find((o) => o.IN_BASKET === 'Y') ?? item.OFFERS.find((o) => o.ID === item.ID);
}

/** What the pre-orders cookie keeps of a line (SPEC §3 productData), from the server's basket. */
export function preorderDataOf(item: BasketItem): PreorderProductData {
  const offer = lineOffer(item);
  return {
    NAME: item.PRODUCT.NAME,
    IMAGE_SRC: offer?.IMAGE_SRC ?? item.PRODUCT.IMAGE_SRC ?? '',
    DETAIL_PAGE_URL: item.PRODUCT.DETAIL_PAGE_URL,
    PRICE: offer?.PRICE ?? null,
    OLD_PRICE: offer?.OLD_PRICE ?? null,
    SIZE: offer?.SIZE?.LABEL ?? '',
    SIZE_SHOES: '',
  };
}

/** Saves what is given (the rest stays) and tells the shell; the one writer of the basket cookies. */
export function writeBasket(next: Partial<BasketCookies>): void {
  if (next.cart) setCookie(COOKIE.cart, serializeCart(next.cart));
  if (next.preorders) setCookie(COOKIE.preorders, next.preorders.size === 0 ? '' : serializePreorders(next.preorders));
  if (next.promoCode !== undefined) setCookie(COOKIE.promoCode, normalizePromoCode(next.promoCode) ?? '');
  announceCookieChange();
}

/**
 * One more gift garment cover per coat added (SPEC §4). Where the names of every line are known
 * (the basket page, from the server's answer), applyGiftCover recounts the line from scratch.
 */
function withCoversFor(cart: Cart, productName: string, qty: number): Map<number, number> {
  const next = new Map(cart);
  if (!isCoat(productName)) return next;
  next.set(GIFT_COVER_OFFER_ID, Math.min((next.get(GIFT_COVER_OFFER_ID) ?? 0) + qty, MAX_LINE_QUANTITY));
  return next;
}

/** Adds one of an in-stock offer to the cart. */
export function addToCart(offerId: number, productName: string, qty = 1): void {
  const basket = currentBasket();
  const cart = addLine(basket.cart, offerId, qty);
  if (cart.get(offerId) === basket.cart.get(offerId)) return;
  writeBasket({ cart: withCoversFor(cart, productName, qty) });
}

/** Adds one of an out-of-stock offer to the pre-orders (SPEC §3: kept apart from the cart). */
export function addToPreorders(offerId: number, productData: PreorderProductData, qty = 1): void {
  const basket = currentBasket();
  const preorders: Map<number, PreorderLine> = addPreorder(basket.preorders, offerId, productData, qty);
  if (preorders.get(offerId)?.quantity === basket.preorders.get(offerId)?.quantity) return;
  writeBasket({ preorders, cart: withCoversFor(basket.cart, productData.NAME, qty) });
}
