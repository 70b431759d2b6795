import { describe, expect, it } from 'vitest';
import { GIFT_COVER_OFFER_ID } from '~/core/basket';
import { isBasketEmpty, readBasketCookies } from './basket-state';

describe('readBasketCookies', () => {
  it('reads the three basket cookies of a Cookie header', () => {
    const preorders = encodeURIComponent(
      JSON.stringify({ 12: { quantity: 1, isPreorder: true, productData: { NAME: 'Пальто' } } }),
    );
    const basket = readBasketCookies(`token=x; cart=5%3A2%2C7%3A1; preorders=${preorders}; promo_code=vitrina10`);
    expect([...basket.cart]).toEqual([
      [5, 2],
      [7, 1],
    ]);
    expect(basket.preorders.get(12)?.productData.NAME).toBe('Пальто');
    expect(basket.promoCode).toBe('VITRINA10');
  });

  it('reads junk and missing cookies as an empty basket', () => {
    const basket = readBasketCookies('cart=abc; preorders=%7Bnot-json; promo_code=%3Cscript%3E');
    expect(basket.cart.size).toBe(0);
    expect(basket.preorders.size).toBe(0);
    expect(basket.promoCode).toBeNull();
    expect(isBasketEmpty(readBasketCookies(null))).toBe(true);
  });

  it('counts a basket holding only the gift cover as empty', () => {
    expect(isBasketEmpty(readBasketCookies(`cart=${GIFT_COVER_OFFER_ID}%3A1`))).toBe(true);
    expect(isBasketEmpty(readBasketCookies('cart=5%3A1'))).toBe(false);
  });
});
