import crypto from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { offers, orders, stockMoves } from '~/db/schema';
import { queryRows } from '~/db/client.server';
import { placeOrder } from '~/models/orders.server';
import { DELIVERY_ID, PAYMENT_ID } from '~/shared/checkout-ids';
import { AdminDashboardResponse, AdminOrderListResponse, AdminOrderOneResponse } from '~/shared/admin-contract';
import { setUpTestShop } from '~/tests/support/server';
import { expectContract } from '~/tests/support/api';
import { offerPicker } from '~/tests/support/checkout';
import { assertStockLedgerBalanced } from '~/tests/support/stock';
import { admin, staffSession, testClock } from '~/tests/support/admin';

// The back office's orders (issue #29) over HTTP, on PGlite or (TEST_DATABASE_URL) PostgreSQL:
// each role allowed and refused, every action allowed or refused by the order's state, the
// Idempotency-Key and races (two cancels at once release once, a fitting twice at once moves stock
// once), an audit row with every change and none with a refusal, the stock ledger balanced after.

const clock = testClock();
const shop = setUpTestShop({ clock: clock.now });
const db = () => shop.database.db;
const freshOffer = offerPicker(shop);

type Role = 'admin' | 'manager' | 'warehouse' | 'content';
type Session = Awaited<ReturnType<typeof staffSession>>;
const sessions: Partial<Record<Role, Session>> = {};
async function as(role: Role): Promise<string> {
  sessions[role] ??= await staffSession(shop, clock, { email: `${role}-orders@vitrina.example`, role });
  return sessions[role].cookie;
}

let phoneCounter = 0;
async function makeOrder({
  quantity = 2,
  stock = 5,
  deliveryId = DELIVERY_ID.cdekDoor,
  paymentId = PAYMENT_ID.onReceipt,
  status,
}: { quantity?: number; stock?: number; deliveryId?: string; paymentId?: string; status?: string } = {}) {
  const offer = await freshOffer({ quantity: stock });
  const phone = `7999811${String(++phoneCounter).padStart(4, '0')}`;
  const placed = await placeOrder({
    db: db(),
    kind: 'checkout',
    customerId: null,
    phone,
    name: `Вера Админова ${phoneCounter}`,
    cart: [{ offerId: offer.id, quantity }],
    preorders: [],
    promoCode: null,
    deliveryCostKopecks: 0,
  });
  if (!placed.ok) throw new Error(JSON.stringify(placed));
  await db()
    .update(orders)
    .set({
      deliveryId,
      paymentId,
      deliveryCity: 'Москва',
      email: `buyer${phoneCounter}@example.com`,
      ...(status ? { status } : {}),
    })
    .where(eq(orders.id, placed.orderId));
  return { orderId: placed.orderId, offer, phone };
}

async function stockOf(offerId: number): Promise<number> {
  const [row] = await db().select({ q: offers.quantity }).from(offers).where(eq(offers.id, offerId));
  return row?.q ?? -1;
}

async function auditOf(orderId: number) {
  return queryRows<{ action: string; staff_id: number | null }>(
    db(),
    sql`select action, staff_id from audit_events where entity_type = 'order' and entity_id = ${String(orderId)} order by id`,
  );
}

const post = (cookie: string, path: string, body: unknown = {}, key?: string) =>
  admin(shop, path, { cookie, body, ...(key ? { key } : {}) });

