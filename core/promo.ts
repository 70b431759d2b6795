// Promo codes (SPEC §3/§4: the basket's promoCode, valid or invalid with the server's error).
// Everything is integer kopecks; the discount is split over the lines so the receipt's line
// amounts add up to the charged total exactly. Pure: the server loads the code and the
// customer's usage count, this decides.

import { allocateProportionally } from './allocate';
import { formatRub } from './money';

export interface PromoCode {
  code: string;
  kind: 'percent' | 'fixed';
  /** 1..100, for kind 'percent'. */
  percent: number | null;
  /** For kind 'fixed'. */
  amountKopecks: number | null;
  minBasketKopecks: number;
  /** First valid instant, inclusive. */
  validFrom: Date | null;
  /** Last valid instant, inclusive. */
  validTo: Date | null;
  totalLimit: number | null;
  perCustomerLimit: number | null;
  usedTotal: number;
  usedByCustomer: number;
  /** Sale items (with an old price) get no promo discount: "скидки не суммируются". */
  excludeSale: boolean;
  active: boolean;
}

export interface PromoLine {
  /** Caller's line key (e.g. the offer id as text); echoed in lineDiscounts. */
  key: string;
  priceKopecks: number;
  quantity: number;
  onSale: boolean;
  /** Gift certificates take no promo (content/pages/podarochnye-sertifikaty.md). */
  certificate?: boolean;
}

export type PromoEvaluation =
  | { status: 'valid'; discountKopecks: number; lineDiscounts: Map<string, number> }
  | { status: 'invalid'; error: string };

export const PROMO_MAX_LENGTH = 32;

export const PROMO_ERROR_NOT_FOUND = 'Промокод не найден';
export const PROMO_ERROR_NOT_YET_VALID = 'Промокод ещё не действует';
export const PROMO_ERROR_EXPIRED = 'Срок действия промокода истёк';
export const PROMO_ERROR_LIMIT_REACHED = 'Промокод больше нельзя использовать';
export const PROMO_ERROR_SALE_EXCLUDED = 'Промокод не действует на товары со скидкой';
export const PROMO_ERROR_CERTIFICATES = 'Промокод не действует на подарочные сертификаты';

/** 'Промокод действует для заказа от 10 000 ₽' (formatRub spacing: no-break spaces). */
export function promoMinBasketError(minBasketKopecks: number): string {
  return `Промокод действует для заказа от ${formatRub(minBasketKopecks)}`;
}

/**
 * What a shopper typed, as the code is stored: trimmed, upper-case, only Latin or Cyrillic
 * letters, digits, '_' and '-', at most PROMO_MAX_LENGTH characters; null for anything else
 * (so junk never reaches a database lookup or the promo_code cookie).
 */
export function normalizePromoCode(input: string | null | undefined): string | null {
  if (typeof input !== 'string') return null;
  const code = input.trim().toUpperCase();
  if (code.length === 0 || code.length > PROMO_MAX_LENGTH) return null;
  return /^[A-Z0-9А-ЯЁ_-]+$/.test(code) ? code : null;
}

/**
 * Checks in the order a shopper can act on: existence, dates, usage limits, then the basket
 * (all priced lines on sale, then the minimum, which is compared with the eligible lines only).
 * Percent: floor(eligible total × percent / 100); fixed: min(amount, eligible total). The
 * discount is spread over eligible lines in proportion to their totals (largest remainder, ties
 * to the earlier line): the parts sum to the discount exactly and none exceeds its line.
 * lineDiscounts has every key given, excluded lines at 0; lines sharing a key are summed.
 * A code whose own data is inconsistent (percent outside 1..100, no fixed amount) is treated as
 * not found rather than guessed at. Lines with bad money values throw: they come from the
 * server's own catalogue, so that is a bug, not shopper input.
 */
export function evaluatePromo(input: {
  promo: PromoCode | null;
  lines: readonly PromoLine[];
  now: Date;
}): PromoEvaluation {
  const { promo, lines, now } = input;
  const totals = lines.map(lineTotal);

  if (!promo || !promo.active || !hasUsableValue(promo)) return invalid(PROMO_ERROR_NOT_FOUND);
  const time = now.getTime();
  if (promo.validFrom && time < promo.validFrom.getTime()) return invalid(PROMO_ERROR_NOT_YET_VALID);
  if (promo.validTo && time > promo.validTo.getTime()) return invalid(PROMO_ERROR_EXPIRED);
  if (promo.totalLimit !== null && promo.usedTotal >= promo.totalLimit) return invalid(PROMO_ERROR_LIMIT_REACHED);
  if (promo.perCustomerLimit !== null && promo.usedByCustomer >= promo.perCustomerLimit) {
    return invalid(PROMO_ERROR_LIMIT_REACHED);
  }

  const eligible = lines.map((line) => !line.certificate && !(promo.excludeSale && line.onSale));
  // Free lines (the 0 ₽ gift cover) can't take a discount, so they don't keep the code alive.
  const priced = totals.some((t) => t > 0);
  const pricedEligible = totals.some((t, i) => t > 0 && eligible[i]);
  if (priced && !pricedEligible) {
    const onlyCertificates = totals.every((t, i) => t === 0 || lines[i]?.certificate);
    return invalid(onlyCertificates ? PROMO_ERROR_CERTIFICATES : PROMO_ERROR_SALE_EXCLUDED);
  }

  const weights = totals.map((t, i) => (eligible[i] ? t : 0));
  const eligibleTotal = weights.reduce((sum, t) => sum + t, 0);
  if (eligibleTotal < promo.minBasketKopecks) return invalid(promoMinBasketError(promo.minBasketKopecks));

  const discountKopecks =
    promo.kind === 'percent'
      ? Number((BigInt(eligibleTotal) * BigInt(promo.percent ?? 0)) / 100n)
      : Math.min(promo.amountKopecks ?? 0, eligibleTotal);

  const parts = eligibleTotal === 0 ? weights.map(() => 0) : allocateProportionally(discountKopecks, weights);
  const lineDiscounts = new Map<string, number>();
  lines.forEach((line, i) => lineDiscounts.set(line.key, (lineDiscounts.get(line.key) ?? 0) + (parts[i] ?? 0)));
  return { status: 'valid', discountKopecks, lineDiscounts };
}

function hasUsableValue(promo: PromoCode): boolean {
  if (promo.kind === 'percent') {
    return promo.percent !== null && Number.isInteger(promo.percent) && promo.percent >= 1 && promo.percent <= 100;
  }
  return promo.amountKopecks !== null && Number.isSafeInteger(promo.amountKopecks) && promo.amountKopecks > 0;
}

function lineTotal(line: PromoLine): number {
  const { priceKopecks, quantity } = line;
  if (!Number.isSafeInteger(priceKopecks) || priceKopecks < 0 || !Number.isSafeInteger(quantity) || quantity < 0) {
    throw new TypeError(`Promo line ${line.key} needs whole non-negative kopecks and quantity`);
  }
  const total = priceKopecks * quantity;
  if (!Number.isSafeInteger(total)) throw new RangeError(`Promo line ${line.key} total is too large`);
  return total;
}

function invalid(error: string): PromoEvaluation {
  return { status: 'invalid', error };
}
