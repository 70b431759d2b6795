// The loyalty programme as content/pages/loyalty.md promises it: 5 % of the paid amount back as
// bonuses 14 days after the order is received (not on sale items, certificates or delivery),
// valid 12 months; up to 20 % of an order payable with bonuses (again not sale items,
// certificates or delivery), never together with a promo code; 2 000 bonuses for the birthday,
// usable 7 days before to 7 days after it; a birthday set once. One bonus is one rouble, so
// every amount here is whole roubles in kopecks. Pure.

import type { BasketLine } from './basket-pricing';
import { formatRub } from './money';
import { isOnSale } from './pricing';
import { formatRussianDate } from './dates';
import { pluralRu } from './plural';
import { addCalendarDays, moscowNow, MOSCOW_UTC_OFFSET_MINUTES } from './working-days';

export const LOYALTY = {
  accrualPercent: 5,
  accrualDelayDays: 14,
  validMonths: 12,
  maxSharePercent: 20,
  birthdayKopecks: 200_000,
  birthdayDaysAround: 7,
} as const;

/**
 * The programme's parameters as staff see them (the back office's «Программа лояльности», read
 * only) and as content/pages/loyalty.md states them: `page` is the page's own words for each
 * value, and core/loyalty-page.test.ts checks the page still says exactly that, so the page and
 * LOYALTY cannot drift apart unnoticed.
 */
export function loyaltyParams(): { key: keyof typeof LOYALTY; label: string; value: string; page: string }[] {
  const n = (v: number) => String(v).replace(/\B(?=(\d{3})+(?!\d))/g, '\u00a0');
  const birthday = LOYALTY.birthdayKopecks / 100;
  return [
    {
      key: 'accrualPercent',
      label: 'Начисление',
      value: `${LOYALTY.accrualPercent}% от оплаченной суммы`,
      page: `**${LOYALTY.accrualPercent}% от оплаченной суммы**`,
    },
    {
      key: 'accrualDelayDays',
      label: 'Зачисление после получения заказа',
      value: `через ${LOYALTY.accrualDelayDays} дней`,
      page: `**через ${LOYALTY.accrualDelayDays} дней**`,
    },
    {
      key: 'validMonths',
      label: 'Срок действия бонусов',
      value: `${LOYALTY.validMonths} месяцев`,
      page: `Бонусы действуют **${LOYALTY.validMonths} месяцев**`,
    },
    {
      key: 'maxSharePercent',
      label: 'Оплата бонусами',
      value: `до ${LOYALTY.maxSharePercent}% стоимости заказа`,
      page: `**до ${LOYALTY.maxSharePercent}% стоимости**`,
    },
    {
      key: 'birthdayKopecks',
      label: 'Подарок ко дню рождения',
      value: `${n(birthday)} бонусов`,
      page: `**${String(birthday).replace(/\B(?=(\d{3})+(?!\d))/g, ' ')} бонусов**`,
    },
    {
      key: 'birthdayDaysAround',
      label: 'Срок бонусов ко дню рождения',
      value: `за ${LOYALTY.birthdayDaysAround} дней до и ${LOYALTY.birthdayDaysAround} дней после`,
      page: `за ${LOYALTY.birthdayDaysAround} дней до и ${LOYALTY.birthdayDaysAround} дней после`,
    },
  ];
}

export const LOYALTY_TEXT = {
  notWithPromo: 'Бонусы не суммируются с промокодом: в одном заказе можно использовать что-то одно',
  overCap: (capKopecks: number) => `Бонусами можно оплатить не больше ${formatRub(capKopecks)} этого заказа`,
  overBalance: (balanceKopecks: number) => `У вас ${formatBonuses(balanceKopecks)}: списать больше нельзя`,
  badAmount: 'Укажите, сколько бонусов списать: целое число',
  nothingEligible: 'Бонусами нельзя оплатить вещи со скидкой, подарочные сертификаты и доставку',
  changed: 'Баланс бонусов изменился: проверьте сумму и подтвердите заказ ещё раз',
  birthdayOnce: 'Дату рождения можно указать только один раз. Если она указана с ошибкой, напишите нам в чат',
  badBirthday: 'Проверьте дату рождения',
} as const;

/** Whole roubles, rounded down: bonuses are never fractional. */
export function floorToRouble(kopecks: number): number {
  return Math.floor(kopecks / 100) * 100;
}

