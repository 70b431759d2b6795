import { describe, expect, it } from 'vitest';
import { planStockMoves, STOCK_REASON_LABEL, STOCK_REASONS } from './stock-ledger';

const stock = new Map([
  [3, 2],
  [1, 5],
  [7, 0],
]);

describe('planStockMoves', () => {
  it('moves by delta and sets counts, in offer-id order, with what each move did', () => {
    const plan = planStockMoves(
      stock,
      [
        { offerId: 7, delta: 4 },
        { offerId: 3, setTo: 9 },
        { offerId: 1, delta: -5 },
      ],
      'refuse',
    );
    expect(plan).toEqual({
      ok: true,
      moves: [
        { offerId: 1, previous: 5, delta: -5, quantityAfter: 0 },
        { offerId: 3, previous: 2, delta: 7, quantityAfter: 9 },
        { offerId: 7, previous: 0, delta: 4, quantityAfter: 4 },
      ],
    });
  });

  it('sums several lines of one offer into one move', () => {
    expect(
      planStockMoves(
        stock,
        [
          { offerId: 1, delta: -2 },
          { offerId: 1, delta: -3 },
        ],
        'refuse',
      ),
    ).toEqual({
      ok: true,
      moves: [{ offerId: 1, previous: 5, delta: -5, quantityAfter: 0 }],
    });
  });

  it('refuses the whole move when any take is larger than the stock, naming every short offer', () => {
    expect(
      planStockMoves(
        stock,
        [
          { offerId: 1, delta: -6 },
          { offerId: 3, delta: -1 },
          { offerId: 7, delta: -1 },
        ],
        'refuse',
      ),
    ).toEqual({
      ok: false,
      short: [1, 7],
      missing: [],
    });
  });

  it('clamps at zero when asked (staff taking away more than the system shows), recording the real delta', () => {
    expect(planStockMoves(stock, [{ offerId: 3, delta: -10 }], 'clamp')).toEqual({
      ok: true,
      moves: [{ offerId: 3, previous: 2, delta: -2, quantityAfter: 0 }],
    });
  });

  it('an unknown offer refuses an order but is skipped by a release', () => {
    expect(planStockMoves(stock, [{ offerId: 99, delta: -1 }], 'refuse')).toEqual({
      ok: false,
      short: [],
      missing: [99],
    });
    expect(
      planStockMoves(
        stock,
        [
          { offerId: 99, delta: 1 },
          { offerId: 7, delta: 1 },
        ],
        'clamp',
      ),
    ).toEqual({
      ok: true,
      moves: [{ offerId: 7, previous: 0, delta: 1, quantityAfter: 1 }],
    });
  });

  it('a count of what is there is a move of zero (the ledger records the count)', () => {
    expect(planStockMoves(stock, [{ offerId: 1, setTo: 5 }], 'clamp')).toEqual({
      ok: true,
      moves: [{ offerId: 1, previous: 5, delta: 0, quantityAfter: 5 }],
    });
  });

  it('rejects nonsense: fractions, negative counts, an offer both set and moved', () => {
    expect(() => planStockMoves(stock, [{ offerId: 1, delta: 0.5 }], 'refuse')).toThrow();
    expect(() => planStockMoves(stock, [{ offerId: 1, setTo: -1 }], 'clamp')).toThrow();
    expect(() =>
      planStockMoves(
        stock,
        [
          { offerId: 1, setTo: 2 },
          { offerId: 1, delta: 1 },
        ],
        'clamp',
      ),
    ).toThrow();
  });
});

describe('stock reasons', () => {
  it('every reason has a Russian label for staff', () => {
    for (const reason of STOCK_REASONS) expect(STOCK_REASON_LABEL[reason]).toMatch(/[а-я]/i);
  });
});
