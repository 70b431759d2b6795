// The basket of SPEC §3/§4: two maps offer id → quantity, the normal cart and the pre-orders,
// kept in the `cart` and `preorders` cookies (§9). Cookies are shopper-controlled text, so the
// readers never throw and bound everything (ids, quantities, number of lines); every operation
// returns new maps so a React state update or a server handler can't mutate a shared one.
// Prices never come from here: the server prices offers by id from the catalogue.
// This module holds what every page's shell needs (the header's count, the add buttons); the
// other operations are in core/basket.ts, which re-exports these.

export const MAX_LINE_QUANTITY = 99;
/** Lines kept per map, the gift cover line not counted (it is derived, not chosen). */
export const MAX_LINES = 100;
/** Largest offer id accepted: the int4 primary key of the offers table. */
export const MAX_OFFER_ID = 2 ** 31 - 1;

/**
 * Offer id of the gift garment cover (SPEC §4, value not given by SPEC §9). It is a real
 * catalogue offer so orders and receipts treat it like any line: the seed creates a hidden
 * product 'Чехол для одежды' at 0 ₽ whose single offer has exactly this id, far above any id
 * the offers sequence will reach.
 */
export const GIFT_COVER_OFFER_ID = 2_000_000_000;

/** SPEC §4 Notification texts, shown for NOTICE_DURATION_MS after an add. */
export const BASKET_NOTICE = {
  added: 'Модель добавлена в корзину',
  preorderAdded: 'Предзаказ добавлен в корзину',
  preorderTitle: 'Предзаказ товара',
} as const;
export const NOTICE_DURATION_MS = 1000;

export type Cart = ReadonlyMap<number, number>;

/** Display-only copy of the product kept with a pre-order (never trusted for prices). */
export interface PreorderProductData {
  NAME: string;
  IMAGE_SRC: string;
  DETAIL_PAGE_URL: string;
  PRICE: number | null;
  OLD_PRICE: number | null;
  SIZE: string;
  SIZE_SHOES: string;
}

export interface PreorderLine {
  quantity: number;
  isPreorder: true;
  productData: PreorderProductData;
}

export type Preorders = ReadonlyMap<number, PreorderLine>;

/** A positive whole number that fits the offers table's key. */
export function isOfferId(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 && value <= MAX_OFFER_ID;
}

// ---------------------------------------------------------------------------------------------
// Cookie codecs

/** '12:1,40:2' → {12 → 1, 40 → 2}. Junk pairs, zero quantities and bad ids are dropped. */
export function parseCartCookie(value: string | null | undefined): Map<number, number> {
  const cart = new Map<number, number>();
  for (const pair of decodeLoosely(value).split(',')) {
    const m = /^\s*(\d+)\s*:\s*(\d+)\s*$/.exec(pair);
    if (!m) continue;
    // A zero quantity means "no line": raising it to 1 would put back something removed.
    mergeLine(cart, Number(m[1]), Number(m[2]));
  }
  return cart;
}

/** Inverse of parseCartCookie; the gift cover line is kept (SPEC §4 keeps it in the cart). */
export function serializeCart(cart: Cart): string {
  return pairs(cart, true);
}

/**
 * The SPEC §3 JSON map id → { quantity, isPreorder: true, productData }. Anything that is not
 * such an object (bad JSON, an array, a line without a usable quantity) reads as nothing.
 */
export function parsePreordersCookie(value: string | null | undefined): Map<number, PreorderLine> {
  const preorders = new Map<number, PreorderLine>();
  const text = decodeLoosely(value);
  if (text.trim() === '') return preorders;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return preorders;
  }
  if (!isRecord(parsed)) return preorders;
  for (const key of Object.keys(parsed)) {
    if (!/^\d+$/.test(key)) continue;
    const id = Number(key);
    if (!isOfferId(id) || id === GIFT_COVER_OFFER_ID) continue;
    const raw = parsed[key];
    if (!isRecord(raw)) continue;
    const quantity = readQuantity(raw.quantity);
    if (quantity === 0) continue;
    const existing = preorders.get(id);
    if (existing) {
      // '12' and '012' are the same offer: sum like duplicate cart pairs.
      preorders.set(id, { ...existing, quantity: Math.min(existing.quantity + quantity, MAX_LINE_QUANTITY) });
      continue;
    }
    if (preorders.size >= MAX_LINES) continue;
    preorders.set(id, {
      quantity: Math.min(quantity, MAX_LINE_QUANTITY),
      isPreorder: true,
      productData: sanitizeProductData(raw.productData),
    });
  }
  return preorders;
}

export function serializePreorders(preorders: Preorders): string {
  const out: Record<string, PreorderLine> = {};
  for (const [id, line] of preorders) {
    const quantity = clampQuantity(line.quantity);
    if (!isOfferId(id) || id === GIFT_COVER_OFFER_ID || quantity === 0) continue;
    out[String(id)] = { quantity, isPreorder: true, productData: sanitizeProductData(line.productData) };
  }
  return JSON.stringify(out);
}

// ---------------------------------------------------------------------------------------------
// Adding (SPEC §4; the other operations are in core/basket.ts)

/**
 * Adds qty to the offer's line (a new line goes last), capped at MAX_LINE_QUANTITY. Unchanged
 * copy when the id or qty is not valid, when the basket already has MAX_LINES lines and this
 * would be a new one, or for the gift cover (only applyGiftCover sets that line).
 */
