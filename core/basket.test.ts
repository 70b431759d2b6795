import { describe, expect, it } from 'vitest';
import {
  addLine,
  addPreorder,
  applyGiftCover,
  BASKET_NOTICE,
  cartForRequest,
  clearBasket,
  countBasketItems,
  GIFT_COVER_OFFER_ID,
  giftCoverQuantity,
  isCoat,
  isOfferId,
  MAX_LINE_QUANTITY,
  MAX_LINES,
  MAX_OFFER_ID,
  NOTICE_DURATION_MS,
  parseCartCookie,
  parsePreordersCookie,
  preordersForRequest,
  removeLine,
  removePreorder,
  replaceOffer,
  serializeCart,
  serializePreorders,
  setPreorderQuantity,
  setQuantity,
} from './basket';
import type { PreorderLine, PreorderProductData } from './basket';

const GIFT = GIFT_COVER_OFFER_ID;

const entries = <K, V>(map: ReadonlyMap<K, V>): [K, V][] => [...map];

const COAT_DATA: PreorderProductData = {
  NAME: 'Пальто из шерсти',
  IMAGE_SRC: '/upload/coat.jpg',
  DETAIL_PAGE_URL: '/catalog/coats/palto-iz-shersti/',
  PRICE: 32000,
  OLD_PRICE: null,
  SIZE: '44',
  SIZE_SHOES: '',
};

const DRESS_DATA: PreorderProductData = {
  ...COAT_DATA,
  NAME: 'Платье миди',
  DETAIL_PAGE_URL: '/catalog/dresses/midi/',
};

function preorder(quantity: number, productData: PreorderProductData = COAT_DATA): PreorderLine {
  return { quantity, isPreorder: true, productData };
}

describe('constants', () => {
  it('match SPEC and the brief', () => {
    expect(MAX_LINE_QUANTITY).toBe(99);
    expect(MAX_LINES).toBe(100);
    expect(MAX_OFFER_ID).toBe(2_147_483_647);
    expect(GIFT_COVER_OFFER_ID).toBe(2_000_000_000);
    expect(BASKET_NOTICE).toEqual({
      added: 'Модель добавлена в корзину',
      preorderAdded: 'Предзаказ добавлен в корзину',
      preorderTitle: 'Предзаказ товара',
    });
    expect(NOTICE_DURATION_MS).toBe(1000);
  });
});

describe('isOfferId', () => {
  it('accepts positive int4 integers only', () => {
    expect(isOfferId(1)).toBe(true);
    expect(isOfferId(2_147_483_647)).toBe(true);
    for (const bad of [0, -1, 1.5, 2_147_483_648, Number.NaN, Number.POSITIVE_INFINITY, '12', null]) {
      expect(isOfferId(bad)).toBe(false);
    }
  });
});

describe('parseCartCookie', () => {
  it('reads the SPEC id:qty list in order', () => {
    expect(entries(parseCartCookie('12:1,40:2'))).toEqual([
      [12, 1],
      [40, 2],
    ]);
  });

  it('reads nothing from nothing', () => {
    for (const empty of [null, undefined, '', ' ', ',', ',,,']) expect(parseCartCookie(empty).size).toBe(0);
  });

  it('drops junk pairs and keeps the good ones', () => {
    const junk = '12:1,abc,40:x,:3,5:,7:-1,-8:2,9:1.5,1e3:1,13:2:3,41:2, 42 : 3 ';
    expect(entries(parseCartCookie(junk))).toEqual([
      [12, 1],
      [41, 2],
      [42, 3],
    ]);
  });

  it('drops ids that are not positive int4 integers', () => {
    expect(entries(parseCartCookie('0:1,2147483648:1,99999999999999999999:1,2147483647:1'))).toEqual([
      [2_147_483_647, 1],
    ]);
  });

  it('drops zero quantities and clamps large ones to 99', () => {
    expect(entries(parseCartCookie('1:0,2:100,3:99,4:9999999999999999999999'))).toEqual([
      [2, 99],
      [3, 99],
      [4, 99],
    ]);
  });

  it('sums duplicate ids at the first position, then clamps', () => {
    expect(entries(parseCartCookie('5:2,6:1,5:3'))).toEqual([
      [5, 5],
      [6, 1],
    ]);
    expect(entries(parseCartCookie('5:60,5:60'))).toEqual([[5, 99]]);
    expect(entries(parseCartCookie('05:1,5:1'))).toEqual([[5, 2]]);
  });

  it('keeps at most 100 lines, the first ones, still summing their duplicates', () => {
    const pairs = Array.from({ length: 150 }, (_, i) => `${i + 1}:1`);
    pairs.push('1:4');
    const cart = parseCartCookie(pairs.join(','));
    expect(cart.size).toBe(100);
    expect(cart.get(1)).toBe(5);
    expect(cart.get(100)).toBe(1);
    expect(cart.has(101)).toBe(false);
  });

  it('does not count the gift cover line towards the 100', () => {
    const pairs = Array.from({ length: 100 }, (_, i) => `${i + 1}:1`);
    const cart = parseCartCookie([...pairs, `${GIFT}:2`].join(','));
    expect(cart.size).toBe(101);
    expect(cart.get(GIFT)).toBe(2);
  });

  it('decodes a still URL-encoded value, and survives a broken one', () => {
    expect(entries(parseCartCookie('12%3A1%2C40%3A2'))).toEqual([
      [12, 1],
      [40, 2],
    ]);
    expect(entries(parseCartCookie('12:1,%E0%A4%A'))).toEqual([[12, 1]]);
  });
});

