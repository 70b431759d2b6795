import { describe, expect, it } from 'vitest';
import { amountDue, moneyRows, orderMoney, planRefund, refundMeans, type MoneyLine, type ReturnLine } from './order-money';

const line = (p: Partial<ReturnLine>): ReturnLine => ({
  unitPriceKopecks: 1_000_000,
  quantity: 1,
  returnedBefore: 0,
  returning: 1,
  discountKopecks: 0,
  bonusKopecks: 0,
  ...p,
});
const paid = { certificatePaidKopecks: 0, certificateRefundedKopecks: 0, providerPaidKopecks: 0, providerRefundedKopecks: 0, deliveryKopecks: 0 };

describe('order money', () => {
  it('leaves the rest after certificates to the provider', () => {
    expect(amountDue({ totalKopecks: 1_070_000, certificateKopecks: 500_000 })).toBe(570_000);
  });

  it('gives a card order its money back through the card, delivery only when asked', () => {
    expect(planRefund({ ...paid, lines: [line({})], providerPaidKopecks: 1_070_000 })).toEqual({
      bonusKopecks: 0,
      certificateKopecks: 0,
      providerKopecks: 1_000_000,
      moneyKopecks: 1_000_000,
    });
    expect(planRefund({ ...paid, lines: [line({})], providerPaidKopecks: 1_070_000, deliveryKopecks: 70_000 }).providerKopecks).toBe(1_070_000);
  });

  it('gives certificates back first, so a certificate never becomes money on a card', () => {
    const plan = planRefund({ ...paid, lines: [line({})], certificatePaidKopecks: 500_000, providerPaidKopecks: 1_500_000 });
    expect(plan).toMatchObject({ certificateKopecks: 500_000, providerKopecks: 500_000 });
    const again = planRefund({
      ...paid,
      lines: [line({})],
      certificatePaidKopecks: 500_000,
      certificateRefundedKopecks: 500_000,
      providerPaidKopecks: 1_500_000,
      providerRefundedKopecks: 500_000,
    });
    expect(again).toMatchObject({ certificateKopecks: 0, providerKopecks: 1_000_000 });
  });

  it('returns the bonuses spent on the returned units as bonuses, and their money net of them', () => {
    const plan = planRefund({
      ...paid,
      lines: [line({ quantity: 3, returning: 1, discountKopecks: 100, bonusKopecks: 100_000 })],
      providerPaidKopecks: 3_000_000,
    });
    expect(plan.bonusKopecks).toBe(33_333);
    expect(plan.providerKopecks).toBe(Math.round((3_000_000 - 100 - 100_000) / 3));
  });

  it('adds up exactly over partial returns of one line', () => {
    const l = { quantity: 3, discountKopecks: 101, bonusKopecks: 100_001 };
    let money = 0;
    let bonus = 0;
    for (let i = 0; i < 3; i++) {
      const p = planRefund({ ...paid, lines: [line({ ...l, returnedBefore: i, returning: 1 })], providerPaidKopecks: 10_000_000 });
      money += p.moneyKopecks;
      bonus += p.bonusKopecks;
    }
    expect(money).toBe(3_000_000 - 101 - 100_001);
    expect(bonus).toBe(100_001);
  });

  it('never gives back more than was paid, nor returns more than was bought', () => {
    expect(planRefund({ ...paid, lines: [line({})], providerPaidKopecks: 300_000 }).moneyKopecks).toBe(300_000);
    expect(() => planRefund({ ...paid, lines: [line({ returnedBefore: 1 })] })).toThrow(RangeError);
  });

  it('refunds through the provider of the payment id', () => {
    expect(refundMeans('9')).toBe('cloudpayments');
    expect(refundMeans('10')).toBe('dolyami');
    expect(refundMeans('11')).toBe('yandex-split');
    expect(refundMeans('1')).toBe('transfer');
  });
});

const sweater = (p: Partial<MoneyLine> = {}): MoneyLine => ({
  priceKopecks: 17_000_00,
  oldPriceKopecks: null,
  quantity: 1,
  discountKopecks: 0,
  bonusKopecks: 0,
  ...p,
});
// formatRub joins with no-break spaces; plain ones read better here.
const plain = (s: string) => s.replace(/\u00a0/g, ' ');
const texts = (rows: ReturnType<typeof moneyRows>) => rows.map((r) => plain(`${r.label}: ${r.text}`));
const last = (rows: ReturnType<typeof moneyRows>) => texts(rows).at(-1);

