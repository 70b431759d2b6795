import { describe, expect, it } from 'vitest';
import { GIFT_COVER_OFFER_ID } from './basket';
import {
  FITTING_TEXT,
  fittingAmountKopecks,
  fittingLineKopecks,
  fittingNote,
  giftCoversKept,
  keptDiscountKopecks,
  planFitting,
  settleFitting,
  type FittingOrderLine,
} from './fitting';

const coat: FittingOrderLine = {
  offerId: 11,
  title: 'Пальто Аврора',
  quantity: 2,
  priceKopecks: 2_990_000,
  discountKopecks: 299_001,
  isPreorder: false,
  isGift: false,
};
const scarf: FittingOrderLine = {
  offerId: 12,
  title: 'Шарф Лён',
  quantity: 3,
  priceKopecks: 345_050,
  discountKopecks: 100,
  isPreorder: false,
  isGift: false,
};
const cover: FittingOrderLine = {
  offerId: GIFT_COVER_OFFER_ID,
  title: 'Чехол для пальто',
  quantity: 2,
  priceKopecks: 0,
  discountKopecks: 0,
  isPreorder: false,
  isGift: true,
};
const preCoat: FittingOrderLine = {
  offerId: 13,
  title: 'Полупальто Ветер',
  quantity: 1,
  priceKopecks: 2_500_000,
  discountKopecks: 0,
  isPreorder: true,
  isGift: false,
};

describe('the kept share of a promo discount', () => {
  it('rounds up in the shopper’s favour and is exact at both ends', () => {
    expect(keptDiscountKopecks(100, 3, 0)).toBe(0);
    expect(keptDiscountKopecks(100, 3, 1)).toBe(34);
    expect(keptDiscountKopecks(100, 3, 2)).toBe(67);
    expect(keptDiscountKopecks(100, 3, 3)).toBe(100);
    expect(keptDiscountKopecks(0, 5, 4)).toBe(0);
    expect(keptDiscountKopecks(299_001, 2, 1)).toBe(149_501);
  });

  it('never charges more than the proportional price, over every split', () => {
    for (const quantity of [1, 2, 3, 7, 10]) {
      for (const discount of [0, 1, 99, 100_001, 1_234_567]) {
        for (let kept = 0; kept <= quantity; kept++) {
          const share = keptDiscountKopecks(discount, quantity, kept);
          expect(Number.isInteger(share)).toBe(true);
          expect(share * quantity).toBeGreaterThanOrEqual(discount * kept);
          expect(share - (discount * kept) / quantity).toBeLessThan(1);
        }
      }
    }
  });

  it('refuses impossible counts', () => {
    expect(() => keptDiscountKopecks(100, 2, 3)).toThrow(RangeError);
    expect(() => keptDiscountKopecks(100, 0, 0)).toThrow(RangeError);
    expect(() => keptDiscountKopecks(100, 2, -1)).toThrow(RangeError);
    expect(() => keptDiscountKopecks(100, 2, 0.5)).toThrow(RangeError);
  });
});

describe('the amount paid at the door', () => {
  it('is the kept lines less their discount share, plus the courier even when all is handed back', () => {
    expect(fittingLineKopecks(coat, 1)).toBe(2_990_000 - 149_501);
    expect(fittingLineKopecks(scarf, 2)).toBe(690_100 - 67);
    const lines = [
      { ...coat, kept: 1 },
      { ...scarf, kept: 2 },
    ];
    expect(fittingAmountKopecks({ lines, deliveryKopecks: 70_000 })).toBe(2_990_000 - 149_501 + 690_100 - 67 + 70_000);
    expect(fittingAmountKopecks({ lines: lines.map((l) => ({ ...l, kept: 0 })), deliveryKopecks: 70_000 })).toBe(
      70_000,
    );
    // Keeping everything pays exactly what the order said.
    const all = [coat, scarf].map((l) => ({ ...l, kept: l.quantity }));
    const ordered = [coat, scarf].reduce((s, l) => s + l.priceKopecks * l.quantity - l.discountKopecks, 0);
    expect(fittingAmountKopecks({ lines: all, deliveryKopecks: 70_000 })).toBe(ordered + 70_000);
  });

  it('gives one gift cover per coat kept or still coming as a pre-order', () => {
    expect(giftCoversKept({ covers: 2, coatsKept: 1, coatsPreordered: 0 })).toBe(1);
    expect(giftCoversKept({ covers: 2, coatsKept: 0, coatsPreordered: 1 })).toBe(1);
    expect(giftCoversKept({ covers: 2, coatsKept: 3, coatsPreordered: 1 })).toBe(2);
    expect(giftCoversKept({ covers: 0, coatsKept: 1, coatsPreordered: 0 })).toBe(0);
  });
});

