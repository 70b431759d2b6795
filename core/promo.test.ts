import { describe, expect, it } from 'vitest';
import {
  evaluatePromo,
  normalizePromoCode,
  PROMO_ERROR_EXPIRED,
  PROMO_ERROR_LIMIT_REACHED,
  PROMO_ERROR_NOT_FOUND,
  PROMO_ERROR_NOT_YET_VALID,
  PROMO_ERROR_SALE_EXCLUDED,
  PROMO_MAX_LENGTH,
  promoMinBasketError,
} from './promo';
import type { PromoCode, PromoEvaluation, PromoLine } from './promo';

const NOW = new Date('2026-03-15T12:00:00Z');

function promo(overrides: Partial<PromoCode> = {}): PromoCode {
  return {
    code: 'SPRING10',
    kind: 'percent',
    percent: 10,
    amountKopecks: null,
    minBasketKopecks: 0,
    validFrom: null,
    validTo: null,
    totalLimit: null,
    perCustomerLimit: null,
    usedTotal: 0,
    usedByCustomer: 0,
    excludeSale: true,
    active: true,
    ...overrides,
  };
}

function line(key: string, priceKopecks: number, quantity = 1, onSale = false): PromoLine {
  return { key, priceKopecks, quantity, onSale };
}

function valid(result: PromoEvaluation): { discountKopecks: number; lineDiscounts: [string, number][] } {
  if (result.status !== 'valid') throw new Error(`expected a valid promo, got "${result.error}"`);
  return { discountKopecks: result.discountKopecks, lineDiscounts: [...result.lineDiscounts] };
}

const COAT = line('12', 3_200_000); // 32 000 ₽
const JEANS = line('40', 980_000, 2); // 2 × 9 800 ₽
const SALE_DRESS = line('50', 1_190_000, 1, true);

describe('normalizePromoCode', () => {
  it('trims and upper-cases', () => {
    expect(normalizePromoCode('  spring10 ')).toBe('SPRING10');
    expect(normalizePromoCode('весна-2026')).toBe('ВЕСНА-2026');
    expect(normalizePromoCode('ёлка_1')).toBe('ЁЛКА_1');
    expect(normalizePromoCode('\tcode\n')).toBe('CODE');
  });

  it('accepts exactly 32 characters and no more', () => {
    expect(PROMO_MAX_LENGTH).toBe(32);
    expect(normalizePromoCode('a'.repeat(32))).toBe('A'.repeat(32));
    expect(normalizePromoCode('a'.repeat(33))).toBeNull();
  });

  it('rejects anything outside letters, digits, _ and -', () => {
    for (const junk of ['', '   ', 'SPRING 10', 'promo!', "x' OR 1=1", 'a.b', 'ä', 'CO\nDE', '💸', 'AB\u00a0CD', 'İ']) {
      expect(normalizePromoCode(junk)).toBeNull();
    }
    expect(normalizePromoCode(null)).toBeNull();
    expect(normalizePromoCode(undefined)).toBeNull();
  });
});

describe('promo error texts', () => {
  it('are the exact Russian strings', () => {
    expect(PROMO_ERROR_NOT_FOUND).toBe('Промокод не найден');
    expect(PROMO_ERROR_NOT_YET_VALID).toBe('Промокод ещё не действует');
    expect(PROMO_ERROR_EXPIRED).toBe('Срок действия промокода истёк');
    expect(PROMO_ERROR_LIMIT_REACHED).toBe('Промокод больше нельзя использовать');
    expect(PROMO_ERROR_SALE_EXCLUDED).toBe('Промокод не действует на товары со скидкой');
    expect(promoMinBasketError(1_000_000)).toBe('Промокод действует для заказа от 10\u00a0000\u00a0₽');
    expect(promoMinBasketError(50_050)).toBe('Промокод действует для заказа от 500,50\u00a0₽');
  });
});

