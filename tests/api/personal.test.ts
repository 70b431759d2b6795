import path from 'node:path';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { addresses, customers, offers, orderItems, orders, returnRequests } from '~/db/schema';
import {
  AddressChangeResponse,
  AddressesResponse,
  ApiError,
  AuthResponse,
  OrdersResponse,
  ProfileChangeResponse,
  ProfileResponse,
  ReturnCreateResponse,
  ReturnsResponse,
  SendCodeResponse,
  SubscribeResponse,
} from '~/shared/contract';
import { ACCOUNT_TEXT, MAX_ADDRESSES } from '~/core/account';
import { AUTH_TEXT } from '~/core/auth';
import { formatRussianDate } from '~/core/dates';
import { readSmsOutbox } from '~/integrations/sms/offline.server';
import { expectContract, fetchJson, postForm } from '~/tests/support/api';
import { setUpTestShop } from '~/tests/support/server';

// The personal account over HTTP (issue "personal account"), on PGlite or (TEST_DATABASE_URL)
// PostgreSQL: profile, addresses, orders, returns and the newsletter flag, junk input, and
// that no id lets one customer read or change another's data.

const shop = setUpTestShop();
const db = () => shop.database.db;
const api = () => `${shop.baseUrl}/backend`;

const form = postForm;

/** POSTs `fields` to an account path and checks the answer against `Schema`. */
async function call<S extends z.ZodType>(
  file: string,
  Schema: S,
  fields: Record<string, string>,
  status = 200,
): Promise<z.infer<S>> {
  return (await fetchJson(api(), `/api/personal/${file}`, Schema, { status, init: form(fields) })).body;
}

let seq = 0;
const freshPhone = () => `79${String(700 + ++seq).padStart(3, '0')}${String(2_000_000 + seq).slice(1)}`;

