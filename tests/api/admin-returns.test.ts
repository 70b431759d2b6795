import fs from 'node:fs';
import path from 'node:path';
import { asc, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '~/db/client.server';
import { orders, refunds } from '~/db/schema';
import { MOSCOW_COURIER_PRICE_KOPECKS } from '~/core/delivery';
import {
  CheckoutOrderResponse,
  PaymentParamsResponse,
  ReturnCreateResponse,
  type PaymentWidgetParams,
} from '~/shared/contract';
import { ReturnListResponse, ReturnOneResponse } from '~/shared/admin-contract';
import { StaffOrderStatusResponse } from '~/api/staff/routes.server';
import { STAFF_TOKEN_FILE } from '~/server/secrets.server';
import { readSmsOutbox } from '~/integrations/sms/offline.server';
import { verifyStockLedger } from '~/models/stock.server';
import { eventually, expectContract, fetchJson, getJson, postForm } from '~/tests/support/api';
import { setUpTestShop } from '~/tests/support/server';
import { customerMaker } from '~/tests/support/session';
import { courierForm, offerPicker } from '~/tests/support/checkout';
import { admin, staffSession, testClock } from '~/tests/support/admin';

// The back office's returns (issue #29) over HTTP, on PGlite and (TEST_DATABASE_URL) PostgreSQL:
// approve (the refund by the original means, the same model function as `npm run return`) once
// whoever clicks twice or at once, refuse with the customer's reason, receive the goods back
// through the stock ledger once; who may do what; the audit rows; the customer's notice.

const clock = testClock();
const shop = setUpTestShop({ clock: clock.now });
const db = () => shop.database.db;
const api = () => `${shop.baseUrl}/backend`;
const freshOffer = offerPicker(shop);
const customer = customerMaker(shop, '7995');

type Role = 'admin' | 'manager' | 'warehouse' | 'content';
const sessions: Partial<Record<Role, Awaited<ReturnType<typeof staffSession>>>> = {};
async function as(role: Role) {
  sessions[role] ??= await staffSession(shop, clock, { email: `${role}@returns.example`, role });
  return sessions[role];
}

const staffToken = () => fs.readFileSync(path.join(shop.dataDir, STAFF_TOKEN_FILE), 'utf8').trim();
const staffInit = (fields: Record<string, string>): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${staffToken()}` },
  body: new URLSearchParams(fields).toString(),
});

/** A card order paid on the offline CloudPayments page and delivered. */
async function deliveredCardOrder(quantity = 2) {
  const offer = await freshOffer({ min: 300_000, max: Math.floor((4_000_000 - MOSCOW_COURIER_PRICE_KOPECKS) / 2) });
  const who = await customer();
  const placed = await getJson(api(), '/api/catalog/order.php', CheckoutOrderResponse, {
    init: postForm(courierForm(who.token, `${offer.id}:${quantity}`, { payment_id: '9' })),
  });
  if (!placed.success) throw new Error(JSON.stringify(placed.data));
  const orderId = placed.order_id;
  const params = await getJson(api(), '/api/catalog/payment_params.php', PaymentParamsResponse, {
    init: postForm({ token: who.token, order_id: String(orderId) }),
  });
  if (!('payment' in params)) throw new Error(params.error);
  const p = Buffer.from(JSON.stringify((params.payment as PaymentWidgetParams).params)).toString('base64url');
  const res = await fetch(`${api()}/api/cloudpayments/offline/charge/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ p, action: 'pay', code: '1234', card: '4242 4242 4242 4242' }),
  });
  expect(res.status).toBe(200);
  for (const status of ['confirmed', 'assembling', 'shipped', 'delivered']) {
    const { body } = await fetchJson(api(), '/staff/orders/', StaffOrderStatusResponse, {
      init: staffInit({ action: 'status', order_id: String(orderId), status }),
    });
    if (!body.data) throw new Error(JSON.stringify(body.errors));
  }
  return { ...who, offer, orderId };
}

