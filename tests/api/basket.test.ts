import fs from 'node:fs';
import path from 'node:path';
import { and, eq, like, sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { appState, offers, orderItems, orders, productPhotos, products, promoCodes, waitingList } from '~/db/schema';
import { GIFT_COVER, GIFT_COVER_PHOTO, seedDatabase } from '~/db/seed/seed.server';
import { renderGarmentJpeg } from '~/media/garment-art';
import { GIFT_COVER_OFFER_ID } from '~/core/basket';
import { ApiError, CartResponse, FastOrderResponse, StockChangeResponse, WaitingListResponse } from '~/shared/contract';
import { readSmsOutbox } from '~/integrations/sms/offline.server';
import { placeOrder } from '~/models/orders.server';
import { STAFF_TOKEN_FILE } from '~/server/secrets.server';
import { expectContract, fetchJson, getJson, postForm } from '~/tests/support/api';
import { setUpTestShop } from '~/tests/support/server';
import { setStock as setStockOf } from '~/tests/support/stock';

// The basket calls of SPEC §7 over HTTP, on PGlite or (TEST_DATABASE_URL) PostgreSQL, with the
// commerce rules that guard stock and money run under real concurrency.

// Many shoppers come from this one test address: the caps on anonymous actions are raised here
// (tests/api/caps.test.ts tests them at their defaults).
const shop = setUpTestShop({
  env: {
    FAST_ORDERS_PER_IP_HOUR: '100000',
    FAST_ORDERS_PER_PHONE_DAY: '100000',
    FAST_ORDERS_PER_OFFER_IP_DAY: '100000',
    WAITING_LIST_PER_IP_HOUR: '100000',
    WAITING_LIST_PER_OFFER_IP_DAY: '100000',
    WAITING_LIST_PER_PHONE_DAY: '100000',
  },
});
const db = () => shop.database.db;

interface OfferRow {
  id: number;
  productId: number;
  name: string;
  quantity: number;
  price: number;
  oldPrice: number | null;
}

/** Active offers of the seeded catalogue with their product names, by a condition. */
async function findOffers(where: (o: OfferRow) => boolean): Promise<OfferRow[]> {
  const rows = await db()
    .select({
      id: offers.id,
      productId: offers.productId,
      name: products.name,
      quantity: offers.quantity,
      price: offers.priceKopecks,
      oldPrice: offers.oldPriceKopecks,
    })
    .from(offers)
    .innerJoin(products, eq(products.id, offers.productId))
    .where(eq(products.active, true))
    .orderBy(offers.id);
  return rows.filter(where);
}

async function one(where: (o: OfferRow) => boolean, what: string): Promise<OfferRow> {
  const [found] = await findOffers(where);
  if (!found) throw new Error(`the seed has no ${what}`);
  return found;
}

async function setStock(offerId: number, quantity: number, preorder?: boolean) {
  await setStockOf(db(), offerId, quantity, { preorder });
}

async function stockOf(offerId: number): Promise<number> {
  const [row] = await db().select({ q: offers.quantity }).from(offers).where(eq(offers.id, offerId));
  return row?.q ?? -1;
}

async function countOrdersOf(offerId: number): Promise<number> {
  const [row] = await db()
    .select({ n: sql<number>`count(*)::int` })
    .from(orderItems)
    .where(eq(orderItems.offerId, offerId));
  return Number(row?.n ?? 0);
}

const form = postForm;

const getCart = (fields: Record<string, string>) =>
  getJson(`${shop.baseUrl}/backend`, '/api/personal/get_cart.php', CartResponse, { init: form(fields) });

const coat = () => one((o) => /пальто/i.test(o.name) && o.oldPrice === null && o.quantity >= 2, 'coat in stock');
const plain = () => one((o) => !/пальто/i.test(o.name) && o.oldPrice === null && o.quantity >= 2, 'non-coat in stock');

describe('get_cart.php', () => {
  it('prices the basket from the database and adds one gift cover per coat', async () => {
    const c = await coat();
    const p = await plain();
    const cart = await getCart({ ids: `${c.id}:2,${p.id}:1`, promo_code: '' });
    const lines = cart.items.filter((i) => i.IS_GIFT === 'N');
    expect(lines.map((i) => [i.ID, i.QUANTITY, i.SUM])).toEqual([
      [c.id, 2, (2 * c.price) / 100],
      [p.id, 1, p.price / 100],
    ]);
    const gift = cart.items.find((i) => i.IS_GIFT === 'Y');
    expect(gift).toMatchObject({ ID: GIFT_COVER_OFFER_ID, QUANTITY: 2, SUM: 0 });
    expect(gift?.PRODUCT.NAME).toBe('Чехол для одежды');
    expect(cart.total).toEqual({
      TOTAL_PRICE_WITHOUT_DISCOUNT: (2 * c.price + p.price) / 100,
      TOTAL_PRICE_WITH_DISCOUNT: (2 * c.price + p.price) / 100,
      TOTAL_DISCOUNT: 0,
      TOTAL_QUANTITY: 3,
    });
    expect(cart.cart).toBe(`${c.id}:2,${p.id}:1`);
    // Every size of the line's product is offered, the line's own marked IN_BASKET.
    const first = lines[0];
    expect(first?.OFFERS.filter((o) => o.IN_BASKET === 'Y').map((o) => o.ID)).toEqual([c.id]);
    expect(first?.OFFERS.length).toBeGreaterThan(1);
  });

  it('shows the gift cover with its own picture, a garment cover, also in a database seeded with a handbag (issue #26)', async () => {
    const picture = async () => {
      const cart = await getCart({ ids: `${(await coat()).id}:1`, promo_code: '' });
      const src = cart.items.find((i) => i.IS_GIFT === 'Y')?.PRODUCT.IMAGE_SRC ?? '';
      expect(src).toContain(GIFT_COVER_PHOTO);
      const res = await fetch(`${shop.baseUrl}/media/${GIFT_COVER_PHOTO}`);
      expect(res.status).toBe(200);
      return Buffer.from(await res.arrayBuffer());
    };
    const cover = await renderGarmentJpeg({ kind: 'garment-cover', color: '#efe9dc', view: 0, seed: 1 });
    expect((await picture()).equals(cover)).toBe(true);
    expect(cover.equals(await renderGarmentJpeg({ kind: 'bag', color: '#efe9dc', view: 0, seed: 1 }))).toBe(false);
    // A database seeded before: the handbag at …/1.jpg is replaced on the next start.
    const [product] = await db().select({ id: products.id }).from(products).where(eq(products.slug, GIFT_COVER.slug));
    await db()
      .update(productPhotos)
      .set({ path: `products/${GIFT_COVER.slug}/1.jpg`, art: { kind: 'bag', color: '#efe9dc', view: 0, seed: 1 } })
      .where(eq(productPhotos.productId, product!.id));
    // Seeded by the code of before, so with another fixtures fingerprint (or none) on record.
    await db()
      .update(appState)
      .set({ value: sql`${appState.value} - 'fixtures'` })
      .where(eq(appState.key, 'seed'));
    await seedDatabase(db(), { products: 180 });
    expect((await picture()).equals(cover)).toBe(true);
  });
  it('ignores prices, a gift cover and junk in the request', async () => {
    const p = await plain();
    const cart = await getCart({
      ids: `${p.id}:1,${GIFT_COVER_OFFER_ID}:40,abc,-5:2,${p.id}x:1,999999999:1`,
      price: '1',
      'items[0][PRICE]': '1',
    });
    expect(cart.items.map((i) => i.ID)).toEqual([p.id]);
    expect(cart.total.TOTAL_PRICE_WITH_DISCOUNT).toBe(p.price / 100);
    expect(cart.errors).toEqual(['Некоторых товаров больше нет в продаже: мы убрали их из корзины']);
    expect(cart.cart).toBe(`${p.id}:1`);
  });

  it('cuts a quantity to stock and drops a sold-out line, saying so', async () => {
    const [a, b] = await findOffers((o) => !/пальто/i.test(o.name) && o.quantity >= 1);
    if (!a || !b) throw new Error('seed too small');
    await setStock(a.id, 2);
    await setStock(b.id, 0, false);
    const cart = await getCart({ ids: `${a.id}:7,${b.id}:1` });
    expect(cart.cart).toBe(`${a.id}:2`);
    expect(cart.items.find((i) => i.ID === a.id)?.OFFERS.find((o) => o.ID === a.id)?.QUANTITY_AVAILABLE).toBe(2);
    expect(cart.errors).toHaveLength(2);
    expect(cart.errors[0]).toMatch(/в наличии только 2 шт\./);
    expect(cart.errors[1]).toMatch(/закончился$/);
  });

  it('keeps pre-orders apart and only for sizes open to pre-order', async () => {
    const [a, b] = await findOffers((o) => o.quantity >= 1 && o.oldPrice === null);
    if (!a || !b) throw new Error('seed too small');
    await setStock(a.id, 0, true);
    await setStock(b.id, 0, false);
    const cart = await getCart({ ids: '', preorder_ids: `${a.id}:1,${b.id}:1` });
    expect(cart.items.map((i) => [i.ID, i.IS_PREORDER])).toEqual([[a.id, 'Y']]);
    expect(cart.preorders).toBe(`${a.id}:1`);
    expect(cart.errors[0]).toMatch(/предзаказ недоступен/);
  });

  it('applies a percent code to the kopeck and explains the codes that do not apply', async () => {
    const p = await plain();
    const valid = await getCart({ ids: `${p.id}:1`, promo_code: ' vitrina10 ' });
    expect(valid.promocode).toBe(true);
    expect(valid.promo_code_error).toBeNull();
    expect(valid.total.TOTAL_DISCOUNT).toBe(Math.floor(p.price / 10) / 100);
    expect(valid.items.reduce((s, i) => s + Math.round(i.DISCOUNT * 100), 0)).toBe(
      Math.round(valid.total.TOTAL_DISCOUNT * 100),
    );

    const expired = await getCart({ ids: `${p.id}:1`, promo_code: 'OLDCODE' });
    expect([expired.promocode, expired.promo_code_error, expired.total.TOTAL_DISCOUNT]).toEqual([
      false,
      'Срок действия промокода истёк',
      0,
    ]);
    const unknown = await getCart({ ids: `${p.id}:1`, promo_code: '<script>' });
    expect(unknown.promo_code_error).toBe('Промокод не найден');
    const cheap = await one((o) => o.price < 1_000_000 && o.oldPrice === null && o.quantity > 0, 'item under 10 000 ₽');
    const small = await getCart({ ids: `${cheap.id}:1`, promo_code: 'MINUS1000' });
    expect(small.promo_code_error).toBe('Промокод действует для заказа от 10\u00a0000\u00a0₽');
  });

  it('answers an empty basket and refuses a body that is not a form', async () => {
    const empty = await getCart({});
    expect(empty.items).toEqual([]);
    expect(empty.total.TOTAL_PRICE_WITH_DISCOUNT).toBe(0);
    const res = await fetch(`${shop.baseUrl}/backend/api/personal/get_cart.php`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"ids":',
    });
    expect(res.status).toBe(400);
    expectContract(ApiError, await res.json());
  });
});