/** 2_000 bonuses -> '2 000 бонусов' (Russian plural). */
export function formatBonuses(kopecks: number): string {
  const n = Math.floor(kopecks / 100);
  const word = pluralRu(n, 'бонус', 'бонуса', 'бонусов');
  return `${String(n).replace(/\B(?=(\d{3})+(?!\d))/g, '\u00a0')} ${word}`;
}

/** One order line as the programme sees it: what it costs after the promo, and what it is. */
export interface LoyaltyLine {
  /** price × quantity less the line's promo share. */
  amountKopecks: number;
  onSale: boolean;
  certificate: boolean;
}

export function isEligible(line: Pick<LoyaltyLine, 'onSale' | 'certificate'>): boolean {
  return !line.onSale && !line.certificate;
}

/**
 * A priced basket's lines as the programme sees them, one for each and in their order (the
 * checkout gives spreadBonuses' shares back to the lines by index): the amount after the promo,
 * and whether bonuses may pay for it (not on sale, not a gift certificate).
 */
export function loyaltyLines(priced: {
  lines: readonly Pick<
    BasketLine,
    'sumKopecks' | 'discountKopecks' | 'priceKopecks' | 'oldPriceKopecks' | 'certificate'
  >[];
}): LoyaltyLine[] {
  return priced.lines.map((l) => ({
    amountKopecks: l.sumKopecks - l.discountKopecks,
    onSale: isOnSale(l.priceKopecks, l.oldPriceKopecks),
    certificate: l.certificate !== null,
  }));
}

/** The most bonuses this order can take: 20 % of its eligible lines, whole roubles. */
export function bonusCapKopecks(lines: readonly LoyaltyLine[]): number {
  const eligible = lines.reduce((sum, l) => sum + (isEligible(l) ? l.amountKopecks : 0), 0);
  return floorToRouble(Math.floor((eligible * LOYALTY.maxSharePercent) / 100));
}

/**
 * Bonuses spread over the eligible lines in proportion to their amounts (largest remainder, so
 * the shares add up exactly); 0 on the others. The receipt shows them as a discount per line.
 */
export function spreadBonuses(lines: readonly LoyaltyLine[], bonusKopecks: number): number[] {
  const eligible = lines.map((l) => (isEligible(l) ? l.amountKopecks : 0));
  const base = eligible.reduce((a, b) => a + b, 0);
  if (bonusKopecks <= 0 || base === 0) return lines.map(() => 0);
  if (bonusKopecks > base) throw new RangeError('bonuses above the eligible amount');
  const exact = eligible.map((a) => (a * bonusKopecks) / base);
  const shares = exact.map(Math.floor);
  let left = bonusKopecks - shares.reduce((a, b) => a + b, 0);
  const order = exact.map((x, i) => ({ i, frac: x - Math.floor(x) })).sort((a, b) => b.frac - a.frac || a.i - b.i);
  for (const { i } of order) {
    if (left === 0) break;
    if (eligible[i] === 0) continue;
    shares[i] = (shares[i] as number) + 1;
    left--;
  }
  return shares;
}

/** What the shopper asked to spend, checked: whole roubles, not above the cap or the balance, not with a promo. */
export function checkBonusSpend(input: {
  requestedKopecks: number;
  balanceKopecks: number;
  lines: readonly LoyaltyLine[];
  hasPromo: boolean;
}): { ok: true; kopecks: number } | { ok: false; error: string } {
  const { requestedKopecks, balanceKopecks } = input;
  if (requestedKopecks === 0) return { ok: true, kopecks: 0 };
  if (!Number.isSafeInteger(requestedKopecks) || requestedKopecks < 0 || requestedKopecks % 100 !== 0)
    return { ok: false, error: LOYALTY_TEXT.badAmount };
  if (input.hasPromo) return { ok: false, error: LOYALTY_TEXT.notWithPromo };
  const cap = bonusCapKopecks(input.lines);
  if (cap === 0) return { ok: false, error: LOYALTY_TEXT.nothingEligible };
  if (requestedKopecks > cap) return { ok: false, error: LOYALTY_TEXT.overCap(cap) };
  if (requestedKopecks > balanceKopecks) return { ok: false, error: LOYALTY_TEXT.overBalance(balanceKopecks) };
  return { ok: true, kopecks: requestedKopecks };
}

