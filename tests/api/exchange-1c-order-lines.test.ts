import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '~/db/client.server';
import { offers, waitingList } from '~/db/schema';
import { CheckoutOrderResponse, OrderDetailResponse } from '~/shared/contract';
import { readOneOrderMoney } from '~/models/order-money.server';
import { readSmsOutbox } from '~/integrations/sms/offline.server';
import { setUpTestShop } from '~/tests/support/server';
import { getJson, postForm } from '~/tests/support/api';
import { createStaffByScript, enrol, testClock } from '~/tests/support/admin';
import { courierForm, offerPicker, payByCard } from '~/tests/support/checkout';
import { sessionToken } from '~/tests/support/session';
import { assertStockLedgerBalanced } from '~/tests/support/stock';
import { OneC, ordersXml, type TestOrderDocument, type TestOrderGood } from '~/tests/support/one-c';

// The goods of the orders 1C sends back (issue #31, docs/exchange-1c.md «Состав заказа из 1С»),
// over HTTP with the fake 1C, on PGlite and (TEST_DATABASE_URL) PostgreSQL: a quantity lowered
// and a line removed on an order paid on receipt (the units back through the ledger with reason
// 'import', the waiting list told, the sums from the one breakdown, the account's order), a price
// lowered, a paid online order refused and logged for staff, and the same file twice changing nothing.

const clock = testClock();
const shop = setUpTestShop({ clock: clock.now, env: { EXCHANGE_IMPORT_STEP: '2' } });
const db = () => shop.database.db;
const api = () => `${shop.baseUrl}/backend`;
const LOGIN = '1c-lines@exchange.example';
const PASSWORD = 'exchange lines password 2026';
const oneC = () => new OneC(`${shop.baseUrl}/backend/1c/exchange`, LOGIN, PASSWORD);
const freshOffer = offerPicker(shop);

beforeAll(async () => {
  const made = await createStaffByScript(shop, { email: LOGIN, role: 'exchange' });
  await enrol(shop, clock, { token: made.token, password: PASSWORD });
});

const stockOf = async (offerId: number) =>
  (await db().select({ q: offers.quantity }).from(offers).where(eq(offers.id, offerId)))[0]!.q;

interface OrderRow {
  status: string;
  items_total_kopecks: number;
  discount_kopecks: number;
  bonus_kopecks: number;
  total_kopecks: number;
  certificate_kopecks: number;
  paid_at: string | null;
}
const orderRow = async (id: number) =>
  (
    await queryRows<OrderRow>(
      db(),
      sql`select status, items_total_kopecks, discount_kopecks, bonus_kopecks, total_kopecks, certificate_kopecks, paid_at
          from orders where id = ${id}`,
    )
  )[0]!;
const itemsOf = (id: number) =>
  queryRows<{ offer_id: number; quantity: number; price_kopecks: number }>(
    db(),
    sql`select offer_id, quantity, price_kopecks from order_items where order_id = ${id} order by offer_id`,
  );
const countOf = async (query: ReturnType<typeof sql>) => (await queryRows<{ n: number }>(db(), query))[0]!.n;

/** Gives an offer a 1C id (the export writes it, 1C sends it back). */
async function oneCId(offerId: number, id = `test-offer-${offerId}`) {
  await db().update(offers).set({ externalId: id }).where(eq(offers.id, offerId));
  return id;
}

async function place(phone: string, ids: string, extra: Record<string, string> = {}) {
  const who = await sessionToken(shop, phone);
  const placed = await getJson(api(), '/api/catalog/order.php', CheckoutOrderResponse, {
    init: postForm(courierForm(who.token, ids, extra)),
  });
  if (!placed.success) throw new Error(JSON.stringify(placed.data));
  return { id: placed.order_id, token: who.token };
}

/** The order's delivery as the export writes it (ORDER_DELIVERY, «Услуга»), echoed by 1C. */
async function deliveryOf(orderId: number): Promise<TestOrderGood> {
  const [row] = await queryRows<{ delivery_cost_kopecks: number }>(
    db(),
    sql`select delivery_cost_kopecks from orders where id = ${orderId}`,
  );
  return {
    id: 'ORDER_DELIVERY',
    name: 'Доставка курьером по Москве',
    price: row!.delivery_cost_kopecks,
    quantity: 1,
    service: true,
  };
}

async function sendOrders(filename: string, documents: TestOrderDocument[]) {
  const sale = oneC();
  expect((await sale.checkauth('sale')).kind).toBe('success');
  await sale.init('sale');
  const answers = await sale.exchangeFile(filename, Buffer.from(ordersXml({ documents })), 900, 'sale');
  const [log] = await queryRows<{ id: number; warnings: string[]; counts: Record<string, number> }>(
    db(),
    sql`select id, warnings, counts from exchange_imports where filename = ${filename} order by id desc limit 1`,
  );
  return { last: answers.at(-1)!, log: log! };
}