/** A fast order with the captcha token the storefront sends while the captcha is offline. */
const fastOrder = (query: Record<string, string>) =>
  getJson(
    `${shop.baseUrl}/backend`,
    `/api/catalog/fastorder.php?${new URLSearchParams({ recaptcha_token: 'offline-ok', ...query })}`,
    FastOrderResponse,
  );

describe('fastorder.php', () => {
  it('places a fast order: stock taken, item snapshot written, phone normalised', async () => {
    const p = await plain();
    const before = await stockOf(p.id);
    const answer = await fastOrder({
      id: String(p.id),
      name: '  Анна ',
      phone: '8 (999) 111-22-33',
      key: 'fast-order-test-1',
    });
    if (!answer.success) throw new Error(answer.data.error);
    expect(await stockOf(p.id)).toBe(before - 1);
    const [order] = await db().select().from(orders).where(eq(orders.id, answer.order_id));
    expect(order).toMatchObject({
      kind: 'fast',
      status: 'new',
      phone: '79991112233',
      customerName: 'Анна',
      totalKopecks: p.price,
      customerId: null,
    });
    const items = await db().select().from(orderItems).where(eq(orderItems.orderId, answer.order_id));
    expect(items.map((i) => [i.offerId, i.quantity, i.priceKopecks, i.title])).toEqual([[p.id, 1, p.price, p.name]]);
  });

  it('a repeat of the same key, even at the same moment, makes one order', async () => {
    const p = await plain();
    const before = await stockOf(p.id);
    const key = 'double-click-0001';
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => fastOrder({ id: String(p.id), name: 'Анна', phone: '+79991112233', key })),
    );
    const ids = new Set(answers.map((a) => (a.success ? a.order_id : -1)));
    expect([...ids]).toHaveLength(1);
    expect(ids.has(-1)).toBe(false);
    expect(await stockOf(p.id)).toBe(before - 1);
    const [row] = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(orders)
      .where(like(orders.idempotencyKey, `%:${key}`));
    expect(Number(row?.n)).toBe(1);
  });

  it('a repeat after its order took the last unit gets that order, not «Нет в наличии»; another key is refused', async () => {
    const p = await plain();
    await setStock(p.id, 1, false);
    const key = 'last-unit-repeat-0001';
    const first = await fastOrder({ id: String(p.id), name: 'Анна', phone: '+79991112233', key });
    if (!first.success) throw new Error(first.data.error);
    expect(await stockOf(p.id)).toBe(0);
    // The order, its line, its stock move and its release job were written together.
    const moves = await db().execute(
      sql`select count(*)::int as n from stock_moves where order_id = ${first.order_id} and reason = 'order' and delta = -1`,
    );
    expect(Number((moves as unknown as { rows: { n: number }[] }).rows[0]?.n)).toBe(1);
    const release = await db().execute(
      sql`select count(*)::int as n from jobs where kind = 'order.release' and payload = ${JSON.stringify({ orderId: first.order_id })}::jsonb`,
    );
    expect(Number((release as unknown as { rows: { n: number }[] }).rows[0]?.n)).toBe(1);

    const again = await fastOrder({ id: String(p.id), name: 'Анна', phone: '+79991112233', key });
    expect(again).toEqual({ success: true, order_id: first.order_id });
    const other = await fastOrder({
      id: String(p.id),
      name: 'Анна',
      phone: '+79991112233',
      key: 'last-unit-repeat-0002',
    });
    expect(other.success).toBe(false);
    if (!other.success) expect(other.data.error).toMatch(/^Нет в наличии: /);
    expect(await stockOf(p.id)).toBe(0);
  });

  it('flags the fields of a bad name or phone and writes nothing', async () => {
    const p = await plain();
    const [before] = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(orders);
    const answer = await fastOrder({ id: String(p.id), name: '', phone: 'телефон' });
    expect(answer).toEqual({
      success: false,
      data: {
        error: 'Проверьте имя и номер телефона',
        fields: { name: 'Укажите имя', phone: 'Проверьте номер телефона' },
      },
    });
    const long = await fastOrder({ id: String(p.id), name: 'А'.repeat(500), phone: '123' });
    expect(long.success).toBe(false);
    const unknown = await fastOrder({ id: '999999999', name: 'Анна', phone: '+79991112233' });
    expect(unknown).toEqual({ success: false, data: { error: 'Товар не найден', fields: {} } });
    const [after] = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(orders);
    expect(after?.n).toBe(before?.n);
  });

  it('refuses a sold-out size by name, and pre-orders a size open to pre-order without taking stock', async () => {
    const [sold, pre] = await findOffers((o) => o.quantity >= 1 && !/пальто/i.test(o.name));
    if (!sold || !pre) throw new Error('seed too small');
    await setStock(sold.id, 0, false);
    const ordersBefore = await countOrdersOf(sold.id);
    const refused = await fastOrder({ id: String(sold.id), name: 'Анна', phone: '+79991112233' });
    expect(refused.success).toBe(false);
    if (!refused.success) expect(refused.data.error).toMatch(new RegExp(`^Нет в наличии: «${sold.name}», размер `));
    expect(await countOrdersOf(sold.id)).toBe(ordersBefore);

    await setStock(pre.id, 0, true);
    const answer = await fastOrder({ id: String(pre.id), name: 'Анна', phone: '+79991112233' });
    if (!answer.success) throw new Error(answer.data.error);
    const [item] = await db().select().from(orderItems).where(eq(orderItems.orderId, answer.order_id));
    expect(item).toMatchObject({ offerId: pre.id, isPreorder: true });
    expect(await stockOf(pre.id)).toBe(0);
  });

  it('200 shoppers at once for the last unit: exactly one order, stock 0', async () => {
    const p = await one((o) => o.quantity >= 1 && !/пальто/i.test(o.name) && o.oldPrice !== null, 'sale item');
    await setStock(p.id, 1, false);
    const ordersBefore = await countOrdersOf(p.id);
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        fastOrder({
          id: String(p.id),
          name: `Покупатель ${i}`,
          phone: `+7999${String(i).padStart(7, '0')}`,
          key: `last-unit-${i}-xxxxxxxx`,
        }),
      ),
    );
    const won = answers.filter((a) => a.success);
    expect(won).toHaveLength(1);
    for (const a of answers) if (!a.success) expect(a.data.error).toMatch(/^Нет в наличии: /);
    expect(await stockOf(p.id)).toBe(0);
    expect(await countOrdersOf(p.id)).toBe(ordersBefore + 1);
  });
});