describe('evaluatePromo: validity', () => {
  it('rejects no code, an inactive code and inconsistent code data as not found', () => {
    const lines = [COAT];
    for (const p of [
      null,
      promo({ active: false }),
      promo({ percent: null }),
      promo({ percent: 0 }),
      promo({ percent: 101 }),
      promo({ percent: 12.5 }),
      promo({ kind: 'fixed', percent: null, amountKopecks: null }),
      promo({ kind: 'fixed', percent: null, amountKopecks: 0 }),
      promo({ kind: 'fixed', percent: null, amountKopecks: 10.5 }),
    ]) {
      expect(evaluatePromo({ promo: p, lines, now: NOW })).toEqual({ status: 'invalid', error: 'Промокод не найден' });
    }
  });

  it('respects the validity window with both ends inclusive', () => {
    const from = new Date('2026-03-15T12:00:00Z');
    const to = new Date('2026-03-31T23:59:59Z');
    const p = promo({ validFrom: from, validTo: to });
    const at = (iso: string) => evaluatePromo({ promo: p, lines: [COAT], now: new Date(iso) });
    expect(at('2026-03-15T11:59:59.999Z')).toEqual({ status: 'invalid', error: 'Промокод ещё не действует' });
    expect(at('2026-03-15T12:00:00Z').status).toBe('valid');
    expect(at('2026-03-31T23:59:59Z').status).toBe('valid');
    expect(at('2026-04-01T00:00:00Z')).toEqual({ status: 'invalid', error: 'Срок действия промокода истёк' });
  });

  it('checks an inactive code before its dates and dates before limits', () => {
    const expired = { validTo: new Date('2026-01-01T00:00:00Z') };
    expect(evaluatePromo({ promo: promo({ ...expired, active: false }), lines: [COAT], now: NOW })).toEqual({
      status: 'invalid',
      error: PROMO_ERROR_NOT_FOUND,
    });
    expect(
      evaluatePromo({ promo: promo({ ...expired, totalLimit: 1, usedTotal: 1 }), lines: [COAT], now: NOW }),
    ).toEqual({
      status: 'invalid',
      error: PROMO_ERROR_EXPIRED,
    });
  });

  it('stops at the total limit and the per-customer limit', () => {
    const check = (p: PromoCode) => evaluatePromo({ promo: p, lines: [COAT], now: NOW });
    expect(check(promo({ totalLimit: 100, usedTotal: 99 })).status).toBe('valid');
    expect(check(promo({ totalLimit: 100, usedTotal: 100 }))).toEqual({
      status: 'invalid',
      error: 'Промокод больше нельзя использовать',
    });
    expect(check(promo({ totalLimit: 0 }))).toEqual({ status: 'invalid', error: PROMO_ERROR_LIMIT_REACHED });
    expect(check(promo({ perCustomerLimit: 1, usedByCustomer: 0 })).status).toBe('valid');
    expect(check(promo({ perCustomerLimit: 1, usedByCustomer: 1 }))).toEqual({
      status: 'invalid',
      error: PROMO_ERROR_LIMIT_REACHED,
    });
  });
});

describe('evaluatePromo: sale items and the minimum basket', () => {
  it('rejects a basket of only sale items when sale items are excluded', () => {
    expect(evaluatePromo({ promo: promo(), lines: [SALE_DRESS], now: NOW })).toEqual({
      status: 'invalid',
      error: 'Промокод не действует на товары со скидкой',
    });
  });

  it('ignores free lines (the gift cover) when deciding that everything is on sale', () => {
    const cover = line(String(1_000_000), 0);
    expect(evaluatePromo({ promo: promo(), lines: [SALE_DRESS, cover], now: NOW })).toEqual({
      status: 'invalid',
      error: PROMO_ERROR_SALE_EXCLUDED,
    });
  });

  it('discounts sale items when the code allows it', () => {
    expect(valid(evaluatePromo({ promo: promo({ excludeSale: false }), lines: [SALE_DRESS], now: NOW }))).toEqual({
      discountKopecks: 119_000,
      lineDiscounts: [['50', 119_000]],
    });
  });

  it('compares the minimum with the eligible lines only', () => {
    const p = promo({ minBasketKopecks: 3_500_000 }); // from 35 000 ₽
    // 32 000 coat + 11 900 sale dress = 43 900 in all, but only 32 000 is eligible.
    expect(evaluatePromo({ promo: p, lines: [COAT, SALE_DRESS], now: NOW })).toEqual({
      status: 'invalid',
      error: 'Промокод действует для заказа от 35\u00a0000\u00a0₽',
    });
    expect(
      valid(evaluatePromo({ promo: { ...p, excludeSale: false }, lines: [COAT, SALE_DRESS], now: NOW }))
        .discountKopecks,
    ).toBe(439_000);
  });

  it('accepts a basket exactly at the minimum', () => {
    const p = promo({ minBasketKopecks: 3_200_000 });
    expect(valid(evaluatePromo({ promo: p, lines: [COAT], now: NOW })).discountKopecks).toBe(320_000);
    expect(evaluatePromo({ promo: p, lines: [line('1', 3_199_999)], now: NOW })).toEqual({
      status: 'invalid',
      error: 'Промокод действует для заказа от 32\u00a0000\u00a0₽',
    });
  });

  it('reports sale exclusion before the minimum', () => {
    const p = promo({ minBasketKopecks: 1_000_000 });
    expect(evaluatePromo({ promo: p, lines: [SALE_DRESS], now: NOW })).toEqual({
      status: 'invalid',
      error: PROMO_ERROR_SALE_EXCLUDED,
    });
  });

  it('is valid with nothing to discount in an empty basket without a minimum', () => {
    expect(valid(evaluatePromo({ promo: promo(), lines: [], now: NOW }))).toEqual({
      discountKopecks: 0,
      lineDiscounts: [],
    });
    expect(evaluatePromo({ promo: promo({ minBasketKopecks: 100 }), lines: [], now: NOW })).toEqual({
      status: 'invalid',
      error: 'Промокод действует для заказа от 1\u00a0₽',
    });
  });
});