describe('planning a fitting from what staff wrote down', () => {
  it('prices a partial buyout and lets the cover follow the coats', () => {
    const plan = planFitting({
      order: [coat, scarf, cover],
      given: [
        { offerId: 11, kept: 1, refused: 1 },
        { offerId: 12, kept: 3, refused: 0 },
      ],
      deliveryKopecks: 70_000,
    });
    expect(plan).toEqual({
      ok: true,
      lines: [
        { offerId: 11, isGift: false, kept: 1, refused: 1, paidKopecks: 2_840_499 },
        { offerId: 12, isGift: false, kept: 3, refused: 0, paidKopecks: 1_035_050 },
        { offerId: GIFT_COVER_OFFER_ID, isGift: true, kept: 1, refused: 1, paidKopecks: 0 },
      ],
      kept: 4,
      refused: 1,
      itemsKopecks: 2_840_499 + 1_035_050,
      deliveryKopecks: 70_000,
      totalKopecks: 2_840_499 + 1_035_050 + 70_000,
    });
  });

  it('leaves pre-orders out (they ship apart) but keeps their covers', () => {
    const plan = planFitting({
      order: [coat, preCoat, cover],
      given: [{ offerId: 11, kept: 0, refused: 2 }],
      deliveryKopecks: 70_000,
    });
    expect(plan.ok && plan.lines.map((l) => [l.offerId, l.kept, l.refused])).toEqual([
      [11, 0, 2],
      [GIFT_COVER_OFFER_ID, 1, 1],
    ]);
    expect(plan.ok && plan.totalKopecks).toBe(70_000);
  });

  it('answers every mistake in Russian, by line', () => {
    const plan = planFitting({
      order: [coat, scarf, cover, preCoat],
      given: [
        { offerId: 11, kept: 1, refused: 0 },
        { offerId: 13, kept: 1, refused: 0 },
        { offerId: GIFT_COVER_OFFER_ID, kept: 1, refused: 0 },
        { offerId: 99, kept: 1, refused: 0 },
      ],
      deliveryKopecks: 70_000,
    });
    expect(plan).toEqual({
      ok: false,
      errors: {
        'lines[11]': '«Пальто Аврора»: оставлено и возвращено вместе должно быть 2 (в заказе), а указано 1',
        'lines[13]': '«Полупальто Ветер»: предзаказ привозят отдельно, в этой примерке его нет',
        [`lines[${GIFT_COVER_OFFER_ID}]`]: FITTING_TEXT.gift,
        'lines[99]': 'Товара №99 нет в этом заказе',
        'lines[12]': '«Шарф Лён»: укажите, сколько оставлено и сколько возвращено',
      },
    });
    const negative = planFitting({ order: [coat], given: [{ offerId: 11, kept: 3, refused: -1 }], deliveryKopecks: 0 });
    expect(negative).toEqual({
      ok: false,
      errors: { 'lines[11]': '«Пальто Аврора»: оставлено и возвращено — целые числа от 0' },
    });
    const twice = planFitting({
      order: [coat],
      given: [
        { offerId: 11, kept: 2, refused: 0 },
        { offerId: 11, kept: 2, refused: 0 },
      ],
      deliveryKopecks: 0,
    });
    expect(twice).toEqual({ ok: false, errors: { 'lines[11]': 'Товар №11 указан дважды' } });
    expect(planFitting({ order: [preCoat], given: [], deliveryKopecks: 0 })).toEqual({
      ok: false,
      errors: { lines: FITTING_TEXT.empty },
    });
  });

  it('writes the history note', () => {
    expect(fittingNote(2, 1)).toBe('Примерка: оставлено 2, возвращено 1');
    expect(fittingNote(0, 2, 430_000).replace(/\u00a0/g, ' ')).toBe(
      'Примерка: оставлено 0, возвращено 2; на подарочные сертификаты вернули 4 300 ₽',
    );
  });
});

