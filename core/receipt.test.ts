import { describe, expect, it } from 'vitest';
import { allocateProportionally } from './allocate';
import {
  buildReceipt,
  foldDiscount,
  ReceiptError,
  receiptItemsKopecks,
  receiptLabel,
  RECEIPT_LABEL_MAX,
  type ReceiptLine,
} from './receipt';

const base = { email: 'anna@example.com', phone: '79161234567' };

/** Lines with a promo split over them as the basket does it (core/allocate.ts). */
function withPromo(lines: Omit<ReceiptLine, 'discountKopecks'>[], promoKopecks: number): ReceiptLine[] {
  const shares = allocateProportionally(
    promoKopecks,
    lines.map((l) => l.priceKopecks * l.quantity),
  );
  return lines.map((l, i) => ({ ...l, discountKopecks: shares[i] ?? 0 }));
}

describe('buildReceipt', () => {
  it('writes one item per line with its size, price, quantity and amount, VAT 0, pieces, and delivery apart', () => {
    const receipt = buildReceipt({
      ...base,
      lines: [
        { title: 'Платье «Ирис»', size: '44 (S)', priceKopecks: 12_900_00, quantity: 2, discountKopecks: 0 },
        { title: 'Шарф', size: '', priceKopecks: 3_500_50, quantity: 1, discountKopecks: 0 },
      ],
      deliveryKopecks: 700_00,
      totalKopecks: 2 * 12_900_00 + 3_500_50 + 700_00,
    });
    expect(receipt).toEqual({
      Items: [
        {
          label: 'Платье «Ирис», размер 44 (S)',
          price: 12900,
          quantity: 2,
          amount: 25800,
          vat: 0,
          measurementUnit: 'шт',
        },
        { label: 'Шарф', price: 3500.5, quantity: 1, amount: 3500.5, vat: 0, measurementUnit: 'шт' },
        { label: 'Доставка', price: 700, quantity: 1, amount: 700, vat: 0, measurementUnit: 'шт' },
      ],
      email: 'anna@example.com',
      phone: '+79161234567',
      amounts: { electronic: 30000.5 },
    });
  });

  it('leaves out the gift cover at 0 ₽ (CloudKassir needs amounts above 0) and free delivery', () => {
    const receipt = buildReceipt({
      ...base,
      lines: [
        { title: 'Пальто «Аврора»', size: '46 (M)', priceKopecks: 39_000_00, quantity: 1, discountKopecks: 0 },
        { title: 'Чехол для одежды', size: '', priceKopecks: 0, quantity: 1, discountKopecks: 0 },
      ],
      deliveryKopecks: 0,
      totalKopecks: 39_000_00,
    });
    expect(receipt.Items.map((i) => i.label)).toEqual(['Пальто «Аврора», размер 46 (M)']);
    expect(receipt.amounts.electronic).toBe(39000);
  });

  it.each([
    ['a third off three odd prices', [99_99, 1_00, 33_33], [1, 1, 1], 44_45],
    ['one kopeck of promo over three lines', [10_00, 10_00, 10_00], [1, 1, 1], 1],
    ['a promo over quantities that do not divide it', [1_999_99, 7_77, 3_33], [3, 7, 11], 1_000_01],
    ['the whole price of one line', [5_00, 5_00], [1, 1], 5_00],
  ])('adds up exactly with %s', (_name, prices, quantities, promo) => {
    const lines = withPromo(
      prices.map((p, i) => ({ title: `Товар ${i}`, size: 'M', priceKopecks: p, quantity: quantities[i] ?? 1 })),
      promo,
    );
    const goods = lines.reduce((s, l) => s + l.priceKopecks * l.quantity - l.discountKopecks, 0);
    for (const delivery of [0, 700_00, 123_45]) {
      const receipt = buildReceipt({ ...base, lines, deliveryKopecks: delivery, totalKopecks: goods + delivery });
      expect(receiptItemsKopecks(receipt)).toBe(goods + delivery);
      expect(Math.round(receipt.amounts.electronic * 100)).toBe(goods + delivery);
      for (const item of receipt.Items) {
        expect(Number(item.amount.toFixed(2))).toBe(item.amount);
        expect(item.amount).toBeGreaterThan(0);
        // CloudKassir's rule: amount = price × quantity, to the kopeck.
        expect(Math.round(item.price * 100) * item.quantity).toBe(Math.round(item.amount * 100));
      }
    }
  });

  it('splits an order-level discount not yet on the lines so the items still meet the total', () => {
    const lines = [1_00, 1_00, 1_00].map((p, i) => ({
      title: `Носки ${i}`,
      size: '',
      priceKopecks: p,
      quantity: 1,
      discountKopecks: 0,
    }));
    const receipt = buildReceipt({ ...base, lines, deliveryKopecks: 0, totalKopecks: 2_00 });
    // One kopeck off each of the three equal lines would be 3: the largest remainders take it, earliest first.
    expect(receipt.Items.map((i) => i.amount)).toEqual([0.66, 0.67, 0.67]);
    expect(receiptItemsKopecks(receipt)).toBe(2_00);
    expect(receipt.Items.every((i) => i.amount * 100 <= 100)).toBe(true);
  });

  it('refuses lines that come to less than the total, a negative line and an empty receipt', () => {
    const line = { title: 'Юбка', size: 'S', priceKopecks: 5_000_00, quantity: 1, discountKopecks: 0 };
    expect(() => buildReceipt({ ...base, lines: [line], deliveryKopecks: 0, totalKopecks: 5_000_01 })).toThrow(
      ReceiptError,
    );
    expect(() =>
      buildReceipt({ ...base, lines: [{ ...line, discountKopecks: 5_000_01 }], deliveryKopecks: 0, totalKopecks: 0 }),
    ).toThrow(ReceiptError);
    expect(() =>
      buildReceipt({ ...base, lines: [{ ...line, priceKopecks: 0 }], deliveryKopecks: 0, totalKopecks: 0 }),
    ).toThrow(ReceiptError);
    expect(() =>
      buildReceipt({ ...base, lines: [{ ...line, priceKopecks: 1.5 }], deliveryKopecks: 0, totalKopecks: 1 }),
    ).toThrow(ReceiptError);
  });
});