describe('serializeCart / cartForRequest', () => {
  it('writes the SPEC format and round-trips', () => {
    const cart = new Map([
      [12, 1],
      [40, 2],
    ]);
    expect(serializeCart(cart)).toBe('12:1,40:2');
    expect(entries(parseCartCookie(serializeCart(cart)))).toEqual(entries(cart));
  });

  it('writes an empty cart as an empty string', () => {
    expect(serializeCart(new Map())).toBe('');
  });

  it('keeps the gift line in the cookie but not in the server request', () => {
    const cart = new Map([
      [12, 1],
      [GIFT, 1],
      [40, 2],
    ]);
    expect(serializeCart(cart)).toBe(`12:1,${GIFT}:1,40:2`);
    expect(cartForRequest(cart)).toBe('12:1,40:2');
    expect(cartForRequest(new Map([[GIFT, 3]]))).toBe('');
  });

  it('never writes what the parser would reject', () => {
    const cart = new Map([
      [12, 150],
      [0, 1],
      [13, 0],
      [14, 2.7],
      [15, -1],
    ]);
    expect(serializeCart(cart)).toBe('12:99,14:2');
  });
});

describe('parsePreordersCookie / serializePreorders', () => {
  const cookie = JSON.stringify({
    '12': { quantity: 1, isPreorder: true, productData: COAT_DATA },
    '40': { quantity: 2, isPreorder: true, productData: DRESS_DATA },
  });

  it('reads the SPEC JSON map', () => {
    expect(entries(parsePreordersCookie(cookie))).toEqual([
      [12, preorder(1)],
      [40, preorder(2, DRESS_DATA)],
    ]);
  });

  it('round-trips', () => {
    const parsed = parsePreordersCookie(cookie);
    expect(serializePreorders(parsed)).toBe(cookie);
    expect(parsePreordersCookie(serializePreorders(parsed))).toEqual(parsed);
    expect(serializePreorders(new Map())).toBe('{}');
  });

  it('reads nothing from junk without throwing', () => {
    for (const junk of [
      null,
      undefined,
      '',
      '{',
      'null',
      '[]',
      '[{"quantity":1}]',
      '"12"',
      '42',
      'true',
      '{"12":null}',
      '{"12":[1]}',
    ]) {
      expect(parsePreordersCookie(junk).size).toBe(0);
    }
  });

  it('drops bad ids, the gift cover and unusable quantities', () => {
    const parsed = parsePreordersCookie(
      JSON.stringify({
        abc: { quantity: 1 },
        '0': { quantity: 1 },
        '-3': { quantity: 1 },
        '2147483648': { quantity: 1 },
        [String(GIFT)]: { quantity: 1 },
        '5': { quantity: 0 },
        '6': { quantity: -2 },
        '7': { quantity: 'two' },
        '8': {},
        '9': { quantity: '3' },
        '10': { quantity: 2.9 },
        '11': { quantity: 500 },
      }),
    );
    expect([...parsed].map(([id, line]) => [id, line.quantity])).toEqual([
      [9, 3],
      [10, 2],
      [11, 99],
    ]);
  });

  it('forces isPreorder and fills missing product data with empty values', () => {
    const parsed = parsePreordersCookie('{"12":{"quantity":1,"isPreorder":false}}');
    expect(parsed.get(12)).toEqual({
      quantity: 1,
      isPreorder: true,
      productData: {
        NAME: '',
        IMAGE_SRC: '',
        DETAIL_PAGE_URL: '',
        PRICE: null,
        OLD_PRICE: null,
        SIZE: '',
        SIZE_SHOES: '',
      },
    });
  });

  it('keeps product data display-safe', () => {
    const parsed = parsePreordersCookie(
      JSON.stringify({
        '12': {
          quantity: 1,
          productData: {
            NAME: 'x'.repeat(1000),
            IMAGE_SRC: 'javascript:alert(1)',
            DETAIL_PAGE_URL: '//evil.example/phish',
            PRICE: '32000',
            OLD_PRICE: -5,
            SIZE: 44,
            SIZE_SHOES: { nested: true },
            EXTRA: 'dropped',
          },
        },
        '13': {
          quantity: 1,
          productData: {
            IMAGE_SRC: 'https://cdn.example/a.jpg',
            DETAIL_PAGE_URL: 'javascript:alert(1)',
            PRICE: 'free',
          },
        },
      }),
    );
    expect(parsed.get(12)?.productData).toEqual({
      NAME: 'x'.repeat(300),
      IMAGE_SRC: '',
      DETAIL_PAGE_URL: '',
      PRICE: 32000,
      OLD_PRICE: null,
      SIZE: '44',
      SIZE_SHOES: '',
    });
    expect(parsed.get(13)?.productData.IMAGE_SRC).toBe('https://cdn.example/a.jpg');
    expect(parsed.get(13)?.productData.DETAIL_PAGE_URL).toBe('');
    expect(parsed.get(13)?.productData.PRICE).toBeNull();
    expect(parsed.get(12)?.productData).not.toHaveProperty('EXTRA');
  });

  it('does not let a __proto__ key pollute anything', () => {
    const parsed = parsePreordersCookie('{"__proto__":{"quantity":1},"12":{"quantity":1}}');
    expect([...parsed.keys()]).toEqual([12]);
    expect(({} as Record<string, unknown>).quantity).toBeUndefined();
  });

  it('sums ids that differ only by leading zeros, and keeps at most 100 lines', () => {
    expect(parsePreordersCookie('{"12":{"quantity":2},"012":{"quantity":3}}').get(12)?.quantity).toBe(5);
    const many: Record<string, unknown> = {};
    for (let id = 1; id <= 120; id += 1) many[String(id)] = { quantity: 1 };
    const parsed = parsePreordersCookie(JSON.stringify(many));
    expect(parsed.size).toBe(100);
    expect(parsed.has(100)).toBe(true);
    expect(parsed.has(101)).toBe(false);
  });

  it('decodes a still URL-encoded value', () => {
    expect(parsePreordersCookie(encodeURIComponent(cookie)).get(40)?.quantity).toBe(2);
  });

  it('serializes only valid lines and clamps quantities', () => {
    const map = new Map<number, PreorderLine>([
      [12, preorder(150)],
      [13, preorder(0)],
      [GIFT, preorder(1)],
    ]);
    expect(JSON.parse(serializePreorders(map))).toEqual({ '12': preorder(99) });
  });

  it('gives the preorder_ids request string', () => {
    expect(
      preordersForRequest(
        new Map([
          [12, preorder(1)],
          [40, preorder(2)],
        ]),
      ),
    ).toBe('12:1,40:2');
    expect(preordersForRequest(new Map())).toBe('');
  });
});