describe('settleFitting (issue #26: certificates an advance, given back when unused)', () => {
  // 17 000 ₽ of goods and 700 ₽ of delivery; 5 000 ₽ paid with a certificate.
  const order = { totalKopecks: 1_770_000, certificateKopecks: 500_000, preorderKopecks: 0 };

  it('on receipt: the courier takes what the certificate does not cover; the unused certificate money goes back to it', () => {
    expect(settleFitting({ ...order, keptKopecks: 1_070_000, online: false })).toEqual({
      paidKopecks: 570_000,
      refundKopecks: 0,
      certificateBackKopecks: 0,
    });
    expect(settleFitting({ ...order, keptKopecks: 370_000, online: false })).toEqual({
      paidKopecks: 0,
      refundKopecks: 0,
      certificateBackKopecks: 130_000,
    });
    // All handed back: the courier's 700 ₽ comes out of the certificate, the rest goes back.
    expect(settleFitting({ ...order, keptKopecks: 70_000, online: false })).toEqual({
      paidKopecks: 0,
      refundKopecks: 0,
      certificateBackKopecks: 430_000,
    });
    expect(settleFitting({ ...order, certificateKopecks: 0, keptKopecks: 70_000, online: false })).toEqual({
      paidKopecks: 70_000,
      refundKopecks: 0,
      certificateBackKopecks: 0,
    });
  });

  it('paid online: the card keeps what the kept items cost beyond the certificate, the rest of the charge is refunded', () => {
    // The card paid 12 700 ₽.
    expect(settleFitting({ ...order, keptKopecks: 1_070_000, online: true })).toEqual({
      paidKopecks: 570_000,
      refundKopecks: 700_000,
      certificateBackKopecks: 0,
    });
    expect(settleFitting({ ...order, keptKopecks: 70_000, online: true })).toEqual({
      paidKopecks: 0,
      refundKopecks: 1_270_000,
      certificateBackKopecks: 430_000,
    });
    expect(settleFitting({ ...order, certificateKopecks: 0, keptKopecks: 1_070_000, online: true })).toEqual({
      paidKopecks: 1_070_000,
      refundKopecks: 700_000,
      certificateBackKopecks: 0,
    });
  });

  it('keeps the certificate money the pre-orders still to come need', () => {
    const withPreorder = { totalKopecks: 2_770_000, certificateKopecks: 1_500_000, preorderKopecks: 1_000_000 };
    expect(settleFitting({ ...withPreorder, keptKopecks: 70_000, online: false })).toEqual({
      paidKopecks: 0,
      refundKopecks: 0,
      certificateBackKopecks: 430_000,
    });
    expect(settleFitting({ ...withPreorder, keptKopecks: 70_000, online: true })).toEqual({
      paidKopecks: 0,
      refundKopecks: 1_270_000,
      certificateBackKopecks: 430_000,
    });
  });

  it('moves every kopeck somewhere: what the card keeps and refunds is what it charged; the certificate keeps what it covers', () => {
    for (const kept of [0, 1, 70_000, 499_999, 500_000, 500_001, 1_770_000])
      for (const certificate of [0, 1, 500_000, 1_770_000])
        for (const online of [false, true]) {
          const s = settleFitting({
            totalKopecks: 1_770_000,
            certificateKopecks: certificate,
            preorderKopecks: 0,
            keptKopecks: kept,
            online,
          });
          expect(certificate - s.certificateBackKopecks + s.paidKopecks).toBe(
            Math.max(kept, certificate - s.certificateBackKopecks),
          );
          if (online) expect(s.paidKopecks + s.refundKopecks).toBe(1_770_000 - certificate);
          expect(Math.min(s.paidKopecks, s.certificateBackKopecks)).toBe(0);
        }
    expect(() => settleFitting({ ...order, keptKopecks: -1, online: false })).toThrow(RangeError);
  });
});
