import fs from 'node:fs';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { jobs, offers, orderItems, orders, orderStatusHistory, paymentEvents } from '~/db/schema';
import { MOSCOW_COURIER_PRICE_KOPECKS } from '~/core/delivery';
import { receiptItemsKopecks } from '~/core/receipt';
import { DEFAULT_ANONYMOUS_LIMITS } from '~/core/anonymous-limits';
import {
  CheckoutOrderResponse,
  PaymentParamsResponse,
  PaymentStatusResponse,
  type PaymentWidgetParams,
} from '~/shared/contract';
import { signBody, formatAmount } from '~/integrations/cloudpayments/index.server';
import { CLOUDPAYMENTS_SECRET_FILE } from '~/integrations/cloudpayments/index.server';
import { readSmsOutbox } from '~/integrations/sms/offline.server';
import { orderJobHandlers } from '~/models/order-jobs.server';
import { createOfflineCloudPayments } from '~/integrations/cloudpayments/offline.server';
import { createOfflineSms } from '~/integrations/sms/offline.server';
import { eventually, getJson, postForm } from '~/tests/support/api';
import { courierForm, offerPicker } from '~/tests/support/checkout';
import { setUpTestShop } from '~/tests/support/server';
import { customerMaker } from '~/tests/support/session';
import { setStock } from '~/tests/support/stock';

// Card payment online (issue #12) over HTTP, on PGlite or (TEST_DATABASE_URL) PostgreSQL: orders
// placed through order.php with payment_id 9, paid through the offline CloudPayments stand-in
// (its page's charge endpoint sends the shop signed Check and Pay/Fail notifications), and every
// attack the issue lists: forged, replayed and reordered notices, wrong amount or currency, an
// unknown order, two Pay at once, a browser claiming success, the release and a late payment.

const shop = setUpTestShop();
const db = () => shop.database.db;
const api = () => `${shop.baseUrl}/backend`;
const secret = () => fs.readFileSync(path.join(shop.dataDir, CLOUDPAYMENTS_SECRET_FILE), 'utf8').trim();

const freshOffer = offerPicker(shop);

async function stockOf(offerId: number): Promise<number> {
  const [row] = await db().select({ q: offers.quantity }).from(offers).where(eq(offers.id, offerId));
  return row?.q ?? -1;
}

const customer = customerMaker(shop, '7998');

/** A card order awaiting payment, placed through order.php. */
async function cardOrder(quantity = 1, stock = 5) {
  const offer = await freshOffer({ quantity: stock });
  const who = await customer();
  const answer = await getJson(api(), '/api/catalog/order.php', CheckoutOrderResponse, {
    init: postForm(courierForm(who.token, `${offer.id}:${quantity}`, { payment_id: '9' })),
  });
  if (!answer.success) throw new Error(JSON.stringify(answer.data));
  expect(answer.status).toBe('awaiting_payment');
  return { ...who, offer, orderId: answer.order_id, totalKopecks: Math.round(answer.pay_amount * 100) };
}

async function orderRow(orderId: number) {
  const [row] = await db().select().from(orders).where(eq(orders.id, orderId));
  if (!row) throw new Error(`no order ${orderId}`);
  return row;
}

async function paymentParams(token: string, orderId: number, status = 200) {
  return getJson(api(), '/api/catalog/payment_params.php', PaymentParamsResponse, {
    init: postForm({ token, order_id: String(orderId) }),
    status,
  });
}

async function widgetParams(token: string, orderId: number): Promise<PaymentWidgetParams> {
  const answer = await paymentParams(token, orderId);
  if (!('payment' in answer)) throw new Error(answer.error);
  return answer.payment;
}