describe('addLine', () => {
  it('appends a new line with quantity 1 by default', () => {
    const cart = new Map([[12, 1]]);
    expect(entries(addLine(cart, 40))).toEqual([
      [12, 1],
      [40, 1],
    ]);
  });

  it('adds to an existing line in place and caps at 99', () => {
    const cart = new Map([
      [12, 1],
      [40, 2],
    ]);
    expect(entries(addLine(cart, 12, 3))).toEqual([
      [12, 4],
      [40, 2],
    ]);
    expect(addLine(new Map([[12, 98]]), 12, 5).get(12)).toBe(99);
    expect(addLine(new Map(), 12, 500).get(12)).toBe(99);
  });

  it('returns a new map and leaves the old one alone', () => {
    const cart = new Map([[12, 1]]);
    const next = addLine(cart, 12);
    expect(next).not.toBe(cart);
    expect(cart.get(12)).toBe(1);
    expect(next.get(12)).toBe(2);
  });

  it('ignores bad ids, bad quantities and the gift cover', () => {
    const cart = new Map([[12, 1]]);
    for (const [id, qty] of [
      [0, 1],
      [-1, 1],
      [1.5, 1],
      [2_147_483_648, 1],
      [40, 0],
      [40, -1],
      [40, 1.5],
      [40, Number.NaN],
      [GIFT, 1],
    ] as const) {
      expect(entries(addLine(cart, id, qty))).toEqual([[12, 1]]);
    }
  });

  it('refuses a 101st line but still adds to existing ones', () => {
    const full = new Map(Array.from({ length: 100 }, (_, i) => [i + 1, 1] as [number, number]));
    expect(addLine(full, 500).has(500)).toBe(false);
    expect(addLine(full, 500).size).toBe(100);
    expect(addLine(full, 50).get(50)).toBe(2);
    // The gift line is not a chosen line, so it does not take a place.
    const withGift = new Map([...Array.from({ length: 99 }, (_, i) => [i + 1, 1] as [number, number]), [GIFT, 1]]);
    expect(addLine(withGift, 500).get(500)).toBe(1);
  });
});

