import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { queryRows } from '~/db/client.server';
import { waitingList } from '~/db/schema';
import { CheckoutOrderResponse, ReturnCreateResponse } from '~/shared/contract';
import { STAFF_TOKEN_FILE } from '~/server/secrets.server';
import { readSmsOutbox } from '~/integrations/sms/offline.server';
import { verifyStockLedger } from '~/models/stock.server';
import { eventually, getJson, postForm } from '~/tests/support/api';
import { setUpTestShop } from '~/tests/support/server';
import { customerMaker } from '~/tests/support/session';
import { courierForm, offerPicker } from '~/tests/support/checkout';

// The staff scripts (`npm run stock`, `order`, `return`, `jobs`) write their audit row in the
// same transaction as the change it records (api/staff/script-audit.server.ts): when the audit
// insert fails (a constraint this test adds for one action), the change is rolled back — stock,
// order, return, jobs all as they were, no SMS sent — and the call answers 500; when it succeeds
// there is exactly one row, the script its actor. On PGlite and (TEST_DATABASE_URL) PostgreSQL.

const shop = setUpTestShop();
const db = () => shop.database.db;
const api = () => `${shop.baseUrl}/backend`;
const freshOffer = offerPicker(shop);
const customer = customerMaker(shop, '7954');

const staffToken = () => fs.readFileSync(path.join(shop.dataDir, STAFF_TOKEN_FILE), 'utf8').trim();

