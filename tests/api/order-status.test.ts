import fs from 'node:fs';
import path from 'node:path';
import { and, asc, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { offers, orderItems, orders, orderStatusHistory, products, promoCodes, waitingList } from '~/db/schema';
import { GIFT_COVER_OFFER_ID } from '~/core/basket';
import { ApiError } from '~/shared/contract';
import { readSmsOutbox } from '~/integrations/sms/offline.server';
import { placeOrder } from '~/models/orders.server';
import { StaffFittingResponse, StaffOrderStatusResponse } from '~/api/staff/routes.server';
import { STAFF_TOKEN_FILE } from '~/server/secrets.server';
import { fetchJson } from '~/tests/support/api';
import { setUpTestShop } from '~/tests/support/server';
import { setStock } from '~/tests/support/stock';

// Order statuses and the fitting at the door (issue #11) through the staff API, on PGlite or
// (TEST_DATABASE_URL) PostgreSQL. Orders are placed with the one order function directly; the
// checkout fields the tests need are written onto them afterwards.

const shop = setUpTestShop();
const db = () => shop.database.db;

interface OfferRow {
  id: number;
  name: string;
  price: number;
  oldPrice: number | null;
}

const usedProducts = new Set<number>();

/** A fresh active offer (one per product, never reused across tests) with `stock` in stock. */
async function takeOffer(kind: 'coat' | 'plain', stock: number, preorder = false): Promise<OfferRow> {
  const rows = await db()
    .select({
      id: offers.id,
      productId: offers.productId,
      name: products.name,
      price: offers.priceKopecks,
      oldPrice: offers.oldPriceKopecks,
    })
    .from(offers)
    .innerJoin(products, eq(products.id, offers.productId))
    .where(and(eq(products.active, true), sql`${offers.id} <> ${GIFT_COVER_OFFER_ID}`, sql`${offers.priceKopecks} > 0`))
    .orderBy(asc(offers.id));
  const found = rows.find((r) => !usedProducts.has(r.productId) && /пальто/i.test(r.name) === (kind === 'coat'));
  if (!found) throw new Error(`the seed has no more ${kind} offers`);
  usedProducts.add(found.productId);
  await setStock(db(), found.id, stock, { preorder });
  return { id: found.id, name: found.name, price: found.price, oldPrice: found.oldPrice };
}

async function stockOf(offerId: number): Promise<number> {
  const [row] = await db().select({ q: offers.quantity }).from(offers).where(eq(offers.id, offerId));
  return row?.q ?? -1;
}

let phoneCounter = 0;

/** An order placed by the one order function, then given the delivery and payment checkout would write. */
async function makeOrder(input: {
  cart: { offerId: number; quantity: number }[];
  preorders?: { offerId: number; quantity: number }[];
  deliveryId: string | null;
  paymentId?: string;
  deliveryKopecks?: number;
  promoCode?: string;
}): Promise<number> {
  const placed = await placeOrder({
    db: db(),
    kind: 'checkout',
    customerId: null,
    phone: `7999700${String(++phoneCounter).padStart(4, '0')}`,
    name: 'Анна Примерова',
    cart: input.cart,
    preorders: input.preorders ?? [],
    promoCode: input.promoCode ?? null,
    deliveryCostKopecks: input.deliveryKopecks ?? 0,
  });
  if (!placed.ok) throw new Error(`order not placed: ${JSON.stringify(placed)}`);
  await db()
    .update(orders)
    .set({ deliveryId: input.deliveryId, paymentId: input.paymentId ?? '1' })
    .where(eq(orders.id, placed.orderId));
  return placed.orderId;
}

function staffToken(): string {
  return fs.readFileSync(path.join(shop.dataDir, STAFF_TOKEN_FILE), 'utf8').trim();
}

const staffInit = (fields: Record<string, string>, token = staffToken()): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${token}` },
  body: new URLSearchParams(fields).toString(),
});

const api = () => `${shop.baseUrl}/backend`;

async function moveTo(
  orderId: number,
  status: string,
  extra: Record<string, string> = {},
): Promise<StaffOrderStatusResponse> {
  const { body } = await fetchJson(api(), '/staff/orders/', StaffOrderStatusResponse, {
    init: staffInit({ action: 'status', order_id: String(orderId), status, ...extra }),
  });
  return body;
}

async function fitting(
  orderId: number,
  lines: Record<number, [kept: number, refused: number]>,
): Promise<StaffFittingResponse> {
  const fields: Record<string, string> = { action: 'fitting', order_id: String(orderId) };
  for (const [offerId, [kept, refused]] of Object.entries(lines)) {
    fields[`lines[${offerId}][kept]`] = String(kept);
    fields[`lines[${offerId}][refused]`] = String(refused);
  }
  const { body } = await fetchJson(api(), '/staff/orders/', StaffFittingResponse, { init: staffInit(fields) });
  return body;
}

async function historyOf(orderId: number) {
  return db()
    .select({ status: orderStatusHistory.status, note: orderStatusHistory.note })
    .from(orderStatusHistory)
    .where(eq(orderStatusHistory.orderId, orderId))
    .orderBy(asc(orderStatusHistory.id));
}

async function orderRow(orderId: number) {
  const [row] = await db().select().from(orders).where(eq(orders.id, orderId));
  if (!row) throw new Error(`no order ${orderId}`);
  return row;
}

describe('order statuses through the staff API', () => {
  it('moves a CDEK order along one step at a time, with its history, the track number and the receipt date', async () => {
    const offer = await takeOffer('plain', 3);
    const orderId = await makeOrder({
      cart: [{ offerId: offer.id, quantity: 1 }],
      deliveryId: '139',
      deliveryKopecks: 45_000,
    });
    expect((await orderRow(orderId)).status).toBe('new');

    const confirmed = await moveTo(orderId, 'confirmed', { note: 'Позвонили, всё верно' });
    expect(confirmed).toEqual({
      data: {
        order_id: orderId,
        previous_status: 'new',
        status: 'confirmed',
        status_label: 'Подтверждён',
        track_number: null,
        delivered_at: null,
        stock_returned: [],
      },
      errors: {},
      warnings: [],
    });
    expect((await moveTo(orderId, 'assembling')).data?.status_label).toBe('Собирается');

    // CDEK parcels leave with a track number.
    expect(await moveTo(orderId, 'shipped')).toEqual({
      data: null,
      errors: { track_number: 'Для отправки СДЭК укажите трек-номер' },
      warnings: [],
    });
    expect((await moveTo(orderId, 'shipped', { track_number: 'not a track' })).errors).toEqual({
      track_number: 'Трек-номер: от 4 до 40 латинских букв, цифр и дефисов',
    });
    expect((await orderRow(orderId)).status).toBe('assembling');
    const shipped = await moveTo(orderId, 'shipped', { track_number: '1234567890' });
    expect(shipped.data).toMatchObject({
      status: 'shipped',
      status_label: 'Передан в доставку',
      track_number: '1234567890',
    });
    expect((await orderRow(orderId)).trackNumber).toBe('1234567890');

    const delivered = await moveTo(orderId, 'delivered');
    const deliveredAt = delivered.data?.delivered_at;
    expect(deliveredAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    // The return period counts from the first delivery: receipt does not move it.
    const received = await moveTo(orderId, 'received');
    expect(received.data).toMatchObject({ status: 'received', status_label: 'Получен', delivered_at: deliveredAt });
    expect((await orderRow(orderId)).deliveredAt?.toISOString()).toBe(deliveredAt);

    expect(await historyOf(orderId)).toEqual([
      { status: 'new', note: null },
      { status: 'confirmed', note: 'Позвонили, всё верно' },
      { status: 'assembling', note: null },
      { status: 'shipped', note: 'Трек-номер: 1234567890' },
      { status: 'delivered', note: null },
      { status: 'received', note: null },
    ]);
    // 'received' is final.
    expect(await moveTo(orderId, 'cancelled')).toEqual({
      data: null,
      errors: { status: 'Заказ в статусе «Получен»: его статус больше не меняется' },
      warnings: [],
    });
    expect(await stockOf(offer.id)).toBe(2);
  });

  it('refuses a forbidden move, an unknown status and an unknown order in Russian, changing nothing', async () => {
    const offer = await takeOffer('plain', 2);
    const orderId = await makeOrder({ cart: [{ offerId: offer.id, quantity: 1 }], deliveryId: '137' });
    expect(await moveTo(orderId, 'shipped', { track_number: '1234567890' })).toEqual({
      data: null,
      errors: {
        status:
          'Нельзя перевести заказ из статуса «Принят» в «Передан в доставку»: можно только в «Подтверждён» или «Отменён»',
      },
      warnings: [],
    });
    expect((await moveTo(orderId, 'new')).errors).toEqual({ status: 'Заказ уже в статусе «Принят»' });
    expect((await moveTo(orderId, 'lost')).errors).toEqual({ status: 'Неизвестный статус заказа' });
    expect((await moveTo(orderId, 'confirmed', { track_number: '1234567890' })).errors).toEqual({
      track_number: 'Трек-номер указывают при передаче заказа в доставку',
    });
    expect((await moveTo(999_999_999, 'confirmed')).errors).toEqual({ order_id: 'Заказ не найден' });
    expect((await orderRow(orderId)).status).toBe('new');
    expect(await historyOf(orderId)).toEqual([{ status: 'new', note: null }]);

    for (const step of ['confirmed', 'assembling']) await moveTo(orderId, step);
    await moveTo(orderId, 'shipped', { track_number: 'CDEK-77' });
    expect((await moveTo(orderId, 'cancelled')).errors).toEqual({
      status: 'Заказ в статусе «Передан в доставку» уже нельзя отменить',
    });
  });

  it('a cancel gives the stock back exactly once under 10 concurrent cancels, pre-orders and the cover aside, and tells the waiting list once', async () => {
    const plain = await takeOffer('plain', 2);
    const coat = await takeOffer('coat', 4);
    const pre = await takeOffer('plain', 0, true);
    const coverBefore = await stockOf(GIFT_COVER_OFFER_ID);
    const orderId = await makeOrder({
      cart: [
        { offerId: plain.id, quantity: 2 },
        { offerId: coat.id, quantity: 1 },
      ],
      preorders: [{ offerId: pre.id, quantity: 1 }],
      deliveryId: '1',
      deliveryKopecks: 70_000,
    });
    const lines = await db().select().from(orderItems).where(eq(orderItems.orderId, orderId));
    expect(lines.find((l) => l.isGift)?.quantity).toBe(1);
    expect(await stockOf(plain.id)).toBe(0);
    expect(await stockOf(coat.id)).toBe(3);
    await db().insert(waitingList).values({ offerId: plain.id, phone: '79997770001', name: 'Ждущая' });
    await moveTo(orderId, 'confirmed');

    const answers = await Promise.all(
      Array.from({ length: 10 }, () => moveTo(orderId, 'cancelled', { note: 'Покупатель передумал' })),
    );
    const won = answers.filter((a) => a.data);
    expect(won).toHaveLength(1);
    expect(won[0]?.data?.stock_returned).toEqual([
      {
        offer_id: Math.min(plain.id, coat.id),
        previous: plain.id < coat.id ? 0 : 3,
        quantity: plain.id < coat.id ? 2 : 4,
        notified: plain.id < coat.id ? 1 : 0,
      },
      {
        offer_id: Math.max(plain.id, coat.id),
        previous: plain.id < coat.id ? 3 : 0,
        quantity: plain.id < coat.id ? 4 : 2,
        notified: plain.id < coat.id ? 0 : 1,
      },
    ]);
    expect(won[0]?.warnings).toEqual(['Сообщили о поступлении: 1']);
    for (const lost of answers.filter((a) => !a.data)) {
      expect(lost).toEqual({ data: null, errors: { status: 'Заказ уже в статусе «Отменён»' }, warnings: [] });
    }
    expect(await stockOf(plain.id)).toBe(2);
    expect(await stockOf(coat.id)).toBe(4);
    expect(await stockOf(pre.id)).toBe(0);
    expect(await stockOf(GIFT_COVER_OFFER_ID)).toBe(coverBefore);
    expect((await historyOf(orderId)).map((h) => h.status)).toEqual(['new', 'confirmed', 'cancelled']);
    const sms = (await readSmsOutbox(path.join(shop.dataDir, 'outbox'))).filter(
      (m) => m.tag === 'back-in-stock' && m.phone === '79997770001',
    );
    expect(sms).toHaveLength(1);
  });
});

describe('the fitting at the door (Moscow courier, partial buyout)', () => {
  async function courierOrderAtTheDoor() {
    await db()
      .insert(promoCodes)
      .values({ code: 'FIT10', kind: 'percent', percent: 10, excludeSale: false })
      .onConflictDoNothing();
    const coat = await takeOffer('coat', 5);
    const plain = await takeOffer('plain', 5);
    const orderId = await makeOrder({
      cart: [
        { offerId: coat.id, quantity: 2 },
        { offerId: plain.id, quantity: 1 },
      ],
      deliveryId: '1',
      deliveryKopecks: 70_000,
      promoCode: 'FIT10',
    });
    for (const step of ['confirmed', 'assembling', 'shipped']) expect((await moveTo(orderId, step)).errors).toEqual({});
    const items = await db().select().from(orderItems).where(eq(orderItems.orderId, orderId));
    const item = (offerId: number) => {
      const found = items.find((i) => i.offerId === offerId);
      if (!found) throw new Error(`no line ${offerId}`);
      return found;
    };
    return {
      orderId,
      coat,
      plain,
      coatLine: item(coat.id),
      plainLine: item(plain.id),
      coverLine: item(GIFT_COVER_OFFER_ID),
    };
  }

  it('records what was kept and refused, takes exactly the kept share, gives the refused back, and only once', async () => {
    const { orderId, coat, plain, coatLine, coverLine } = await courierOrderAtTheDoor();
    expect(coverLine.quantity).toBe(2);
    expect(coatLine.discountKopecks).toBeGreaterThan(0);
    // Not for a Moscow courier order: its receipt is the fitting.
    expect((await moveTo(orderId, 'delivered')).data?.status).toBe('delivered');
    expect((await moveTo(orderId, 'received')).errors).toEqual({
      status: 'Заказ с курьерской доставкой по Москве получают после примерки: запишите примерку',
    });

    const answer = await fitting(orderId, { [coat.id]: [1, 1], [plain.id]: [0, 1] });
    // One coat kept: its price less half the coat line's discount, rounded up for the shopper; the courier is due.
    const expected = coatLine.priceKopecks - Math.ceil(coatLine.discountKopecks / 2) + 70_000;
    expect(answer.errors).toEqual({});
    expect(answer.data).toMatchObject({
      order_id: orderId,
      status: 'received',
      kept: 1,
      refused: 2,
      paid_kopecks: expected,
      paid: expected / 100,
      delivery_kopecks: 70_000,
    });
    expect(answer.data?.lines).toEqual(
      [
        { offer_id: coat.id, gift: false, kept: 1, refused: 1, paid_kopecks: expected - 70_000 },
        { offer_id: plain.id, gift: false, kept: 0, refused: 1, paid_kopecks: 0 },
        { offer_id: GIFT_COVER_OFFER_ID, gift: true, kept: 1, refused: 1, paid_kopecks: 0 },
      ].sort((a, b) => a.offer_id - b.offer_id),
    );
    expect(answer.data?.refund_kopecks).toBe(0);

    const row = await orderRow(orderId);
    expect(row).toMatchObject({ status: 'received', paidKopecks: expected });
    expect(row.deliveredAt).not.toBeNull();
    const items = await db()
      .select({ offerId: orderItems.offerId, kept: orderItems.keptQuantity, refused: orderItems.refusedQuantity })
      .from(orderItems)
      .where(eq(orderItems.orderId, orderId))
      .orderBy(asc(orderItems.offerId));
    expect(items).toEqual(
      [
        { offerId: coat.id, kept: 1, refused: 1 },
        { offerId: plain.id, kept: 0, refused: 1 },
        { offerId: GIFT_COVER_OFFER_ID, kept: 1, refused: 1 },
      ].sort((a, b) => a.offerId - b.offerId),
    );
    expect(await stockOf(coat.id)).toBe(4);
    expect(await stockOf(plain.id)).toBe(5);
    expect((await historyOf(orderId)).slice(-1)).toEqual([
      { status: 'received', note: 'Примерка: оставлено 1, возвращено 2' },
    ]);

    // A second fitting is refused and moves no stock.
    expect(await fitting(orderId, { [coat.id]: [0, 2], [plain.id]: [0, 1] })).toEqual({
      data: null,
      errors: { order_id: 'Примерка по этому заказу уже записана' },
      warnings: [],
    });
    expect(await stockOf(coat.id)).toBe(4);
    expect(await stockOf(plain.id)).toBe(5);
  });

  it('is recorded once when sent five times at once, straight from shipped, with the courier paid when all is refused', async () => {
    const { orderId, coat, plain } = await courierOrderAtTheDoor();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => fitting(orderId, { [coat.id]: [0, 2], [plain.id]: [0, 1] })),
    );
    expect(answers.filter((a) => a.data)).toHaveLength(1);
    expect(answers.filter((a) => !a.data).map((a) => a.errors)).toEqual(
      Array(4).fill({ order_id: 'Примерка по этому заказу уже записана' }),
    );
    expect(answers.find((a) => a.data)?.data?.paid_kopecks).toBe(70_000);
    expect(await stockOf(coat.id)).toBe(5);
    expect(await stockOf(plain.id)).toBe(5);
    expect(await historyOf(orderId)).toEqual([
      { status: 'new', note: null },
      { status: 'confirmed', note: null },
      { status: 'assembling', note: null },
      { status: 'shipped', note: null },
      { status: 'delivered', note: null },
      { status: 'received', note: 'Примерка: оставлено 0, возвращено 3' },
    ]);
  });

  it('answers wrong counts, other orders and other deliveries in Russian, changing nothing', async () => {
    const { orderId, coat, plain } = await courierOrderAtTheDoor();
    expect((await fitting(orderId, { [coat.id]: [1, 0], [plain.id]: [1, 0] })).errors).toEqual({
      [`lines[${coat.id}]`]: `«${coat.name}»: оставлено и возвращено вместе должно быть 2 (в заказе), а указано 1`,
    });
    expect((await fitting(orderId, { [coat.id]: [2, 0] })).errors).toEqual({
      [`lines[${plain.id}]`]: `«${plain.name}»: укажите, сколько оставлено и сколько возвращено`,
    });
    expect(
      (await fitting(orderId, { [coat.id]: [2, 0], [plain.id]: [1, 0], [GIFT_COVER_OFFER_ID]: [2, 0] })).errors,
    ).toEqual({
      [`lines[${GIFT_COVER_OFFER_ID}]`]: 'Подарочный чехол считается сам: по одному на каждое оставленное пальто',
    });
    expect((await fitting(999_999_999, { [coat.id]: [2, 0] })).errors).toEqual({ order_id: 'Заказ не найден' });
    expect((await orderRow(orderId)).status).toBe('shipped');
    expect(await stockOf(coat.id)).toBe(3);

    const other = await takeOffer('plain', 2);
    const cdekOrder = await makeOrder({ cart: [{ offerId: other.id, quantity: 1 }], deliveryId: '139' });
    expect((await fitting(cdekOrder, { [other.id]: [1, 0] })).errors).toEqual({
      order_id: 'Примерка бывает только при курьерской доставке по Москве',
    });
    const early = await makeOrder({ cart: [{ offerId: other.id, quantity: 1 }], deliveryId: '1' });
    expect((await fitting(early, { [other.id]: [1, 0] })).errors).toEqual({
      order_id: 'Примерку записывают, когда заказ передан в доставку или доставлен, а он сейчас «Принят»',
    });
  });

  it('a courier order of pre-orders only has nothing to fit: it is received by status', async () => {
    const pre = await takeOffer('plain', 0, true);
    const orderId = await makeOrder({
      cart: [],
      preorders: [{ offerId: pre.id, quantity: 1 }],
      deliveryId: '1',
      paymentId: '9',
      deliveryKopecks: 70_000,
    });
    expect((await fitting(orderId, { [pre.id]: [1, 0] })).errors).toEqual({
      order_id: 'Примерку записывают, когда заказ передан в доставку или доставлен, а он сейчас «Принят»',
    });
    for (const step of ['confirmed', 'assembling', 'shipped', 'delivered']) await moveTo(orderId, step);
    expect((await fitting(orderId, { [pre.id]: [1, 0] })).errors).toMatchObject({
      lines: 'В заказе нет вещей для примерки',
    });
    expect((await moveTo(orderId, 'received')).data?.status).toBe('received');
  });

  it('answers the refund due when the order was paid online', async () => {
    const { orderId, coat, plain } = await courierOrderAtTheDoor();
    await db().update(orders).set({ paymentId: '9' }).where(eq(orders.id, orderId));
    const answer = await fitting(orderId, { [coat.id]: [2, 0], [plain.id]: [0, 1] });
    const row = await orderRow(orderId);
    expect(answer.data?.refund_kopecks).toBe(row.totalKopecks - (row.paidKopecks ?? 0));
    expect(answer.data?.refund_kopecks).toBeGreaterThan(0);
    expect(answer.warnings[0]).toMatch(
      /^Заказ оплачен онлайн: верните покупателю [\d\s\u00a0,]+₽ за возвращённые вещи$/,
    );
  });
});

describe('the staff orders path refuses bad requests', () => {
  const raw = (body: string, token = staffToken()) =>
    fetch(`${api()}/staff/orders/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${token}` },
      body,
    });

  it('without the staff key: 401, and nothing moves', async () => {
    const offer = await takeOffer('plain', 2);
    const orderId = await makeOrder({ cart: [{ offerId: offer.id, quantity: 1 }], deliveryId: '1' });
    const { body } = await fetchJson(api(), '/staff/orders/', ApiError, {
      status: 401,
      init: {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `action=status&order_id=${orderId}&status=cancelled`,
      },
    });
    expect(body).toEqual({ error: 'Нужен ключ сотрудника' });
    const wrong = await fetchJson(api(), '/staff/orders/', ApiError, {
      status: 401,
      init: staffInit(
        { action: 'status', order_id: String(orderId), status: 'cancelled' },
        'wrong-token-wrong-token-wrong',
      ),
    });
    expect(wrong.body).toEqual({ error: 'Нужен ключ сотрудника' });
    expect((await orderRow(orderId)).status).toBe('new');
    expect(await stockOf(offer.id)).toBe(1);
  });

  it('junk input: 400 in Russian, never 500', async () => {
    const junk = [
      'action=drop&order_id=1',
      'action=status',
      'action=status&order_id=abc&status=new',
      'action=status&order_id=-5&status=new',
      `action=status&order_id=1&status=${'x'.repeat(100)}`,
      `action=status&order_id=1&status=new&note=${'я'.repeat(501)}`,
      'action=fitting&order_id=1',
      'action=fitting&order_id=1&lines=abc',
      'action=fitting&order_id=1&lines[abc][kept]=1&lines[abc][refused]=0',
      'action=fitting&order_id=1&lines[5][kept]=-1&lines[5][refused]=0',
      'action=fitting&order_id=1&lines[5][kept]=1.5&lines[5][refused]=0',
      'action=fitting&order_id=1&lines[5][kept]=1',
      'action=fitting&order_id=1&lines[5]=1',
      'action=fitting&order_id=99999999999&lines[5][kept]=1&lines[5][refused]=0',
      '%%%',
      '',
    ];
    for (const body of junk) {
      const res = await raw(body);
      const text = await res.text();
      expect(res.status, `${body}: ${text}`).toBe(400);
      expect(JSON.parse(text).error, body).toMatch(/^(Неверный запрос|Неизвестное действие)/);
    }
  });
});