/** The stand-in's page, as the shopper uses it: 'Оплатить' with a 3-D Secure code, or 'Отклонить'. */
async function charge(
  params: PaymentWidgetParams['params'],
  action: 'pay' | 'decline' = 'pay',
  code = '1234',
  card = '4242 4242 4242 4242',
) {
  const p = Buffer.from(JSON.stringify(params)).toString('base64url');
  const res = await fetch(`${api()}/api/cloudpayments/offline/charge/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ p, action, code, card }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { success: boolean; transactionId: string; reasonCode?: number; message: string };
}

/** Posts a notification as CloudPayments does: a form body signed with the API secret (or `sign` to forge it). */
async function notify(
  kind: 'check' | 'pay' | 'fail' | 'refund',
  fields: Record<string, string>,
  sign: string | null = secret(),
) {
  const body = new URLSearchParams(fields).toString();
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (sign !== null) headers['content-hmac'] = signBody(sign, body);
  const res = await fetch(`${api()}/api/cloudpayments/${kind}/`, { method: 'POST', headers, body });
  return { status: res.status, body: (await res.json()) as { code: number } };
}

let txSeq = 0;
function payFields(
  o: { orderId: number; customerId: number; totalKopecks: number },
  extra: Record<string, string> = {},
): Record<string, string> {
  txSeq += 1;
  return {
    TransactionId: String(9_000_000_000 + process.pid * 1000 + txSeq),
    Amount: formatAmount(o.totalKopecks),
    Currency: 'RUB',
    DateTime: '2026-11-24 12:00:00',
    CardFirstSix: '424242',
    CardLastFour: '4242',
    TestMode: '1',
    Status: 'Completed',
    OperationType: 'Payment',
    InvoiceId: String(o.orderId),
    AccountId: String(o.customerId),
    Email: 'anna@example.com',
    Data: '{}',
    ...extra,
  };
}

const events = (orderId: number) =>
  db().select().from(paymentEvents).where(eq(paymentEvents.orderId, orderId)).orderBy(paymentEvents.id);
const history = (orderId: number) =>
  db().select().from(orderStatusHistory).where(eq(orderStatusHistory.orderId, orderId)).orderBy(orderStatusHistory.id);
const jobsOf = (orderId: number, kind: string) =>
  db()
    .select()
    .from(jobs)
    .where(and(eq(jobs.kind, kind), sql`${jobs.payload}->>'orderId' = ${String(orderId)}`));

async function checkPayment(orderId: number, token?: string) {
  const q = new URLSearchParams({ order_id: String(orderId), payment_num: '1', ...(token ? { token } : {}) });
  return getJson(api(), `/api/catalog/success_payment_order.php?${q}`, PaymentStatusResponse);
}

/** The job handlers as the server builds them, for driving the release by hand. */
function handlers() {
  const outbox = path.join(shop.dataDir, 'outbox');
  const payments = createOfflineCloudPayments({ publicId: 'test', apiSecret: secret(), outboxDir: outbox });
  const sms = createOfflineSms({ outboxDir: outbox });
  return orderJobHandlers({
    db: db(),
    sms,
    mail: null as never,
    cdek: null as never,
    fromCityCode: 44,
    siteUrl: 'http://shop.test',
    payments,
  });
}

/** Time passes: the order's hold ends, and its release job runs. */
async function release(orderId: number) {
  await db()
    .update(orders)
    .set({ payUntil: new Date(Date.now() - 1000) })
    .where(eq(orders.id, orderId));
  await handlers()['order.release']!({ orderId });
}

describe('payment_params.php', () => {
  it('gives the widget parameters of the customer own order awaiting payment, with a receipt that adds up', async () => {
    const o = await cardOrder(2);
    const payment = await widgetParams(o.token, o.orderId);
    expect(payment.scriptUrl).toBe('/backend/api/cloudpayments/offline/widget.js');
    expect(payment.options).toEqual({
      language: 'ru-RU',
      applePaySupport: false,
      googlePaySupport: false,
      yandexPaySupport: true,
      tinkoffPaySupport: true,
      sbpSupport: true,
    });
    expect(payment.params).toMatchObject({
      publicId: 'test_api_00000000000000000000002',
      description: `Заказ №${o.orderId} в Vitrina`,
      amount: o.totalKopecks / 100,
      currency: 'RUB',
      invoiceId: String(o.orderId),
      accountId: String(o.customerId),
      email: 'anna@example.com',
      skin: 'classic',
    });
    const receipt = payment.params.data.CloudPayments.CustomerReceipt;
    expect(receiptItemsKopecks(receipt)).toBe(o.totalKopecks);
    expect(receipt.amounts.electronic).toBe(o.totalKopecks / 100);
    expect(receipt.Items.at(-1)).toMatchObject({
      label: 'Доставка',
      amount: MOSCOW_COURIER_PRICE_KOPECKS / 100,
      vat: 0,
      measurementUnit: 'шт',
    });
    expect(receipt.Items[0]).toMatchObject({ quantity: 2, vat: 0, measurementUnit: 'шт' });
    expect(receipt.Items[0]?.label).toContain('размер');
    expect(receipt.phone).toBe('+79161234567');

    const script = await fetch(`${shop.baseUrl}${payment.scriptUrl}`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    expect(await script.text()).toContain('cp.CloudPayments');
  });

  it("answers someone else's order, an unknown one and a bad token without the parameters", async () => {
    const o = await cardOrder();
    const other = await customer();
    expect(await paymentParams(other.token, o.orderId)).toEqual({ error: 'Заказ не найден', status: 'not_found' });
    expect(await paymentParams(o.token, 2_000_000_000)).toEqual({ error: 'Заказ не найден', status: 'not_found' });
    const bad = await paymentParams('nonsense', o.orderId, 401);
    expect('error' in bad).toBe(true);
  });

  it('serves the offline payment page with the amount, the receipt and both buttons', async () => {
    const o = await cardOrder();
    const payment = await widgetParams(o.token, o.orderId);
    const p = Buffer.from(JSON.stringify(payment.params)).toString('base64url');
    const res = await fetch(`${api()}/api/cloudpayments/offline/pay/?p=${p}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    for (const text of [
      'Оплатить',
      'Отклонить',
      'Код из SMS',
      'Доставка',
      '4242 4242 4242 4242',
      `Заказ №${o.orderId}`,
    ])
      expect(html).toContain(text);
  });
});

