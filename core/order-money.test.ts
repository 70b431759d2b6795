import { describe, expect, it } from 'vitest';
import { amountDue, planRefund, refundMeans, type ReturnLine } from './order-money';

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