async function requestOf(token: string, orderId: number, offerId: number, quantity: number): Promise<number> {
  const made = await getJson(api(), '/api/personal/return_add.php', ReturnCreateResponse, {
    init: postForm({
      token,
      order_id: String(orderId),
      reason: 'Не подошёл размер',
      [`items[${offerId}]`]: String(quantity),
    }),
  });
  if (!made.success) throw new Error(made.error);
  return made.id;
}

const refundRows = (requestId: number) =>
  db().select().from(refunds).where(eq(refunds.returnRequestId, requestId)).orderBy(asc(refunds.id));
const quantityOf = async (offerId: number) =>
  (await queryRows<{ quantity: number }>(db(), sql`select quantity from offers where id = ${offerId}`))[0]?.quantity;
const auditOf = (requestId: number) =>
  queryRows<{ action: string; staff_id: number | null; reason: string | null; after: unknown }>(
    db(),
    sql`select action, staff_id, reason, after from audit_events where entity_type = 'return' and entity_id = ${String(requestId)} order by id`,
  );

describe('approving (the refund) and receiving', () => {
  it('refunds once when two managers approve at once; warehouse may not refund but receives the goods, once', async () => {
    const o = await deliveredCardOrder(2);
    const requestId = await requestOf(o.token, o.orderId, o.offer.id, 1);
    const manager = await as('manager');
    const warehouse = await as('warehouse');
    const adminS = await as('admin');

    // Who may see and refund.
    expect((await admin(shop, '/returns', { cookie: (await as('content')).cookie })).status).toBe(403);
    const refused = await admin(shop, `/returns/${requestId}/approve`, { cookie: warehouse.cookie, body: {} });
    expect(refused.status).toBe(403);
    expect(await refundRows(requestId)).toEqual([]);
    expect(await auditOf(requestId)).toEqual([]);

    // Receiving before the decision is refused.
    expect((await admin(shop, `/returns/${requestId}/receive`, { cookie: warehouse.cookie, body: {} })).status).toBe(
      409,
    );

    // Two at once, different keys (two people): one refund.
    const answers = await Promise.all(
      [manager, adminS].map((s) => admin(shop, `/returns/${requestId}/approve`, { cookie: s.cookie, body: {} })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const ok = answers.find((a) => a.status === 200);
    expect(expectContract(ReturnOneResponse, ok?.body).data).toMatchObject({
      id: requestId,
      status: 'approved',
      received: false,
    });
    expect(answers.find((a) => a.status === 409)?.body.error).toMatch(/уже рассмотрена/);
    expect(await refundRows(requestId)).toHaveLength(1);
    // A double click (one key twice at once): the first answer again.
    const key = `approve-${requestId}-again`;
    const twice = await Promise.all(
      [0, 1].map(() => admin(shop, `/returns/${requestId}/approve`, { cookie: manager.cookie, body: {}, key })),
    );
    expect(twice.map((a) => a.status)).toEqual([409, 409]);
    expect(await refundRows(requestId)).toHaveLength(1);
    expect((await auditOf(requestId)).map((a) => a.action)).toEqual(['return.approve']);

    // The card refund by the job, and the customer's notice.
    await eventually(
      async () => ((await refundRows(requestId))[0]?.status === 'done' ? true : null),
      'the card refund done',
    );
    await eventually(
      async () =>
        (await readSmsOutbox(path.join(shop.dataDir, 'outbox'))).find((m) =>
          m.text.startsWith(`Возврат по заказу №${o.orderId} одобрен`),
        ) ?? null,
      'the return notice',
    );

    // Receiving: stock back through the ledger, once, even twice at once.
    const before = await quantityOf(o.offer.id);
    const received = await Promise.all(
      [0, 1].map(() =>
        admin(shop, `/returns/${requestId}/receive`, { cookie: warehouse.cookie, body: { reason: 'на складе' } }),
      ),
    );
    expect(received.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(await quantityOf(o.offer.id)).toBe((before ?? 0) + 1);
    const moves = await queryRows<{ delta: number; actor_kind: string; actor_id: number }>(
      db(),
      sql`select delta, actor_kind, actor_id from stock_moves where return_request_id = ${requestId} and reason = 'return_received'`,
    );
    expect(moves).toEqual([{ delta: 1, actor_kind: 'staff', actor_id: warehouse.id }]);
    expect((await auditOf(requestId)).map((a) => [a.action, a.staff_id])).toEqual([
      ['return.approve', expect.any(Number)],
      ['return.receive', warehouse.id],
    ]);
    // No money for warehouse (no orders:money): its answers have no refunds at all, not even
    // empty — the list, the page, the receive answer; admin and manager see the amounts.
    for (const a of received) expect(JSON.stringify(a.body)).not.toMatch(/kopecks|amount|price|refund/);
    const [refund] = await refundRows(requestId);
    for (const [role, s] of [
      ['warehouse', warehouse],
      ['manager', manager],
      ['admin', adminS],
    ] as const) {
      const one = expectContract(
        ReturnOneResponse,
        (await admin(shop, `/returns/${requestId}`, { cookie: s.cookie })).body,
      );
      const list = expectContract(
        ReturnListResponse,
        (await admin(shop, `/returns?order_id=${o.orderId}`, { cookie: s.cookie })).body,
      );
      expect(
        list.data.map((r) => r.id),
        role,
      ).toEqual([requestId]);
      expect(one.data, role).toMatchObject({ status: 'refunded', received: true });
      if (role === 'warehouse') {
        expect(one.data, role).not.toHaveProperty('refunds');
        expect(list.data[0], role).not.toHaveProperty('refunds');
        expect(JSON.stringify([one, list]), role).not.toMatch(/kopecks|amount|price/);
      } else {
        const refunds = [{ means: 'cloudpayments', amount_kopecks: refund?.amountKopecks, status: 'done' }];
        expect(one.data.refunds, role).toEqual(refunds);
        expect(list.data[0]?.refunds, role).toEqual(refunds);
        expect(refund?.amountKopecks).toBeGreaterThan(0);
      }
    }
    expect((await verifyStockLedger({ db: db() })).mismatches).toEqual([]);
  });
});

describe('refusing', () => {
  it('needs the reason the customer sees; a refused request moves no money and no stock', async () => {
    const o = await deliveredCardOrder(1);
    const requestId = await requestOf(o.token, o.orderId, o.offer.id, 1);
    const { cookie } = await as('manager');
    expect((await admin(shop, `/returns/${requestId}/reject`, { cookie, body: { note: ' ' } })).status).toBe(400);
    expect(
      (
        await admin(shop, `/returns/${requestId}/reject`, {
          cookie: (await as('warehouse')).cookie,
          body: { note: 'нет' },
        })
      ).status,
    ).toBe(403);
    const rejected = await admin(shop, `/returns/${requestId}/reject`, { cookie, body: { note: 'Следы носки' } });
    expect(rejected.status).toBe(200);
    expect(rejected.body.data).toMatchObject({ status: 'rejected', decision_note: 'Следы носки' });
    expect((await admin(shop, `/returns/${requestId}/approve`, { cookie, body: {} })).status).toBe(409);
    expect((await admin(shop, `/returns/${requestId}/receive`, { cookie, body: {} })).status).toBe(409);
    expect(await refundRows(requestId)).toEqual([]);
    expect((await auditOf(requestId)).map((a) => [a.action, a.reason])).toEqual([['return.reject', 'Следы носки']]);

    const list = expectContract(
      ReturnListResponse,
      (await admin(shop, `/returns?status=rejected&order_id=${o.orderId}`, { cookie })).body,
    );
    expect(list.data.map((r) => r.id)).toEqual([requestId]);
    const [order] = await db().select({ customerId: orders.customerId }).from(orders).where(eq(orders.id, o.orderId));
    const byCustomer = expectContract(
      ReturnListResponse,
      (await admin(shop, `/returns?customer_id=${order?.customerId}`, { cookie })).body,
    );
    expect(byCustomer.total).toBe(1);
    expect((await admin(shop, '/returns/99999999', { cookie })).status).toBe(404);
  });
});