/** Logs a customer in the way the shop does: send_sms.php, then auth_phone.php with the code the SMS outbox got. */
async function logIn(phone: string): Promise<{ token: string; id: number }> {
  const sent = await shop.app.inject({
    method: 'POST',
    url: '/backend/api/personal/send_sms.php',
    remoteAddress: `10.7.0.${++seq}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ phone, recaptcha_token: 'test-captcha-token' }).toString(),
  });
  expect(expectContract(SendCodeResponse, sent.json())).toEqual({ success: true, resend_in: 59 });
  const sms = (await readSmsOutbox(path.join(shop.dataDir, 'outbox'))).filter(
    (m) => m.phone === phone && m.tag === 'login-code',
  );
  const code = /(\d{6})/.exec(sms.at(-1)?.text ?? '')?.[1] ?? '';
  const answer = await call('auth_phone.php', AuthResponse, { phone, code });
  if (!('user' in answer)) throw new Error(`login failed: ${answer.data.error}`);
  return { token: answer.user.jwt_token, id: answer.user.ID };
}

const day = 86_400_000;

/** An order of `customerId` with two lines of real offers (snapshots), received `deliveredDaysAgo` days ago (null: not yet). */
async function makeOrder(
  customerId: number,
  deliveredDaysAgo: number | null,
  preorder = false,
): Promise<{ id: number; offerIds: number[] }> {
  const picks = await db()
    .select({ id: offers.id, price: offers.priceKopecks })
    .from(offers)
    .orderBy(offers.id)
    .limit(2);
  const total = picks.reduce((s, p) => s + p.price * 2, 0);
  const [order] = await db()
    .insert(orders)
    .values({
      customerId,
      status: deliveredDaysAgo === null ? 'shipped' : 'received',
      itemsTotalKopecks: total,
      totalKopecks: total,
      createdAt: new Date(Date.now() - 20 * day),
      deliveredAt: deliveredDaysAgo === null ? null : new Date(Date.now() - deliveredDaysAgo * day),
    })
    .returning({ id: orders.id });
  if (!order) throw new Error('no order');
  await db()
    .insert(orderItems)
    .values(
      picks.map((p, i) => ({
        orderId: order.id,
        offerId: p.id,
        title: `Вещь ${i + 1}`,
        size: '44',
        color: 'Чёрный',
        image: `/media/x/${i}.jpg`,
        priceKopecks: p.price,
        quantity: 2,
        isPreorder: preorder,
      })),
    );
  return { id: order.id, offerIds: picks.map((p) => p.id) };
}

let a: { token: string; id: number };
let b: { token: string; id: number };

beforeAll(async () => {
  a = await logIn(freshPhone());
  b = await logIn(freshPhone());
});

describe('sessions', () => {
  it('answers 401 «Войдите снова» on every path without a live token', async () => {
    const paths = [
      'profile_change.php',
      'addresses.php',
      'address_add.php',
      'address_remove.php',
      'orders.php',
      'returns.php',
      'return_add.php',
      'subscribe.php',
    ];
    const valid: Record<string, Record<string, string>> = {
      'address_remove.php': { id: '1' },
      'return_add.php': { order_id: '1' },
      'subscribe.php': { active: 'yes' },
      'address_add.php': { city: 'Москва', street: 'Тверская' },
    };
    for (const p of paths) {
      for (const token of [undefined, '', 'junk.token.value', `${a.token}x`]) {
        const fields = { ...valid[p], ...(token === undefined ? {} : { token }) };
        expect(await call(p, ApiError, fields, 401), p).toEqual({ error: AUTH_TEXT.sessionGone });
      }
    }
    expect(await db().select().from(addresses).where(eq(addresses.customerId, a.id))).toEqual([]);
  });

  it('refuses a logged-out token', async () => {
    const c = await logIn(freshPhone());
    await fetch(`${api()}/api/personal/logout.php`, form({ token: c.token }));
    expect(await call('addresses.php', ApiError, { token: c.token }, 401)).toEqual({ error: AUTH_TEXT.sessionGone });
  });
});

describe('profile_change.php', () => {
  it('changes only the non-empty fields, lower-cases the e-mail, and never the phone', async () => {
    const c = await logIn(freshPhone());
    const first = await call('profile_change.php', ProfileChangeResponse, {
      token: c.token,
      'change[firstname]': '  Мария ',
      'change[lastname]': 'Иванова-Петрова',
      'change[secondname]': 'Сергеевна',
      'change[email]': 'Maria@Example.RU',
      'change[phone]': '70000000000',
    });
    expect(first).toMatchObject({
      success: true,
      profile: { FIRSTNAME: 'Мария', LASTNAME: 'Иванова-Петрова', SECONDNAME: 'Сергеевна', EMAIL: 'maria@example.ru' },
    });
    const second = await call('profile_change.php', ProfileChangeResponse, {
      token: c.token,
      'change[firstname]': 'Мила',
      'change[lastname]': '',
      'change[email]': '   ',
    });
    expect(second).toMatchObject({
      success: true,
      profile: { FIRSTNAME: 'Мила', LASTNAME: 'Иванова-Петрова', EMAIL: 'maria@example.ru' },
    });
    // Upper-case names are not SPEC's: ignored.
    await call('profile_change.php', ProfileChangeResponse, { token: c.token, 'change[FIRSTNAME]': 'Ольга' });
    const me = await call('profile_main.php', ProfileResponse, { 'params[token]': c.token });
    expect(me.userInfo.FIRSTNAME).toBe('Мила');
    expect(me.userInfo.PHONE).not.toBe('70000000000');
  });

  it('refuses a bad e-mail and names of markup, in Russian, changing nothing', async () => {
    const c = await logIn(freshPhone());
    expect(
      await call('profile_change.php', ProfileChangeResponse, {
        token: c.token,
        'change[firstname]': 'Вера',
        'change[email]': 'not-an-address',
      }),
    ).toEqual({
      success: false,
      error: ACCOUNT_TEXT.badEmail,
      field: 'email',
    });
    expect(
      await call('profile_change.php', ProfileChangeResponse, { token: c.token, 'change[lastname]': '<script>' }),
    ).toEqual({
      success: false,
      error: ACCOUNT_TEXT.badName,
      field: 'lastname',
    });
    expect(
      await call('profile_change.php', ProfileChangeResponse, { token: c.token, 'change[firstname]': 'Я'.repeat(51) }),
    ).toMatchObject({
      success: false,
      field: 'firstname',
    });
    const me = await call('profile_main.php', ProfileResponse, { 'params[token]': c.token });
    expect(me.userInfo).toMatchObject({ FIRSTNAME: '', LASTNAME: '', EMAIL: '' });
  });

  it('answers 400 to malformed bodies', async () => {
    const res = await fetch(`${api()}/api/personal/profile_change.php`, form({ token: a.token, change: 'firstname' }));
    expect(res.status).toBe(400);
    expect(expectContract(ApiError, await res.json()).error).toMatch(/^Неверный запрос/);
    const nested = await fetch(
      `${api()}/api/personal/profile_change.php`,
      form({ token: a.token, 'change[email][x]': 'a@b.ru' }),
    );
    expect(nested.status).toBe(400);
  });
});

describe('addresses', () => {
  it('adds, lists, edits and removes the customer’s addresses; city and street required', async () => {
    const c = await logIn(freshPhone());
    expect(await call('addresses.php', AddressesResponse, { token: c.token })).toEqual({ addresses: [] });
    expect(await call('address_add.php', AddressChangeResponse, { token: c.token, city: 'Москва' })).toEqual({
      success: false,
      error: ACCOUNT_TEXT.streetRequired,
      field: 'street',
    });
    expect(
      await call('address_add.php', AddressChangeResponse, { token: c.token, street: 'Тверская', city: '  ' }),
    ).toEqual({
      success: false,
      error: ACCOUNT_TEXT.cityRequired,
      field: 'city',
    });
    const added = await call('address_add.php', AddressChangeResponse, {
      token: c.token,
      city: 'Москва',
      street: 'ул Тверская',
      house: '7',
      flat: '12',
      postal_code: '125009',
      comment: 'Домофон 12',
      unknown: 'ignored',
    });
    if (!added.success) throw new Error(added.error);
    expect(await call('addresses.php', AddressesResponse, { token: c.token })).toEqual({
      addresses: [
        {
          id: added.id,
          city: 'Москва',
          street: 'ул Тверская',
          house: '7',
          flat: '12',
          postal_code: '125009',
          comment: 'Домофон 12',
        },
      ],
    });
    expect(
      await call('address_add.php', AddressChangeResponse, {
        token: c.token,
        id: String(added.id),
        city: 'Санкт-Петербург',
        street: 'Невский пр-кт',
      }),
    ).toEqual({
      success: true,
      id: added.id,
    });
    expect(await call('addresses.php', AddressesResponse, { token: c.token })).toEqual({
      addresses: [
        {
          id: added.id,
          city: 'Санкт-Петербург',
          street: 'Невский пр-кт',
          house: '',
          flat: '',
          postal_code: '',
          comment: '',
        },
      ],
    });
    expect(await call('address_remove.php', AddressChangeResponse, { token: c.token, id: String(added.id) })).toEqual({
      success: true,
      id: added.id,
    });
    expect(await call('address_remove.php', AddressChangeResponse, { token: c.token, id: String(added.id) })).toEqual({
      success: false,
      error: ACCOUNT_TEXT.addressNotFound,
    });
    expect(await call('addresses.php', AddressesResponse, { token: c.token })).toEqual({ addresses: [] });
  });

  it('keeps at most 20, also when many are added at once', async () => {
    const c = await logIn(freshPhone());
    const answers = await Promise.all(
      Array.from({ length: MAX_ADDRESSES + 5 }, (_, i) =>
        call('address_add.php', AddressChangeResponse, { token: c.token, city: 'Казань', street: `ул Баумана ${i}` }),
      ),
    );
    expect(answers.filter((x) => x.success)).toHaveLength(MAX_ADDRESSES);
    expect(answers.filter((x) => !x.success)).toEqual(
      Array.from({ length: 5 }, () => ({ success: false, error: ACCOUNT_TEXT.tooManyAddresses })),
    );
    const list = await call('addresses.php', AddressesResponse, { token: c.token });
    expect('addresses' in list && list.addresses).toHaveLength(MAX_ADDRESSES);
  });

  it('refuses junk: over-long fields, ids that are not numbers, nested fields', async () => {
    expect(
      await call('address_add.php', AddressChangeResponse, { token: a.token, city: 'Москва', street: 'х'.repeat(201) }),
    ).toEqual({
      success: false,
      error: ACCOUNT_TEXT.longField,
      field: 'street',
    });
    for (const id of ['abc', '-1', '0', '1.5', '99999999999']) {
      expect(await call('address_remove.php', ApiError, { token: a.token, id }, 400)).toMatchObject({
        error: expect.stringMatching(/^Неверный запрос/) as unknown,
      });
      expect(
        await call('address_add.php', ApiError, { token: a.token, id, city: 'Москва', street: 'Тверская' }, 400),
      ).toMatchObject({
        error: expect.stringMatching(/^Неверный запрос/) as unknown,
      });
    }
    const nested = await fetch(
      `${api()}/api/personal/address_add.php`,
      form({ token: a.token, 'city[x]': 'Москва', street: 'Тверская' }),
    );
    expect(nested.status).toBe(400);
    expect(await call('address_remove.php', ApiError, { token: a.token }, 400)).toMatchObject({
      error: expect.stringMatching(/^Неверный запрос/) as unknown,
    });
  });
});

describe('orders.php', () => {
  it('shows the test account its completed order, formatted as SPEC §3 says', async () => {
    const test = await logIn('79990000000');
    const { value } = await call('orders.php', OrdersResponse, { token: test.token });
    expect(value.orders).toHaveLength(1);
    const [order] = value.orders;
    const [row] = await db()
      .select()
      .from(orders)
      .where(eq(orders.id, order?.ID ?? 0));
    expect(order).toMatchObject({
      STATUS: 'Выполнен',
      STATUS_CODE: 'completed',
      DATE: formatRussianDate(row!.createdAt),
      DELIVERED: null,
      RETURN_UNTIL: null,
    });
    expect(order?.TOTAL.TOTAL).toBe(row!.totalKopecks / 100);
    expect(order?.TOTAL.DELIVERY).toBe(700);
    const lines = await db().select().from(orderItems).where(eq(orderItems.orderId, row!.id));
    expect(order?.ITEMS).toHaveLength(lines.length);
    for (const item of order?.ITEMS ?? []) {
      const line = lines.find((l) => l.offerId === item.id)!;
      expect(item).toEqual({
        id: line.offerId,
        title: line.title,
        size: line.size,
        img: line.image,
        color: line.color,
        quantity: line.quantity,
        price: Math.round(line.priceKopecks / 100),
        isPreorder: false,
        isGift: false,
        returnable: 0,
      });
      expect(Number.isInteger(item.price)).toBe(true);
    }
  });

  it('lists a customer’s own orders only, newest first, with what may still be returned', async () => {
    const c = await logIn(freshPhone());
    expect(await call('orders.php', OrdersResponse, { token: c.token })).toEqual({ value: { orders: [] } });
    const made = await makeOrder(c.id, 2);
    const { value } = await call('orders.php', OrdersResponse, { token: c.token });
    expect(value.orders.map((o) => o.ID)).toEqual([made.id]);
    expect(value.orders[0]).toMatchObject({
      STATUS: 'Получен',
      DELIVERED: formatRussianDate(new Date(Date.now() - 2 * day)),
    });
    expect(value.orders[0]?.RETURN_UNTIL).toBe(formatRussianDate(new Date(Date.now() + 5 * day)));
    expect(value.orders[0]?.ITEMS.map((i) => i.returnable)).toEqual([2, 2]);
  });
});

describe('returns', () => {
  it('asks back lines of a received order within 7 days, and lists the request', async () => {
    const c = await logIn(freshPhone());
    const made = await makeOrder(c.id, 3);
    const [first, second] = made.offerIds;
    expect(await call('returns.php', ReturnsResponse, { token: c.token })).toEqual({ value: { orders: [] } });
    const created = await call('return_add.php', ReturnCreateResponse, {
      token: c.token,
      order_id: String(made.id),
      [`items[${first}]`]: '1',
      reason: 'Не подошёл размер',
    });
    if (!created.success) throw new Error(created.error);
    const { value } = await call('returns.php', ReturnsResponse, { token: c.token });
    expect(value.orders).toHaveLength(1);
    expect(value.orders[0]).toMatchObject({
      ID: created.id,
      ORDER_ID: made.id,
      STATUS: 'Заявка принята',
      REASON: 'Не подошёл размер',
      DATE: formatRussianDate(new Date()),
    });
    expect(value.orders[0]?.ITEMS).toEqual([expect.objectContaining({ id: first, title: 'Вещь 1', quantity: 1 })]);
    // One of that line left to return; more than that is refused.
    const orders1 = await call('orders.php', OrdersResponse, { token: c.token });
    expect(orders1.value.orders[0]?.ITEMS.map((i) => i.returnable)).toEqual([1, 2]);
    expect(
      await call('return_add.php', ReturnCreateResponse, {
        token: c.token,
        order_id: String(made.id),
        [`items[${first}]`]: '2',
      }),
    ).toEqual({
      success: false,
      error: ACCOUNT_TEXT.returnTooMany,
    });
    // An offer not in the order, and nothing chosen.
    expect(
      await call('return_add.php', ReturnCreateResponse, {
        token: c.token,
        order_id: String(made.id),
        'items[999999]': '1',
      }),
    ).toEqual({
      success: false,
      error: ACCOUNT_TEXT.returnTooMany,
    });
    expect(
      await call('return_add.php', ReturnCreateResponse, {
        token: c.token,
        order_id: String(made.id),
        [`items[${second}]`]: '0',
      }),
    ).toEqual({
      success: false,
      error: ACCOUNT_TEXT.returnNothing,
    });
  });

  it('refuses outside the period (7 days; 14 for pre-orders) and before receipt', async () => {
    const c = await logIn(freshPhone());
    const late = await makeOrder(c.id, 8);
    expect(
      await call('return_add.php', ReturnCreateResponse, {
        token: c.token,
        order_id: String(late.id),
        [`items[${late.offerIds[0]}]`]: '1',
      }),
    ).toEqual({
      success: false,
      error: ACCOUNT_TEXT.returnExpired,
    });
    const preorder = await makeOrder(c.id, 8, true);
    expect(
      await call('return_add.php', ReturnCreateResponse, {
        token: c.token,
        order_id: String(preorder.id),
        [`items[${preorder.offerIds[0]}]`]: '1',
      }),
    ).toMatchObject({
      success: true,
    });
    const preorderLate = await makeOrder(c.id, 15, true);
    expect(
      await call('return_add.php', ReturnCreateResponse, {
        token: c.token,
        order_id: String(preorderLate.id),
        [`items[${preorderLate.offerIds[0]}]`]: '1',
      }),
    ).toEqual({ success: false, error: ACCOUNT_TEXT.returnExpired });
    const onTheWay = await makeOrder(c.id, null);
    expect(
      await call('return_add.php', ReturnCreateResponse, {
        token: c.token,
        order_id: String(onTheWay.id),
        [`items[${onTheWay.offerIds[0]}]`]: '1',
      }),
    ).toEqual({
      success: false,
      error: ACCOUNT_TEXT.notDelivered,
    });
  });

  it('asks the same things back once when two requests come at once', async () => {
    const c = await logIn(freshPhone());
    const made = await makeOrder(c.id, 1);
    const answers = await Promise.all(
      Array.from({ length: 4 }, () =>
        call('return_add.php', ReturnCreateResponse, {
          token: c.token,
          order_id: String(made.id),
          [`items[${made.offerIds[0]}]`]: '2',
        }),
      ),
    );
    expect(answers.filter((x) => x.success)).toHaveLength(1);
  });

  it('refuses junk: bad order ids, quantities and keys, an over-long reason', async () => {
    const junk: Record<string, string>[] = [
      { order_id: 'x' },
      { order_id: '1', 'items[abc]': '1' },
      { order_id: '1', 'items[1]': '-1' },
      { order_id: '1', 'items[1]': '1e3' },
      {},
    ];
    for (const fields of junk) {
      expect(await call('return_add.php', ApiError, { token: a.token, ...fields }, 400)).toMatchObject({
        error: expect.stringMatching(/^Неверный запрос/) as unknown,
      });
    }
    const made = await makeOrder(a.id, 1);
    expect(
      await call('return_add.php', ReturnCreateResponse, {
        token: a.token,
        order_id: String(made.id),
        [`items[${made.offerIds[0]}]`]: '1',
        reason: 'я'.repeat(501),
      }),
    ).toEqual({ success: false, error: ACCOUNT_TEXT.longReason });
  });
});

describe('subscribe.php', () => {
  it('sets and clears the newsletter flag, and refuses anything but yes or no', async () => {
    const c = await logIn(freshPhone());
    expect(await call('subscribe.php', SubscribeResponse, { token: c.token, active: 'yes' })).toEqual({
      success: true,
      subscribed: true,
    });
    expect((await call('profile_main.php', ProfileResponse, { 'params[token]': c.token })).subscribed).toBe(true);
    expect(await call('subscribe.php', SubscribeResponse, { token: c.token, active: 'no' })).toEqual({
      success: true,
      subscribed: false,
    });
    const [row] = await db().select({ subscribed: customers.subscribed }).from(customers).where(eq(customers.id, c.id));
    expect(row?.subscribed).toBe(false);
    for (const active of ['', 'true', 'YES'])
      expect(await call('subscribe.php', ApiError, { token: c.token, active }, 400)).toMatchObject({
        error: expect.any(String) as unknown,
      });
  });
});

describe('ownership', () => {
  it('never lets customer B read or change anything of customer A, by any id', async () => {
    // A's data.
    await call('profile_change.php', ProfileChangeResponse, {
      token: a.token,
      'change[firstname]': 'Алиса',
      'change[email]': 'alice@example.ru',
    });
    const added = await call('address_add.php', AddressChangeResponse, {
      token: a.token,
      city: 'Москва',
      street: 'ул Арбат',
      house: '1',
    });
    if (!added.success) throw new Error(added.error);
    const order = await makeOrder(a.id, 1);
    const aReturn = await call('return_add.php', ReturnCreateResponse, {
      token: a.token,
      order_id: String(order.id),
      [`items[${order.offerIds[1]}]`]: '1',
    });
    if (!aReturn.success) throw new Error(aReturn.error);
    await call('subscribe.php', SubscribeResponse, { token: a.token, active: 'yes' });
    const before = {
      profile: await call('profile_main.php', ProfileResponse, { 'params[token]': a.token }),
      addresses: await call('addresses.php', AddressesResponse, { token: a.token }),
      orders: await call('orders.php', OrdersResponse, { token: a.token }),
      returns: await call('returns.php', ReturnsResponse, { token: a.token }),
    };

    // B sees only B's (empty) lists, whatever ids ride along.
    const extra = {
      id: String(added.id),
      customer_id: String(a.id),
      customerId: String(a.id),
      order_id: String(order.id),
      user_id: String(a.id),
    };
    expect(await call('addresses.php', AddressesResponse, { token: b.token, ...extra })).toEqual({ addresses: [] });
    expect(await call('orders.php', OrdersResponse, { token: b.token, ...extra })).toEqual({ value: { orders: [] } });
    expect(await call('returns.php', ReturnsResponse, { token: b.token, ...extra })).toEqual({ value: { orders: [] } });
    const bProfile = await call('profile_main.php', ProfileResponse, { 'params[token]': b.token, ...extra });
    expect(bProfile.userMain.ID).toBe(b.id);

    // B's changes touch B only.
    const bChange = await call('profile_change.php', ProfileChangeResponse, {
      token: b.token,
      ...extra,
      'change[firstname]': 'Борис',
    });
    expect(bChange).toMatchObject({ success: true, profile: { FIRSTNAME: 'Борис' } });
    expect(
      await call('address_add.php', AddressChangeResponse, {
        token: b.token,
        id: String(added.id),
        city: 'Тула',
        street: 'Ленина',
      }),
    ).toEqual({
      success: false,
      error: ACCOUNT_TEXT.addressNotFound,
    });
    expect(await call('address_remove.php', AddressChangeResponse, { token: b.token, id: String(added.id) })).toEqual({
      success: false,
      error: ACCOUNT_TEXT.addressNotFound,
    });
    expect(
      await call('return_add.php', ReturnCreateResponse, {
        token: b.token,
        order_id: String(order.id),
        [`items[${order.offerIds[0]}]`]: '1',
      }),
    ).toEqual({
      success: false,
      error: ACCOUNT_TEXT.orderNotFound,
    });
    await call('subscribe.php', SubscribeResponse, { token: b.token, ...extra, active: 'no' });

    // A's data is as it was.
    expect(await call('profile_main.php', ProfileResponse, { 'params[token]': a.token })).toEqual(before.profile);
    expect(await call('addresses.php', AddressesResponse, { token: a.token })).toEqual(before.addresses);
    expect(await call('orders.php', OrdersResponse, { token: a.token })).toEqual(before.orders);
    expect(await call('returns.php', ReturnsResponse, { token: a.token })).toEqual(before.returns);
    expect(before.profile.subscribed).toBe(true);
    expect(await db().select().from(returnRequests).where(eq(returnRequests.customerId, b.id))).toEqual([]);
    expect(await db().select().from(addresses).where(eq(addresses.customerId, b.id))).toEqual([]);
  });
});