describe('replaceOffer', () => {
  it('swaps the size in place, keeping the quantity', () => {
    const cart = new Map([
      [12, 2],
      [40, 1],
      [50, 1],
    ]);
    expect(entries(replaceOffer(cart, 40, 41))).toEqual([
      [12, 2],
      [41, 1],
      [50, 1],
    ]);
  });

  it('merges into an existing line of the new offer, capped', () => {
    const cart = new Map([
      [12, 2],
      [40, 3],
      [41, 1],
    ]);
    expect(entries(replaceOffer(cart, 12, 41))).toEqual([
      [40, 3],
      [41, 3],
    ]);
    expect(
      entries(
        replaceOffer(
          new Map([
            [1, 60],
            [2, 60],
          ]),
          2,
          1,
        ),
      ),
    ).toEqual([[1, 99]]);
  });

  it('changes nothing for a missing line, the same offer, a bad target or the gift', () => {
    const cart = new Map([
      [12, 2],
      [GIFT, 1],
    ]);
    const unchanged = [
      [12, 2],
      [GIFT, 1],
    ];
    expect(entries(replaceOffer(cart, 99, 41))).toEqual(unchanged);
    expect(entries(replaceOffer(cart, 12, 12))).toEqual(unchanged);
    expect(entries(replaceOffer(cart, 12, 0))).toEqual(unchanged);
    expect(entries(replaceOffer(cart, 12, GIFT))).toEqual(unchanged);
    expect(entries(replaceOffer(cart, GIFT, 41))).toEqual(unchanged);
  });

  it('does not mutate its input', () => {
    const cart = new Map([[12, 2]]);
    replaceOffer(cart, 12, 13);
    expect(entries(cart)).toEqual([[12, 2]]);
  });
});

describe('setQuantity / removeLine', () => {
  const cart = new Map([
    [12, 2],
    [40, 1],
  ]);

  it('sets an existing line, capped at 99, fractions dropped', () => {
    expect(setQuantity(cart, 12, 5).get(12)).toBe(5);
    expect(setQuantity(cart, 12, 150).get(12)).toBe(99);
    expect(setQuantity(cart, 12, 3.9).get(12)).toBe(3);
    expect(cart.get(12)).toBe(2);
  });

  it('removes the line at 0 or less', () => {
    expect(entries(setQuantity(cart, 12, 0))).toEqual([[40, 1]]);
    expect(entries(setQuantity(cart, 12, -3))).toEqual([[40, 1]]);
    expect(entries(setQuantity(cart, 12, 0.5))).toEqual([[40, 1]]);
  });

  it('does not create a missing line or touch the gift cover', () => {
    expect(setQuantity(cart, 99, 3).has(99)).toBe(false);
    expect(setQuantity(new Map([[GIFT, 1]]), GIFT, 5).get(GIFT)).toBe(1);
    expect(setQuantity(cart, 12, Number.NaN).get(12)).toBe(2);
  });

  it('removeLine removes one line and returns a new map', () => {
    const next = removeLine(cart, 12);
    expect(entries(next)).toEqual([[40, 1]]);
    expect(cart.size).toBe(2);
    expect(entries(removeLine(cart, 999))).toEqual(entries(cart));
  });
});