/** The line as paid: its amount after promo and bonuses, less what was returned. */
export interface PaidLine {
  paidKopecks: number;
  onSale: boolean;
  certificate: boolean;
}

/** 5 % of what was paid for eligible lines (bonuses spent are not "paid"), whole roubles down. */
export function accrualKopecks(lines: readonly PaidLine[]): number {
  const paid = lines.reduce((sum, l) => sum + (isEligible(l) ? Math.max(0, l.paidKopecks) : 0), 0);
  return floorToRouble(Math.floor((paid * LOYALTY.accrualPercent) / 100));
}

/** When a received order's bonuses are credited: 14 days on, when the return period is long over. */
export function accrualDueAt(receivedAt: Date): Date {
  return new Date(receivedAt.getTime() + LOYALTY.accrualDelayDays * 86_400_000);
}

/** Bonuses credited at `at` expire 12 months later. */
export function bonusExpiry(at: Date): Date {
  const d = new Date(at.getTime());
  d.setUTCMonth(d.getUTCMonth() + LOYALTY.validMonths);
  return d;
}

/** Moscow midnight at the start of a 'YYYY-MM-DD' day, as an instant. */
function moscowMidnight(day: string): Date {
  return new Date(Date.parse(`${day}T00:00:00Z`) - MOSCOW_UTC_OFFSET_MINUTES * 60_000);
}

/** 'YYYY-MM-DD' of the birthday in `year` (29 February becomes 28 February in other years). */
function birthdayIn(birthday: string, year: number): string {
  const md = birthday.slice(5);
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return `${year}-${md === '02-29' && !leap ? '02-28' : md}`;
}

/**
 * The birthday bonus window around `now`: from Moscow midnight 7 days before the birthday to
 * the end of the 7th day after it. The one that contains `now`, else the next one to come.
 */
export function birthdayWindow(birthday: string, now: Date): { year: number; from: Date; to: Date; current: boolean } {
  const today = moscowNow(now).date;
  const thisYear = Number(today.slice(0, 4));
  for (const year of [thisYear - 1, thisYear, thisYear + 1]) {
    const day = birthdayIn(birthday, year);
    const from = moscowMidnight(addCalendarDays(day, -LOYALTY.birthdayDaysAround));
    const to = moscowMidnight(addCalendarDays(day, LOYALTY.birthdayDaysAround + 1));
    if (now.getTime() < to.getTime()) return { year, from, to, current: now.getTime() >= from.getTime() };
  }
  throw new Error('unreachable: a birthday comes every year');
}

/** A birthday as typed ('14.03.1990' or '1990-03-14'): 'YYYY-MM-DD' of a real past date, age 14–120. */
export function parseBirthday(input: string, now: Date): string | null {
  const s = input.trim();
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s) ?? (/^(\d{2})\.(\d{2})\.(\d{4})$/.exec(s) as RegExpExecArray | null);
  if (!m) return null;
  const [y, mo, d] = s.includes('-') ? [m[1], m[2], m[3]] : [m[3], m[2], m[1]];
  const iso = `${y}-${mo}-${d}`;
  const t = Date.parse(`${iso}T00:00:00Z`);
  if (Number.isNaN(t) || new Date(t).toISOString().slice(0, 10) !== iso) return null;
  const today = moscowNow(now).date;
  const age = Number(today.slice(0, 4)) - Number(y);
  if (iso > today || age < 14 || age > 120) return null;
  return iso;
}

export function formatBirthday(iso: string): string {
  return formatRussianDate(iso);
}

/** A lot of bonuses as spending sees it. */
export interface SpendableLot {
  id: number;
  remainingKopecks: number;
  expiresAt: Date;
}

/** Takes `amountKopecks` from the lots that expire first; null when they do not hold that much. */
export function takeFromLots(
  lots: readonly SpendableLot[],
  amountKopecks: number,
): { lotId: number; amountKopecks: number }[] | null {
  const sorted = [...lots].sort((a, b) => a.expiresAt.getTime() - b.expiresAt.getTime() || a.id - b.id);
  const taken: { lotId: number; amountKopecks: number }[] = [];
  let left = amountKopecks;
  for (const lot of sorted) {
    if (left === 0) break;
    const take = Math.min(left, lot.remainingKopecks);
    if (take > 0) taken.push({ lotId: lot.id, amountKopecks: take });
    left -= take;
  }
  return left === 0 ? taken : null;
}
