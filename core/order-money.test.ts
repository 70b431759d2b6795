import { describe, expect, it } from 'vitest';
import {
  amountDue,
  basketMoneyLines,
  checkoutMoney,
  moneyRows,
  orderMoney,
  planRefund,
  refundMeans,
  type BasketMoneyLine,
  type CheckoutMoneyInput,
  type MoneyLine,
  type ReturnLine,
} from './order-money';

const line = (p: Partial<ReturnLine>): ReturnLine => ({
  unitPriceKopecks: 1_000_000,
  quantity: 1,
  returnedBefore: 0,
  returning: 1,
  discountKopecks: 0,
  bonusKopecks: 0,
  ...p,
});
const paid = {
  certificatePaidKopecks: 0,
  certificateRefundedKopecks: 0,
  providerPaidKopecks: 0,
  providerRefundedKopecks: 0,
  deliveryKopecks: 0,
};

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
    expect(
      planRefund({ ...paid, lines: [line({})], providerPaidKopecks: 1_070_000, deliveryKopecks: 70_000 })
        .providerKopecks,
    ).toBe(1_070_000);
  });

  it('gives certificates back first, so a certificate never becomes money on a card', () => {
    const plan = planRefund({
      ...paid,
      lines: [line({})],
      certificatePaidKopecks: 500_000,
      providerPaidKopecks: 1_500_000,
    });
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
      const p = planRefund({
        ...paid,
        lines: [line({ ...l, returnedBefore: i, returning: 1 })],
        providerPaidKopecks: 10_000_000,
      });
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
    const b = orderMoney({
      lines: [sweater({ discountKopecks: 1_700_00 })],
      deliveryKopecks: 700_00,
      certificateKopecks: 5_000_00,
      paymentId: '1',
    });
    expect(b).toMatchObject({
      totalKopecks: 16_000_00,
      dueKopecks: 11_000_00,
      onReceiptKopecks: 11_000_00,
      paidOnlineKopecks: 0,
      channel: 'receipt',
    });
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
    expect(unpaid).toMatchObject({
      bonusKopecks: 2_000_00,
      totalKopecks: 15_700_00,
      dueKopecks: 10_700_00,
      onReceiptKopecks: 0,
    });
    expect(last(moneyRows(unpaid))).toBe('К оплате: 10 700 ₽');
    const paid = orderMoney({
      lines,
      deliveryKopecks: 700_00,
      certificateKopecks: 5_000_00,
      paymentId: '9',
      paid: true,
      paidKopecks: 10_700_00,
    });
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
    const b = orderMoney({
      lines: [sweater({ oldPriceKopecks: 20_000_00, quantity: 2 })],
      deliveryKopecks: 0,
      certificateKopecks: 0,
      paymentId: '9',
    });
    expect(b).toMatchObject({
      goodsKopecks: 40_000_00,
      saleKopecks: 6_000_00,
      itemsKopecks: 34_000_00,
      totalKopecks: 34_000_00,
    });
    expect(texts(moneyRows(b))).toEqual([
      'Товары: 40 000 ₽',
      'Скидка распродажи: −6 000 ₽',
      'Доставка: бесплатно',
      'К оплате: 34 000 ₽',
    ]);
    const pending = orderMoney({ lines: [sweater()], deliveryKopecks: null, certificateKopecks: 0, paymentId: '1' });
    expect(moneyRows(pending).find((r) => r.key === 'delivery')?.text).toBe('стоимость уточнит менеджер');
    expect(pending.onReceiptKopecks).toBe(17_000_00);
  });

  it('after the fitting shows what the courier took', () => {
    const b = orderMoney({
      lines: [sweater()],
      deliveryKopecks: 700_00,
      certificateKopecks: 0,
      paymentId: '1',
      paidKopecks: 700_00,
    });
    expect(b).toMatchObject({ collectedKopecks: 700_00, onReceiptKopecks: 0 });
    expect(last(moneyRows(b))).toBe('Оплачено при получении: 700 ₽');
  });

  it('refuses certificates above the total and discounts above the goods', () => {
    expect(() =>
      orderMoney({ lines: [sweater()], deliveryKopecks: 0, certificateKopecks: 17_000_01, paymentId: '9' }),
    ).toThrow(RangeError);
    expect(() =>
      orderMoney({
        lines: [sweater({ discountKopecks: 17_000_01 })],
        deliveryKopecks: 0,
        certificateKopecks: 0,
        paymentId: '9',
      }),
    ).toThrow(RangeError);
    expect(() =>
      orderMoney({
        lines: [sweater({ priceKopecks: 1.5 })],
        deliveryKopecks: 0,
        certificateKopecks: 0,
        paymentId: '9',
      }),
    ).toThrow(RangeError);
  });
});