describe('clearBasket', () => {
  it('empties the cart and pre-orders and drops the promo code', () => {
    const cleared = clearBasket();
    expect(cleared.cart.size).toBe(0);
    expect(cleared.preorders.size).toBe(0);
    expect(cleared.promoCode).toBeNull();
    expect(clearBasket().cart).not.toBe(cleared.cart);
  });
});

describe('pre-order operations', () => {
  it('addPreorder adds, sums, caps and refreshes the product data', () => {
    let p = addPreorder(new Map(), 12, COAT_DATA);
    expect(p.get(12)).toEqual(preorder(1));
    p = addPreorder(p, 12, { ...COAT_DATA, NAME: 'Пальто (новое имя)' }, 2);
    expect(p.get(12)?.quantity).toBe(3);
    expect(p.get(12)?.productData.NAME).toBe('Пальто (новое имя)');
    expect(addPreorder(p, 12, COAT_DATA, 200).get(12)?.quantity).toBe(99);
  });

  it('addPreorder ignores bad input and a 101st line', () => {
    const p = new Map([[12, preorder(1)]]);
    expect(addPreorder(p, 0, COAT_DATA).size).toBe(1);
    expect(addPreorder(p, GIFT, COAT_DATA).size).toBe(1);
    expect(addPreorder(p, 13, COAT_DATA, 0).size).toBe(1);
    const full = new Map(Array.from({ length: 100 }, (_, i) => [i + 1, preorder(1)] as [number, PreorderLine]));
    expect(addPreorder(full, 500, COAT_DATA).has(500)).toBe(false);
  });

  it('addPreorder sanitises the product data it stores', () => {
    const p = addPreorder(new Map(), 12, { ...COAT_DATA, DETAIL_PAGE_URL: 'javascript:alert(1)' });
    expect(p.get(12)?.productData.DETAIL_PAGE_URL).toBe('');
  });

  it('setPreorderQuantity and removePreorder follow the cart rules', () => {
    const p = new Map([
      [12, preorder(2)],
      [40, preorder(1, DRESS_DATA)],
    ]);
    expect(setPreorderQuantity(p, 12, 5).get(12)).toEqual(preorder(5));
    expect(setPreorderQuantity(p, 12, 500).get(12)?.quantity).toBe(99);
    expect([...setPreorderQuantity(p, 12, 0).keys()]).toEqual([40]);
    expect(setPreorderQuantity(p, 77, 1).has(77)).toBe(false);
    expect([...removePreorder(p, 40).keys()]).toEqual([12]);
    expect(p.get(12)?.quantity).toBe(2);
  });
});

describe('isCoat', () => {
  it('finds "пальто" in any letter case', () => {
    for (const name of ['Пальто из шерсти', 'ПАЛЬТО', 'пальто', 'Длинное пальто оверсайз', 'Полупальто', 'ПаЛьТо']) {
      expect(isCoat(name)).toBe(true);
    }
  });

  it('is false for everything else', () => {
    for (const name of ['Платье', 'Куртка', 'Чехол для одежды', 'Coat', 'пальт', '']) expect(isCoat(name)).toBe(false);
  });
});

describe('giftCoverQuantity', () => {
  it('is the total quantity of coat lines', () => {
    expect(
      giftCoverQuantity([
        { offerId: 1, productName: 'Пальто', quantity: 2 },
        { offerId: 2, productName: 'Платье', quantity: 5 },
        { offerId: 3, productName: 'ПАЛЬТО короткое', quantity: 1 },
      ]),
    ).toBe(3);
  });

  it('is 0 without coats', () => {
    expect(giftCoverQuantity([])).toBe(0);
    expect(giftCoverQuantity([{ offerId: 2, productName: 'Платье', quantity: 5 }])).toBe(0);
  });

  it('never counts the cover line itself, even if someone names it a coat', () => {
    expect(giftCoverQuantity([{ offerId: GIFT, productName: 'Чехол для пальто', quantity: 4 }])).toBe(0);
  });

  it('counts malformed quantities as nothing and caps at 99', () => {
    expect(
      giftCoverQuantity([
        { offerId: 1, productName: 'Пальто', quantity: -5 },
        { offerId: 2, productName: 'Пальто', quantity: Number.NaN },
        { offerId: 3, productName: 'Пальто', quantity: 0 },
        { offerId: 4, productName: 'Пальто', quantity: 1 },
      ]),
    ).toBe(1);
    expect(
      giftCoverQuantity([
        { offerId: 1, productName: 'Пальто', quantity: 99 },
        { offerId: 2, productName: 'Пальто', quantity: 99 },
      ]),
    ).toBe(99);
  });
});