describe('the one order function', () => {
  it('two baskets racing for the same two offers in opposite order never oversell nor deadlock', async () => {
    const [a, b] = await findOffers((o) => o.quantity >= 1 && !/пальто/i.test(o.name) && o.oldPrice === null);
    if (!a || !b) throw new Error('seed too small');
    await setStock(a.id, 5);
    await setStock(b.id, 5);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        placeOrder({
          db: db(),
          kind: 'checkout',
          customerId: null,
          phone: '79990000001',
          name: 'Гонка',
          cart:
            i % 2
              ? [
                  { offerId: a.id, quantity: 1 },
                  { offerId: b.id, quantity: 1 },
                ]
              : [
                  { offerId: b.id, quantity: 1 },
                  { offerId: a.id, quantity: 1 },
                ],
          preorders: [],
        }),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(5);
    expect([await stockOf(a.id), await stockOf(b.id)]).toEqual([0, 0]);
  });

  it('a promo code with a limit of 3 is used exactly 3 times by 12 orders at once', async () => {
    await db()
      .insert(promoCodes)
      .values({ code: 'ONLY3', kind: 'percent', percent: 5, totalLimit: 3 })
      .onConflictDoNothing();
    const p = await plain();
    await setStock(p.id, 50);
    const results = await Promise.all(
      Array.from({ length: 12 }, () =>
        placeOrder({
          db: db(),
          kind: 'checkout',
          customerId: null,
          phone: '79990000002',
          name: 'Промо',
          cart: [{ offerId: p.id, quantity: 1 }],
          preorders: [],
          promoCode: 'ONLY3',
        }),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(3);
    expect(results.filter((r) => !r.ok)).toEqual(
      Array.from({ length: 9 }, () => ({ ok: false, reason: 'promo', error: 'Промокод больше нельзя использовать' })),
    );
    const [code] = await db().select().from(promoCodes).where(eq(promoCodes.code, 'ONLY3'));
    expect(code?.usedCount).toBe(3);
    // Refused orders took no stock: the whole order is one transaction.
    expect(await stockOf(p.id)).toBe(47);
  });

  it('a coat brings its cover into the order, and the line discounts add up to the order discount', async () => {
    const c = await coat();
    const result = await placeOrder({
      db: db(),
      kind: 'checkout',
      customerId: null,
      phone: '79990000003',
      name: 'Пальто',
      cart: [
        { offerId: c.id, quantity: 1 },
        { offerId: GIFT_COVER_OFFER_ID, quantity: 9 },
      ],
      preorders: [],
      promoCode: 'VITRINA10',
    });
    if (!result.ok) throw new Error(result.reason);
    const items = await db().select().from(orderItems).where(eq(orderItems.orderId, result.orderId));
    expect(items.map((i) => [i.offerId, i.quantity, i.isGift])).toEqual([
      [c.id, 1, false],
      [GIFT_COVER_OFFER_ID, 1, true],
    ]);
    const [order] = await db().select().from(orders).where(eq(orders.id, result.orderId));
    expect(items.reduce((s, i) => s + i.discountKopecks, 0)).toBe(order?.discountKopecks);
    expect(order?.totalKopecks).toBe(c.price - Math.floor(c.price / 10));
  });
});

const joinWaitingList = (query: Record<string, string>) =>
  getJson(
    `${shop.baseUrl}/backend`,
    `/api/catalog/addtowishlist.php?${new URLSearchParams(query)}`,
    WaitingListResponse,
  );

function staffToken(): string {
  return fs.readFileSync(path.join(shop.dataDir, STAFF_TOKEN_FILE), 'utf8').trim();
}

const staffInit = (fields: Record<string, string>, token: string) => ({
  ...form(fields),
  headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${token}` },
});
const staffStock = (fields: Record<string, string>) =>
  fetchJson(`${shop.baseUrl}/backend`, '/staff/stock/', StockChangeResponse, { init: staffInit(fields, staffToken()) });
const staffStockRefused = (fields: Record<string, string>, token: string, status: number) =>
  fetchJson(`${shop.baseUrl}/backend`, '/staff/stock/', ApiError, { status, init: staffInit(fields, token) });

describe('waiting list and the back-in-stock SMS', () => {
  let offer: OfferRow;
  const used = new Set<number>();
  beforeEach(async () => {
    // A size of its own for each test: waiting lists of one test do not reach the next.
    offer = await one((o) => o.quantity >= 1 && !/пальто/i.test(o.name) && !used.has(o.productId), 'offer');
    used.add(offer.productId);
    await setStock(offer.id, 0, false);
  });

  it('joins once per phone and size, and refuses sizes in stock or unknown', async () => {
    const first = await joinWaitingList({ product_id: String(offer.id), name: 'Анна', phone: '+7 (999) 555-00-01' });
    expect(first).toEqual({ success: true, message: 'Товар добавлен в список ожидания' });
    expect(await joinWaitingList({ product_id: String(offer.id), name: 'Анна', phone: '89995550001' })).toEqual(first);
    const rows = await db().select().from(waitingList).where(eq(waitingList.offerId, offer.id));
    expect(rows.map((r) => r.phone)).toEqual(['79995550001']);

    const bad = await joinWaitingList({ product_id: String(offer.id), name: 'Анна', phone: 'abc' });
    expect(bad).toEqual({
      success: false,
      error: { data: { error: 'Проверьте имя и номер телефона', fields: { phone: 'Проверьте номер телефона' } } },
    });
    expect((await joinWaitingList({ product_id: '999999999', name: 'Анна', phone: '+79995550001' })).success).toBe(
      false,
    );
    await setStock(offer.id, 3);
    const inStock = await joinWaitingList({ product_id: String(offer.id), name: 'Анна', phone: '+79995550002' });
    expect(inStock.success).toBe(false);
  });

  it('a size coming back sends each waiting shopper one SMS, exactly once', async () => {
    for (const phone of ['+79995550011', '+79995550012'])
      await joinWaitingList({ product_id: String(offer.id), name: 'Анна', phone });
    const { body } = await staffStock({ action: 'set', offer_id: String(offer.id), quantity: '2' });
    expect(body.data).toEqual({ offer_id: offer.id, previous: 0, quantity: 2, notified: 2 });
    // More stock, or back to zero and up again with nobody new waiting: nobody is told twice.
    await staffStock({ action: 'add', offer_id: String(offer.id), quantity: '3' });
    await staffStock({ action: 'set', offer_id: String(offer.id), quantity: '0' });
    const again = await staffStock({ action: 'set', offer_id: String(offer.id), quantity: '1' });
    expect(again.body.data?.notified).toBe(0);

    const sms = (await readSmsOutbox(path.join(shop.dataDir, 'outbox'))).filter(
      (m) => m.tag === 'back-in-stock' && ['79995550011', '79995550012'].includes(m.phone),
    );
    expect(sms.map((m) => m.phone).sort()).toEqual(['79995550011', '79995550012']);
    expect(sms[0]?.text).toMatch(
      new RegExp(`^Размер .+ снова в наличии: ${offer.name}\\. http.+\\?offer=${offer.id}$`),
    );
    const open = await db()
      .select()
      .from(waitingList)
      .where(and(eq(waitingList.offerId, offer.id), sql`${waitingList.notifiedAt} is null`));
    expect(open).toEqual([]);
  });

  it('the staff path needs the staff key and a known action', async () => {
    const denied = await staffStockRefused(
      { action: 'set', offer_id: String(offer.id), quantity: '5' },
      'wrong-token-wrong-token-wrong',
      401,
    );
    expect(denied.body).toEqual({ error: 'Нужен ключ сотрудника' });
    expect(await stockOf(offer.id)).toBe(0);
    const res = await fetch(`${shop.baseUrl}/backend/staff/stock/`, {
      ...form({ action: 'drop', offer_id: String(offer.id), quantity: '1' }),
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${staffToken()}` },
    });
    expect(res.status).toBe(400);
    const negative = await fetch(`${shop.baseUrl}/backend/staff/stock/`, {
      ...form({ action: 'set', offer_id: String(offer.id), quantity: '-4' }),
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${staffToken()}` },
    });
    expect(negative.status).toBe(400);
    const missing = await staffStock({ action: 'set', offer_id: '999999999', quantity: '1' });
    expect(missing.body).toEqual({ data: null, errors: { offer_id: 'Нет такого предложения' }, warnings: [] });
  });
});