describe("the goods of 1C's orders", () => {
  it('applies a lowered quantity, a removed line and a lowered price; refuses a paid online order; the same file twice changes nothing', async () => {
    const dress = await freshOffer({ min: 100_000, quantity: 5 });
    const skirt = await freshOffer({ min: 100_000, quantity: 1 });
    const blouse = await freshOffer({ min: 100_000, quantity: 4 });
    const coat = await freshOffer({ min: 100_000, quantity: 6 });
    const dressId = await oneCId(dress.id, 'dddd0001-0000-0000-0000-000000000001#eeee0001-0000-0000-0000-000000000044');
    const blouseId = await oneCId(blouse.id);
    const coatId = await oneCId(coat.id);

    const unpaid = await place('79970003301', `${dress.id}:2,${skirt.id}:1`);
    const cheaper = await place('79970003302', `${blouse.id}:2`);
    const online = await place('79970003303', `${coat.id}:2`, { payment_id: '9' });
    await payByCard(api(), online.token, online.id);
    expect((await orderRow(online.id)).paid_at).not.toBeNull();
    expect([
      await stockOf(dress.id),
      await stockOf(skirt.id),
      await stockOf(blouse.id),
      await stockOf(coat.id),
    ]).toEqual([3, 0, 2, 4]);
    // Someone waits for the skirt's size: it comes back when 1C takes it out of the order.
    await db().insert(waitingList).values({ offerId: skirt.id, phone: '79997771234', name: 'Ждущая' });
    const onlineBefore = await orderRow(online.id);

    const blousePrice = blouse.price - 50_000;
    const documents: TestOrderDocument[] = [
      {
        id: unpaid.id,
        status: 'Подтвержден',
        goods: [{ id: dressId, name: dress.name, price: dress.price, quantity: 1 }, await deliveryOf(unpaid.id)],
      },
      {
        id: cheaper.id,
        goods: [{ id: blouseId, name: blouse.name, price: blousePrice, quantity: 2 }, await deliveryOf(cheaper.id)],
      },
      {
        id: online.id,
        goods: [{ id: coatId, name: coat.name, price: coat.price, quantity: 1 }, await deliveryOf(online.id)],
      },
    ];
    const first = await sendOrders('orders-lines-1.xml', documents);
    expect(first.last.kind).toBe('success');
    expect(first.log.counts).toMatchObject({ orders_updated: 3, order_lines_changed: 2, order_lines_refused: 1 });
    expect(first.last.lines[0]).toContain('составов заказов изменено: 2');
    expect(first.last.lines[0]).toContain('составов заказов не принято: 1');

    // The unpaid order: the dress lowered to 1, the skirt gone, both back on the shelf through the ledger.
    expect(await itemsOf(unpaid.id)).toEqual([{ offer_id: dress.id, quantity: 1, price_kopecks: dress.price }]);
    expect(await stockOf(dress.id)).toBe(4);
    expect(await stockOf(skirt.id)).toBe(1);
    const moves = await queryRows<{
      offer_id: number;
      delta: number;
      reason: string;
      import_id: number | null;
      actor_kind: string;
    }>(
      db(),
      sql`select offer_id, delta, reason, import_id, actor_kind from stock_moves
          where order_id = ${unpaid.id} and reason = 'import' order by offer_id`,
    );
    expect(moves).toEqual(
      [
        { offer_id: dress.id, delta: 1, reason: 'import', import_id: first.log.id, actor_kind: 'staff' },
        { offer_id: skirt.id, delta: 1, reason: 'import', import_id: first.log.id, actor_kind: 'staff' },
      ].sort((a, b) => a.offer_id - b.offer_id),
    );
    const told = await queryRows<{ notified_at: string | null }>(
      db(),
      sql`select notified_at from waiting_list where offer_id = ${skirt.id}`,
    );
    expect(told[0]!.notified_at).not.toBeNull();
    const sms = (await readSmsOutbox(path.join(shop.dataDir, 'outbox'))).filter(
      (m) => m.tag === 'back-in-stock' && m.phone === '79997771234',
    );
    expect(sms).toHaveLength(1);

    // Its sums are the one breakdown's over the new lines.
    const a = await orderRow(unpaid.id);
    const money = (await readOneOrderMoney(db(), unpaid.id))!;
    expect(a.status).toBe('confirmed');
    const delivery = (await deliveryOf(unpaid.id)).price as number;
    expect(money.totalKopecks).toBe(dress.price + delivery);
    expect([a.items_total_kopecks, a.discount_kopecks, a.bonus_kopecks, a.total_kopecks]).toEqual([
      money.itemsKopecks,
      money.promoKopecks,
      money.bonusKopecks,
      money.totalKopecks,
    ]);
    const history = await queryRows<{ status: string; note: string | null }>(
      db(),
      sql`select status, note from order_status_history where order_id = ${unpaid.id} order by id`,
    );
    expect(history.map((h) => h.status)).toEqual(['new', 'new', 'confirmed']);
    expect(history[1]!.note).toMatch(/^Из 1С: состав заказа изменён \(«.+»: 2 → 1 шт\.; «.+» убран\), сумма заказа /);

    // The shopper's account shows the new lines and sums.
    const detail = await getJson(api(), '/api/personal/order_detail.php', OrderDetailResponse, {
      init: postForm({ token: unpaid.token, order_id: String(unpaid.id) }),
    });
    if (!('order' in detail)) throw new Error(detail.error);
    expect(detail.order.ITEMS.map((i) => [i.id, i.quantity])).toEqual([[dress.id, 1]]);
    expect(detail.order.TOTAL.TOTAL).toBe((dress.price + delivery) / 100);
    expect(detail.order.HISTORY.some((h) => /состав заказа изменён/.test(h.NOTE ?? ''))).toBe(true);

    // The lowered price: the same units, a lower sum, no stock moved.
    expect(await itemsOf(cheaper.id)).toEqual([{ offer_id: blouse.id, quantity: 2, price_kopecks: blousePrice }]);
    expect((await orderRow(cheaper.id)).total_kopecks).toBe(
      blousePrice * 2 + ((await deliveryOf(cheaper.id)).price as number),
    );
    expect(await stockOf(blouse.id)).toBe(2);

    // The paid online order: nothing of its goods changed, the reason in the exchange log and on the order for staff.
    expect(await itemsOf(online.id)).toEqual([{ offer_id: coat.id, quantity: 2, price_kopecks: coat.price }]);
    expect((await orderRow(online.id)).total_kopecks).toBe(onlineBefore.total_kopecks);
    expect(await stockOf(coat.id)).toBe(4);
    const refusal = first.log.warnings.find((w) => w.startsWith(`Документ ${online.id}: `));
    expect(refusal).toMatch(
      /заказ уже оплачен онлайн: состав из 1С не применён \(сумма уменьшилась бы с .+ до .+, разницу .+ нужно вернуть покупателю\)/,
    );
    const notes = await queryRows<{ text: string; author_label: string }>(
      db(),
      sql`select text, author_label from order_notes where order_id = ${online.id}`,
    );
    expect(notes).toHaveLength(1);
    expect(notes[0]!.text).toMatch(/^Из 1С пришёл другой состав заказа, он не применён: заказ уже оплачен онлайн/);
    expect(notes[0]!.author_label).toBe(`${LOGIN} (обмен с 1С)`);
    const audited = await queryRows<{
      entity_id: string;
      before: { total_kopecks: number };
      after: Record<string, unknown>;
    }>(
      db(),
      sql`select entity_id, before, after from audit_events where action = 'exchange.order' and entity_id = ${String(unpaid.id)}`,
    );
    expect(audited).toHaveLength(1);
    expect(audited[0]!.after).toMatchObject({ total_kopecks: money.totalKopecks, lines: expect.any(Array) });
    await assertStockLedgerBalanced(db());

    // The same file again: every order is already as 1C says; no stock move, history row, note or audit event more.
    const counted = async () => [
      await countOf(sql`select count(*)::int as n from stock_moves`),
      await countOf(sql`select count(*)::int as n from order_status_history`),
      await countOf(sql`select count(*)::int as n from order_notes`),
      await countOf(sql`select count(*)::int as n from audit_events where action = 'exchange.order'`),
    ];
    const before = await counted();
    const second = await sendOrders('orders-lines-2.xml', documents);
    expect(second.last.kind).toBe('success');
    expect(second.log.counts).toMatchObject({ orders_unchanged: 3, order_lines_refused: 1 });
    expect(second.log.counts.order_lines_changed ?? 0).toBe(0);
    expect(await counted()).toEqual(before);
    expect(await itemsOf(unpaid.id)).toEqual([{ offer_id: dress.id, quantity: 1, price_kopecks: dress.price }]);
    expect([
      await stockOf(dress.id),
      await stockOf(skirt.id),
      await stockOf(blouse.id),
      await stockOf(coat.id),
    ]).toEqual([4, 1, 2, 4]);
    await assertStockLedgerBalanced(db());
  });

  it('refuses a line added and a quantity raised, naming them in the log; the order keeps its goods', async () => {
    const dress = await freshOffer({ min: 100_000, quantity: 3 });
    const scarf = await freshOffer({ min: 100_000, quantity: 3 });
    const dressId = await oneCId(dress.id);
    const order = await place('79970003304', `${dress.id}:1`);
    const { last, log } = await sendOrders('orders-lines-3.xml', [
      {
        id: order.id,
        goods: [
          { id: dressId, name: dress.name, price: dress.price, quantity: 2 },
          { id: `site-offer-${scarf.id}`, name: 'Шарф из 1С', price: scarf.price, quantity: 1 },
          await deliveryOf(order.id),
        ],
      },
    ]);
    expect(last.kind).toBe('success');
    expect(log.warnings).toEqual([
      expect.stringMatching(
        new RegExp(
          `^Документ ${order.id}: 1С добавил в заказ «Шарф из 1С» \\(Ид site-offer-${scarf.id}\\): сайт не добавляет товары`,
        ),
      ),
    ]);
    expect(await itemsOf(order.id)).toEqual([{ offer_id: dress.id, quantity: 1, price_kopecks: dress.price }]);
    expect([await stockOf(dress.id), await stockOf(scarf.id)]).toEqual([2, 3]);
  });
});
