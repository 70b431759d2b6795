// SPEC §9 Instalment: 4 payments of a quarter of the price, 14 days apart, the first today;
// only for amounts from 500 to 40 000 RUB (both inclusive). Money is whole kopecks (core/money).
//
// Dates are calendar dates in the runtime's local time zone: the schedule starts on the local
// calendar day of `today` (its time of day is dropped) and each step adds whole calendar days
// with the local Date constructor, so a daylight-saving change never shifts a date. Every
// returned Date is local midnight, and formatRussianDate reads local fields too. In the browser
// that is the shopper's own "today", which is what the payment providers show them.

import { formatRub } from './money';

export const INSTALMENT_MIN_KOPECKS = 50_000; // 500 RUB
export const INSTALMENT_MAX_KOPECKS = 4_000_000; // 40 000 RUB
export const INSTALMENT_PAYMENTS = 4;
export const INSTALMENT_STEP_DAYS = 14;

export interface InstalmentPayment {
  date: Date;
  amountKopecks: number;
}

/** Whether an amount (whole kopecks) may be paid in instalments. */
export function isInstalmentAvailable(priceKopecks: number): boolean {
  return (
    Number.isSafeInteger(priceKopecks) &&
    priceKopecks >= INSTALMENT_MIN_KOPECKS &&
    priceKopecks <= INSTALMENT_MAX_KOPECKS
  );
}

/**
 * The four payments for a price in kopecks, or null when instalments are not available for it
 * (outside 500–40 000 RUB, not whole kopecks, or `today` is not a valid date).
 * The amounts are whole kopecks and sum exactly to the price; when the price does not divide
 * by four, the first payment carries the remainder (1–3 kopecks), as the providers do.
 */
export function instalmentSchedule(priceKopecks: number, today: Date): InstalmentPayment[] | null {
  if (!isInstalmentAvailable(priceKopecks)) return null;
  if (!(today instanceof Date) || Number.isNaN(today.getTime())) return null;
  const share = Math.floor(priceKopecks / INSTALMENT_PAYMENTS);
  const first = priceKopecks - share * (INSTALMENT_PAYMENTS - 1);
  return Array.from({ length: INSTALMENT_PAYMENTS }, (_, i) => ({
    date: addCalendarDays(today, i * INSTALMENT_STEP_DAYS),
    amountKopecks: i === 0 ? first : share,
  }));
}

/** Local midnight `days` calendar days after the local calendar day of `date`. */
function addCalendarDays(date: Date, days: number): Date {
  const result = new Date(date.getTime());
  result.setHours(0, 0, 0, 0);
  result.setDate(result.getDate() + days);
  return result;
}

// ---------------------------------------------------------------------------------------
// Pay in parts as payment methods (issue #12): Dolyami and Yandex Split are offered for pay
// amounts inside the range; outside it they stay listed with the reason, and order.php refuses them.
// ---------------------------------------------------------------------------------------

export const INSTALMENT_TEXT = {
  range: 'Оплата частями доступна для заказов от 500 до 40 000 ₽',
  below: (amount: string) => `Оплата частями доступна для заказов от 500 до 40 000 ₽, а сумма этого заказа — ${amount}`,
  above: (amount: string) =>
    `Оплата частями доступна для заказов от 500 до 40 000 ₽, а сумма этого заказа — ${amount}. Оплатите картой или разделите покупку на несколько заказов`,
} as const;

/** Why a pay amount cannot be paid in parts (Russian, for the shopper), or null when it can. */
export function instalmentUnavailableReason(payKopecks: number): string | null {
  if (isInstalmentAvailable(payKopecks)) return null;
  if (!Number.isSafeInteger(payKopecks) || payKopecks < 0) return INSTALMENT_TEXT.range;
  return payKopecks < INSTALMENT_MIN_KOPECKS
    ? INSTALMENT_TEXT.below(formatRub(payKopecks))
    : INSTALMENT_TEXT.above(formatRub(payKopecks));
}

/** A schedule date as the API writes it: the local calendar day, YYYY-MM-DD. */
export function isoDay(date: Date): string {
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}
