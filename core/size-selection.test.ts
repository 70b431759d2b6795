import { describe, expect, it } from 'vitest';
import {
  availabilityOf,
  buyButton,
  initialOffer,
  offerForSize,
  sizeOptions,
  sizeValueOf,
  type SizedOffer,
} from './size-selection';

function offer(id: number, size: string, over: Partial<SizedOffer> = {}): SizedOffer {
  return {
    ID: id,
    SELECTED: false,
    AVAILABLE: 'Y',
    IS_PREORDER: 'N',
    IS_OFFER: { SIZES_CLOTHES: { LABEL: `${size} (INT)`, VALUE: size } },
    SIZE_ID: size,
    ...over,
  };
}

const OFFERS: SizedOffer[] = [
  offer(1, '42'),
  offer(2, '44', { AVAILABLE: 'N', IS_PREORDER: 'Y' }),
  offer(3, '46', { AVAILABLE: 'N', IS_PREORDER: 'N' }),
  offer(4, '48'),
];

describe('initialOffer', () => {
  it('is the offer flagged SELECTED', () => {
    const offers = OFFERS.map((o) => (o.ID === 4 ? { ...o, SELECTED: true } : o));
    expect(initialOffer(offers)?.ID).toBe(4);
  });

  it('keeps a SELECTED pre-orderable offer', () => {
    const offers = OFFERS.map((o) => (o.ID === 2 ? { ...o, SELECTED: true } : o));
    expect(initialOffer(offers)?.ID).toBe(2);
  });

  it('is none when nothing is flagged, so the shopper picks a size first', () => {
    expect(initialOffer(OFFERS)).toBeNull();
  });

  it('is none when the flagged offer can be neither bought nor pre-ordered', () => {
    const offers = OFFERS.map((o) => (o.ID === 3 ? { ...o, SELECTED: true } : o));
    expect(initialOffer(offers)).toBeNull();
  });

  it('is the only offer of a one-size product', () => {
    const gift = offer(9, 'Единый', { IS_OFFER: {}, SIZE_ID: 'edinyj' });
    expect(initialOffer([gift])?.ID).toBe(9);
    expect(initialOffer([])).toBeNull();
  });
});

describe('offerForSize', () => {
  it('picks the offer whose clothing size value matches', () => {
    expect(offerForSize(OFFERS, '48')?.ID).toBe(4);
    expect(offerForSize(OFFERS, '44')?.ID).toBe(2);
  });

  it('gives none for an unknown or an unavailable, not pre-orderable size', () => {
    expect(offerForSize(OFFERS, '50')).toBeNull();
    expect(offerForSize(OFFERS, '46')).toBeNull();
  });

  it('prefers the offer in stock when several offers share the size', () => {
    const preorder = offer(11, '44', { AVAILABLE: 'N', IS_PREORDER: 'Y' });
    const gone = offer(12, '44', { AVAILABLE: 'N', IS_PREORDER: 'N' });
    const inStock = offer(13, '44');
    // Whatever the API's order, the shopper gets the one that can be bought now.
    expect(offerForSize([preorder, inStock], '44')?.ID).toBe(13);
    expect(offerForSize([gone, preorder, inStock], '44')?.ID).toBe(13);
    expect(offerForSize([inStock, preorder], '44')?.ID).toBe(13);
  });

  it('falls back to a pre-orderable offer of the size, never to one that cannot be had', () => {
    const preorder = offer(11, '44', { AVAILABLE: 'N', IS_PREORDER: 'Y' });
    const gone = offer(12, '44', { AVAILABLE: 'N', IS_PREORDER: 'N' });
    expect(offerForSize([gone, preorder], '44')?.ID).toBe(11);
    expect(offerForSize([gone], '44')).toBeNull();
  });

  it('matches shoe sizes and falls back to SIZE_ID', () => {
    const shoes = [
      offer(5, '', { IS_OFFER: { SIZES_SHOES: { LABEL: '37', VALUE: '37' } }, SIZE_ID: '37' }),
      offer(6, '', { IS_OFFER: {}, SIZE_ID: 'edinyj' }),
    ];
    expect(offerForSize(shoes, '37')?.ID).toBe(5);
    expect(offerForSize(shoes, 'edinyj')?.ID).toBe(6);
    expect(sizeValueOf(shoes[0] as SizedOffer)).toBe('37');
    expect(sizeOptions(shoes).map((o) => o.label)).toEqual(['37', 'edinyj']);
  });
});

describe('availability labels', () => {
  it('tells in stock, pre-order and unavailable apart', () => {
    expect(OFFERS.map(availabilityOf)).toEqual(['in-stock', 'preorder', 'unavailable', 'in-stock']);
  });

  it('marks pre-orderable sizes and disables the rest of the unavailable ones', () => {
    expect(sizeOptions(OFFERS)).toEqual([
      { value: '42', label: '42 (INT)', offerId: 1, availability: 'in-stock', disabled: false, note: null },
      { value: '44', label: '44 (INT)', offerId: 2, availability: 'preorder', disabled: false, note: 'предзаказ' },
      {
        value: '46',
        label: '46 (INT)',
        offerId: 3,
        availability: 'unavailable',
        disabled: true,
        note: 'нет в наличии',
      },
      { value: '48', label: '48 (INT)', offerId: 4, availability: 'in-stock', disabled: false, note: null },
    ]);
  });

  it('lists a size once', () => {
    expect(sizeOptions([offer(1, '42'), offer(2, '42')]).map((o) => o.offerId)).toEqual([1]);
  });

  it('stands for the offer choosing the size picks: in stock before a pre-order of the same size', () => {
    const offers = [
      offer(1, '42', { AVAILABLE: 'N', IS_PREORDER: 'Y' }),
      offer(2, '42'),
      offer(3, '44', { AVAILABLE: 'N' }),
      offer(4, '44', { AVAILABLE: 'N', IS_PREORDER: 'Y' }),
    ];
    const options = sizeOptions(offers);
    expect(options.map((o) => [o.value, o.offerId, o.note])).toEqual([
      ['42', 2, null],
      ['44', 4, 'предзаказ'],
    ]);
    // The button and the choice agree for every size.
    for (const option of options) expect(offerForSize(offers, option.value)?.ID).toBe(option.offerId);
  });
});

describe('buyButton', () => {
  it('is inactive until a size is chosen', () => {
    expect(buyButton(null)).toEqual({ label: 'Добавить в корзину', enabled: false, hint: 'Выберите размер' });
  });

  it("reads 'Добавить в корзину' for an offer in stock", () => {
    expect(buyButton(OFFERS[0] as SizedOffer)).toMatchObject({ label: 'Добавить в корзину', enabled: true });
  });

  it("reads 'Оформить предзаказ' when the chosen offer is not available", () => {
    expect(buyButton(OFFERS[1] as SizedOffer)).toMatchObject({ label: 'Оформить предзаказ', enabled: true });
  });

  it('is inactive for an offer that can be neither bought nor pre-ordered', () => {
    expect(buyButton(OFFERS[2] as SizedOffer)).toMatchObject({ label: 'Нет в наличии', enabled: false });
  });
});
