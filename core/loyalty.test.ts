import { describe, expect, it } from 'vitest';
import type { BasketLine } from './basket-pricing';
import {
  accrualDueAt,
  accrualKopecks,
  birthdayWindow,
  bonusCapKopecks,
  bonusExpiry,
  checkBonusSpend,
  formatBonuses,
  LOYALTY_TEXT,
  loyaltyLines,
  parseBirthday,
  spreadBonuses,
  takeFromLots,
  type LoyaltyLine,
} from './loyalty';

const full = (amountKopecks: number): LoyaltyLine => ({ amountKopecks, onSale: false, certificate: false });
const sale = (amountKopecks: number): LoyaltyLine => ({ amountKopecks, onSale: true, certificate: false });
const cert = (amountKopecks: number): LoyaltyLine => ({ amountKopecks, onSale: false, certificate: true });

describe('spending bonuses', () => {
  it('sees each priced basket line, in order, as its amount after the promo and whether it is on sale or a certificate', () => {
    const priced = (over: Partial<BasketLine>) => ({
      sumKopecks: 1_000_000,
      discountKopecks: 0,
      priceKopecks: 1_000_000,
      oldPriceKopecks: null,
      certificate: null,
      ...over,
    });
    const lines = loyaltyLines({
      lines: [
        priced({ sumKopecks: 2_000_000, discountKopecks: 150_000 }),
        priced({ oldPriceKopecks: 1_500_000 }),
        // An old price not above the price is no sale.
        priced({ oldPriceKopecks: 1_000_000 }),
        priced({ certificate: 'electronic' }),
        priced({ certificate: 'plastic', oldPriceKopecks: 1_200_000 }),
        // The gift cover: free, and nothing for bonuses to pay.
        priced({ sumKopecks: 0, priceKopecks: 0 }),
      ],
    });
    expect(lines).toEqual<LoyaltyLine[]>([
      { amountKopecks: 1_850_000, onSale: false, certificate: false },
      { amountKopecks: 1_000_000, onSale: true, certificate: false },
      { amountKopecks: 1_000_000, onSale: false, certificate: false },
      { amountKopecks: 1_000_000, onSale: false, certificate: true },
      { amountKopecks: 1_000_000, onSale: true, certificate: true },
      { amountKopecks: 0, onSale: false, certificate: false },
    ]);
    // Only the full-price goods count towards the cap: 20 % of 18 500 + 10 000 ₽.
    expect(bonusCapKopecks(lines)).toBe(570_000);
    expect(loyaltyLines({ lines: [] })).toEqual([]);
  });

  it('caps at 20 % of full-price lines, whole roubles, never sale items or certificates', () => {
    expect(bonusCapKopecks([full(4_000_000)])).toBe(800_000);
    expect(bonusCapKopecks([full(1_234_567), sale(5_000_000), cert(1_000_000)])).toBe(246_900);
    expect(bonusCapKopecks([sale(5_000_000), cert(1_000_000)])).toBe(0);
  });

  it('checks the amount asked for', () => {
    const lines = [full(4_000_000)];
    expect(checkBonusSpend({ requestedKopecks: 0, balanceKopecks: 0, lines, hasPromo: true })).toEqual({
      ok: true,
      kopecks: 0,
    });
    expect(checkBonusSpend({ requestedKopecks: 100_000, balanceKopecks: 200_000, lines, hasPromo: false })).toEqual({
      ok: true,
      kopecks: 100_000,
    });
    expect(checkBonusSpend({ requestedKopecks: 100_000, balanceKopecks: 200_000, lines, hasPromo: true })).toEqual({
      ok: false,
      error: LOYALTY_TEXT.notWithPromo,
    });
    expect(checkBonusSpend({ requestedKopecks: 900_000, balanceKopecks: 2_000_000, lines, hasPromo: false })).toEqual({
      ok: false,
      error: 'Бонусами можно оплатить не больше 8\u00a0000\u00a0₽ этого заказа',
    });
    expect(checkBonusSpend({ requestedKopecks: 300_000, balanceKopecks: 200_000, lines, hasPromo: false })).toEqual({
      ok: false,
      error: 'У вас 2\u00a0000 бонусов: списать больше нельзя',
    });
    expect(checkBonusSpend({ requestedKopecks: 150, balanceKopecks: 200_000, lines, hasPromo: false })).toEqual({
      ok: false,
      error: LOYALTY_TEXT.badAmount,
    });
    expect(checkBonusSpend({ requestedKopecks: -100, balanceKopecks: 200_000, lines, hasPromo: false })).toEqual({
      ok: false,
      error: LOYALTY_TEXT.badAmount,
    });
    expect(
      checkBonusSpend({ requestedKopecks: 100, balanceKopecks: 200_000, lines: [sale(10_000)], hasPromo: false }),
    ).toEqual({
      ok: false,
      error: LOYALTY_TEXT.nothingEligible,
    });
  });

  it('spreads bonuses over eligible lines so the shares add up exactly', () => {
    const lines = [full(333_333), sale(100_000), full(666_667), cert(500_000)];
    const shares = spreadBonuses(lines, 100_001);
    expect(shares.reduce((a, b) => a + b, 0)).toBe(100_001);
    expect(shares[1]).toBe(0);
    expect(shares[3]).toBe(0);
    expect(shares[0]).toBe(33_334); // 33 333.63: the larger remainder gets the odd kopeck
    expect(spreadBonuses(lines, 0)).toEqual([0, 0, 0, 0]);
  });

  it('takes from the lots that expire first', () => {
    const lots = [
      { id: 1, remainingKopecks: 50_000, expiresAt: new Date('2027-06-01') },
      { id: 2, remainingKopecks: 200_000, expiresAt: new Date('2026-12-01') },
    ];
    expect(takeFromLots(lots, 220_000)).toEqual([
      { lotId: 2, amountKopecks: 200_000 },
      { lotId: 1, amountKopecks: 20_000 },
    ]);
    expect(takeFromLots(lots, 260_000)).toBeNull();
  });
});