describe('roles', () => {
  it('content cannot see orders; warehouse reads, ships and records fittings but cannot confirm or cancel', async () => {
    const { orderId } = await makeOrder({ status: 'new' });
    const content = await as('content');
    expect((await admin(shop, '/orders', { cookie: content })).status).toBe(403);
    expect((await admin(shop, `/orders/${orderId}`, { cookie: content })).status).toBe(403);
    const warehouse = await as('warehouse');
    expect((await admin(shop, '/orders', { cookie: warehouse })).status).toBe(200);
    expect((await post(warehouse, `/orders/${orderId}/cancel`)).status).toBe(403);
    expect((await post(warehouse, `/orders/${orderId}/confirm`)).status).toBe(403);
    expect((await post(warehouse, `/orders/${orderId}/mark-paid`)).status).toBe(403);
    expect(await auditOf(orderId)).toEqual([]);
    const manager = await as('manager');
    expect((await post(manager, `/orders/${orderId}/confirm`)).status).toBe(200);
    const assembled = await post(warehouse, `/orders/${orderId}/assemble`);
    expect(assembled.status).toBe(200);
    expect((await admin(shop, '/dashboard', { cookie: content })).status).toBe(200);

    // Warehouse sees no money: the list, the page and the action's answer carry no sum, no
    // breakdown, no payments or refunds, no line prices; the manager sees them all.
    const MONEY = ['total_kopecks', 'money', 'payments', 'refunds', 'certificate_moves', 'bonus_moves'];
    const list = expectContract(
      AdminOrderListResponse,
      (await admin(shop, `/orders?ids=${orderId}`, { cookie: warehouse })).body,
    );
    expect(list.data[0]).not.toHaveProperty('total_kopecks');
    const mine = expectContract(
      AdminOrderListResponse,
      (await admin(shop, `/orders?status=assembling`, { cookie: warehouse })).body,
    );
    expect(mine.data.every((o) => o.total_kopecks === undefined)).toBe(true);
    for (const body of [(await admin(shop, `/orders/${orderId}`, { cookie: warehouse })).body, assembled.body]) {
      const page = expectContract(AdminOrderOneResponse, body).data;
      for (const key of MONEY) expect(page, key).not.toHaveProperty(key);
      expect(page.lines.length).toBeGreaterThan(0);
      for (const l of page.lines) expect(Object.keys(l).filter((k) => k.endsWith('_kopecks'))).toEqual([]);
    }
    const full = expectContract(
      AdminOrderOneResponse,
      (await admin(shop, `/orders/${orderId}`, { cookie: manager })).body,
    ).data;
    for (const key of MONEY) expect(full, key).toHaveProperty(key);
    expect(full.lines[0]?.price_kopecks).toBeGreaterThan(0);
  });
});