/** A staff script's call, as scripts/staff-client.ts makes it: its status and JSON answer. */
async function script(
  name: string,
  route: string,
  fields: Record<string, string>,
): Promise<{ status: number; body: { data: unknown; errors: Record<string, string> } }> {
  const res = await fetch(`${api()}/staff/${route}/`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${staffToken()}`,
      'content-type': 'application/x-www-form-urlencoded',
      'x-vitrina-script': name,
    },
    body: new URLSearchParams(fields),
  });
  return { status: res.status, body: (await res.json()) as { data: unknown; errors: Record<string, string> } };
}

/** An audit insert of `action` fails while `run` runs (a constraint, as a full disk or a bug would). */
async function withAuditRefused<T>(action: string, run: () => Promise<T>): Promise<T> {
  await db().execute(
    sql.raw(`alter table audit_events add constraint test_refuse_script check (action <> '${action}') not valid`),
  );
  try {
    return await run();
  } finally {
    await db().execute(sql`alter table audit_events drop constraint test_refuse_script`);
  }
}
afterEach(async () => {
  await db().execute(sql`alter table audit_events drop constraint if exists test_refuse_script`);
});

const auditOf = (entityType: string, entityId: number | string) =>
  queryRows<{ action: string; actor_kind: string; actor_label: string; reason: string | null; after: unknown }>(
    db(),
    sql`select action, actor_kind, actor_label, reason, after from audit_events
        where entity_type = ${entityType} and entity_id = ${String(entityId)} order by id`,
  );
const quantityOf = async (offerId: number) =>
  (await queryRows<{ quantity: number }>(db(), sql`select quantity from offers where id = ${offerId}`))[0]?.quantity;
const movesOf = async (offerId: number) =>
  (await queryRows<{ n: number }>(db(), sql`select count(*)::int as n from stock_moves where offer_id = ${offerId}`))[0]
    ?.n;
const orderState = async (orderId: number) =>
  (
    await queryRows<{ status: string; history: number }>(
      db(),
      sql`select status, (select count(*)::int from order_status_history h where h.order_id = o.id) as history
          from orders o where id = ${orderId}`,
    )
  )[0];

/** A Moscow courier order paid on receipt (cash), of one item of each offer. */
async function courierOrder(offerIds: number[]) {
  const who = await customer();
  const placed = await getJson(api(), '/api/catalog/order.php', CheckoutOrderResponse, {
    init: postForm(courierForm(who.token, offerIds.map((id) => `${id}:1`).join(','), { payment_id: '1' })),
  });
  if (!placed.success) throw new Error(JSON.stringify(placed.data));
  return { ...who, orderId: placed.order_id };
}

describe('npm run stock', () => {
  it('a set whose audit row fails changes nothing and tells nobody; then one change, one row, one SMS', async () => {
    const offer = await freshOffer({ quantity: 0 });
    const phone = '79540001122';
    await db().insert(waitingList).values({ offerId: offer.id, phone, name: 'Анна' });
    const moves = await movesOf(offer.id);

    const failed = await withAuditRefused('offer.set', () =>
      script('stock', 'stock', { action: 'set', offer_id: String(offer.id), quantity: '4' }),
    );
    expect(failed.status).toBe(500);
    expect(await quantityOf(offer.id)).toBe(0);
    expect(await movesOf(offer.id)).toBe(moves);
    expect(await auditOf('offer', offer.id)).toEqual([]);
    const [entry] = await queryRows<{ notified_at: Date | null }>(
      db(),
      sql`select notified_at from waiting_list where offer_id = ${offer.id}`,
    );
    expect(entry?.notified_at).toBeNull();

    const ok = await script('stock', 'stock', { action: 'set', offer_id: String(offer.id), quantity: '4' });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ previous: 0, quantity: 4, notified: 1 });
    expect(await quantityOf(offer.id)).toBe(4);
    expect(await auditOf('offer', offer.id)).toEqual([
      {
        action: 'offer.set',
        actor_kind: 'script',
        actor_label: 'npm run stock',
        reason: null,
        after: expect.objectContaining({ previous: 0, quantity: 4 }),
      },
    ]);
    // The ledger's move and the audit row were written by one transaction (no savepoint here).
    const [same] = await queryRows<{ same: boolean }>(
      db(),
      sql`select (select xmin::text from audit_events where entity_type = 'offer' and entity_id = ${String(offer.id)})
               = (select xmin::text from stock_moves where offer_id = ${offer.id} order by id desc limit 1) as same`,
    );
    expect(same?.same).toBe(true);
    // The waiting list's SMS went out after the commit, once.
    const outbox = path.join(shop.dataDir, 'outbox');
    await eventually(
      async () =>
        (await readSmsOutbox(outbox)).find((m) => m.tag === 'back-in-stock' && m.phone.endsWith('9540001122')) ?? null,
      'the back-in-stock SMS',
    );
    expect(
      (await readSmsOutbox(outbox)).filter((m) => m.tag === 'back-in-stock' && m.phone.endsWith('9540001122')),
    ).toHaveLength(1);

    // An add too; a refusal (unknown offer) writes no row.
    const failedAdd = await withAuditRefused('offer.add', () =>
      script('stock', 'stock', { action: 'add', offer_id: String(offer.id), quantity: '-1' }),
    );
    expect(failedAdd.status).toBe(500);
    expect(await quantityOf(offer.id)).toBe(4);
    expect((await script('stock', 'stock', { action: 'add', offer_id: String(offer.id), quantity: '-1' })).status).toBe(
      200,
    );
    expect(await quantityOf(offer.id)).toBe(3);
    expect((await auditOf('offer', offer.id)).map((a) => a.action)).toEqual(['offer.set', 'offer.add']);
    const unknown = await script('stock', 'stock', { action: 'set', offer_id: '999999999', quantity: '1' });
    expect(unknown.body.errors).toEqual({ offer_id: 'Нет такого предложения' });
    expect(await auditOf('offer', 999999999)).toEqual([]);
  });
});

describe('npm run order, npm run return', () => {
  it('a status move, a fitting and the return decisions roll back with a failed audit row, and write one row each otherwise', async () => {
    const kept = await freshOffer({ min: 300_000, max: 1_500_000, quantity: 3 });
    const back = await freshOffer({ min: 300_000, max: 1_500_000, quantity: 3 });
    const o = await courierOrder([kept.id, back.id]);
    const before = await orderState(o.orderId);

    // The status move.
    const failed = await withAuditRefused('order.status', () =>
      script('order', 'orders', { action: 'status', order_id: String(o.orderId), status: 'confirmed', note: 'звонок' }),
    );
    expect(failed.status).toBe(500);
    expect(await orderState(o.orderId)).toEqual(before);
    expect(await auditOf('order', o.orderId)).toEqual([]);
    for (const status of ['confirmed', 'assembling', 'shipped']) {
      const r = await script('order', 'orders', { action: 'status', order_id: String(o.orderId), status, note: 'ок' });
      expect(r.body.errors).toEqual({});
    }
    const rows = await auditOf('order', o.orderId);
    expect(rows.map((a) => [a.action, a.actor_label, a.reason])).toEqual([
      ['order.status', 'npm run order', 'ок'],
      ['order.status', 'npm run order', 'ок'],
      ['order.status', 'npm run order', 'ок'],
    ]);
    expect(rows[0]?.after).toMatchObject({ previous_status: 'new', status: 'confirmed' });
    // A refused move (not allowed from shipped) writes nothing.
    const refused = await script('order', 'orders', { action: 'status', order_id: String(o.orderId), status: 'new' });
    expect(refused.body.data).toBeNull();
    expect(await auditOf('order', o.orderId)).toHaveLength(3);

    // The fitting: one kept, one handed back to stock.
    const fields = {
      action: 'fitting',
      order_id: String(o.orderId),
      [`lines[${kept.id}][kept]`]: '1',
      [`lines[${kept.id}][refused]`]: '0',
      [`lines[${back.id}][kept]`]: '0',
      [`lines[${back.id}][refused]`]: '1',
    };
    const shipped = await orderState(o.orderId);
    const backStock = await quantityOf(back.id);
    expect((await withAuditRefused('order.fitting', () => script('order', 'orders', fields))).status).toBe(500);
    expect(await orderState(o.orderId)).toEqual(shipped);
    expect(await quantityOf(back.id)).toBe(backStock);
    const fitted = await script('order', 'orders', fields);
    expect(fitted.body.errors).toEqual({});
    expect(await quantityOf(back.id)).toBe((backStock ?? 0) + 1);
    expect((await orderState(o.orderId))?.status).toBe('received');
    expect((await auditOf('order', o.orderId)).map((a) => a.action)).toEqual([
      'order.status',
      'order.status',
      'order.status',
      'order.fitting',
    ]);

    // Two return requests of the kept item's one unit: the first rejected, the second approved
    // (paid on receipt: a bank transfer staff then record).
    const request = async () => {
      const made = await getJson(api(), '/api/personal/return_add.php', ReturnCreateResponse, {
        init: postForm({
          token: o.token,
          order_id: String(o.orderId),
          reason: 'Не подошёл размер',
          [`items[${kept.id}]`]: '1',
        }),
      });
      if (!made.success) throw new Error(made.error);
      return made.id;
    };
    const statusOf = async (id: number) =>
      (await queryRows<{ status: string }>(db(), sql`select status from return_requests where id = ${id}`))[0]?.status;
    const refundsOf = async (id: number) =>
      (await queryRows<{ status: string }>(db(), sql`select status from refunds where return_request_id = ${id}`)).map(
        (r) => r.status,
      );

    const first = await request();
    const reject = { action: 'reject', request_id: String(first), note: 'Следы носки' };
    expect((await withAuditRefused('return.reject', () => script('return', 'returns', reject))).status).toBe(500);
    expect(await statusOf(first)).toBe('new');
    expect((await script('return', 'returns', reject)).body.errors).toEqual({});
    expect(await statusOf(first)).toBe('rejected');

    const second = await request();
    const approve = { action: 'approve', request_id: String(second), note: 'принято' };
    expect((await withAuditRefused('return.approve', () => script('return', 'returns', approve))).status).toBe(500);
    expect(await statusOf(second)).toBe('new');
    expect(await refundsOf(second)).toEqual([]);
    expect((await script('return', 'returns', approve)).body.errors).toEqual({});
    expect(await statusOf(second)).toBe('approved');
    expect(await refundsOf(second)).toEqual(['manual']);

    const transferred = { action: 'transferred', request_id: String(second) };
    expect((await withAuditRefused('return.transferred', () => script('return', 'returns', transferred))).status).toBe(
      500,
    );
    expect(await refundsOf(second)).toEqual(['manual']);
    expect((await script('return', 'returns', transferred)).body.errors).toEqual({});
    expect(await refundsOf(second)).toEqual(['done']);

    expect((await auditOf('return', first)).map((a) => [a.action, a.actor_label, a.reason])).toEqual([
      ['return.reject', 'npm run return', 'Следы носки'],
    ]);
    expect((await auditOf('return', second)).map((a) => [a.action, a.reason])).toEqual([
      ['return.approve', 'принято'],
      ['return.transferred', null],
    ]);
    expect((await verifyStockLedger({ db: db() })).mismatches).toEqual([]);
  });
});

describe('npm run jobs', () => {
  it('the waiting jobs are made due in the transaction of their audit row', async () => {
    // A periodic prune waiting a day ahead: `npm run jobs -- run` brings it forward.
    const future = () =>
      queryRows<{ id: number; kind: string; run_at: Date }>(
        db(),
        sql`select id, kind, run_at from jobs where kind = 'maintenance.prune' and done_at is null and run_at > now() order by id`,
      );
    await db().execute(
      sql`insert into jobs (kind, payload, run_at) values ('maintenance.prune', '{}'::jsonb, now() + interval '1 day')`,
    );
    const waiting = await future();
    expect(waiting.length).toBeGreaterThan(0);
    const failed = await withAuditRefused('jobs.run', () => script('jobs', 'jobs', { action: 'run' }));
    expect(failed.status).toBe(500);
    expect(await future()).toEqual(waiting);
    expect(await auditOf('jobs', '')).toEqual([]);

    const ok = await script('jobs', 'jobs', { action: 'run' });
    expect(ok.status).toBe(200);
    const madeDue = (ok.body.data as { made_due: number }).made_due;
    expect(madeDue).toBeGreaterThan(0);
    expect(await future()).toEqual([]);
    expect(await auditOf('jobs', '')).toEqual([
      {
        action: 'jobs.run',
        actor_kind: 'script',
        actor_label: 'npm run jobs',
        reason: null,
        after: { kinds: expect.arrayContaining(['maintenance.prune']), made_due: madeDue },
      },
    ]);
  });
});
