import { describe, expect, it } from 'vitest';
import { birthdayWindow } from './loyalty';
import {
  accrualPaidLines,
  birthdayMonthDaysAround,
  BONUS_MOVE_KINDS,
  bonusMoveText,
  lastBonusDay,
  orderAccrualKopecks,
  type AccrualItem,
} from './loyalty-account';

const line = (over: Partial<AccrualItem> = {}): AccrualItem => ({
  priceKopecks: 1_000_000,
  oldPriceKopecks: null,
  quantity: 1,
  discountKopecks: 0,
  bonusKopecks: 0,
  returnedQuantity: 0,
  keptQuantity: null,
  isGift: false,
  certificate: false,
  ...over,
});

describe('accrual over order lines', () => {
  it('gives 5 % of a full-price line, whole roubles down (the page: a 40 000 ₽ coat brings 2 000)', () => {
    expect(orderAccrualKopecks([line({ priceKopecks: 4_000_000 })])).toBe(200_000);
    expect(orderAccrualKopecks([line({ priceKopecks: 1_234_567 })])).toBe(61_700);
  });

  it('counts what was paid: less the promo and the bonuses spent on the line', () => {
    const paid = accrualPaidLines([
      line({ priceKopecks: 500_000, quantity: 2, discountKopecks: 100_000, bonusKopecks: 100_000 }),
    ]);
    expect(paid).toEqual([{ paidKopecks: 800_000, onSale: false, certificate: false }]);
    expect(
      orderAccrualKopecks([
        line({ priceKopecks: 500_000, quantity: 2, discountKopecks: 100_000, bonusKopecks: 100_000 }),
      ]),
    ).toBe(40_000);
  });

  it('leaves out sale lines, certificates and the gift cover', () => {
    const items = [
      line({ priceKopecks: 700_000, oldPriceKopecks: 1_000_000 }),
      line({ priceKopecks: 500_000, certificate: true }),
      line({ priceKopecks: 0, isGift: true }),
      line({ priceKopecks: 200_000 }),
    ];
    expect(orderAccrualKopecks(items)).toBe(10_000);
    // An old price not above the price is no sale.
    expect(orderAccrualKopecks([line({ priceKopecks: 200_000, oldPriceKopecks: 200_000 })])).toBe(10_000);
  });

  it('scales a line to the items kept at the fitting and not returned', () => {
    expect(orderAccrualKopecks([line({ priceKopecks: 300_000, quantity: 3, returnedQuantity: 1 })])).toBe(30_000);
    expect(orderAccrualKopecks([line({ priceKopecks: 300_000, quantity: 3, keptQuantity: 2 })])).toBe(30_000);
    expect(
      orderAccrualKopecks([line({ priceKopecks: 300_000, quantity: 3, keptQuantity: 2, returnedQuantity: 2 })]),
    ).toBe(0);
    expect(orderAccrualKopecks([line({ quantity: 2, returnedQuantity: 2 })])).toBe(0);
  });
});

describe('history texts', () => {
  it('says in Russian what happened, with the order number', () => {
    expect(bonusMoveText({ kind: 'credit', orderId: 12, amountKopecks: 50_000 })).toBe('Начислено за заказ №12');
    expect(bonusMoveText({ kind: 'spend', orderId: 15, amountKopecks: -50_000 })).toBe('Списано в заказе №15');
    expect(bonusMoveText({ kind: 'release', orderId: 15, amountKopecks: 50_000 })).toBe(
      'Возвращено: заказ №15 отменён',
    );
    expect(bonusMoveText({ kind: 'restore', orderId: 15, amountKopecks: 50_000 })).toBe(
      'Возвращено: возврат по заказу №15',
    );
    expect(bonusMoveText({ kind: 'cancel', orderId: 12, amountKopecks: -50_000 })).toBe(
      'Аннулировано: возврат по заказу №12',
    );
    expect(bonusMoveText({ kind: 'birthday', orderId: null, amountKopecks: 200_000 })).toBe('Подарок ко дню рождения');
    expect(bonusMoveText({ kind: 'expire', orderId: null, amountKopecks: -200_000 })).toBe('Сгорели');
    expect(bonusMoveText({ kind: 'manual', orderId: null, amountKopecks: 10_000 })).toBe('Начислено магазином');
    expect(bonusMoveText({ kind: 'manual', orderId: null, amountKopecks: -10_000 })).toBe('Списано магазином');
  });

  it('has a text for every kind, with or without an order', () => {
    for (const kind of BONUS_MOVE_KINDS) {
      expect(bonusMoveText({ kind, orderId: null, amountKopecks: 100 })).toMatch(/^[А-ЯЁ]/);
      expect(bonusMoveText({ kind, orderId: 7, amountKopecks: 100 })).not.toContain('undefined');
    }
  });

  it('gives the last Moscow day a lot can be spent', () => {
    const w = birthdayWindow('1990-03-14', new Date('2026-03-10T12:00:00Z'));
    expect(lastBonusDay(w.to)).toBe('2026-03-21');
    // 12 months from a credit at 15:00 Moscow time: that same day is the last.
    expect(lastBonusDay(new Date('2027-11-24T12:00:00Z'))).toBe('2027-11-24');
  });
});

describe('birthdays around today', () => {
  it('covers every birthday whose window is open, and not far-off ones', () => {
    const now = new Date('2026-11-24T12:00:00Z');
    const days = birthdayMonthDaysAround(now);
    for (let d = -30; d <= 30; d++) {
      const day = new Date(Date.UTC(1990, 10, 24 + d)).toISOString().slice(0, 10);
      if (birthdayWindow(day, now).current) expect(days).toContain(day.slice(5));
    }
    expect(days).not.toContain('12-10');
    expect(days).not.toContain('11-08');
  });

  it('takes 29 February along with 28 February, and crosses the new year', () => {
    expect(birthdayMonthDaysAround(new Date('2027-03-03T12:00:00Z'))).toContain('02-29');
    const newYear = birthdayMonthDaysAround(new Date('2026-12-30T12:00:00Z'));
    expect(newYear).toContain('01-05');
    expect(newYear).toContain('12-23');
  });
});
