import fs from 'node:fs';
import path from 'node:path';
import { and, asc, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { offers, orders, stockMoves } from '~/db/schema';
import { CheckoutOrderResponse, StockChangeResponse } from '~/shared/contract';
import { StaffFittingResponse, StaffOrderStatusResponse, StockLedgerResponse } from '~/api/staff/routes.server';
import { createOfflineSms } from '~/integrations/sms/offline.server';
import { applyPayment, releaseUnpaidOrder } from '~/models/payments.server';
import { placeOrder } from '~/models/orders.server';
import { STAFF_TOKEN_FILE } from '~/server/secrets.server';
import { fetchJson, getJson, postForm } from '~/tests/support/api';
import { courierForm, offerPicker } from '~/tests/support/checkout';
import { setUpTestShop } from '~/tests/support/server';
import { customerMaker } from '~/tests/support/session';
import { assertStockLedgerBalanced } from '~/tests/support/stock';

// The stock ledger (issue #28) over HTTP, on PGlite or (TEST_DATABASE_URL) PostgreSQL: every path
// that moves stock writes its move (reason, reference, who), the ledger check finds a quantity
// written behind its back, the last item sold to concurrent buyers is one 'order' move, and a
// staff cancel racing the release of the unpaid order gives the stock back once.

const shop = setUpTestShop();
const db = () => shop.database.db;
const api = () => `${shop.baseUrl}/backend`;
const freshOffer = offerPicker(shop);
const customer = customerMaker(shop, '7997');
const silent = { info() {}, error() {} };
const sms = () => createOfflineSms({ outboxDir: path.join(shop.dataDir, 'outbox') });

const staffInit = (fields: Record<string, string>): RequestInit => ({
  method: 'POST',
  headers: {
    'content-type': 'application/x-www-form-urlencoded',
    authorization: `Bearer ${fs.readFileSync(path.join(shop.dataDir, STAFF_TOKEN_FILE), 'utf8').trim()}`,
  },
  body: new URLSearchParams(fields).toString(),
});

async function stockOf(offerId: number): Promise<number> {
  const [row] = await db().select({ q: offers.quantity }).from(offers).where(eq(offers.id, offerId));
  return row?.q ?? -1;
}

/** The offer's moves after its test-fixture count, oldest first. */
async function movesOf(offerId: number) {
  const rows = await db().select().from(stockMoves).where(eq(stockMoves.offerId, offerId)).orderBy(asc(stockMoves.id));
  return rows.slice(rows.findLastIndex((m) => m.note === 'test fixture') + 1);
}

async function orderMoves(orderId: number) {
  return db().select().from(stockMoves).where(eq(stockMoves.orderId, orderId)).orderBy(asc(stockMoves.id));
}

async function checkout(fields: Record<string, string>) {
  return getJson(api(), '/api/catalog/order.php', CheckoutOrderResponse, { init: postForm(fields) });
}

/** An online card order awaiting payment (its stock held until pay_until). */
async function cardOrder(quantity: number, stock: number) {
  const offer = await freshOffer({ quantity: stock });
  const who = await customer();
  const answer = await checkout(courierForm(who.token, `${offer.id}:${quantity}`, { payment_id: '9' }));
  if (!answer.success) throw new Error(JSON.stringify(answer.data));
  return { ...who, offer, orderId: answer.order_id };
}

async function staffStock(fields: Record<string, string>) {
  return (await fetchJson(api(), '/staff/stock/', StockChangeResponse, { init: staffInit(fields) })).body;
}

async function verify() {
  return (await fetchJson(api(), '/staff/stock/', StockLedgerResponse, { init: staffInit({ action: 'verify' }) })).body;
}

async function moveTo(orderId: number, status: string) {
  return (
    await fetchJson(api(), '/staff/orders/', StaffOrderStatusResponse, {
      init: staffInit({ action: 'status', order_id: String(orderId), status }),
    })
  ).body;
}

/** Time passes: the order's hold ends, and the release runs (as its job would). */
async function releaseDue(orderId: number) {
  await db()
    .update(orders)
    .set({ payUntil: new Date(Date.now() - 1000) })
    .where(eq(orders.id, orderId));
  return releaseUnpaidOrder({ db: db(), sms: sms(), log: silent, siteUrl: '', orderId });
}

describe('every stock change is a move', () => {
  it('an order takes, a staff cancel gives back: one move each, naming the order and who', async () => {
    const offer = await freshOffer({ quantity: 5 });
    const who = await customer();
    const placed = await checkout(courierForm(who.token, `${offer.id}:2`));
    if (!placed.success) throw new Error(JSON.stringify(placed.data));
    expect(await stockOf(offer.id)).toBe(3);
    expect(await moveTo(placed.order_id, 'cancelled')).toMatchObject({ data: { status: 'cancelled' } });
    expect(await stockOf(offer.id)).toBe(5);
    expect(
      (await movesOf(offer.id)).map((m) => [m.reason, m.delta, m.quantityAfter, m.orderId, m.actorKind, m.actorId]),
    ).toEqual([
      ['order', -2, 3, placed.order_id, 'customer', who.customerId],
      ['order_cancelled', 2, 5, placed.order_id, 'staff', null],
    ]);
  });

  it("a guest's fast order is taken by a customer without an id", async () => {
    const offer = await freshOffer({ quantity: 1 });
    const placed = await placeOrder({
      db: db(),
      kind: 'fast',
      customerId: null,
      phone: '79970001122',
      name: 'Гость',
      cart: [{ offerId: offer.id, quantity: 1 }],
      preorders: [],
    });
    if (!placed.ok) throw new Error(JSON.stringify(placed));
    expect(
      (await orderMoves(placed.orderId)).map((m) => [m.offerId, m.reason, m.delta, m.actorKind, m.actorId]),
    ).toEqual([[offer.id, 'order', -1, 'customer', null]]);
  });

  it('a released unpaid order gives back as payment_expired; a late payment takes it again as an order, by the shop', async () => {
    const o = await cardOrder(1, 3);
    expect(await releaseDue(o.orderId)).toBe('released');
    const [row] = await db().select().from(orders).where(eq(orders.id, o.orderId));
    const outcome = await applyPayment({
      db: db(),
      kind: 'pay',
      notice: {
        transactionId: String(900_000_000 + o.orderId),
        invoiceId: String(o.orderId),
        accountId: String(o.customerId),
        amountKopecks: (row?.totalKopecks ?? 0) - (row?.certificateKopecks ?? 0),
        currency: 'RUB',
        fields: {},
      },
    });
    expect(outcome).toBe('late:restored');
    expect((await orderMoves(o.orderId)).map((m) => [m.reason, m.delta, m.actorKind])).toEqual([
      ['order', -1, 'customer'],
      ['payment_expired', 1, 'system'],
      ['order', -1, 'system'],
    ]);
    expect(await stockOf(o.offer.id)).toBe(2);
  });

  it('the fitting gives refused items back as fitting_returned', async () => {
    const offer = await freshOffer({ quantity: 4 });
    const who = await customer();
    const placed = await checkout(courierForm(who.token, `${offer.id}:3`));
    if (!placed.success) throw new Error(JSON.stringify(placed.data));
    for (const to of ['confirmed', 'assembling', 'shipped'])
      expect((await moveTo(placed.order_id, to)).data?.status).toBe(to);
    const fitting = await fetchJson(api(), '/staff/orders/', StaffFittingResponse, {
      init: staffInit({
        action: 'fitting',
        order_id: String(placed.order_id),
        [`lines[${offer.id}][kept]`]: '1',
        [`lines[${offer.id}][refused]`]: '2',
      }),
    });
    expect(fitting.body.data?.stock_returned).toEqual([{ offer_id: offer.id, previous: 1, quantity: 3, notified: 0 }]);
    expect((await orderMoves(placed.order_id)).map((m) => [m.reason, m.delta, m.quantityAfter])).toEqual([
      ['order', -3, 1],
      ['fitting_returned', 2, 3],
    ]);
  });

  it('staff set (a count) and add (an adjustment, never below zero) are moves of the staff token', async () => {
    const offer = await freshOffer({ quantity: 2 });
    expect((await staffStock({ action: 'set', offer_id: String(offer.id), quantity: '7' })).data).toMatchObject({
      previous: 2,
      quantity: 7,
    });
    expect((await staffStock({ action: 'add', offer_id: String(offer.id), quantity: '-10' })).data).toMatchObject({
      previous: 7,
      quantity: 0,
    });
    expect((await staffStock({ action: 'set', offer_id: String(offer.id), quantity: '0' })).data).toMatchObject({
      previous: 0,
      quantity: 0,
    });
    expect(
      (await movesOf(offer.id)).map((m) => [m.reason, m.delta, m.quantityAfter, m.actorKind, m.actorId, m.orderId]),
    ).toEqual([
      ['count', 5, 7, 'staff', null, null],
      ['staff_adjustment', -7, 0, 'staff', null, null],
      // A count that finds what the system shows is recorded too.
      ['count', 0, 0, 'staff', null, null],
    ]);
  });
});

describe('the ledger check', () => {
  it('balances, and finds a quantity written behind the ledger’s back', async () => {
    const before = await verify();
    expect(before.data).toMatchObject({ balanced: true, mismatches: [] });
    expect(before.data.moves).toBeGreaterThan(before.data.offers / 2);
    const offer = await freshOffer({ quantity: 3 });
    // What nothing in the code may do (tests/unit/stock-writes.test.ts): here only to be caught.
    await db().execute(sql`update offers set quantity = 9 where id = ${offer.id}`);
    const after = await verify();
    expect(after.data.balanced).toBe(false);
    expect(after.data.mismatches).toEqual([{ offer_id: offer.id, quantity: 9, moves_sum: 3, broken_move_id: null }]);
    expect(after.warnings).toEqual(['Остатки не сходятся с журналом движений: 1']);
    await expect(assertStockLedgerBalanced(db())).rejects.toThrow(`"offerId":${offer.id}`);
    await db().execute(sql`update offers set quantity = 3 where id = ${offer.id}`);
    expect((await verify()).data.balanced).toBe(true);
  });
});

describe('under concurrency', () => {
  it('the last item ordered by eight customers at once: one order, one order move', async () => {
    const offer = await freshOffer({ quantity: 1 });
    const buyers = await Promise.all(Array.from({ length: 8 }, () => customer()));
    const answers = await Promise.all(buyers.map((b) => checkout(courierForm(b.token, `${offer.id}:1`))));
    expect(answers.filter((a) => a.success)).toHaveLength(1);
    expect(await stockOf(offer.id)).toBe(0);
    const moves = await movesOf(offer.id);
    expect(moves.map((m) => [m.reason, m.delta, m.quantityAfter])).toEqual([['order', -1, 0]]);
    const won = answers.find((a) => a.success);
    expect(moves[0]?.orderId).toBe(won?.success ? won.order_id : -1);
  });

  it('a staff cancel racing the release of the unpaid order gives the stock back once', async () => {
    for (let round = 0; round < 3; round++) {
      const o = await cardOrder(2, 2);
      expect(await stockOf(o.offer.id)).toBe(0);
      await db()
        .update(orders)
        .set({ payUntil: new Date(Date.now() - 1000) })
        .where(eq(orders.id, o.orderId));
      const [cancel, release] = await Promise.all([
        moveTo(o.orderId, 'cancelled'),
        releaseUnpaidOrder({ db: db(), sms: sms(), log: silent, siteUrl: '', orderId: o.orderId }),
      ]);
      // Exactly one of them released it; the other found it cancelled.
      expect([cancel.data !== null, release === 'released'].filter(Boolean)).toHaveLength(1);
      expect(await stockOf(o.offer.id)).toBe(2);
      const back = (await orderMoves(o.orderId)).filter((m) => m.delta > 0);
      expect(back).toHaveLength(1);
      expect(back[0]?.reason).toBe(release === 'released' ? 'payment_expired' : 'order_cancelled');
      const [row] = await db()
        .select({ status: orders.status })
        .from(orders)
        .where(and(eq(orders.id, o.orderId)));
      expect(row?.status).toBe('cancelled');
    }
  });
});
