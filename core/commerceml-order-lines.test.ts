import { describe, expect, it } from 'vitest';
import {
  planOrderLines,
  type OneCOrderLine,
  type SiteOrderForLines,
  type SiteOrderLine,
} from './commerceml-order-lines';
import { formatRub } from './money';
import { orderMoney } from './order-money';

// What the shop takes of the goods 1C sends back in an order (issue #31): each change, each refusal.

const order = (over: Partial<SiteOrderForLines> = {}): SiteOrderForLines => ({
  status: 'confirmed',
  paymentId: '1',
  paid: false,
  deliveryKopecks: 70_000,
  deliveryPending: false,
  certificateKopecks: 0,
  ...over,
});

const line = (over: Partial<SiteOrderLine> = {}): SiteOrderLine => ({
  offerId: 1,
  isPreorder: false,
  isGift: false,
  certificate: false,
  externalId: 'prod-1#size-44',
  title: 'Платье',
  size: '44',
  priceKopecks: 1_000_000,
  oldPriceKopecks: null,
  quantity: 2,
  keptQuantity: null,
  discountKopecks: 0,
  bonusKopecks: 0,
  ...over,
});

const skirt = line({ offerId: 2, externalId: 'prod-2', title: 'Юбка', size: '42', priceKopecks: 500_000, quantity: 1 });

const good = (id: string, quantity: number | string, price: number | string, over: Partial<OneCOrderLine> = {}) => ({
  id,
  name: id,
  price: typeof price === 'number' ? (price / 100).toFixed(2) : price,
  quantity: String(quantity),
  sum: '',
  service: false,
  ...over,
});
const delivery = (kopecks = 70_000) =>
  good('ORDER_DELIVERY', 1, kopecks, { name: 'Доставка курьером по Москве', service: true });

/** The goods exactly as the export wrote them. */
const echo = (lines: SiteOrderLine[]) => [
  ...lines.map((l) => good(l.externalId, l.keptQuantity ?? l.quantity, l.priceKopecks)),
  delivery(),
];

const totalOf = (lines: SiteOrderLine[], over: Partial<SiteOrderForLines> = {}) => {
  const o = order(over);
  return orderMoney({
    lines,
    deliveryKopecks: o.deliveryKopecks,
    certificateKopecks: o.certificateKopecks,
    paymentId: o.paymentId,
  }).totalKopecks;
};