describe('CloudPayments notifications', () => {
  it('pays an order through the stand-in: Check then Pay, paid once, its jobs enqueued, the SMS says paid', async () => {
    const o = await cardOrder();
    const before = await stockOf(o.offer.id);
    const payment = await widgetParams(o.token, o.orderId);
    const result = await charge(payment.params);
    expect(result.success).toBe(true);
    const row = await orderRow(o.orderId);
    expect(row).toMatchObject({
      status: 'new',
      paymentTransactionId: result.transactionId,
      paidKopecks: o.totalKopecks,
    });
    expect(row.paidAt).toBeInstanceOf(Date);
    const evs = await events(o.orderId);
    expect(evs.map((e) => [e.kind, e.outcome])).toEqual([
      ['check', 'accepted'],
      ['pay', 'paid'],
    ]);
    expect((await history(o.orderId)).map((h) => [h.status, h.note])).toEqual([
      ['awaiting_payment', null],
      ['new', 'Оплачен картой онлайн'],
    ]);
    expect(await jobsOf(o.orderId, 'order.placed')).toHaveLength(1);
    expect(await jobsOf(o.orderId, 'order.release')).toHaveLength(1);
    expect(await stockOf(o.offer.id)).toBe(before);
    await eventually(
      async () =>
        (await readSmsOutbox(path.join(shop.dataDir, 'outbox'))).find(
          (m) => m.tag === 'order-placed' && m.text.includes(`№${o.orderId} оформлен и оплачен`),
        ),
      'the paid order SMS',
    );
    const status = await checkPayment(o.orderId, o.token);
    expect(status).toEqual({ order_id: o.orderId, paid: true, status: 'new', message: null });
    expect(await paymentParams(o.token, o.orderId)).toEqual({ error: 'Заказ уже оплачен', status: 'paid' });

    // A replay of the very same Pay (CloudPayments retries) changes nothing.
    const replay = await fetch(`${api()}/api/cloudpayments/offline/replay/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ transactionId: result.transactionId, kind: 'pay' }),
    });
    expect(await replay.json()).toEqual({ status: 200, code: 0 });
    expect(await events(o.orderId)).toHaveLength(2);
    expect(await history(o.orderId)).toHaveLength(2);
    expect(await jobsOf(o.orderId, 'order.placed')).toHaveLength(1);
  });

  it('keeps the order awaiting payment after a decline or a failed 3-D Secure, and records the Fail', async () => {
    const o = await cardOrder();
    const payment = await widgetParams(o.token, o.orderId);
    const declined = await charge(payment.params, 'decline');
    expect(declined).toMatchObject({ success: false, reasonCode: 5051 });
    const secure = await charge(payment.params, 'pay', '0000');
    expect(secure).toMatchObject({ success: false, reasonCode: 5206 });
    expect((await orderRow(o.orderId)).status).toBe('awaiting_payment');
    expect((await events(o.orderId)).filter((e) => e.kind === 'fail').map((e) => e.outcome)).toEqual([
      'declined:5051',
      'declined:5206',
    ]);
    // The shopper tries again and pays.
    expect((await charge(payment.params)).success).toBe(true);
    expect((await orderRow(o.orderId)).status).toBe('new');
  });

  it('refuses a forged or unsigned notification and records nothing', async () => {
    const o = await cardOrder();
    const fields = payFields(o);
    expect(await notify('pay', fields, 'not-the-secret')).toMatchObject({ status: 401 });
    expect(await notify('pay', fields, null)).toMatchObject({ status: 401 });
    expect(await notify('check', fields, 'not-the-secret')).toMatchObject({ status: 401 });
    // A body changed after signing: the signature no longer matches.
    const body = new URLSearchParams(fields).toString();
    const res = await fetch(`${api()}/api/cloudpayments/pay/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-hmac': signBody(secret(), body) },
      body: body.replace(`Amount=${fields.Amount}`, 'Amount=1.00'),
    });
    expect(res.status).toBe(401);
    expect(await events(o.orderId)).toHaveLength(0);
    expect((await orderRow(o.orderId)).status).toBe('awaiting_payment');
  });

  it('answers Check with the codes CloudPayments expects', async () => {
    const o = await cardOrder();
    const check = async (extra: Record<string, string>) => (await notify('check', payFields(o, extra))).body.code;
    expect(await check({})).toBe(0);
    expect(await check({ InvoiceId: '2000000000' })).toBe(10);
    expect(await check({ AccountId: String(o.customerId + 1) })).toBe(11);
    expect(await check({ Amount: formatAmount(o.totalKopecks - 100) })).toBe(12);
    expect(await check({ Currency: 'USD' })).toBe(12);
    await release(o.orderId);
    expect(await check({})).toBe(20);
  });

  it('pays on Pay even when it comes before Check (reordered), and a Check after it is refused', async () => {
    const o = await cardOrder();
    const fields = payFields(o);
    expect((await notify('pay', fields)).body).toEqual({ code: 0 });
    expect((await orderRow(o.orderId)).status).toBe('new');
    expect((await notify('check', fields)).body.code).toBe(13);
    expect((await orderRow(o.orderId)).paymentTransactionId).toBe(fields.TransactionId);
  });

  it('does not mark paid on a wrong amount or a wrong currency, and answers code 0', async () => {
    const o = await cardOrder();
    expect((await notify('pay', payFields(o, { Amount: formatAmount(o.totalKopecks - 1) }))).body).toEqual({ code: 0 });
    expect((await notify('pay', payFields(o, { Currency: 'USD' }))).body).toEqual({ code: 0 });
    expect((await orderRow(o.orderId)).status).toBe('awaiting_payment');
    expect((await events(o.orderId)).map((e) => e.outcome)).toEqual(['refused:amount', 'refused:currency']);
    expect(await jobsOf(o.orderId, 'order.placed')).toHaveLength(0);
  });

  it('records a notification for an unknown order and answers code 0', async () => {
    const fields = payFields({ orderId: 1_999_999_999, customerId: 1, totalKopecks: 100_00 });
    expect((await notify('pay', fields)).body).toEqual({ code: 0 });
    const [ev] = await db()
      .select()
      .from(paymentEvents)
      .where(and(eq(paymentEvents.transactionId, fields.TransactionId!), eq(paymentEvents.kind, 'pay')));
    expect(ev).toMatchObject({ orderId: null, outcome: 'refused:unknown-order' });
    expect((await notify('fail', { ...fields, Reason: 'x', ReasonCode: '5051' })).body).toEqual({ code: 0 });
  });

  it('marks paid once when the same Pay comes twice at the same moment', async () => {
    const o = await cardOrder();
    const fields = payFields(o);
    const answers = await Promise.all([notify('pay', fields), notify('pay', fields), notify('pay', fields)]);
    expect(answers.map((a) => a.body.code)).toEqual([0, 0, 0]);
    expect((await events(o.orderId)).filter((e) => e.kind === 'pay')).toHaveLength(1);
    expect((await history(o.orderId)).filter((h) => h.status === 'new')).toHaveLength(1);
    expect(await jobsOf(o.orderId, 'order.placed')).toHaveLength(1);
  });

  it('takes one of two different payments of one order at once and refunds the other', async () => {
    const o = await cardOrder();
    const payment = await widgetParams(o.token, o.orderId);
    const [a, b] = await Promise.all([charge(payment.params), charge(payment.params)]);
    expect(a.success && b.success).toBe(true);
    const row = await orderRow(o.orderId);
    expect([a.transactionId, b.transactionId]).toContain(row.paymentTransactionId);
    expect((await history(o.orderId)).filter((h) => h.status === 'new')).toHaveLength(1);
    const outcomes = await eventually(async () => {
      const pays = (await events(o.orderId)).filter((e) => e.kind === 'pay').map((e) => e.outcome);
      return pays.includes('duplicate:refunded') ? pays.sort() : null;
    }, 'the duplicate refunded');
    expect(outcomes).toEqual(['duplicate:refunded', 'paid']);
  });
});