describe('a receipt with bonuses and a certificate (issue #26)', () => {
  it('folds the bonuses into the unit price and offsets the certificate as an advance payment', () => {
    const receipt = buildReceipt({
      ...base,
      lines: [
        {
          title: 'Мужской вязаный свитер',
          size: '48 (L)',
          priceKopecks: 17_000_00,
          quantity: 1,
          discountKopecks: 0,
          bonusKopecks: 2_000_00,
        },
      ],
      deliveryKopecks: 700_00,
      totalKopecks: 15_700_00,
      advancePaymentKopecks: 5_000_00,
    });
    expect(receipt.Items.map((i) => [i.label, i.price, i.quantity, i.amount])).toEqual([
      ['Мужской вязаный свитер, размер 48 (L)', 15000, 1, 15000],
      ['Доставка', 700, 1, 700],
    ]);
    expect(receipt.amounts).toEqual({ electronic: 10700, advancePayment: 5000 });
    expect(receiptItemsKopecks(receipt)).toBe(15_700_00);
  });

  it('cuts a line whose amount does not divide by its quantity into two items, each price × quantity', () => {
    const receipt = buildReceipt({
      ...base,
      lines: [
        { title: 'Носки', size: '', priceKopecks: 1_000_00, quantity: 3, discountKopecks: 100_00, bonusKopecks: 0 },
      ],
      deliveryKopecks: 0,
      totalKopecks: 2_900_00,
    });
    expect(receipt.Items.map((i) => [i.price, i.quantity, i.amount])).toEqual([
      [966.67, 2, 1933.34],
      [966.66, 1, 966.66],
    ]);
    expect(receiptItemsKopecks(receipt)).toBe(2_900_00);
  });

  it('foldDiscount keeps the amount exactly', () => {
    for (const [amount, q] of [
      [100, 3],
      [1, 2],
      [999_99, 7],
      [15_000_00, 1],
    ] as const) {
      const parts = foldDiscount(amount, q);
      expect(parts.reduce((s, p) => s + p.priceKopecks * p.quantity, 0)).toBe(amount);
      expect(parts.reduce((s, p) => s + p.quantity, 0)).toBe(amount >= q ? q : amount);
    }
  });
});

describe('receiptLabel', () => {
  it('keeps labels within 128 characters', () => {
    expect(receiptLabel('Жакет', '48 (L)')).toBe('Жакет, размер 48 (L)');
    const long = receiptLabel('Очень длинное название '.repeat(10), '50 (XL)');
    expect(long).toHaveLength(RECEIPT_LABEL_MAX);
    expect(long.endsWith('…')).toBe(true);
  });
});
