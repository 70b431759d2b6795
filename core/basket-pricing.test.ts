import { describe, expect, it } from 'vitest';
import { GIFT_COVER_OFFER_ID } from './basket';
import {
  NOTICE_GONE,
  noticeCut,
  noticeNoPreorder,
  noticeSoldOut,
  priceBasket,
  reconcileBasket,
  type OfferFacts,
} from './basket-pricing';
import type { PromoCode } from './promo';
import { backInStockText } from './waiting-list';

const facts = (offerId: number, over: Partial<OfferFacts> = {}): OfferFacts => ({
  offerId,
  productName: 'Брюки',
  sizeLabel: '44 (S)',
  priceKopecks: 900_000,
  oldPriceKopecks: null,
  available: 5,
  preorder: false,
  active: true,
  ...over,
});

const catalog = new Map<number, OfferFacts>([
  [1, facts(1, { productName: 'Пальто Аврора', priceKopecks: 3_200_000, available: 3 })],
  [2, facts(2)],
  [3, facts(3, { available: 0, preorder: true, productName: 'Полупальто Север' })],
  [4, facts(4, { available: 0 })],
  [5, facts(5, { active: false })],
  [6, facts(6, { priceKopecks: 700_000, oldPriceKopecks: 1_000_000 })],
  [
    GIFT_COVER_OFFER_ID,
    facts(GIFT_COVER_OFFER_ID, { productName: 'Чехол для одежды', priceKopecks: 0, active: false, available: 0 }),
  ],
]);

const promo = (over: Partial<PromoCode> = {}): PromoCode => ({
  code: 'VITRINA10',
  kind: 'percent',
  percent: 10,
  amountKopecks: null,
  minBasketKopecks: 0,
  validFrom: null,
  validTo: null,
  totalLimit: null,
  perCustomerLimit: null,
  usedTotal: 0,
  usedByCustomer: 0,
  excludeSale: true,
  active: true,
  ...over,
});

describe('reconcileBasket', () => {
  it('drops unknown and inactive offers, cuts to stock, and says so', () => {
    const r = reconcileBasket({
      cart: [
        { offerId: 1, quantity: 5 },
        { offerId: 2, quantity: 1 },
        { offerId: 99, quantity: 1 },
        { offerId: 5, quantity: 1 },
        { offerId: 4, quantity: 2 },
      ],
      preorders: [],
      offers: catalog,
    });
    expect(r.cart).toEqual([
      { offerId: 1, quantity: 3 },
      { offerId: 2, quantity: 1 },
    ]);
    expect(r.notices).toEqual([
      noticeCut(catalog.get(1) as OfferFacts),
      NOTICE_GONE,
      noticeSoldOut(catalog.get(4) as OfferFacts),
    ]);
    expect(r.soldOut.map((o) => o.offerId)).toEqual([4]);
  });

  it('keeps pre-orders only where pre-order is open, and never takes the gift from the request', () => {
    const r = reconcileBasket({
      cart: [{ offerId: GIFT_COVER_OFFER_ID, quantity: 50 }],
      preorders: [
        { offerId: 3, quantity: 2 },
        { offerId: 2, quantity: 1 },
      ],
      offers: catalog,
    });
    expect(r.cart).toEqual([]);
    expect(r.preorders).toEqual([{ offerId: 3, quantity: 2 }]);
    expect(r.notices).toEqual([noticeNoPreorder(catalog.get(2) as OfferFacts)]);
    // Two pre-ordered half-coats: two covers, whatever the request claimed.
    expect(r.giftCovers).toBe(2);
  });
});

describe('priceBasket', () => {
  const basket = {
    cart: [
      { offerId: 1, quantity: 1 },
      { offerId: 2, quantity: 3 },
      { offerId: 6, quantity: 1 },
    ],
    preorders: [{ offerId: 3, quantity: 1 }],
    giftCovers: 2,
  };
  const gift = catalog.get(GIFT_COVER_OFFER_ID) as OfferFacts;
  const now = new Date('2026-11-23T12:00:00Z');

  it('sums kopecks and counts items without the gift cover', () => {
    const p = priceBasket({ basket, offers: catalog, giftCover: gift, promoCode: null, promo: null, now });
    expect(p.totalKopecks).toBe(3_200_000 + 3 * 900_000 + 700_000 + 900_000);
    expect(p.discountKopecks).toBe(0);
    expect(p.payKopecks).toBe(p.totalKopecks);
    expect(p.quantity).toBe(6);
    expect(p.lines.map((l) => [l.offerId, l.isPreorder, l.isGift])).toEqual([
      [1, false, false],
      [2, false, false],
      [6, false, false],
      [3, true, false],
      [GIFT_COVER_OFFER_ID, false, true],
    ]);
    expect(p.promo).toEqual({ status: 'none' });
  });

  it('spreads a promo over lines to the kopeck, sale lines excluded', () => {
    const p = priceBasket({ basket, offers: catalog, giftCover: gift, promoCode: 'VITRINA10', promo: promo(), now });
    const eligible = 3_200_000 + 2_700_000 + 900_000;
    expect(p.discountKopecks).toBe(eligible / 10);
    expect(p.lines.reduce((s, l) => s + l.discountKopecks, 0)).toBe(p.discountKopecks);
    expect(p.lines.find((l) => l.offerId === 6)?.discountKopecks).toBe(0);
    expect(p.payKopecks).toBe(p.totalKopecks - p.discountKopecks);
    expect(p.promo).toEqual({ status: 'valid', code: 'VITRINA10' });
  });

  it('reports an invalid code with its reason and charges full price', () => {
    const p = priceBasket({
      basket,
      offers: catalog,
      giftCover: gift,
      promoCode: 'OLDCODE',
      promo: promo({ validTo: new Date('2025-12-31T00:00:00Z') }),
      now,
    });
    expect(p.promo).toEqual({ status: 'invalid', code: 'OLDCODE', error: 'Срок действия промокода истёк' });
    expect(p.discountKopecks).toBe(0);
    const unknown = priceBasket({ basket, offers: catalog, giftCover: gift, promoCode: 'NOPE', promo: null, now });
    expect(unknown.promo).toEqual({ status: 'invalid', code: 'NOPE', error: 'Промокод не найден' });
  });

  it('an odd total splits without losing a kopeck', () => {
    const odd = new Map(catalog);
    odd.set(7, facts(7, { priceKopecks: 333 }));
    odd.set(8, facts(8, { priceKopecks: 667 }));
    const p = priceBasket({
      basket: {
        cart: [
          { offerId: 7, quantity: 1 },
          { offerId: 8, quantity: 1 },
        ],
        preorders: [],
        giftCovers: 0,
      },
      offers: odd,
      giftCover: gift,
      promoCode: 'X',
      promo: promo({ kind: 'fixed', percent: null, amountKopecks: 101 }),
      now,
    });
    expect(p.lines.map((l) => l.discountKopecks)).toEqual([34, 67]);
    expect(p.payKopecks).toBe(899);
  });
});

describe('back-in-stock SMS', () => {
  it('names the size, the product and the link', () => {
    expect(backInStockText({ size: '44 (S)', productName: 'Пальто Аврора', url: 'https://shop/p/?offer=1' })).toBe(
      'Размер 44 (S) снова в наличии: Пальто Аврора. https://shop/p/?offer=1',
    );
  });
});