describe('applyGiftCover', () => {
  const names = [
    { offerId: 12, productName: 'Пальто из шерсти' },
    { offerId: 13, productName: 'Пальто из шерсти' },
    { offerId: 40, productName: 'Платье миди' },
    { offerId: 70, productName: 'ПАЛЬТО-КОКОН' },
  ];

  it('adds one cover per coat at the end', () => {
    const cart = new Map([
      [12, 2],
      [40, 1],
      [13, 1],
    ]);
    expect(entries(applyGiftCover(cart, names))).toEqual([
      [12, 2],
      [40, 1],
      [13, 1],
      [GIFT, 3],
    ]);
  });

  it('corrects an existing cover line in place', () => {
    const cart = new Map([
      [12, 1],
      [GIFT, 5],
      [40, 1],
    ]);
    expect(entries(applyGiftCover(cart, names))).toEqual([
      [12, 1],
      [GIFT, 1],
      [40, 1],
    ]);
  });

  it('removes the cover when there are no coats', () => {
    const cart = new Map([
      [40, 1],
      [GIFT, 2],
    ]);
    expect(entries(applyGiftCover(cart, names))).toEqual([[40, 1]]);
    expect(entries(applyGiftCover(new Map([[GIFT, 1]]), names))).toEqual([]);
  });

  it('counts pre-ordered coats too, by catalogue name first, else the cookie NAME', () => {
    const cart = new Map([[40, 1]]);
    const preorders = new Map([
      [70, preorder(2, { ...DRESS_DATA })], // catalogue says coat; stale cookie name does not matter
      [80, preorder(1, COAT_DATA)], // not in names: cookie NAME 'Пальто из шерсти'
      [90, preorder(4, DRESS_DATA)],
    ]);
    expect(entries(applyGiftCover(cart, names, preorders))).toEqual([
      [40, 1],
      [GIFT, 3],
    ]);
    // Only pre-ordered coats: the cover still goes in the normal cart.
    expect(entries(applyGiftCover(new Map(), names, new Map([[12, preorder(1)]])))).toEqual([[GIFT, 1]]);
  });

  it('counts an offer with no known name as no coat', () => {
    expect(entries(applyGiftCover(new Map([[555, 2]]), names))).toEqual([[555, 2]]);
  });

  it('does not mutate the cart and is idempotent', () => {
    const cart = new Map([[12, 2]]);
    const once = applyGiftCover(cart, names);
    expect(entries(cart)).toEqual([[12, 2]]);
    expect(entries(applyGiftCover(once, names))).toEqual(entries(once));
  });

  it('never gives more covers than coats after any operation', () => {
    let cart = applyGiftCover(addLine(new Map(), 12, 3), names);
    cart = applyGiftCover(setQuantity(cart, 12, 1), names);
    expect(cart.get(GIFT)).toBe(1);
    cart = applyGiftCover(replaceOffer(cart, 12, 40), names);
    expect(cart.has(GIFT)).toBe(false);
  });
});

describe('countBasketItems', () => {
  it('sums the cart and pre-orders without the gift cover', () => {
    const cart = new Map([
      [12, 2],
      [GIFT, 2],
      [40, 1],
    ]);
    const preorders = new Map([[70, preorder(3)]]);
    expect(countBasketItems(cart, preorders)).toBe(6);
    expect(countBasketItems(cart)).toBe(3);
    expect(countBasketItems(new Map(), new Map())).toBe(0);
    expect(countBasketItems(new Map([[GIFT, 4]]))).toBe(0);
  });

  it('accepts a plain quantity map for pre-orders', () => {
    expect(countBasketItems(new Map([[1, 1]]), new Map([[2, { quantity: 4 }]]))).toBe(5);
  });
});

describe('mergeCartLists', () => {
  it('adds quantities of the same offer, keeps the server order first, drops gift covers, caps at 99', async () => {
    const { mergeCartLists, GIFT_COVER_OFFER_ID } = await import('./basket');
    expect(mergeCartLists('10:1,20:2', `20:1,30:4,${GIFT_COVER_OFFER_ID}:1`)).toBe('10:1,20:3,30:4');
    expect(mergeCartLists('', '5:1')).toBe('5:1');
    expect(mergeCartLists('5:90', '5:20')).toBe('5:99');
    expect(mergeCartLists('junk', null)).toBe('');
  });
});