describe('orderMoney (issue #26: one breakdown everywhere)', () => {
  it('leaves the courier only what the certificate did not pay', () => {
    const b = orderMoney({ lines: [sweater({ discountKopecks: 1_700_00 })], deliveryKopecks: 700_00, certificateKopecks: 5_000_00, paymentId: '1' });
    expect(b).toMatchObject({ totalKopecks: 16_000_00, dueKopecks: 11_000_00, onReceiptKopecks: 11_000_00, paidOnlineKopecks: 0, channel: 'receipt' });
    expect(texts(moneyRows(b))).toEqual([
      'Товары: 17 000 ₽',
      'Скидка по промокоду: −1 700 ₽',
      'Доставка: 700 ₽',
      'Итого: 16 000 ₽',
      'Подарочными сертификатами: −5 000 ₽',
      'К оплате при получении: 11 000 ₽',
    ]);
  });

  it('counts the bonuses as a discount and the card payment as what was charged', () => {
    const lines = [sweater({ bonusKopecks: 2_000_00 })];
    const unpaid = orderMoney({ lines, deliveryKopecks: 700_00, certificateKopecks: 5_000_00, paymentId: '9' });
    expect(unpaid).toMatchObject({ bonusKopecks: 2_000_00, totalKopecks: 15_700_00, dueKopecks: 10_700_00, onReceiptKopecks: 0 });
    expect(last(moneyRows(unpaid))).toBe('К оплате: 10 700 ₽');
    const paid = orderMoney({ lines, deliveryKopecks: 700_00, certificateKopecks: 5_000_00, paymentId: '9', paid: true, paidKopecks: 10_700_00 });
    expect(texts(moneyRows(paid))).toEqual([
      'Товары: 17 000 ₽',
      'Бонусами: −2 000 ₽',
      'Доставка: 700 ₽',
      'Итого: 15 700 ₽',
      'Подарочными сертификатами: −5 000 ₽',
      'Оплачено онлайн: 10 700 ₽',
    ]);
  });

  it('shows a sale as a discount of its own, free and unknown delivery as words', () => {
    const b = orderMoney({ lines: [sweater({ oldPriceKopecks: 20_000_00, quantity: 2 })], deliveryKopecks: 0, certificateKopecks: 0, paymentId: '9' });
    expect(b).toMatchObject({ goodsKopecks: 40_000_00, saleKopecks: 6_000_00, itemsKopecks: 34_000_00, totalKopecks: 34_000_00 });
    expect(texts(moneyRows(b))).toEqual(['Товары: 40 000 ₽', 'Скидка распродажи: −6 000 ₽', 'Доставка: бесплатно', 'К оплате: 34 000 ₽']);
    const pending = orderMoney({ lines: [sweater()], deliveryKopecks: null, certificateKopecks: 0, paymentId: '1' });
    expect(moneyRows(pending).find((r) => r.key === 'delivery')?.text).toBe('стоимость уточнит менеджер');
    expect(pending.onReceiptKopecks).toBe(17_000_00);
  });

  it('after the fitting shows what the courier took', () => {
    const b = orderMoney({ lines: [sweater()], deliveryKopecks: 700_00, certificateKopecks: 0, paymentId: '1', paidKopecks: 700_00 });
    expect(b).toMatchObject({ collectedKopecks: 700_00, onReceiptKopecks: 0 });
    expect(last(moneyRows(b))).toBe('Оплачено при получении: 700 ₽');
  });

  it('refuses certificates above the total and discounts above the goods', () => {
    expect(() => orderMoney({ lines: [sweater()], deliveryKopecks: 0, certificateKopecks: 17_000_01, paymentId: '9' })).toThrow(RangeError);
    expect(() => orderMoney({ lines: [sweater({ discountKopecks: 17_000_01 })], deliveryKopecks: 0, certificateKopecks: 0, paymentId: '9' })).toThrow(
      RangeError,
    );
    expect(() => orderMoney({ lines: [sweater({ priceKopecks: 1.5 })], deliveryKopecks: 0, certificateKopecks: 0, paymentId: '9' })).toThrow(RangeError);
  });
});