describe('list and detail', () => {
  it('a search pages in the list’s order with its exact total (under the cap), whatever the page', async () => {
    const manager = await as('manager');
    await makeOrder({ status: 'new' });
    await makeOrder({ status: 'confirmed' });
    const list = async (query: string) =>
      expectContract(AdminOrderListResponse, (await admin(shop, `/orders?${query}`, { cookie: manager })).body);
    const q = encodeURIComponent('@EXAMPLE');
    const found = await list(`q=${q}&limit=100`);
    expect(found.total).toBeGreaterThanOrEqual(2);
    expect(found.total).toBe(found.data.length);
    // The same orders in the same order as the list without the search.
    const plain = await list('limit=100');
    expect(found.data.map((o) => o.id)).toEqual(
      plain.data.filter((o) => o.email.toLowerCase().includes('@example')).map((o) => o.id),
    );
    expect((await list(`q=${q}&limit=1&offset=1`)).data.map((o) => o.id)).toEqual([found.data[1]?.id]);
    expect(await list(`q=${q}&offset=${found.total}`)).toEqual({ data: [], total: found.total });
    expect(await list(`q=${encodeURIComponent('nobody-at-all')}`)).toEqual({ data: [], total: 0 });
    const byTotal = await list(`q=${q}&sort=total&order=asc&limit=100`);
    expect(byTotal.data.map((o) => o.id)).toEqual(
      [...found.data].sort((x, y) => (x.total_kopecks ?? 0) - (y.total_kopecks ?? 0) || x.id - y.id).map((o) => o.id),
    );
  });

  it('filters, searches by phone, number, e-mail and name, and answers { data, total }', async () => {
    const manager = await as('manager');
    const a = await makeOrder({ status: 'new' });
    const b = await makeOrder({ status: 'confirmed', deliveryId: DELIVERY_ID.moscowCourier });
    const byPhone = expectContract(
      AdminOrderListResponse,
      (
        await admin(
          shop,
          `/orders?q=${encodeURIComponent(`+7 (999) 811-${a.phone.slice(7, 9)}-${a.phone.slice(9)}`)}`,
          { cookie: manager },
        )
      ).body,
    );
    expect(byPhone.data.map((o) => o.id)).toEqual([a.orderId]);
    const byNumber = expectContract(
      AdminOrderListResponse,
      (await admin(shop, `/orders?q=${b.orderId}`, { cookie: manager })).body,
    );
    expect(byNumber.data.map((o) => o.id)).toContain(b.orderId);
    const byMail = expectContract(
      AdminOrderListResponse,
      (await admin(shop, `/orders?q=BUYER${phoneCounter}@example`, { cookie: manager })).body,
    );
    expect(byMail.data.map((o) => o.id)).toEqual([b.orderId]);
    const filtered = expectContract(
      AdminOrderListResponse,
      (
        await admin(
          shop,
          `/orders?status=confirmed&delivery=${DELIVERY_ID.moscowCourier}&city=москва&sort=total&order=asc`,
          { cookie: manager },
        )
      ).body,
    );
    expect(filtered.data.map((o) => o.id)).toContain(b.orderId);
    expect(filtered.data.every((o) => o.status === 'confirmed' && o.delivery_id === DELIVERY_ID.moscowCourier)).toBe(
      true,
    );
    expect(filtered.total).toBe(filtered.data.length);
    expect((await admin(shop, '/orders?colour=red', { cookie: manager })).status).toBe(400);

    const one = expectContract(
      AdminOrderOneResponse,
      (await admin(shop, `/orders/${a.orderId}`, { cookie: manager })).body,
    ).data;
    expect(one.lines).toHaveLength(1);
    expect(one.actions).toEqual(['confirm', 'cancel']);
    expect(one.money?.total_kopecks).toBe(one.total_kopecks);
    expect(one.total_kopecks).toBeGreaterThan(0);
    expect((await admin(shop, '/orders/99999999', { cookie: manager })).status).toBe(404);

    const noted = await post(manager, `/orders/${a.orderId}/notes`, { text: 'Позвонить после 18:00' });
    expect(noted.status).toBe(201);
    expect(expectContract(AdminOrderOneResponse, noted.body).data.notes).toMatchObject([
      { text: 'Позвонить после 18:00' },
    ]);
    expect((await auditOf(a.orderId)).map((r) => r.action)).toEqual(['order.note']);
  });

  it('the dashboard counts what waits for staff', async () => {
    await makeOrder({ status: 'new' });
    const d = expectContract(
      AdminDashboardResponse,
      (await admin(shop, '/dashboard', { cookie: await as('warehouse') })).body,
    ).data;
    expect(d.to_confirm).toBeGreaterThan(0);
    expect(d.today.orders).toBeGreaterThan(0);
    // Warehouse sees no money: no revenue; the manager does.
    expect(d.today).not.toHaveProperty('revenue_kopecks');
    expect(d.week).not.toHaveProperty('revenue_kopecks');
    const m = expectContract(
      AdminDashboardResponse,
      (await admin(shop, '/dashboard', { cookie: await as('manager') })).body,
    ).data;
    expect(m.today.revenue_kopecks).toBeGreaterThan(0);
  });
});

