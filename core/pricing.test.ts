import { describe, expect, it } from 'vitest';
import { discountPercent, formatRoubles, isOnSale, roublesToKopecks } from './pricing';

describe('isOnSale', () => {
  it('needs an old price above the price', () => {
    expect(isOnSale(20_000, 32_000)).toBe(true);
    expect(isOnSale(20_000, null)).toBe(false);
    expect(isOnSale(20_000, undefined)).toBe(false);
    expect(isOnSale(20_000, 20_000)).toBe(false);
    expect(isOnSale(20_000, 19_000)).toBe(false);
  });
});

describe('discountPercent', () => {
  it('rounds whole per cent and is 0 without a sale', () => {
    expect(discountPercent(22_400, 32_000)).toBe(30);
    expect(discountPercent(2, 3)).toBe(33);
    expect(discountPercent(1, 3)).toBe(67);
    expect(discountPercent(32_000, null)).toBe(0);
    expect(discountPercent(32_000, 30_000)).toBe(0);
    expect(discountPercent(0, 0)).toBe(0);
  });
});

describe('roubles', () => {
  it('converts exactly and formats with a narrow space and ₽', () => {
    expect(roublesToKopecks(12_345.5)).toBe(1_234_550);
    expect(roublesToKopecks(0.1 + 0.2)).toBe(0);
    expect(formatRoubles(32_000)).toBe('32\u00a0000\u00a0₽');
    expect(formatRoubles(12_345.5)).toBe('12\u00a0345,50\u00a0₽');
  });
});