describe('success_payment_order.php', () => {
  it('answers paid false to a browser claiming success for an unpaid order', async () => {
    const o = await cardOrder();
    expect(await checkPayment(o.orderId, o.token)).toMatchObject({
      order_id: o.orderId,
      paid: false,
      status: 'awaiting_payment',
    });
    expect((await orderRow(o.orderId)).status).toBe('awaiting_payment');
    // A declined payment: the provider says Declined, still not paid.
    const payment = await widgetParams(o.token, o.orderId);
    await charge(payment.params, 'decline');
    const status = await checkPayment(o.orderId, o.token);
    expect(status.paid).toBe(false);
    expect(status.message).toMatch(/не прошёл/);
  });

  it("answers an unknown or someone else's order as unknown", async () => {
    const o = await cardOrder();
    await charge((await widgetParams(o.token, o.orderId)).params);
    const other = await customer();
    expect(await checkPayment(o.orderId, other.token)).toEqual({
      order_id: o.orderId,
      paid: false,
      status: 'unknown',
      message: 'Заказ не найден',
    });
    expect(await checkPayment(o.orderId)).toEqual({
      order_id: o.orderId,
      paid: false,
      status: 'unknown',
      message: 'Заказ не найден',
    });
    expect(await checkPayment(1_999_999_998, o.token)).toMatchObject({ paid: false, status: 'unknown' });
  });

  it('heals a lost Pay notification by asking the provider', async () => {
    const o = await cardOrder();
    // The shop is unreachable for Pay: the stand-in records the payment, the notice is lost.
    const payment = await widgetParams(o.token, o.orderId);
    // Simulate the loss: pay, then undo what the Pay did (as if it never arrived).
    const result = await charge(payment.params);
    await db()
      .delete(paymentEvents)
      .where(and(eq(paymentEvents.orderId, o.orderId), eq(paymentEvents.kind, 'pay')));
    await db()
      .delete(jobs)
      .where(and(eq(jobs.kind, 'order.placed'), sql`${jobs.payload}->>'orderId' = ${String(o.orderId)}`));
    await db()
      .delete(orderStatusHistory)
      .where(and(eq(orderStatusHistory.orderId, o.orderId), eq(orderStatusHistory.status, 'new')));
    await db()
      .update(orders)
      .set({ status: 'awaiting_payment', paidAt: null, paymentTransactionId: null, paidKopecks: null })
      .where(eq(orders.id, o.orderId));

    const status = await checkPayment(o.orderId, o.token);
    expect(status).toEqual({ order_id: o.orderId, paid: true, status: 'new', message: null });
    expect(await orderRow(o.orderId)).toMatchObject({ status: 'new', paymentTransactionId: result.transactionId });
    expect((await events(o.orderId)).map((e) => [e.kind, e.outcome])).toEqual([
      ['check', 'accepted'],
      ['verified', 'paid'],
    ]);
    // The Pay notice arriving after all changes nothing.
    expect(
      (await notify('pay', Object.fromEntries(new URLSearchParams(await lastPayBody(result.transactionId))))).body,
    ).toEqual({ code: 0 });
    expect((await history(o.orderId)).filter((h) => h.status === 'new')).toHaveLength(1);
    expect((await events(o.orderId)).find((e) => e.kind === 'pay')?.outcome).toBe('already-paid');
  });
});