describe('actions by state', () => {
  it('walks a CDEK order along, refusing what its state forbids, with an audit row per change and none per refusal', async () => {
    const manager = await as('manager');
    const { orderId } = await makeOrder({ status: 'new' });
    expect((await post(manager, `/orders/${orderId}/ship`, { track_number: '1234567' })).status).toBe(409);
    expect(
      (await post(manager, `/orders/${orderId}/fitting`, { lines: [{ offer_id: 1, kept: 1, refused: 0 }] })).status,
    ).toBe(409);
    expect((await post(manager, `/orders/${orderId}/mark-paid`)).status).toBe(409);
    expect((await post(manager, `/orders/${orderId}/confirm`)).status).toBe(200);
    expect((await post(manager, `/orders/${orderId}/confirm`)).status).toBe(409);
    expect((await post(manager, `/orders/${orderId}/assemble`)).status).toBe(200);
    const noTrack = await post(manager, `/orders/${orderId}/ship`, {});
    expect(noTrack.status).toBe(409);
    expect(noTrack.body.field).toBe('track_number');
    const shipped = await post(manager, `/orders/${orderId}/ship`, { track_number: 'CDEK-100200' });
    expect(shipped.status).toBe(200);
    const data = expectContract(AdminOrderOneResponse, shipped.body).data;
    expect(data).toMatchObject({ status: 'shipped', track_number: 'CDEK-100200' });
    // The shopper's SMS and letter: the same job `npm run order` starts.
    expect(data.jobs.map((j) => j.kind)).toContain('order.shipped');
    expect(data.actions).toEqual(['deliver', 'mark_paid']);
    expect((await post(manager, `/orders/${orderId}/cancel`)).status).toBe(409);
    expect((await post(manager, `/orders/${orderId}/mark-paid`)).status).toBe(200);
    expect((await post(manager, `/orders/${orderId}/mark-paid`)).status).toBe(409);
    expect((await auditOf(orderId)).map((r) => r.action)).toEqual([
      'order.confirm',
      'order.assemble',
      'order.ship',
      'order.mark_paid',
    ]);
    await assertStockLedgerBalanced(db());
  });

  it('a repeated Idempotency-Key gets the first answer and changes nothing again', async () => {
    const manager = await as('manager');
    const { orderId } = await makeOrder({ status: 'new' });
    const key = crypto.randomUUID();
    const first = await post(manager, `/orders/${orderId}/confirm`, {}, key);
    const again = await post(manager, `/orders/${orderId}/confirm`, {}, key);
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await auditOf(orderId)).map((r) => r.action)).toEqual(['order.confirm']);
  });
});

describe('races', () => {
  it('two cancels at once release the order once', async () => {
    const manager = await as('manager');
    const { orderId, offer } = await makeOrder({ quantity: 2, stock: 5, status: 'confirmed' });
    expect(await stockOf(offer.id)).toBe(3);
    const answers = await Promise.all([
      post(manager, `/orders/${orderId}/cancel`, { reason: 'Передумала' }),
      post(manager, `/orders/${orderId}/cancel`),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(await stockOf(offer.id)).toBe(5);
    const moves = await db().select().from(stockMoves).where(eq(stockMoves.orderId, orderId));
    expect(moves.filter((m) => m.reason === 'order_cancelled')).toHaveLength(1);
    expect((await auditOf(orderId)).map((r) => r.action)).toEqual(['order.cancel']);
    await assertStockLedgerBalanced(db());
  });

  it('a fitting recorded twice at once moves stock once; the order ends received in part', async () => {
    const warehouse = await as('warehouse');
    const { orderId, offer } = await makeOrder({
      quantity: 3,
      stock: 4,
      deliveryId: DELIVERY_ID.moscowCourier,
      status: 'shipped',
    });
    expect(await stockOf(offer.id)).toBe(1);
    const lines = [{ offer_id: offer.id, kept: 1, refused: 2 }];
    const answers = await Promise.all([
      post(warehouse, `/orders/${orderId}/fitting`, { lines }),
      post(warehouse, `/orders/${orderId}/fitting`, { lines }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const done = answers.find((a) => a.status === 200);
    const data = expectContract(AdminOrderOneResponse, done?.body).data;
    expect(data.status).toBe('received');
    expect(data.lines[0]).toMatchObject({ kept_quantity: 1, refused_quantity: 2 });
    expect(await stockOf(offer.id)).toBe(3);
    const moves = await db().select().from(stockMoves).where(eq(stockMoves.orderId, orderId));
    expect(moves.filter((m) => m.reason === 'fitting_returned').map((m) => m.delta)).toEqual([2]);
    expect((await auditOf(orderId)).map((r) => r.action)).toEqual(['order.fitting']);
    await assertStockLedgerBalanced(db());
  });

  it('a bad fitting (more than was ordered) is refused with no audit row and no stock move', async () => {
    const warehouse = await as('warehouse');
    const { orderId, offer } = await makeOrder({
      quantity: 1,
      stock: 2,
      deliveryId: DELIVERY_ID.moscowCourier,
      status: 'shipped',
    });
    const r = await post(warehouse, `/orders/${orderId}/fitting`, {
      lines: [{ offer_id: offer.id, kept: 1, refused: 1 }],
    });
    expect(r.status).toBe(400);
    expect(await auditOf(orderId)).toEqual([]);
    expect(await stockOf(offer.id)).toBe(1);
  });
});