describe('earning bonuses', () => {
  it('is 5 % of what was paid for full-price lines, whole roubles down', () => {
    // The page's example: a 40 000 ₽ coat gives 2 000 bonuses.
    expect(accrualKopecks([{ paidKopecks: 4_000_000, onSale: false, certificate: false }])).toBe(200_000);
    expect(
      accrualKopecks([
        { paidKopecks: 1_999_900, onSale: false, certificate: false },
        { paidKopecks: 5_000_000, onSale: true, certificate: false },
        { paidKopecks: 1_000_000, onSale: false, certificate: true },
      ]),
    ).toBe(99_900);
  });

  it('is credited 14 days after receipt and lasts 12 months', () => {
    expect(accrualDueAt(new Date('2026-11-24T10:00:00Z')).toISOString()).toBe('2026-12-08T10:00:00.000Z');
    expect(bonusExpiry(new Date('2026-12-08T10:00:00Z')).toISOString()).toBe('2027-12-08T10:00:00.000Z');
  });

  it('writes bonuses in Russian', () => {
    expect(formatBonuses(100)).toBe('1 бонус');
    expect(formatBonuses(300)).toBe('3 бонуса');
    expect(formatBonuses(1_100)).toBe('11 бонусов');
    expect(formatBonuses(200_000)).toBe('2\u00a0000 бонусов');
  });
});

describe('the birthday', () => {
  it('opens 7 days before and closes after the 7th day after, Moscow time', () => {
    const w = birthdayWindow('1990-12-01', new Date('2026-11-24T12:00:00Z'));
    expect(w.year).toBe(2026);
    expect(w.current).toBe(true);
    expect(w.from.toISOString()).toBe('2026-11-23T21:00:00.000Z');
    expect(w.to.toISOString()).toBe('2026-12-08T21:00:00.000Z');
    expect(birthdayWindow('1990-12-01', new Date('2026-11-23T20:59:00Z')).current).toBe(false);
    expect(birthdayWindow('1990-12-01', new Date('2026-12-08T21:00:00Z'))).toMatchObject({
      year: 2027,
      current: false,
    });
  });

  it('crosses the new year', () => {
    expect(birthdayWindow('1990-01-03', new Date('2026-12-30T12:00:00Z'))).toMatchObject({ year: 2027, current: true });
    expect(birthdayWindow('1990-12-30', new Date('2027-01-05T12:00:00Z'))).toMatchObject({ year: 2026, current: true });
  });

  it('keeps 29 February on 28 February in other years', () => {
    expect(birthdayWindow('2000-02-29', new Date('2027-02-22T12:00:00Z'))).toMatchObject({ year: 2027, current: true });
  });

  it('parses a real past date of someone 14 to 120', () => {
    const now = new Date('2026-11-24T12:00:00Z');
    expect(parseBirthday('14.03.1990', now)).toBe('1990-03-14');
    expect(parseBirthday('1990-03-14', now)).toBe('1990-03-14');
    for (const bad of ['31.02.1990', '2030-01-01', '01.01.2020', '1800-01-01', 'вчера', ''])
      expect(parseBirthday(bad, now)).toBeNull();
  });
});
