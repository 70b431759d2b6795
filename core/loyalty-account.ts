// The loyalty programme as the account shows it and as accrual reads an order: which part of each
// line was actually paid (content/pages/loyalty.md: 5 % of the paid amount, not on sale items,
// certificates or delivery; returned items earn nothing), the Russian line of each history entry,
// and the birthdays whose bonus window may be open today. Pure: shared by the API and its tests.

import { isOnSale } from './pricing';
import { accrualKopecks, LOYALTY, type PaidLine } from './loyalty';
import { addCalendarDays, moscowNow } from './working-days';

/** An order line as stored (order_items, with its product's certificate flag). */
export interface AccrualItem {
  priceKopecks: number;
  oldPriceKopecks: number | null;
  quantity: number;
  /** The line's promo share and bonus share: neither was paid in money. */
  discountKopecks: number;
  bonusKopecks: number;
  returnedQuantity: number;
  /** Set by a fitting at the door: only what was kept was bought. */
  keptQuantity: number | null;
  isGift: boolean;
  certificate: boolean;
}

/**
 * What each line earns bonuses on: price × quantity less the promo and bonus shares, scaled to
 * the items kept and not returned. The gift cover is left out (it is free).
 */
export function accrualPaidLines(items: readonly AccrualItem[]): PaidLine[] {
  return items
    .filter((i) => !i.isGift && i.quantity > 0)
    .map((i) => {
      const bought = Math.min(i.quantity, i.keptQuantity ?? i.quantity);
      const kept = Math.max(0, bought - i.returnedQuantity);
      const gross = i.priceKopecks * i.quantity - i.discountKopecks - i.bonusKopecks;
      return {
        paidKopecks: Math.floor((Math.max(0, gross) * kept) / i.quantity),
        onSale: isOnSale(i.priceKopecks, i.oldPriceKopecks),
        certificate: i.certificate,
      };
    });
}

/** The bonuses an order's lines earn (whole roubles, down). */
export function orderAccrualKopecks(items: readonly AccrualItem[]): number {
  return accrualKopecks(accrualPaidLines(items));
}

export const BONUS_MOVE_KINDS = [
  'credit',
  'birthday',
  'spend',
  'release',
  'restore',
  'expire',
  'cancel',
  'manual',
] as const;
export type BonusMoveKind = (typeof BONUS_MOVE_KINDS)[number];

/** The account history's line for a move (or several moves of one event, summed). */
export function bonusMoveText(move: { kind: BonusMoveKind; orderId: number | null; amountKopecks: number }): string {
  const order = move.orderId === null ? '' : `№${move.orderId}`;
  switch (move.kind) {
    case 'credit':
      return order ? `Начислено за заказ ${order}` : 'Начислено за покупку';
    case 'birthday':
      return 'Подарок ко дню рождения';
    case 'spend':
      return order ? `Списано в заказе ${order}` : 'Списано';
    case 'release':
      return order ? `Возвращено: заказ ${order} отменён` : 'Возвращено: заказ отменён';
    case 'restore':
      return order ? `Возвращено: возврат по заказу ${order}` : 'Возвращено: возврат';
    case 'expire':
      return 'Сгорели';
    case 'cancel':
      return order ? `Аннулировано: возврат по заказу ${order}` : 'Аннулировано: возврат';
    case 'manual':
      return move.amountKopecks >= 0 ? 'Начислено магазином' : 'Списано магазином';
  }
}

/**
 * The last Moscow day bonuses of a lot can be spent ('YYYY-MM-DD'): a lot expires at an instant,
 * the day before that instant's Moscow midnight when it is one (the birthday window's end).
 */
export function lastBonusDay(expiresAt: Date): string {
  return moscowNow(new Date(expiresAt.getTime() - 1)).date;
}

/**
 * Month-days ('MM-DD') of the birthdays whose window (7 days either side, core birthdayWindow)
 * may contain `now`: a cheap filter before birthdayWindow decides. A day of slack each side
 * covers the Moscow day boundary; 29 February rides with 28 February.
 */
export function birthdayMonthDaysAround(now: Date): string[] {
  const today = moscowNow(now).date;
  const span = LOYALTY.birthdayDaysAround + 1;
  const days = new Set<string>();
  for (let d = -span; d <= span; d++) {
    const md = addCalendarDays(today, d).slice(5);
    days.add(md);
    if (md === '02-28') days.add('02-29');
  }
  return [...days].sort();
}