/** Undoes what a Pay notice did, as if it never arrived: the provider has the payment, the shop does not. */
async function loseThePay(orderId: number) {
  await db()
    .delete(paymentEvents)
    .where(and(eq(paymentEvents.orderId, orderId), eq(paymentEvents.kind, 'pay')));
  await db()
    .delete(jobs)
    .where(and(eq(jobs.kind, 'order.placed'), sql`${jobs.payload}->>'orderId' = ${String(orderId)}`));
  await db()
    .delete(orderStatusHistory)
    .where(and(eq(orderStatusHistory.orderId, orderId), eq(orderStatusHistory.status, 'new')));
  await db()
    .update(orders)
    .set({ status: 'awaiting_payment', paidAt: null, paymentTransactionId: null, paidKopecks: null })
    .where(eq(orders.id, orderId));
}

/** Until the current minute has `seconds` left: a test of a per-minute cap must not straddle two windows. */
async function roomInMinute(seconds = 20) {
  await eventually(async () => 60_000 - (Date.now() % 60_000) > seconds * 1000, 'a fresh minute', 61_000);
}

describe('success_payment_order.php caps (issue #27)', () => {
  it("asks the provider only for the order's owner: a stranger's call heals nothing", async () => {
    const o = await cardOrder();
    await charge((await widgetParams(o.token, o.orderId)).params);
    await loseThePay(o.orderId);
    const other = await customer();
    expect(await checkPayment(o.orderId)).toMatchObject({ paid: false, status: 'unknown' });
    expect(await checkPayment(o.orderId, other.token)).toMatchObject({ paid: false, status: 'unknown' });
    expect((await orderRow(o.orderId)).status).toBe('awaiting_payment');
    expect((await events(o.orderId)).map((e) => e.kind)).toEqual(['check']);
    expect(await checkPayment(o.orderId, o.token)).toMatchObject({ paid: true, status: 'new' });
  });

  it(`asks the provider at most ${DEFAULT_ANONYMOUS_LIMITS.paymentChecksPerOrderMinute} times a minute for one order, then answers from the database`, async () => {
    await roomInMinute();
    const o = await cardOrder();
    for (let i = 0; i < DEFAULT_ANONYMOUS_LIMITS.paymentChecksPerOrderMinute; i++)
      expect(await checkPayment(o.orderId, o.token)).toMatchObject({ paid: false, status: 'awaiting_payment' });
    await charge((await widgetParams(o.token, o.orderId)).params);
    await loseThePay(o.orderId);
    // The provider has the payment, but is not asked again this minute.
    expect(await checkPayment(o.orderId, o.token)).toMatchObject({ paid: false, status: 'awaiting_payment' });
    expect((await orderRow(o.orderId)).status).toBe('awaiting_payment');
  });
});

