import path from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '~/db/client.server';
import { waitingList } from '~/db/schema';
import { verifyStockLedger } from '~/models/stock.server';
import { readSmsOutbox } from '~/integrations/sms/offline.server';
import {
  PreorderListResponse,
  StockAdjustResponse,
  StockMoveListResponse,
  StockOfferListResponse,
  StockOfferOneResponse,
  WaitingListResponse,
} from '~/shared/admin-contract';
import { CheckoutOrderResponse } from '~/shared/contract';
import { sessionToken } from '~/tests/support/session';
import { setUpTestShop } from '~/tests/support/server';
import { eventually, expectContract, getJson, postForm } from '~/tests/support/api';
import { admin, staffSession, testClock } from '~/tests/support/admin';
import { courierForm, offerPicker } from '~/tests/support/checkout';
import { setStock } from '~/tests/support/stock';

// The back office's stock (issue #29) over HTTP, on PGlite and (TEST_DATABASE_URL) PostgreSQL:
// who may read and adjust, a set and a move through the ledger with the staff member as actor,
// the Idempotency-Key (two adjustments with one key at once apply once), bulk all-or-nothing and
// per offer, the audit rows, the waiting list told by SMS when a size goes from 0 to more.

const clock = testClock();
const shop = setUpTestShop({ clock: clock.now });
const db = () => shop.database.db;
const freshOffer = offerPicker(shop);

type Role = 'admin' | 'manager' | 'warehouse' | 'content';
const sessions: Partial<Record<Role, Awaited<ReturnType<typeof staffSession>>>> = {};
async function as(role: Role) {
  sessions[role] ??= await staffSession(shop, clock, { email: `${role}@stock.example`, role });
  return sessions[role];
}

const quantityOf = async (offerId: number) =>
  (await queryRows<{ quantity: number }>(db(), sql`select quantity from offers where id = ${offerId}`))[0]?.quantity;
const auditOf = (offerId: number) =>
  queryRows<{ action: string; staff_id: number | null; before: unknown; after: unknown; reason: string | null }>(
    db(),
    sql`select action, staff_id, before, after, reason from audit_events where entity_type = 'offer' and entity_id = ${String(offerId)} order by id`,
  );
const movesOf = (offerId: number) =>
  queryRows<{ delta: number; reason: string; actor_kind: string; actor_id: number | null; note: string | null }>(
    db(),
    sql`select delta, reason, actor_kind, actor_id, note from stock_moves where offer_id = ${offerId} order by id`,
  );

describe('roles', () => {
  it('warehouse and admin adjust; manager and content only read; nobody without a session', async () => {
    const offer = await freshOffer({ quantity: 5 });
    for (const role of ['admin', 'manager', 'warehouse', 'content'] as const) {
      const { cookie } = await as(role);
      expect(
        (await admin(shop, `/offers?q=${encodeURIComponent(offer.name.slice(0, 6))}`, { cookie })).status,
        `${role} list`,
      ).toBe(200);
      const adjust = await admin(shop, `/offers/${offer.id}/stock`, {
        cookie,
        body: { delta: 1, kind: 'receipt', note: `by ${role}` },
      });
      expect(adjust.status, `${role} adjust`).toBe(role === 'admin' || role === 'warehouse' ? 200 : 403);
      expect((await admin(shop, '/waiting-list', { cookie })).status, `${role} waiting list`).toBe(
        role === 'content' ? 403 : 200,
      );
    }
    expect(await quantityOf(offer.id)).toBe(7);
    const audit = await auditOf(offer.id);
    expect(audit.map((a) => a.reason)).toEqual(['by admin', 'by warehouse']);
    expect((await admin(shop, '/offers')).status).toBe(401);
  });
});

