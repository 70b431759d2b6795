import { describe, expect, it } from 'vitest';
import { isNameShaped, isReturnOpen, orderStatusLabel, returnableQuantities } from './account';

const day = 86_400_000;
const delivered = new Date('2026-11-01T10:00:00Z');
const at = (days: number) => new Date(delivered.getTime() + days * day);

describe('return period (content/pages/return.md)', () => {
  it('is 7 days from receipt online and 14 for pre-orders, and needs a receipt', () => {
    expect(isReturnOpen(delivered, false, at(7))).toBe(true);
    expect(isReturnOpen(delivered, false, at(7.01))).toBe(false);
    expect(isReturnOpen(delivered, true, at(14))).toBe(true);
    expect(isReturnOpen(delivered, true, at(14.01))).toBe(false);
    expect(isReturnOpen(null, false, at(0))).toBe(false);
  });

  it('counts what may still be asked back, less earlier requests, never gifts', () => {
    const lines = [
      { offerId: 1, quantity: 2, isPreorder: false, isGift: false },
      { offerId: 2, quantity: 1, isPreorder: true, isGift: false },
      { offerId: 3, quantity: 1, isPreorder: false, isGift: true },
    ];
    expect(returnableQuantities(lines, delivered, new Map(), at(1))).toEqual([2, 1, 0]);
    expect(returnableQuantities(lines, delivered, new Map([[1, 1]]), at(1))).toEqual([1, 1, 0]);
    expect(returnableQuantities(lines, delivered, new Map(), at(10))).toEqual([0, 1, 0]);
    expect(returnableQuantities(lines, null, new Map(), at(1))).toEqual([0, 0, 0]);
  });
});

describe('account texts', () => {
  it('labels statuses in Russian, unknown ones as being processed', () => {
    expect(orderStatusLabel('completed')).toBe('Выполнен');
    expect(orderStatusLabel('weird')).toBe('В обработке');
  });
  it('takes names in any alphabet, never markup', () => {
    expect(isNameShaped('Анна-Мария')).toBe(true);
    expect(isNameShaped("O'Neil")).toBe(true);
    expect(isNameShaped('<b>')).toBe(false);
    expect(isNameShaped('-Анна')).toBe(false);
  });
});