describe('the goods of an order 1C sends back', () => {
  it('does nothing when 1C says nothing of the goods, sends them back as they are, or cancels', () => {
    const lines = [line(), skirt];
    expect(planOrderLines({ order: order(), lines, goods: null, cancelling: false }).kind).toBe('none');
    expect(planOrderLines({ order: order(), lines, goods: undefined, cancelling: false }).kind).toBe('none');
    const same = planOrderLines({ order: order(), lines, goods: echo(lines), cancelling: false });
    expect(same.kind).toBe('none');
    expect(same.decisions.map((d) => d.change)).toEqual(['unchanged', 'unchanged']);
    expect(same.warnings).toEqual([]);
    // 1C cancels the order: its goods do not matter (the cancel gives everything back).
    expect(planOrderLines({ order: order(), lines, goods: [], cancelling: true }).kind).toBe('none');
    expect(planOrderLines({ order: order({ status: 'cancelled' }), lines, goods: [], cancelling: false }).kind).toBe(
      'none',
    );
    // Quantities as 1C writes them ('2.000') and a price with a comma are the same goods.
    const written = [good(line().externalId, '2.000', '10 000,00'), good(skirt.externalId, '1', '5000')];
    expect(planOrderLines({ order: order(), lines, goods: written, cancelling: false }).kind).toBe('none');
  });

  it('applies a lowered quantity: the units back on the shelf, the line keeps its share of the promo and bonuses', () => {
    const dress = line({ quantity: 3, discountKopecks: 100_001, bonusKopecks: 30_000 });
    const lines = [dress, skirt];
    const plan = planOrderLines({
      order: order(),
      lines,
      goods: [good(dress.externalId, 1, dress.priceKopecks), good(skirt.externalId, 1, skirt.priceKopecks), delivery()],
      cancelling: false,
    });
    if (plan.kind !== 'apply') throw new Error(JSON.stringify(plan));
    expect(plan.decisions.map((d) => d.change)).toEqual(['lowered', 'unchanged']);
    // ceil(100 001 × 1 / 3) = 33 334; ceil(30 000 / 3) = 10 000.
    expect(plan.lines).toEqual([
      {
        offerId: 1,
        isPreorder: false,
        quantity: 1,
        priceKopecks: 1_000_000,
        oldPriceKopecks: null,
        discountKopecks: 33_334,
        bonusKopecks: 10_000,
      },
    ]);
    expect(plan.stockBack).toEqual([{ offerId: 1, quantity: 2 }]);
    expect(plan.bonusBackKopecks).toBe(20_000);
    expect(plan.certificateBackKopecks).toBe(0);
    expect(plan.before.totalKopecks).toBe(totalOf(lines));
    const after = [{ ...dress, quantity: 1, discountKopecks: 33_334, bonusKopecks: 10_000 }, skirt];
    expect(plan.after.totalKopecks).toBe(totalOf(after));
    expect(plan.after.totalKopecks).toBe(1_000_000 - 33_334 - 10_000 + 500_000 + 70_000);
    expect(plan.after.promoKopecks).toBe(33_334);
    expect(plan.after.bonusKopecks).toBe(10_000);
    expect(plan.note).toBe(
      `Из 1С: состав заказа изменён («Платье, 44»: 3 → 1 шт.), сумма заказа ${formatRub(3_439_999)} → ${formatRub(1_526_666)}`,
    );
  });

  it('applies a removed line: all its units back, all its bonuses back; a pre-order or the gift cover gives no stock', () => {
    const pre = line({
      offerId: 3,
      externalId: 'prod-3#size-46',
      title: 'Пальто',
      size: '46',
      isPreorder: true,
      quantity: 1,
      bonusKopecks: 5_000,
    });
    const cover = line({
      offerId: 4,
      externalId: 'site-offer-4',
      title: 'Чехол',
      size: '',
      isGift: true,
      priceKopecks: 0,
      quantity: 1,
    });
    const lines = [line(), skirt, pre, cover];
    const plan = planOrderLines({
      order: order({ status: 'new' }),
      lines,
      goods: [good(line().externalId, 2, 1_000_000), delivery()],
      cancelling: false,
    });
    if (plan.kind !== 'apply') throw new Error(JSON.stringify(plan));
    expect(plan.decisions.map((d) => [d.id, d.change])).toEqual([
      ['prod-1#size-44', 'unchanged'],
      ['prod-2', 'removed'],
      ['prod-3#size-46', 'removed'],
      ['site-offer-4', 'removed'],
    ]);
    expect(plan.lines.map((l) => [l.offerId, l.quantity])).toEqual([
      [2, 0],
      [3, 0],
      [4, 0],
    ]);
    expect(plan.stockBack).toEqual([{ offerId: 2, quantity: 1 }]);
    expect(plan.bonusBackKopecks).toBe(5_000);
    expect(plan.after.totalKopecks).toBe(totalOf([line()]));
    expect(plan.note).toContain('«Юбка, 42» убран');
  });

  it('applies a lowered price: the promo and bonus shares fall with it, the rest of the bonuses goes back', () => {
    const dress = line({ quantity: 2, discountKopecks: 200_000, bonusKopecks: 100_000, oldPriceKopecks: 1_200_000 });
    const plan = planOrderLines({
      order: order(),
      lines: [dress],
      goods: [good(dress.externalId, 2, 800_000), delivery()],
      cancelling: false,
    });
    if (plan.kind !== 'apply') throw new Error(JSON.stringify(plan));
    expect(plan.decisions[0]!.change).toBe('price');
    expect(plan.lines[0]).toMatchObject({
      quantity: 2,
      priceKopecks: 800_000,
      oldPriceKopecks: 1_200_000,
      discountKopecks: 160_000,
      bonusKopecks: 80_000,
    });
    expect(plan.stockBack).toEqual([]);
    expect(plan.bonusBackKopecks).toBe(20_000);
    // (2 × 10 000 − 2 000 − 1 000) × 0.8 + 700.
    expect(plan.after.totalKopecks).toBe(1_360_000 + 70_000);
    expect(plan.note).toContain('цена 10\u00a0000\u00a0₽ → 8\u00a0000\u00a0₽');
  });

  it('reads a unit price after the line discounts (some 1C configurations write it so) as no change', () => {
    const dress = line({ quantity: 2, discountKopecks: 200_000 });
    const plan = planOrderLines({
      order: order(),
      lines: [dress],
      goods: [good(dress.externalId, 2, 900_000), delivery()],
      cancelling: false,
    });
    expect(plan.kind).toBe('none');
  });

  it('cuts the certificates to the new total and gives the rest back onto them', () => {
    const lines = [line({ quantity: 1 }), skirt];
    const plan = planOrderLines({
      order: order({ certificateKopecks: 1_200_000 }),
      lines,
      goods: [good(skirt.externalId, 1, skirt.priceKopecks), delivery()],
      cancelling: false,
    });
    if (plan.kind !== 'apply') throw new Error(JSON.stringify(plan));
    // 5 000 + 700 left: the certificates pay all of it, 6 300 goes back onto them.
    expect(plan.after.totalKopecks).toBe(570_000);
    expect(plan.after.certificateKopecks).toBe(570_000);
    expect(plan.after.dueKopecks).toBe(0);
    expect(plan.certificateBackKopecks).toBe(630_000);
  });

  it('refuses a line added, a quantity raised and a price raised: the shopper did not order them', () => {
    const lines = [line(), skirt];
    const added = planOrderLines({
      order: order(),
      lines,
      goods: [...echo(lines), good('prod-9#size-48', 1, 300_000, { name: 'Шарф' })],
      cancelling: false,
    });
    expect(added.kind).toBe('refused');
    if (added.kind !== 'refused') return;
    expect(added.reason).toMatch(/^1С добавил в заказ «Шарф» \(Ид prod-9#size-48\): сайт не добавляет товары/);
    expect(added.decisions.at(-1)).toMatchObject({ change: 'added', quantity: { from: 0, to: 1 } });

    const raised = planOrderLines({
      order: order(),
      lines,
      goods: [good(line().externalId, 3, 1_000_000), good(skirt.externalId, 0, 500_000)],
      cancelling: false,
    });
    expect(raised).toMatchObject({
      kind: 'refused',
      reason: expect.stringMatching(/увеличил количество \(«Платье, 44»: 2 → 3 шт\.\)/),
    });

    const dearer = planOrderLines({
      order: order(),
      lines,
      goods: [good(line().externalId, 2, 1_100_000), good(skirt.externalId, 1, 500_000)],
      cancelling: false,
    });
    expect(dearer).toMatchObject({ kind: 'refused', reason: expect.stringMatching(/^1С повысил цену/) });
  });

  it('refuses a paid order (a lower sum would be a refund), an order awaiting its online payment and one already shipped', () => {
    const lines = [line(), skirt];
    const goods = [good(line().externalId, 1, 1_000_000), good(skirt.externalId, 1, 500_000), delivery()];
    const paid = planOrderLines({ order: order({ paymentId: '9', paid: true }), lines, goods, cancelling: false });
    expect(paid.kind).toBe('refused');
    if (paid.kind !== 'refused') return;
    expect(paid.reason).toBe(
      `заказ уже оплачен онлайн: состав из 1С не применён (сумма уменьшилась бы с 25\u00a0700\u00a0₽ до 15\u00a0700\u00a0₽, разницу 10\u00a0000\u00a0₽ нужно вернуть покупателю); измените заказ вместе с возвратом денег вручную`,
    );
    expect(paid.decisions.map((d) => d.change)).toEqual(['lowered', 'unchanged']);
    expect(planOrderLines({ order: order({ paid: true }), lines, goods, cancelling: false })).toMatchObject({
      kind: 'refused',
      reason: expect.stringMatching(/^заказ уже оплачен: /),
    });
    expect(
      planOrderLines({ order: order({ status: 'awaiting_payment', paymentId: '9' }), lines, goods, cancelling: false }),
    ).toMatchObject({ kind: 'refused', reason: 'заказ ждёт оплаты онлайн: состав заказа на сайте не изменён' });
    expect(planOrderLines({ order: order({ status: 'shipped' }), lines, goods, cancelling: false })).toMatchObject({
      kind: 'refused',
      reason: expect.stringMatching(/^заказ «Передан в доставку»: состав меняется только до передачи в доставку/),
    });
  });

  it('after a fitting compares the kept units (what the export sent), and refuses a change then', () => {
    const fitted = [line({ keptQuantity: 1 }), { ...skirt, keptQuantity: 0 }];
    const goods = [good(line().externalId, 1, 1_000_000), delivery()];
    expect(planOrderLines({ order: order({ status: 'received' }), lines: fitted, goods, cancelling: false }).kind).toBe(
      'none',
    );
    expect(
      planOrderLines({ order: order({ status: 'received' }), lines: fitted, goods: [delivery()], cancelling: false })
        .kind,
    ).toBe('refused');
  });

  it('refuses what it cannot read or tell apart, every good removed, and a certificate line', () => {
    const lines = [line(), skirt];
    expect(
      planOrderLines({
        order: order(),
        lines,
        goods: [good(line().externalId, 'два', 1_000_000)],
        cancelling: false,
      }),
    ).toMatchObject({ kind: 'refused', reason: expect.stringMatching(/количество или цена не число/) });
    expect(planOrderLines({ order: order(), lines, goods: [delivery()], cancelling: false })).toMatchObject({
      kind: 'refused',
      reason: expect.stringMatching(/^1С убрал из заказа все товары/),
    });
    const twice = [line(), line({ isPreorder: true, quantity: 1 })];
    expect(
      planOrderLines({
        order: order(),
        lines: twice,
        goods: [good(line().externalId, 2, 1_000_000)],
        cancelling: false,
      }),
    ).toMatchObject({ kind: 'refused', reason: expect.stringMatching(/дважды в заказе/) });
    // Both lines of one Ид as they are: nothing to tell apart.
    expect(
      planOrderLines({
        order: order(),
        lines: twice,
        goods: [good(line().externalId, 3, 1_000_000)],
        cancelling: false,
      }).kind,
    ).toBe('none');
    const card = [line(), { ...skirt, certificate: true }];
    expect(
      planOrderLines({
        order: order(),
        lines: card,
        goods: [good(line().externalId, 2, 1_000_000)],
        cancelling: false,
      }),
    ).toMatchObject({ kind: 'refused', reason: expect.stringMatching(/подарочного сертификата/) });
  });

  it('warns of another delivery price and never applies it', () => {
    const lines = [line(), skirt];
    const plan = planOrderLines({
      order: order(),
      lines,
      goods: [...echo(lines).slice(0, 2), delivery(50_000)],
      cancelling: false,
    });
    expect(plan.kind).toBe('none');
    expect(plan.warnings).toEqual([
      'стоимость доставки в 1С (500\u00a0₽) не та, что в заказе (700\u00a0₽): на сайте доставка не меняется',
    ]);
  });
});