async function lastPayBody(transactionId: string): Promise<string> {
  const lines = fs
    .readFileSync(path.join(shop.dataDir, 'outbox', 'cloudpayments.jsonl'), 'utf8')
    .trim()
    .split('\n');
  const found = lines
    .map((l) => JSON.parse(l) as { transactionId: string; notices: { pay?: string } })
    .filter((p) => p.transactionId === transactionId && p.notices.pay);
  const body = found.at(-1)?.notices.pay;
  if (!body) throw new Error('no Pay body kept');
  return body;
}

describe('unpaid orders', () => {
  it('sets pay_until at placement and releases the order after it, giving the stock back once', async () => {
    const o = await cardOrder(2, 5);
    expect(await stockOf(o.offer.id)).toBe(3);
    const row = await orderRow(o.orderId);
    expect(row.payUntil!.getTime() - row.createdAt.getTime()).toBeGreaterThan(29 * 60_000);
    const [job] = await jobsOf(o.orderId, 'order.release');
    expect(job?.runAt.getTime()).toBe(row.payUntil!.getTime());
    // Not due yet: nothing happens.
    await expect(handlers()['order.release']!({ orderId: o.orderId })).rejects.toThrow();
    expect((await orderRow(o.orderId)).status).toBe('awaiting_payment');

    await Promise.all([release(o.orderId), release(o.orderId)]);
    expect((await orderRow(o.orderId)).status).toBe('cancelled');
    expect(await stockOf(o.offer.id)).toBe(5);
    await release(o.orderId);
    expect(await stockOf(o.offer.id)).toBe(5);
    expect((await history(o.orderId)).filter((h) => h.status === 'cancelled')).toHaveLength(1);
    expect(await paymentParams(o.token, o.orderId)).toEqual({
      error: 'Время на оплату истекло: заказ отменён',
      status: 'cancelled',
    });
    expect(await checkPayment(o.orderId, o.token)).toMatchObject({
      paid: false,
      status: 'cancelled',
      message: 'Время на оплату истекло: заказ отменён',
    });
  });

  it('asks CloudPayments before releasing: a payment whose Pay notice was lost keeps the order', async () => {
    const o = await cardOrder(1, 5);
    const result = await charge((await widgetParams(o.token, o.orderId)).params);
    await db()
      .delete(paymentEvents)
      .where(and(eq(paymentEvents.orderId, o.orderId), eq(paymentEvents.kind, 'pay')));
    await db()
      .delete(orderStatusHistory)
      .where(and(eq(orderStatusHistory.orderId, o.orderId), eq(orderStatusHistory.status, 'new')));
    await db()
      .update(orders)
      .set({ status: 'awaiting_payment', paidAt: null, paymentTransactionId: null, paidKopecks: null })
      .where(eq(orders.id, o.orderId));
    await release(o.orderId);
    expect(await orderRow(o.orderId)).toMatchObject({ status: 'new', paymentTransactionId: result.transactionId });
    expect(await stockOf(o.offer.id)).toBe(4);
    expect((await events(o.orderId)).at(-1)).toMatchObject({ kind: 'verified', outcome: 'paid' });
  });

  it('restores a released order when a late payment comes and the stock is still there', async () => {
    const o = await cardOrder(2, 5);
    const payment = await widgetParams(o.token, o.orderId);
    await release(o.orderId);
    expect(await stockOf(o.offer.id)).toBe(5);
    // The payment page was still open: the payment goes through CloudPayments (Check says 20, so send Pay directly).
    const fields = payFields(o);
    expect((await notify('pay', fields)).body).toEqual({ code: 0 });
    expect(await orderRow(o.orderId)).toMatchObject({ status: 'new', paymentTransactionId: fields.TransactionId });
    expect(await stockOf(o.offer.id)).toBe(3);
    expect((await history(o.orderId)).at(-1)).toMatchObject({
      status: 'new',
      note: 'Оплата пришла после отмены: заказ восстановлен',
    });
    expect((await events(o.orderId)).at(-1)?.outcome).toBe('late:restored');
    expect(payment.params.amount).toBe(o.totalKopecks / 100);
  });

  it('refunds a late payment when the stock is gone, and the order stays cancelled', async () => {
    const o = await cardOrder(2, 2);
    const payment = await widgetParams(o.token, o.orderId);
    // Paid at the stand-in (its Check answers OK while the order still waits), the Pay notice delayed.
    const result = await charge(payment.params);
    await db()
      .delete(paymentEvents)
      .where(and(eq(paymentEvents.orderId, o.orderId), eq(paymentEvents.kind, 'pay')));
    await db()
      .update(orders)
      .set({ status: 'awaiting_payment', paidAt: null, paymentTransactionId: null, paidKopecks: null })
      .where(eq(orders.id, o.orderId));
    await db()
      .delete(orderStatusHistory)
      .where(and(eq(orderStatusHistory.orderId, o.orderId), eq(orderStatusHistory.status, 'new')));
    // Released without the look-up finding it (a provider outage), then someone buys the size.
    await db()
      .update(orders)
      .set({ payUntil: new Date(Date.now() - 1000) })
      .where(eq(orders.id, o.orderId));
    const { releaseUnpaidOrder } = await import('~/models/payments.server');
    const silent = { info() {}, error() {} };
    expect(
      await releaseUnpaidOrder({
        db: db(),
        sms: createOfflineSms({ outboxDir: path.join(shop.dataDir, 'outbox') }),
        log: silent,
        siteUrl: '',
        orderId: o.orderId,
      }),
    ).toBe('released');
    expect(await stockOf(o.offer.id)).toBe(2);
    await setStock(db(), o.offer.id, 1);

    const late = await fetch(`${api()}/api/cloudpayments/offline/replay/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ transactionId: result.transactionId, kind: 'pay' }),
    });
    expect(await late.json()).toEqual({ status: 200, code: 0 });
    expect((await orderRow(o.orderId)).status).toBe('cancelled');
    expect(await stockOf(o.offer.id)).toBe(1);
    const outcome = await eventually(async () => {
      const ev = (await events(o.orderId)).find((e) => e.kind === 'pay');
      return ev?.outcome === 'late:refunded' ? ev.outcome : null;
    }, 'the late payment refunded');
    expect(outcome).toBe('late:refunded');
    expect((await history(o.orderId)).at(-1)).toMatchObject({
      status: 'cancelled',
      note: 'Оплата пришла после отмены: товаров уже нет, деньги возвращены',
    });
    // The provider's Refund notice was recorded too.
    await eventually(async () => (await events(o.orderId)).find((e) => e.kind === 'refund'), 'the Refund notice');
    const [item] = await db().select().from(orderItems).where(eq(orderItems.orderId, o.orderId));
    expect(item?.quantity).toBe(2);
  });
});
