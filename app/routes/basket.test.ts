import { describe, expect, it, vi } from 'vitest';
import { ApiRequestError, type ApiClient } from '~/shared/api-client';
import type { CheckoutOrderResponse, ProfileResponse } from '~/shared/contract';
import { CHECKOUT_TEXT } from '~/core/checkout';
import type { CheckoutFailure } from '~/app/components/checkout/checkout-state';
import { action } from './basket';

// The /basket/ action (intent 'order') with a stand-in API: what it sends to order.php, and
// what the shopper gets for each kind of answer.

const PROFILE: ProfileResponse = {
  userMain: { ID: 7, PHONE: '79990000000', cart: '', preorders: '', wishlist: '', watched: '' },
  userInfo: { FIRSTNAME: 'Анна', LASTNAME: '', SECONDNAME: '', PHONE: '79990000000', EMAIL: 'a@b.ru' },
  subscribed: false,
};

const FORM = {
  intent: 'order',
  key: 'abcdef12-3456-7890-abcd-ef1234567890',
  firstname: 'Анна',
  phone: '+7 (999) 000-00-00',
  email: 'a@b.ru',
  city: 'Москва',
  delivery_id: '1',
  street: 'ул Тверская',
  house: '12',
  payment_id: '1',
  deliverycost: '700',
};

function run(answer: () => Promise<CheckoutOrderResponse>, form: Record<string, string> = FORM) {
  const api = {
    getProfile: vi.fn(async () => PROFILE),
    placeCheckoutOrder: vi.fn(answer),
    saveAddress: vi.fn(async () => ({ success: true as const, id: 1 })),
  };
  const request = new Request('http://shop.test/basket/', {
    method: 'POST',
    headers: {
      cookie: 'token=t0k.e.n; cart=11%3A1%2C12%3A2; promo_code=SALE10',
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams(form).toString(),
  });
  const log = { error: vi.fn(), warn: vi.fn(), info: vi.fn() };
  const result = action({
    request,
    context: { api: api as unknown as ApiClient, log },
    params: {},
  } as unknown as Parameters<typeof action>[0]);
  return { api, log, result };
}

/** What a returned `data(...)` carries. */
function unwrap(value: unknown): { data: CheckoutFailure; status: number } {
  const v = value as { data: CheckoutFailure; init?: { status?: number } };
  return { data: v.data, status: v.init?.status ?? 200 };
}

describe('/basket/ action: placing the order', () => {
  it('sends the basket of the cookies and the fields (phone as digits, the cost seen, the key); placed: saves the address if asked, clears the basket, on to the order page', async () => {
    const { api, result } = run(
      async () => ({ success: true, order_id: 42, user_id: 7, payment_id: '1', pay_amount: 9700, status: 'new' }),
      {
        ...FORM,
        save_address: 'yes',
      },
    );
    const thrown = await result.then(
      () => null,
      (r: unknown) => r,
    );
    expect(thrown).toBeInstanceOf(Response);
    const res = thrown as Response;
    expect(res.headers.get('location')).toBe('/basket/submited-order/?order=42');
    const cookies = res.headers.getSetCookie();
    for (const name of ['cart', 'preorders', 'promo_code'])
      expect(cookies).toContain(`${name}=; Path=/; Max-Age=0; SameSite=Lax`);
    expect(api.placeCheckoutOrder).toHaveBeenCalledWith(
      expect.objectContaining({
        token: 't0k.e.n',
        ids: '11:1,12:2',
        promoCode: 'SALE10',
        deliveryCost: 700,
        key: FORM.key,
        fields: expect.objectContaining({
          phone: '79990000000',
          street: 'ул Тверская',
          delivery_id: '1',
          payment_id: '1',
        }),
      }),
    );
    expect(api.saveAddress).toHaveBeenCalledWith('t0k.e.n', {
      fields: expect.objectContaining({ city: 'Москва', street: 'ул Тверская', house: '12' }),
    });
  });

  it('a card order (payment id 9) goes on to /basket/pay/ with the basket cleared (the order holds the stock)', async () => {
    const { result } = run(
      async () => ({
        success: true,
        order_id: 43,
        user_id: 7,
        payment_id: '9',
        pay_amount: 9700,
        status: 'awaiting_payment',
      }),
      {
        ...FORM,
        payment_id: '9',
      },
    );
    const res = (await result.then(
      () => null,
      (r: unknown) => r,
    )) as Response;
    expect(res.headers.get('location')).toBe('/basket/pay/?order=43');
    expect(res.headers.getSetCookie()).toContain('cart=; Path=/; Max-Age=0; SameSite=Lax');
  });

  it('gives the server’s errors back to the form with what was sent and the same key; a changed cost comes with the new one', async () => {
    const refused = run(async () => ({ success: false, data: { email: CHECKOUT_TEXT.badEmail } }));
    const { data, status } = unwrap(await refused.result);
    expect(status).toBe(200);
    expect(data).toMatchObject({
      ok: false,
      errors: { email: CHECKOUT_TEXT.badEmail },
      key: FORM.key,
      values: { street: 'ул Тверская' },
    });
    expect(refused.api.saveAddress).not.toHaveBeenCalled();

    const changed = run(async () => ({
      success: false,
      data: { deliverycost: CHECKOUT_TEXT.deliveryCostChanged },
      deliverycost: 400,
    }));
    expect(unwrap(await changed.result).data).toMatchObject({
      errors: { deliverycost: CHECKOUT_TEXT.deliveryCostChanged },
      deliveryCost: 400,
    });
  });

  it('answers SPEC §8’s text when the API fails, and sends no empty cost as zero', async () => {
    const failed = run(
      async () => {
        throw new ApiRequestError(500, '/api/catalog/order.php', 'boom');
      },
      { ...FORM, deliverycost: '' },
    );
    const { data, status } = unwrap(await failed.result);
    expect(status).toBe(502);
    expect(data.errors).toEqual({ error: 'Произошла ошибка на сервере. Пожалуйста, попробуйте позже.' });
    expect(failed.api.placeCheckoutOrder).toHaveBeenCalledWith(expect.objectContaining({ deliveryCost: null }));
    // On the request's line of the server's log, not the console.
    expect(failed.log.error).toHaveBeenCalledWith({ err: expect.any(ApiRequestError) }, 'checkout: order failed');
  });

  it('refuses another intent without calling order.php', async () => {
    const other = run(
      async () => ({ success: true, order_id: 1, user_id: 7, payment_id: '1', pay_amount: 1, status: 'new' }),
      { ...FORM, intent: 'nope' },
    );
    expect(unwrap(await other.result).status).toBe(400);
    expect(other.api.placeCheckoutOrder).not.toHaveBeenCalled();
  });
});