describe('evaluatePromo: amounts', () => {
  it('percent: floor of eligible total × percent / 100, split by line totals', () => {
    // 32 000 + 19 600 = 51 600 ₽ → 10 % = 5 160 ₽.
    expect(valid(evaluatePromo({ promo: promo(), lines: [COAT, JEANS], now: NOW }))).toEqual({
      discountKopecks: 516_000,
      lineDiscounts: [
        ['12', 320_000],
        ['40', 196_000],
      ],
    });
  });

  it('percent rounds down to whole kopecks', () => {
    // 999 × 15 % = 149.85 → 149.
    expect(
      valid(evaluatePromo({ promo: promo({ percent: 15 }), lines: [line('1', 999)], now: NOW })).discountKopecks,
    ).toBe(149);
    // 1 % of 50 kopecks is nothing, and still a valid code.
    expect(valid(evaluatePromo({ promo: promo({ percent: 1 }), lines: [line('1', 50)], now: NOW }))).toEqual({
      discountKopecks: 0,
      lineDiscounts: [['1', 0]],
    });
  });

  it('100 % makes every eligible line free, exactly', () => {
    expect(
      valid(evaluatePromo({ promo: promo({ percent: 100 }), lines: [COAT, JEANS, SALE_DRESS], now: NOW })),
    ).toEqual({
      discountKopecks: 5_160_000,
      lineDiscounts: [
        ['12', 3_200_000],
        ['40', 1_960_000],
        ['50', 0],
      ],
    });
  });

  it('fixed: the amount, but never more than the eligible total', () => {
    const fixed = (amountKopecks: number) => promo({ kind: 'fixed', percent: null, amountKopecks });
    expect(valid(evaluatePromo({ promo: fixed(100_000), lines: [COAT, JEANS], now: NOW }))).toEqual({
      // 1 000 ₽ over 3 200 000 : 1 960 000 → 62 015.50… and 37 984.49… → 62 016 + 37 984.
      discountKopecks: 100_000,
      lineDiscounts: [
        ['12', 62_016],
        ['40', 37_984],
      ],
    });
    expect(valid(evaluatePromo({ promo: fixed(10_000_000), lines: [COAT, SALE_DRESS], now: NOW }))).toEqual({
      discountKopecks: 3_200_000,
      lineDiscounts: [
        ['12', 3_200_000],
        ['50', 0],
      ],
    });
  });

  it('splits with the largest remainder, ties to the earlier line', () => {
    const fixed = promo({ kind: 'fixed', percent: null, amountKopecks: 100 });
    const lines = [line('a', 1000), line('b', 1000), line('c', 1000)];
    expect(valid(evaluatePromo({ promo: fixed, lines, now: NOW })).lineDiscounts).toEqual([
      ['a', 34],
      ['b', 33],
      ['c', 33],
    ]);
    const reversed = [line('c', 1000), line('b', 1000), line('a', 1000)];
    expect(valid(evaluatePromo({ promo: fixed, lines: reversed, now: NOW })).lineDiscounts).toEqual([
      ['c', 34],
      ['b', 33],
      ['a', 33],
    ]);
  });

  it('line discounts always add up to the discount and stay within each line', () => {
    const lines = [
      line('1', 333, 3),
      line('2', 1, 1),
      line('3', 12_345, 7),
      line('4', 99_999, 1, true),
      line('5', 0, 2),
      line('6', 7, 11),
    ];
    for (const p of [
      promo({ percent: 7 }),
      promo({ percent: 33 }),
      promo({ percent: 99 }),
      promo({ kind: 'fixed', percent: null, amountKopecks: 1 }),
      promo({ kind: 'fixed', percent: null, amountKopecks: 12_345 }),
      promo({ kind: 'fixed', percent: null, amountKopecks: 99_999 }),
    ]) {
      const r = valid(evaluatePromo({ promo: p, lines, now: NOW }));
      expect(r.lineDiscounts.reduce((sum, [, d]) => sum + d, 0)).toBe(r.discountKopecks);
      lines.forEach((l, i) => {
        const d = r.lineDiscounts[i]?.[1] ?? -1;
        expect(d).toBeGreaterThanOrEqual(0);
        expect(d).toBeLessThanOrEqual(l.priceKopecks * l.quantity);
      });
      expect(r.lineDiscounts[3]).toEqual(['4', 0]);
      expect(r.lineDiscounts[4]).toEqual(['5', 0]);
    }
  });

  it('sums lines that share a key', () => {
    const r = valid(evaluatePromo({ promo: promo(), lines: [line('x', 1000), line('x', 3000)], now: NOW }));
    expect(r).toEqual({ discountKopecks: 400, lineDiscounts: [['x', 400]] });
  });

  it('throws on lines with bad money values (a server bug, not shopper input)', () => {
    for (const bad of [
      line('1', 10.5),
      line('1', -1),
      line('1', 100, 1.5),
      line('1', 100, -1),
      line('1', Number.MAX_SAFE_INTEGER, 2),
    ]) {
      expect(() => evaluatePromo({ promo: promo(), lines: [bad], now: NOW })).toThrow();
    }
  });
});