export function addLine(cart: Cart, offerId: number, qty = 1): Map<number, number> {
  const next = new Map(cart);
  if (offerId === GIFT_COVER_OFFER_ID || !Number.isInteger(qty) || qty < 1) return next;
  mergeLine(next, offerId, qty);
  return next;
}

// ---------------------------------------------------------------------------------------------
// Pre-orders: the same rules over the separate pre-order map (SPEC §4)

/** Adds qty to the pre-order (capped); the product data is refreshed to the latest given. */
export function addPreorder(
  preorders: Preorders,
  offerId: number,
  productData: PreorderProductData,
  qty = 1,
): Map<number, PreorderLine> {
  const next = new Map(preorders);
  if (!isOfferId(offerId) || offerId === GIFT_COVER_OFFER_ID || !Number.isInteger(qty) || qty < 1) return next;
  const existing = next.get(offerId);
  if (!existing && countLines(next) >= MAX_LINES) return next;
  next.set(offerId, {
    quantity: Math.min((existing?.quantity ?? 0) + qty, MAX_LINE_QUANTITY),
    isPreorder: true,
    productData: sanitizeProductData(productData),
  });
  return next;
}

// ---------------------------------------------------------------------------------------------
// Coats (they get a gift cover, core/basket.ts) and the header's count

/** A coat is a product whose name contains 'пальто' in any letter case ('Полупальто' too). */
export function isCoat(productName: string): boolean {
  return productName.toLocaleLowerCase('ru-RU').includes('пальто');
}

/** The header badge: items in the cart and pre-orders, the gift cover excluded (SPEC §4). */
export function countBasketItems(cart: Cart, preorders?: ReadonlyMap<number, { quantity: number }>): number {
  let total = 0;
  for (const [id, quantity] of cart) if (id !== GIFT_COVER_OFFER_ID) total += clampQuantity(quantity);
  for (const [id, line] of preorders ?? []) if (id !== GIFT_COVER_OFFER_ID) total += clampQuantity(line.quantity);
  return total;
}

// ---------------------------------------------------------------------------------------------
// Helpers

/** Adds a validated line to a map being built, honouring MAX_LINES and the per-line cap. */
function mergeLine(cart: Map<number, number>, id: number, quantity: number): void {
  if (!isOfferId(id) || !(quantity >= 1)) return;
  const existing = cart.get(id);
  if (existing === undefined && id !== GIFT_COVER_OFFER_ID && countLines(cart) >= MAX_LINES) return;
  cart.set(id, Math.min((existing ?? 0) + quantity, MAX_LINE_QUANTITY));
}

function countLines(map: ReadonlyMap<number, unknown>): number {
  return map.has(GIFT_COVER_OFFER_ID) ? map.size - 1 : map.size;
}

/** 'id:qty' pairs of valid lines (core/basket.ts too). */
export function pairs(cart: Cart, withGift: boolean): string {
  const out: string[] = [];
  for (const [id, qty] of cart) {
    const quantity = clampQuantity(qty);
    if (!isOfferId(id) || quantity === 0 || (!withGift && id === GIFT_COVER_OFFER_ID)) continue;
    out.push(`${id}:${quantity}`);
  }
  return out.join(',');
}

/** A whole quantity within 1..MAX_LINE_QUANTITY, or 0 for anything unusable. */
export function clampQuantity(value: number): number {
  if (!Number.isFinite(value)) return value === Number.POSITIVE_INFINITY ? MAX_LINE_QUANTITY : 0;
  const whole = Math.trunc(value);
  return whole < 1 ? 0 : Math.min(whole, MAX_LINE_QUANTITY);
}

/** A JSON quantity: a number or a digit string (older writers stored strings). */
function readQuantity(value: unknown): number {
  if (typeof value === 'number') return clampQuantity(value);
  if (typeof value === 'string' && /^\s*\d+\s*$/.test(value)) return clampQuantity(Number(value));
  return 0;
}

/** readCookie already decodes; a still-encoded value (e.g. read raw from document.cookie) too. */
function decodeLoosely(value: string | null | undefined): string {
  if (!value) return '';
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const MAX_TEXT = 300;

/**
 * Cookie product data is rendered into the basket, so it is cut to plain bounded fields:
 * links must stay on this site (a `javascript:` URL planted in the cookie must not become an
 * href) and images must be site paths or http(s).
 */
function sanitizeProductData(value: unknown): PreorderProductData {
  const raw = isRecord(value) ? value : {};
  return {
    NAME: text(raw.NAME),
    IMAGE_SRC: safeImage(text(raw.IMAGE_SRC)),
    DETAIL_PAGE_URL: safeSitePath(text(raw.DETAIL_PAGE_URL)),
    PRICE: amount(raw.PRICE),
    OLD_PRICE: amount(raw.OLD_PRICE),
    SIZE: text(raw.SIZE),
    SIZE_SHOES: text(raw.SIZE_SHOES),
  };
}

function text(value: unknown): string {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return '';
  return value.slice(0, MAX_TEXT);
}

function amount(value: unknown): number | null {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 ? n : null;
}

function safeSitePath(url: string): string {
  return /^\/(?![/\\])/.test(url) ? url : '';
}

function safeImage(url: string): string {
  return safeSitePath(url) !== '' || /^https?:\/\//i.test(url) ? url : '';
}