describe('adjusting one offer', () => {
  it('sets a count and moves by a delta through the ledger, the staff member its actor, with an audit row each', async () => {
    const offer = await freshOffer({ quantity: 5 });
    const { cookie, id } = await as('warehouse');
    const set = await admin(shop, `/offers/${offer.id}/stock`, {
      cookie,
      body: { set: 3, kind: 'count', note: 'пересчёт полки' },
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(expectContract(StockAdjustResponse, set.body).data).toEqual([
      { offer_id: offer.id, previous: 5, quantity: 3, notified: 0 },
    ]);
    const damage = await admin(shop, `/offers/${offer.id}/stock`, {
      cookie,
      body: { delta: -1, kind: 'damage', note: 'пятно' },
    });
    expect(damage.status).toBe(200);
    expect(await quantityOf(offer.id)).toBe(2);
    const moves = await movesOf(offer.id);
    expect(moves.slice(-2)).toEqual([
      { delta: -2, reason: 'count', actor_kind: 'staff', actor_id: id, note: 'Инвентаризация: пересчёт полки' },
      { delta: -1, reason: 'staff_adjustment', actor_kind: 'staff', actor_id: id, note: 'Брак или порча: пятно' },
    ]);
    const audit = await auditOf(offer.id);
    expect(audit.map((a) => [a.action, a.staff_id, a.before, a.after])).toEqual([
      ['offer.stock', id, { quantity: 5 }, { quantity: 3, kind: 'count' }],
      ['offer.stock', id, { quantity: 3 }, { quantity: 2, kind: 'damage' }],
    ]);
    // The offer's page shows the same history (content reads stock too).
    const page = expectContract(
      StockOfferOneResponse,
      (await admin(shop, `/offers/${offer.id}`, { cookie: (await as('content')).cookie })).body,
    );
    expect(page.data.audit.map((a) => [a.action, a.actor_label, a.after])).toEqual([
      ['offer.stock', 'warehouse@stock.example', { quantity: 3, kind: 'count' }],
      ['offer.stock', 'warehouse@stock.example', { quantity: 2, kind: 'damage' }],
    ]);
    const ledger = await admin(shop, `/offers/${offer.id}/moves`, { cookie });
    const list = expectContract(StockMoveListResponse, ledger.body);
    expect(list.data[0]).toMatchObject({
      delta: -1,
      quantity_after: 2,
      reason: 'staff_adjustment',
      reason_label: 'Корректировка',
      actor_id: id,
    });
    expect((await verifyStockLedger({ db: db() })).mismatches).toEqual([]);
  });

  it('refuses a take below zero, a count with a delta, no reason; nothing written, no audit row', async () => {
    const offer = await freshOffer({ quantity: 1 });
    const { cookie } = await as('warehouse');
    const short = await admin(shop, `/offers/${offer.id}/stock`, {
      cookie,
      body: { delta: -2, kind: 'damage', note: 'x' },
    });
    expect(short.status).toBe(409);
    expect(
      (await admin(shop, `/offers/${offer.id}/stock`, { cookie, body: { delta: 2, kind: 'count', note: 'x' } })).status,
    ).toBe(400);
    expect(
      (await admin(shop, `/offers/${offer.id}/stock`, { cookie, body: { delta: 2, kind: 'receipt', note: ' ' } }))
        .status,
    ).toBe(400);
    expect(
      (await admin(shop, `/offers/99999999/stock`, { cookie, body: { delta: 2, kind: 'receipt', note: 'x' } })).status,
    ).toBe(404);
    expect(await quantityOf(offer.id)).toBe(1);
    expect(await auditOf(offer.id)).toEqual([]);
  });

  it('applies two adjustments with one Idempotency-Key once, sent twice at once; a new key applies again', async () => {
    const offer = await freshOffer({ quantity: 4 });
    const { cookie } = await as('warehouse');
    const body = { delta: 3, kind: 'receipt', note: 'поставка 12' };
    const answers = await Promise.all(
      [0, 1, 2].map(() => admin(shop, `/offers/${offer.id}/stock`, { cookie, body, key: `stock-${offer.id}-once` })),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(answers.filter((a) => a.headers.get('idempotent-replayed') === 'true')).toHaveLength(2);
    for (const a of answers) expect(a.body).toEqual(answers[0]?.body);
    expect(await quantityOf(offer.id)).toBe(7);
    expect(await auditOf(offer.id)).toHaveLength(1);
    // The same key with another body is refused.
    expect(
      (
        await admin(shop, `/offers/${offer.id}/stock`, {
          cookie,
          body: { ...body, delta: 4 },
          key: `stock-${offer.id}-once`,
        })
      ).status,
    ).toBe(422);
    expect((await admin(shop, `/offers/${offer.id}/stock`, { cookie, body })).status).toBe(200);
    expect(await quantityOf(offer.id)).toBe(10);
    expect((await verifyStockLedger({ db: db() })).mismatches).toEqual([]);
  });

  it('takes the last items once when two staff take them at once with different keys', async () => {
    const offer = await freshOffer({ quantity: 1 });
    const a = await as('warehouse');
    const b = await as('admin');
    const answers = await Promise.all(
      [a, b].map((s) =>
        admin(shop, `/offers/${offer.id}/stock`, {
          cookie: s.cookie,
          body: { delta: -1, kind: 'damage', note: 'брак' },
        }),
      ),
    );
    expect(answers.map((x) => x.status).sort()).toEqual([200, 409]);
    expect(await quantityOf(offer.id)).toBe(0);
    expect(await auditOf(offer.id)).toHaveLength(1);
  });
});

describe('bulk', () => {
  it('all-or-nothing refuses the batch when one offer is short; per offer moves the rest and clamps the short one', async () => {
    const one = await freshOffer({ quantity: 5 });
    const two = await freshOffer({ quantity: 1 });
    const { cookie } = await as('warehouse');
    const lines = [
      { offer_id: one.id, delta: -2 },
      { offer_id: two.id, delta: -3 },
    ];
    const all = await admin(shop, '/stock/bulk', {
      cookie,
      body: { lines, kind: 'damage', note: 'затопило', mode: 'all' },
    });
    expect(all.status).toBe(409);
    expect(all.body.error).toContain(String(two.id));
    expect([await quantityOf(one.id), await quantityOf(two.id)]).toEqual([5, 1]);
    expect(await auditOf(one.id)).toEqual([]);

    const each = await admin(shop, '/stock/bulk', {
      cookie,
      body: { lines, kind: 'damage', note: 'затопило', mode: 'each' },
    });
    expect(each.status, JSON.stringify(each.body)).toBe(200);
    expect([await quantityOf(one.id), await quantityOf(two.id)]).toEqual([3, 0]);
    expect((await auditOf(one.id)).map((a) => a.after)).toEqual([{ quantity: 3, kind: 'damage', bulk: 'each' }]);
    expect((await auditOf(two.id)).map((a) => a.after)).toEqual([{ quantity: 0, kind: 'damage', bulk: 'each' }]);
    expect((await verifyStockLedger({ db: db() })).mismatches).toEqual([]);
  });
});

describe('lists and the waiting list', () => {
  it('filters sold out and at-or-below; 0 → more tells the waiting list by SMS once', async () => {
    const offer = await freshOffer({ quantity: 0 });
    const { cookie } = await as('warehouse');
    const soldOut = expectContract(
      StockOfferListResponse,
      (await admin(shop, '/offers?sold_out=true&limit=100&sort=id&order=desc', { cookie })).body,
    );
    expect(soldOut.data.every((o) => o.quantity === 0)).toBe(true);
    const atMost = expectContract(
      StockOfferListResponse,
      (await admin(shop, `/offers?at_most=0&q=${encodeURIComponent(offer.name)}`, { cookie })).body,
    );
    expect(atMost.data.map((o) => o.id)).toContain(offer.id);
    expect((await admin(shop, '/offers?bogus=1', { cookie })).status).toBe(400);

    const phone = '79990001122';
    await db().insert(waitingList).values({ offerId: offer.id, phone, name: 'Анна' });
    const waiting = expectContract(
      WaitingListResponse,
      (await admin(shop, `/waiting-list?offer_id=${offer.id}`, { cookie })).body,
    );
    expect(waiting.data).toEqual([expect.objectContaining({ offer_id: offer.id, phone, name: 'Анна', quantity: 0 })]);

    const back = await admin(shop, `/offers/${offer.id}/stock`, {
      cookie,
      body: { delta: 2, kind: 'receipt', note: 'поставка' },
    });
    expect(expectContract(StockAdjustResponse, back.body).data[0]).toMatchObject({
      previous: 0,
      quantity: 2,
      notified: 1,
    });
    const outbox = path.join(shop.dataDir, 'outbox');
    await eventually(
      async () =>
        (await readSmsOutbox(outbox)).find((m) => m.tag === 'back-in-stock' && m.phone.endsWith('9990001122')) ?? null,
      'the back-in-stock SMS',
    );
    expect(
      expectContract(WaitingListResponse, (await admin(shop, `/waiting-list?offer_id=${offer.id}`, { cookie })).body)
        .data,
    ).toEqual([]);
    // More stock again: nobody is told twice.
    await admin(shop, `/offers/${offer.id}/stock`, { cookie, body: { delta: 1, kind: 'receipt', note: 'ещё' } });
    expect(
      (await readSmsOutbox(outbox)).filter((m) => m.tag === 'back-in-stock' && m.phone.endsWith('9990001122')),
    ).toHaveLength(1);
  });
});

describe('pre-orders', () => {
  it('lists the pre-order lines of orders not yet shipped, with the stock now; warehouse and manager read, content not', async () => {
    const offer = await freshOffer({ min: 100_000, max: 3_000_000, quantity: 0 });
    await setStock(db(), offer.id, 0, { preorder: true });
    const who = await sessionToken(shop, '79970000001');
    const placed = await getJson(`${shop.baseUrl}/backend`, '/api/catalog/order.php', CheckoutOrderResponse, {
      init: postForm(courierForm(who.token, '', { preorder_ids: `${offer.id}:1`, payment_id: '9' })),
    });
    if (!placed.success) throw new Error(JSON.stringify(placed.data));
    expect((await admin(shop, '/preorders', { cookie: (await as('content')).cookie })).status).toBe(403);
    for (const role of ['warehouse', 'manager'] as const) {
      const { cookie } = await as(role);
      const list = expectContract(
        PreorderListResponse,
        (await admin(shop, `/preorders?offer_id=${offer.id}`, { cookie })).body,
      );
      expect(list).toMatchObject({
        total: 1,
        data: [
          {
            id: `${placed.order_id}:${offer.id}`,
            order_id: placed.order_id,
            offer_id: offer.id,
            quantity: 1,
            in_stock: 0,
          },
        ],
      });
      expect((await admin(shop, `/preorders?offer_id=${offer.id}&in_stock=true`, { cookie })).body.total).toBe(0);
    }
    // The stock arrives: the line is one to fulfil now.
    const { cookie } = await as('warehouse');
    expect(
      (
        await admin(shop, `/offers/${offer.id}/stock`, {
          cookie,
          body: { delta: 3, kind: 'receipt', note: 'поставка' },
        })
      ).status,
    ).toBe(200);
    const ready = expectContract(
      PreorderListResponse,
      (await admin(shop, `/preorders?offer_id=${offer.id}&in_stock=true`, { cookie })).body,
    );
    expect(ready.data).toMatchObject([{ order_id: placed.order_id, in_stock: 3 }]);
    expect((await admin(shop, '/preorders?bogus=1', { cookie })).status).toBe(400);
    expect((await verifyStockLedger({ db: db() })).mismatches).toEqual([]);
  });
});