describe('checkoutMoney (issue #26: the checkout summary is the order’s breakdown before it exists)', () => {
  const basketLine = (p: Partial<BasketMoneyLine> = {}): BasketMoneyLine => ({
    priceKopecks: 17_000_00,
    oldPriceKopecks: null,
    quantity: 1,
    discountKopecks: 0,
    certificate: false,
    ...p,
  });
  const input = (p: Partial<CheckoutMoneyInput> = {}): CheckoutMoneyInput => ({
    lines: [basketLine()],
    deliveryKopecks: 700_00,
    bonusKopecks: 0,
    certificateBalancesKopecks: [],
    paymentId: '1',
    ...p,
  });

  it('is what orderMoney says of the placed order: promo, certificate, on receipt', () => {
    const b = checkoutMoney(
      input({ lines: [basketLine({ discountKopecks: 1_700_00 })], certificateBalancesKopecks: [5_000_00] }),
    );
    expect(texts(moneyRows(b))).toEqual([
      'Товары: 17 000 ₽',
      'Скидка по промокоду: −1 700 ₽',
      'Доставка: 700 ₽',
      'Итого: 16 000 ₽',
      'Подарочными сертификатами: −5 000 ₽',
      'К оплате при получении: 11 000 ₽',
    ]);
  });

  it('spreads the bonuses over the lines as placeOrder does, and cuts them to what the lines can take', () => {
    const lines = [
      basketLine(),
      basketLine({ priceKopecks: 3_333_33, oldPriceKopecks: 5_000_00 }),
      basketLine({ priceKopecks: 1_234_56, quantity: 3 }),
    ];
    const b = checkoutMoney(input({ lines, bonusKopecks: 2_000_00, paymentId: '9' }));
    expect(b).toMatchObject({
      bonusKopecks: 2_000_00,
      saleKopecks: 1_666_67,
      dueKopecks: 17_000_00 + 3_333_33 + 3_703_68 - 2_000_00 + 700_00,
    });
    // 20 % of the eligible lines (not the sale line), whole roubles.
    expect(checkoutMoney(input({ lines, bonusKopecks: 100_000_00 })).bonusKopecks).toBe(4_140_00);
  });

  it('lets certificates pay the whole order but never a certificate line; the card pays the rest', () => {
    expect(checkoutMoney(input({ certificateBalancesKopecks: [50_000_00], paymentId: '9' }))).toMatchObject({
      certificateKopecks: 17_700_00,
      dueKopecks: 0,
    });
    const withCertificate = [basketLine(), basketLine({ priceKopecks: 5_000_00, certificate: true })];
    const b = checkoutMoney(
      input({
        lines: withCertificate,
        certificateBalancesKopecks: [3_000_00, 50_000_00],
        paymentId: '9',
        bonusKopecks: 1_000_00,
      }),
    );
    expect(b).toMatchObject({
      totalKopecks: 21_700_00,
      certificateKopecks: 16_700_00,
      dueKopecks: 5_000_00,
      bonusKopecks: 1_000_00,
    });
    expect(last(moneyRows(b))).toBe('К оплате: 5 000 ₽');
  });

  it('leaves delivery unknown until it is quoted', () => {
    const b = checkoutMoney(input({ deliveryKopecks: null }));
    expect(b).toMatchObject({ deliveryKopecks: null, totalKopecks: 17_000_00, onReceiptKopecks: 17_000_00 });
  });

  it('reads get_cart.php’s lines: the in-basket size’s price, the old price, the promo share, certificates; the gift cover at 0 ₽', () => {
    const offer = (id: number, price: number, old: number | null, inBasket: boolean) => ({
      ID: id,
      PRICE: price,
      OLD_PRICE: old,
      QUANTITY: inBasket ? 2 : 0,
      QUANTITY_AVAILABLE: 5,
      IN_BASKET: inBasket ? ('Y' as const) : ('N' as const),
      IS_PREORDER: 'N' as const,
      IS_GIFT: 'N' as const,
      IMAGE_SRC: null,
      SIZE: null,
    });
    const item = (id: number, extra: object, offers: ReturnType<typeof offer>[]) => ({
      ID: id,
      IS_PREORDER: 'N' as const,
      IS_GIFT: 'N' as const,
      QUANTITY: 2,
      SUM: 0,
      DISCOUNT: 0,
      SUM_WITH_DISCOUNT: 0,
      PRODUCT: { ID: 1, NAME: '', DETAIL_PAGE_URL: '', COLOR: '', IMAGE_SRC: null },
      OFFERS: offers,
      ...extra,
    });
    const lines = basketMoneyLines({
      items: [
        item(11, { SUM: 24_000.02, DISCOUNT: 2_400.01 }, [
          offer(10, 9_000, null, false),
          offer(11, 12_000.01, 15_000, true),
        ]),
        item(12, { SUM: 10_000, CERTIFICATE: 'electronic' }, [offer(12, 5_000, null, true)]),
        item(13, { IS_GIFT: 'Y', QUANTITY: 1 }, []),
      ],
    });
    expect(lines).toEqual([
      {
        priceKopecks: 12_000_01,
        oldPriceKopecks: 15_000_00,
        quantity: 2,
        discountKopecks: 2_400_01,
        certificate: false,
      },
      { priceKopecks: 5_000_00, oldPriceKopecks: null, quantity: 2, discountKopecks: 0, certificate: true },
      { priceKopecks: 0, oldPriceKopecks: null, quantity: 1, discountKopecks: 0, certificate: false },
    ]);
  });
});
