import { formatRub, parseRoublesToKopecks } from './money';

// The shop's one pricing vocabulary: what "on sale" means, the discount shown on a badge, and
// the contract's rouble numbers written as the shop writes money. Listings, the product page,
// search, the catalogue index and the sale section all ask here.

/** On sale: an old price that is higher than the price paid. */
export function isOnSale(price: number, oldPrice: number | null | undefined): boolean {
  return oldPrice !== null && oldPrice !== undefined && oldPrice > price;
}

/** Whole per cent off (rounded half up), 0 when not on sale. Works on kopecks or roubles alike. */
export function discountPercent(price: number, oldPrice: number | null | undefined): number {
  if (!isOnSale(price, oldPrice) || !oldPrice) return 0;
  return Math.round(((oldPrice - price) * 100) / oldPrice);
}

/** The contract's roubles (at most two decimals) as exact kopecks; 0 for anything else. */
export function roublesToKopecks(roubles: number): number {
  return parseRoublesToKopecks(roubles) ?? 0;
}

/** Roubles from the API as the shop writes money: 32000 → '32 000 ₽', 12345.5 → '12 345,50 ₽'. */
export function formatRoubles(roubles: number): string {
  return formatRub(roublesToKopecks(roubles));
}
