import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { and, asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  bonusLots,
  bonusMoves,
  certificateMoves,
  giftCertificates,
  offers,
  orderItems,
  orders,
  paymentEvents,
  products,
  refunds,
  returnRequests,
} from '~/db/schema';
import type { Database } from '~/db/client.server';
import { MOSCOW_COURIER_PRICE_KOPECKS } from '~/core/delivery';
import { orderAccrualKopecks } from '~/core/loyalty-account';
import { newCertificateCode } from '~/core/gift-certificates';
import {
  CheckoutOrderResponse,
  InstalmentLinkResponse,
  PaymentParamsResponse,
  ReturnCreateResponse,
  ReturnsResponse,
  type PaymentWidgetParams,
} from '~/shared/contract';
import { StaffFittingResponse, StaffOrderStatusResponse } from '~/api/staff/routes.server';
import { StaffReturnResponse } from '~/api/staff/returns.routes.server';
import { STAFF_TOKEN_FILE } from '~/server/secrets.server';
import { CLOUDPAYMENTS_SECRET_FILE } from '~/integrations/cloudpayments/index.server';
import { createOfflineCloudPayments, CLOUDPAYMENTS_OUTBOX_FILE } from '~/integrations/cloudpayments/offline.server';
import type { CloudPaymentsClient } from '~/integrations/cloudpayments/cloudpayments';
import { DOLYAMI_OUTBOX_FILE } from '~/integrations/dolyami/offline.server';
import { createOfflineSms, readSmsOutbox } from '~/integrations/sms/offline.server';
import { refundReturn, returnRefundEventId } from '~/models/refund-jobs.server';
import { spendBonuses } from '~/models/loyalty.server';
import { accrueOrderBonuses } from '~/models/loyalty-jobs.server';
import { eventually, fetchJson, getJson, postForm } from '~/tests/support/api';
import { setUpTestShop } from '~/tests/support/server';
import { customerMaker } from '~/tests/support/session';
import { courierForm, offerPicker, payByCard } from '~/tests/support/checkout';

// Returns and refunds (issue #12 «Refunds and returns») over HTTP, on PGlite or
// (TEST_DATABASE_URL) PostgreSQL: orders placed through order.php and paid through the offline
// CloudPayments and Dolyami stand-ins, moved along and decided with the staff API, requests made
// in the account (return_add.php). The refund job runs in the shop's own job worker; tests also
// run it by hand to show a retry refunds nothing twice.

const shop = setUpTestShop();
const db = () => shop.database.db;
const api = () => `${shop.baseUrl}/backend`;
const outbox = () => path.join(shop.dataDir, 'outbox');
const cpSecret = () => fs.readFileSync(path.join(shop.dataDir, CLOUDPAYMENTS_SECRET_FILE), 'utf8').trim();

const freshOffer = offerPicker(shop);
/** A full-price offer of a product not used before, priced for pay in parts of two of it with the courier. */
const plainOffer = () => freshOffer({ min: 300_000, max: Math.floor((4_000_000 - MOSCOW_COURIER_PRICE_KOPECKS) / 2) });

const customer = customerMaker(shop, '7996');

async function placeOrder(paymentId: '1' | '9' | '10', quantity = 2) {
  const offer = await plainOffer();
  const who = await customer();
  const answer = await getJson(api(), '/api/catalog/order.php', CheckoutOrderResponse, {
    init: postForm(courierForm(who.token, `${offer.id}:${quantity}`, { payment_id: paymentId })),
  });
  if (!answer.success) throw new Error(JSON.stringify(answer.data));
  return { ...who, offer, quantity, orderId: answer.order_id };
}

async function orderRow(orderId: number) {
  const [row] = await db().select().from(orders).where(eq(orders.id, orderId));
  if (!row) throw new Error(`no order ${orderId}`);
  return row;
}

/** A card order paid on the offline CloudPayments page ('Оплатить', 3-D Secure 1234). */
async function paidCardOrder(quantity = 2) {
  const o = await placeOrder('9', quantity);
  const params = await getJson(api(), '/api/catalog/payment_params.php', PaymentParamsResponse, {
    init: postForm({ token: o.token, order_id: String(o.orderId) }),
  });
  if (!('payment' in params)) throw new Error(params.error);
  const p = Buffer.from(JSON.stringify((params.payment as PaymentWidgetParams).params)).toString('base64url');
  const res = await fetch(`${api()}/api/cloudpayments/offline/charge/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ p, action: 'pay', code: '1234', card: '4242 4242 4242 4242' }),
  });
  expect(res.status).toBe(200);
  const paid = await orderRow(o.orderId);
  expect(paid.paidAt).not.toBeNull();
  return { ...o, transactionId: paid.paymentTransactionId as string, paidKopecks: paid.paidKopecks as number };
}

/** A Dolyami order approved on the stand-in's page. */
async function paidDolyamiOrder(quantity = 2) {
  const o = await placeOrder('10', quantity);
  const answer = await getJson(api(), '/api/catalog/instalment_link.php', InstalmentLinkResponse, {
    init: postForm({ token: o.token, order_id: String(o.orderId) }),
  });
  if (!('link' in answer)) throw new Error(answer.error);
  const page = await (await fetch(`${shop.baseUrl}${answer.link}`)).text();
  const form = /<form method="post" action="([^"]+)"/.exec(page)?.[1] ?? '';
  const id = new URL(answer.link, 'http://x').searchParams.get('id') ?? '';
  const res = await fetch(`${shop.baseUrl}${form}`, {
    method: 'POST',
    body: new URLSearchParams({ id, action: 'approve', notify: '1' }),
    redirect: 'manual',
  });
  expect(res.status).toBe(303);
  const paid = await eventually(async () => {
    const row = await orderRow(o.orderId);
    return row.paidAt ? row : null;
  }, 'the Dolyami order paid');
  return { ...o, attemptId: paid.paymentTransactionId as string, paidKopecks: paid.paidKopecks as number };
}

const staffToken = () => fs.readFileSync(path.join(shop.dataDir, STAFF_TOKEN_FILE), 'utf8').trim();
const staffInit = (fields: Record<string, string>): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${staffToken()}` },
  body: new URLSearchParams(fields).toString(),
});

async function moveTo(orderId: number, status: string) {
  const { body } = await fetchJson(api(), '/staff/orders/', StaffOrderStatusResponse, {
    init: staffInit({ action: 'status', order_id: String(orderId), status }),
  });
  if (!body.data) throw new Error(JSON.stringify(body.errors));
}

/** Taken to the shopper by the courier (the return period starts). */
async function deliver(orderId: number) {
  for (const s of ['confirmed', 'assembling', 'shipped', 'delivered']) await moveTo(orderId, s);
}

async function returnAdd(token: string, orderId: number, items: Record<number, number>) {
  const fields: Record<string, string> = { token, order_id: String(orderId), reason: 'Не подошёл размер' };
  for (const [offerId, q] of Object.entries(items)) fields[`items[${offerId}]`] = String(q);
  return getJson(api(), '/api/personal/return_add.php', ReturnCreateResponse, { init: postForm(fields) });
}

async function requestOf(token: string, orderId: number, items: Record<number, number>): Promise<number> {
  const made = await returnAdd(token, orderId, items);
  if (!made.success) throw new Error(made.error);
  return made.id;
}

async function staffReturn(
  action: 'approve' | 'reject' | 'transferred',
  requestId: number,
  extra: Record<string, string> = {},
) {
  const { body } = await fetchJson(api(), '/staff/returns/', StaffReturnResponse, {
    init: staffInit({ action, request_id: String(requestId), ...extra }),
  });
  return body;
}

const refundsOfRequest = (requestId: number) =>
  db().select().from(refunds).where(eq(refunds.returnRequestId, requestId)).orderBy(asc(refunds.id));
const requestRow = async (id: number) => (await db().select().from(returnRequests).where(eq(returnRequests.id, id)))[0];
const linesOf = (orderId: number) =>
  db().select().from(orderItems).where(eq(orderItems.orderId, orderId)).orderBy(asc(orderItems.offerId));

/** The last state the offline provider wrote of a payment (its outbox keeps one JSON line per change). */
function lastOutboxState<T extends { refundedKopecks: number }>(
  file: string,
  match: (row: Record<string, unknown>) => boolean,
): T | undefined {
  const lines = fs.readFileSync(path.join(outbox(), file), 'utf8').split('\n').filter(Boolean);
  return lines
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter(match)
    .pop() as T | undefined;
}
const cardRefunded = (transactionId: string) =>
  lastOutboxState(CLOUDPAYMENTS_OUTBOX_FILE, (r) => r.transactionId === transactionId)?.refundedKopecks ?? 0;

async function refundDone(requestId: number) {
  return eventually(async () => {
    const row = await requestRow(requestId);
    return row?.status === 'refunded' ? row : null;
  }, `request ${requestId} refunded`);
}

/** The refund job's dependencies with a provider that counts its calls (a fresh stand-in reads the payments from its outbox). */
function countingDeps() {
  const real = createOfflineCloudPayments({ publicId: 'test', apiSecret: cpSecret(), outboxDir: outbox() });
  const calls: { transactionId: string; amountKopecks: number; key: string | undefined }[] = [];
  const payments: CloudPaymentsClient = {
    kind: 'offline',
    findPayment: (id) => real.findPayment(id),
    async refund(transactionId, amountKopecks, key) {
      calls.push({ transactionId, amountKopecks, key });
      await real.refund(transactionId, amountKopecks, key);
    },
  };
  return {
    calls,
    deps: {
      db: db() as Database,
      sms: createOfflineSms({ outboxDir: outbox() }),
      mail: null as never,
      siteUrl: 'http://shop.test',
      payments,
    },
  };
}

describe('approving a return of a card order', () => {
  it('refunds exactly the planned amount through CloudPayments once, however often the job runs, and tells the customer', async () => {
    const o = await paidCardOrder(2);
    await deliver(o.orderId);
    const [line] = await linesOf(o.orderId);
    const unit = (line!.priceKopecks * 2 - line!.discountKopecks) / 2;

    const requestId = await requestOf(o.token, o.orderId, { [o.offer.id]: 1 });
    const approved = await staffReturn('approve', requestId);
    expect(approved.errors).toEqual({});
    expect(approved.data).toMatchObject({
      status: 'approved',
      delivery_refunded: false,
      refunds: [{ means: 'cloudpayments', amount_kopecks: unit, status: 'pending' }],
    });
    expect((await linesOf(o.orderId))[0]?.returnedQuantity).toBe(1);

    // The shop's job worker asks the provider.
    await refundDone(requestId);
    const [row] = await refundsOfRequest(requestId);
    expect(row).toMatchObject({
      means: 'cloudpayments',
      amountKopecks: unit,
      status: 'done',
      providerRef: returnRefundEventId(row!.id),
    });
    expect(row?.doneAt).not.toBeNull();
    expect(cardRefunded(o.transactionId)).toBe(unit);
    const [event] = await db()
      .select()
      .from(paymentEvents)
      .where(and(eq(paymentEvents.transactionId, returnRefundEventId(row!.id)), eq(paymentEvents.kind, 'refund')));
    expect(event).toMatchObject({
      provider: 'cloudpayments',
      outcome: 'return:refunded',
      amountKopecks: unit,
      orderId: o.orderId,
    });

    // The job again (a replay): nothing is asked of the provider.
    const again = countingDeps();
    expect(await refundReturn(again.deps, row!.id)).toBe('already-done');
    expect(again.calls).toEqual([]);

    // A half-done run: the provider took the refund but the job died before writing it down. The
    // retry asks again with the same idempotency key, and the provider refunds nothing twice.
    await db().update(refunds).set({ status: 'pending', doneAt: null }).where(eq(refunds.id, row!.id));
    await db()
      .update(paymentEvents)
      .set({ outcome: 'return:refunding' })
      .where(and(eq(paymentEvents.transactionId, returnRefundEventId(row!.id)), eq(paymentEvents.kind, 'refund')));
    const retry = countingDeps();
    expect(await refundReturn(retry.deps, row!.id)).toBe('refunded');
    expect(retry.calls).toEqual([
      { transactionId: o.transactionId, amountKopecks: unit, key: returnRefundEventId(row!.id) },
    ]);
    expect(cardRefunded(o.transactionId)).toBe(unit);

    // A second approval of the same request changes nothing and says so.
    const second = await staffReturn('approve', requestId);
    expect(second.data).toBeNull();
    expect(second.errors.request_id).toMatch(/уже рассмотрена/);
    expect(await refundsOfRequest(requestId)).toHaveLength(1);

    const sms = await eventually(
      async () =>
        (await readSmsOutbox(outbox())).find((m) => m.text.startsWith(`Возврат по заказу №${o.orderId} одобрен`)),
      'the refund SMS',
    );
    expect(sms.text).toMatch(/вернутся на карту в течение 30 рабочих дней/);
    const { value } = await getJson(api(), '/api/personal/returns.php', ReturnsResponse, {
      init: postForm({ token: o.token }),
    });
    expect(value.orders.find((r) => r.ID === requestId)?.STATUS).toMatch(/^Деньги возвращены: .* на карту$/);
  });

  it('takes one of two approvals of one request at once; the rest of the line once more, then nothing', async () => {
    const o = await paidCardOrder(2);
    await deliver(o.orderId);
    const first = await requestOf(o.token, o.orderId, { [o.offer.id]: 1 });
    await staffReturn('approve', first);
    const second = await requestOf(o.token, o.orderId, { [o.offer.id]: 1 });
    const answers = await Promise.all([staffReturn('approve', second), staffReturn('approve', second)]);
    expect(answers.filter((a) => a.data !== null)).toHaveLength(1);
    expect(answers.find((a) => a.data === null)?.errors.request_id).toMatch(/уже рассмотрена/);
    expect(await refundsOfRequest(second)).toHaveLength(1);
    await refundDone(first);
    await refundDone(second);
    const [line] = await linesOf(o.orderId);
    expect(line?.returnedQuantity).toBe(2);
    // Both units back, the delivery not: exactly the items.
    expect(cardRefunded(o.transactionId)).toBe(line!.priceKopecks * 2 - line!.discountKopecks);

    // The line is fully returned: the account refuses another request, and a request written past it is refused at approval.
    const more = await returnAdd(o.token, o.orderId, { [o.offer.id]: 1 });
    expect(more.success).toBe(false);
    const [forged] = await db()
      .insert(returnRequests)
      .values({ customerId: o.customerId, orderId: o.orderId, items: [{ offerId: o.offer.id, quantity: 1 }] })
      .returning({ id: returnRequests.id });
    const refused = await staffReturn('approve', forged!.id);
    expect(refused.data).toBeNull();
    expect(refused.errors.items).toMatch(/уже возвращена/);
    expect((await requestRow(forged!.id))?.status).toBe('new');
    expect(await refundsOfRequest(forged!.id)).toEqual([]);
  });

  it('refuses to return more than was bought, changing nothing', async () => {
    const o = await paidCardOrder(2);
    await deliver(o.orderId);
    const tooMany = await returnAdd(o.token, o.orderId, { [o.offer.id]: 3 });
    expect(tooMany.success).toBe(false);
    const [forged] = await db()
      .insert(returnRequests)
      .values({ customerId: o.customerId, orderId: o.orderId, items: [{ offerId: o.offer.id, quantity: 3 }] })
      .returning({ id: returnRequests.id });
    const refused = await staffReturn('approve', forged!.id);
    expect(refused.data).toBeNull();
    expect(refused.errors.items).toMatch(/не больше 2 шт/);
    expect((await linesOf(o.orderId))[0]?.returnedQuantity).toBe(0);
    expect(await refundsOfRequest(forged!.id)).toEqual([]);
  });

  it('refunds the delivery only when staff say so (--delivery), and once per order', async () => {
    const o = await paidCardOrder(2);
    await deliver(o.orderId);
    const [line] = await linesOf(o.orderId);
    const unit = (line!.priceKopecks * 2 - line!.discountKopecks) / 2;
    const order = await orderRow(o.orderId);
    expect(order.deliveryCostKopecks).toBe(MOSCOW_COURIER_PRICE_KOPECKS);

    const first = await requestOf(o.token, o.orderId, { [o.offer.id]: 1 });
    const a = await staffReturn('approve', first, { delivery: '1', note: 'Брак: шов разошёлся' });
    expect(a.data).toMatchObject({
      delivery_refunded: true,
      refunds: [{ means: 'cloudpayments', amount_kopecks: unit + MOSCOW_COURIER_PRICE_KOPECKS }],
    });
    const second = await requestOf(o.token, o.orderId, { [o.offer.id]: 1 });
    const b = await staffReturn('approve', second, { delivery: '1' });
    expect(b.data).toMatchObject({
      delivery_refunded: false,
      refunds: [{ means: 'cloudpayments', amount_kopecks: unit }],
    });
    await refundDone(first);
    await refundDone(second);
    expect(cardRefunded(o.transactionId)).toBe(o.paidKopecks);

    // Without --delivery, the delivery stays paid.
    const p = await paidCardOrder(1);
    await deliver(p.orderId);
    const [pl] = await linesOf(p.orderId);
    const c = await staffReturn('approve', await requestOf(p.token, p.orderId, { [p.offer.id]: 1 }));
    expect(c.data?.refunds).toEqual([
      expect.objectContaining({ means: 'cloudpayments', amount_kopecks: pl!.priceKopecks - pl!.discountKopecks }),
    ]);
  });
});

describe('approving a return of an order paid in parts', () => {
  it('refunds through Dolyami the part returned, and a second return of the same amount as a refund of its own', async () => {
    const o = await paidDolyamiOrder(2);
    await deliver(o.orderId);
    const [line] = await linesOf(o.orderId);
    const unit = (line!.priceKopecks * 2 - line!.discountKopecks) / 2;
    const requestId = await requestOf(o.token, o.orderId, { [o.offer.id]: 1 });
    const approved = await staffReturn('approve', requestId);
    expect(approved.data?.refunds).toEqual([
      expect.objectContaining({ means: 'dolyami', amount_kopecks: unit, status: 'pending' }),
    ]);
    await refundDone(requestId);
    expect(lastOutboxState(DOLYAMI_OUTBOX_FILE, (r) => r.id === o.attemptId)?.refundedKopecks).toBe(unit);
    const [event] = await db()
      .select()
      .from(paymentEvents)
      .where(
        and(
          eq(paymentEvents.provider, 'dolyami'),
          eq(paymentEvents.orderId, o.orderId),
          eq(paymentEvents.kind, 'refund'),
        ),
      );
    expect(event?.outcome).toBe('return:refunded');
    const sms = await eventually(
      async () =>
        (await readSmsOutbox(outbox())).find((m) => m.text.startsWith(`Возврат по заказу №${o.orderId} одобрен`)),
      'the refund SMS',
    );
    expect(sms.text).toContain('через Долями');

    // The other unit, the same amount again: a refund of its own (its own correlation key), not taken for a repeat of the first.
    const second = await requestOf(o.token, o.orderId, { [o.offer.id]: 1 });
    await staffReturn('approve', second);
    await refundDone(second);
    expect(lastOutboxState(DOLYAMI_OUTBOX_FILE, (r) => r.id === o.attemptId)?.refundedKopecks).toBe(unit * 2);
  });
});

describe('approving a return of an order paid on receipt', () => {
  it('leaves a bank transfer to staff, says so, and is refunded once they record it', async () => {
    const o = await placeOrder('1', 2);
    for (const s of ['confirmed', 'assembling', 'shipped']) await moveTo(o.orderId, s);
    const { body: fitting } = await fetchJson(api(), '/staff/orders/', StaffFittingResponse, {
      init: staffInit({
        action: 'fitting',
        order_id: String(o.orderId),
        [`lines[${o.offer.id}][kept]`]: '2',
        [`lines[${o.offer.id}][refused]`]: '0',
      }),
    });
    expect(fitting.data?.status).toBe('received');
    const [line] = await linesOf(o.orderId);
    const unit = (line!.priceKopecks * 2 - line!.discountKopecks) / 2;

    const requestId = await requestOf(o.token, o.orderId, { [o.offer.id]: 1 });
    const approved = await staffReturn('approve', requestId);
    expect(approved.data).toMatchObject({
      status: 'approved',
      refunds: [{ means: 'transfer', amount_kopecks: unit, status: 'manual' }],
    });
    expect(approved.warnings.join(' ')).toMatch(/переведите покупателю .* по реквизитам из заявления/);
    const sms = await eventually(
      async () =>
        (await readSmsOutbox(outbox())).find((m) => m.text.startsWith(`Возврат по заказу №${o.orderId} одобрен`)),
      'the decision SMS',
    );
    expect(sms.text).toContain('переведём на счёт по реквизитам из заявления');

    const done = await staffReturn('transferred', requestId);
    expect(done.data?.status).toBe('refunded');
    expect((await staffReturn('transferred', requestId)).data).toBeNull();
    expect((await refundsOfRequest(requestId))[0]?.status).toBe('done');
  });
});

describe('rejecting a return', () => {
  it('needs a reason, which the customer gets and sees; nothing is returned', async () => {
    const o = await paidCardOrder(1);
    await deliver(o.orderId);
    const requestId = await requestOf(o.token, o.orderId, { [o.offer.id]: 1 });
    expect((await staffReturn('reject', requestId)).errors.note).toBeTruthy();
    const rejected = await staffReturn('reject', requestId, { note: 'Нет ярлыков' });
    expect(rejected.data?.status).toBe('rejected');
    expect((await staffReturn('approve', requestId)).data).toBeNull();
    expect((await linesOf(o.orderId))[0]?.returnedQuantity).toBe(0);
    const { value } = await getJson(api(), '/api/personal/returns.php', ReturnsResponse, {
      init: postForm({ token: o.token }),
    });
    expect(value.orders.find((r) => r.ID === requestId)?.STATUS).toBe('Возврат отклонён: Нет ярлыков');
    await eventually(
      async () =>
        (await readSmsOutbox(outbox())).find(
          (m) => m.text === `Возврат по заказу №${o.orderId} отклонён: Нет ярлыков. Подробности — в личном кабинете.`,
        ),
      'the rejection SMS',
    );
  });
});

describe('an order paid partly with a gift certificate and bonuses', () => {
  it('gives the certificate its part first, the card the rest, the bonuses back to their lot, and cancels the accrual of the returned unit', async () => {
    // Written through the ledgers' own functions: a certificate that paid C, bonuses B spent on
    // the line, the card the rest (the checkout's fields for them come with the lead's change).
    const o = await paidCardOrder(2);
    await deliver(o.orderId);
    const [line] = await linesOf(o.orderId);
    const P = line!.priceKopecks;
    const B = 20_000;
    const C = Math.floor(P / 2);
    const order = await orderRow(o.orderId);
    const total = order.totalKopecks - B;
    const [lot] = await db()
      .insert(bonusLots)
      .values({
        customerId: o.customerId,
        kind: 'manual',
        lotKey: `test:${o.orderId}`,
        amountKopecks: 100_000,
        remainingKopecks: 100_000,
        availableFrom: new Date(Date.now() - 86_400_000),
        expiresAt: new Date(Date.now() + 200 * 86_400_000),
      })
      .returning({ id: bonusLots.id });
    const [cert] = await db()
      .insert(giftCertificates)
      .values({
        code: `9${String(o.orderId).padStart(15, '0')}`,
        kind: 'electronic',
        nominalKopecks: 5_000_000,
        balanceKopecks: 5_000_000 - C,
        issueKey: `test:${o.orderId}`,
        expiresAt: new Date(Date.now() + 300 * 86_400_000),
      })
      .returning({ id: giftCertificates.id });
    await db().transaction(async (tx) => {
      const t = tx as unknown as Database;
      expect(
        await spendBonuses(t, { customerId: o.customerId, orderId: o.orderId, amountKopecks: B, now: new Date() }),
      ).toBe(true);
      await t
        .insert(certificateMoves)
        .values({ certificateId: cert!.id, kind: 'redeem', amountKopecks: -C, orderId: o.orderId });
      await t
        .update(orderItems)
        .set({ bonusKopecks: B })
        .where(and(eq(orderItems.orderId, o.orderId), eq(orderItems.offerId, o.offer.id)));
      await t
        .update(orders)
        // 'received' without the courier's fitting (the accrual credits received orders only).
        .set({
          bonusKopecks: B,
          totalKopecks: total,
          certificateKopecks: C,
          paidKopecks: total - C,
          status: 'received',
        })
        .where(eq(orders.id, o.orderId));
    });
    // The purchase's bonuses were credited already (the 14 days passed).
    const credited = await accrueOrderBonuses(db(), o.orderId);
    expect(credited).toBeGreaterThan(0);

    const requestId = await requestOf(o.token, o.orderId, { [o.offer.id]: 1 });
    const approved = await staffReturn('approve', requestId);
    const unitMoney = (P * 2 - line!.discountKopecks - B) / 2;
    expect(approved.data?.refunds).toEqual([
      expect.objectContaining({ means: 'certificate', amount_kopecks: C, status: 'done' }),
      expect.objectContaining({ means: 'bonus', amount_kopecks: B / 2, status: 'done' }),
      expect.objectContaining({ means: 'cloudpayments', amount_kopecks: unitMoney - C, status: 'pending' }),
    ]);
    const item = (returned: number) => ({
      priceKopecks: P,
      oldPriceKopecks: line!.oldPriceKopecks,
      quantity: 2,
      discountKopecks: line!.discountKopecks,
      bonusKopecks: B,
      returnedQuantity: returned,
      keptQuantity: null,
      isGift: false,
      certificate: false,
    });
    const cancelled = orderAccrualKopecks([item(0)]) - orderAccrualKopecks([item(1)]);
    expect(approved.data?.accrual_cancelled_kopecks).toBe(cancelled);

    const [c] = await db().select().from(giftCertificates).where(eq(giftCertificates.id, cert!.id));
    expect(c?.balanceKopecks).toBe(5_000_000);
    const [l] = await db().select().from(bonusLots).where(eq(bonusLots.id, lot!.id));
    expect(l?.remainingKopecks).toBe(100_000 - B / 2);
    const moves = await db()
      .select()
      .from(bonusMoves)
      .where(eq(bonusMoves.returnRequestId, requestId))
      .orderBy(asc(bonusMoves.id));
    expect(moves.map((m) => [m.kind, m.amountKopecks])).toEqual([
      ['restore', B / 2],
      ['cancel', -cancelled],
    ]);

    await refundDone(requestId);
    expect(cardRefunded(o.transactionId)).toBe(unitMoney - C);

    // The second unit: the certificate has nothing more to get; the card takes the rest, exactly what it was paid.
    const rest = await requestOf(o.token, o.orderId, { [o.offer.id]: 1 });
    const b = await staffReturn('approve', rest);
    expect(b.data?.refunds).toEqual([
      expect.objectContaining({ means: 'bonus', amount_kopecks: B / 2 }),
      expect.objectContaining({ means: 'cloudpayments', amount_kopecks: unitMoney }),
    ]);
    await refundDone(rest);
    expect(cardRefunded(o.transactionId)).toBe(total - C - order.deliveryCostKopecks);
    const [l2] = await db().select().from(bonusLots).where(eq(bonusLots.id, lot!.id));
    expect(l2?.remainingKopecks).toBe(100_000);
  });
});

describe('an order placed with a gift certificate and bonuses at checkout (order.php certificates, bonuses)', () => {
  it('returned: the certificate gets its part first, the card the rest, the bonuses go back to their lot', async () => {
    const offer = await plainOffer();
    const who = await customer();
    const [lot] = await db()
      .insert(bonusLots)
      .values({
        customerId: who.customerId,
        kind: 'manual',
        lotKey: `test:${who.customerId}`,
        amountKopecks: 50_000,
        remainingKopecks: 50_000,
        availableFrom: new Date(Date.now() - 86_400_000),
        expiresAt: new Date(Date.now() + 200 * 86_400_000),
      })
      .returning({ id: bonusLots.id });
    const code = newCertificateCode((n) => crypto.randomBytes(n));
    const [cert] = await db()
      .insert(giftCertificates)
      .values({
        code,
        kind: 'electronic',
        nominalKopecks: 100_000,
        balanceKopecks: 100_000,
        issueKey: `test:${code}`,
        expiresAt: new Date(Date.now() + 300 * 86_400_000),
      })
      .returning({ id: giftCertificates.id });
    const placed = await getJson(api(), '/api/catalog/order.php', CheckoutOrderResponse, {
      init: postForm(courierForm(who.token, `${offer.id}:2`, { payment_id: '9', certificates: code, bonuses: '200' })),
    });
    if (!placed.success) throw new Error(JSON.stringify(placed.data));
    const orderId = placed.order_id;
    const before = await orderRow(orderId);
    expect(before).toMatchObject({ bonusKopecks: 20_000, certificateKopecks: 100_000 });
    const paid = await payByCard(api(), who.token, orderId);
    const order = await orderRow(orderId);
    expect(order.paidKopecks).toBe(order.totalKopecks - 100_000);
    await deliver(orderId);

    const [line] = await linesOf(orderId);
    const unitMoney = (line!.priceKopecks * 2 - line!.discountKopecks - line!.bonusKopecks) / 2;
    expect(line!.bonusKopecks).toBe(20_000);
    const requestId = await requestOf(who.token, orderId, { [offer.id]: 1 });
    const approved = await staffReturn('approve', requestId);
    expect(approved.data?.refunds).toEqual([
      expect.objectContaining({ means: 'certificate', amount_kopecks: 100_000, status: 'done' }),
      expect.objectContaining({ means: 'bonus', amount_kopecks: 10_000, status: 'done' }),
      expect.objectContaining({ means: 'cloudpayments', amount_kopecks: unitMoney - 100_000, status: 'pending' }),
    ]);
    const [c] = await db().select().from(giftCertificates).where(eq(giftCertificates.id, cert!.id));
    expect(c?.balanceKopecks).toBe(100_000);
    const [l] = await db().select().from(bonusLots).where(eq(bonusLots.id, lot!.id));
    expect(l?.remainingKopecks).toBe(50_000 - 20_000 + 10_000);
    await refundDone(requestId);
    expect(cardRefunded(paid.transactionId)).toBe(unitMoney - 100_000);
    const { value } = await getJson(api(), '/api/personal/returns.php', ReturnsResponse, {
      init: postForm({ token: who.token }),
    });
    expect(value.orders.find((r) => r.ID === requestId)?.STATUS).toMatch(
      /^Деньги возвращены: .* на карту, .* на сертификат, 100 бонусов$/,
    );
  });

  it('takes a gift certificate back only unused, and voids it: its money never comes out twice', async () => {
    const [certOffer] = await db()
      .select({ id: offers.id, price: offers.priceKopecks })
      .from(offers)
      .innerJoin(products, eq(products.id, offers.productId))
      .where(and(eq(products.certificate, 'electronic'), eq(products.priceKopecks, 500_000)))
      .limit(1);
    if (!certOffer) throw new Error('no 5 000 ₽ electronic certificate in the seed');
    const who = await customer();
    const buy = async () => {
      const placed = await getJson(api(), '/api/catalog/order.php', CheckoutOrderResponse, {
        init: postForm(
          courierForm(who.token, `${certOffer.id}:1`, {
            payment_id: '9',
            delivery_id: '300',
            street: '',
            house: '',
            flat: '',
            deliverycost: '0',
          }),
        ),
      });
      if (!placed.success) throw new Error(JSON.stringify(placed.data));
      const paid = await payByCard(api(), who.token, placed.order_id);
      const [cert] = await eventually(async () => {
        const rows = await db().select().from(giftCertificates).where(eq(giftCertificates.orderId, placed.order_id));
        return rows.length === 1 ? rows : null;
      }, 'the certificate issued');
      await deliver(placed.order_id);
      return { orderId: placed.order_id, cert: cert!, paid };
    };

    // Spent in part: its return is refused and nothing changes.
    const used = await buy();
    const offer = await plainOffer();
    const spend = await getJson(api(), '/api/catalog/order.php', CheckoutOrderResponse, {
      init: postForm(courierForm(who.token, `${offer.id}:1`, { certificates: used.cert.code })),
    });
    expect(spend.success).toBe(true);
    const refused = await staffReturn('approve', await requestOf(who.token, used.orderId, { [certOffer.id]: 1 }));
    expect(refused.errors).toEqual({
      items: expect.stringMatching(/подарочный сертификат можно вернуть, только пока им не расплачивались/),
    });
    expect((await linesOf(used.orderId))[0]?.returnedQuantity).toBe(0);

    // Unused: taken back, voided, and the card refunded.
    const whole = await buy();
    const requestId = await requestOf(who.token, whole.orderId, { [certOffer.id]: 1 });
    const approved = await staffReturn('approve', requestId);
    expect(approved.data?.refunds).toEqual([
      expect.objectContaining({ means: 'cloudpayments', amount_kopecks: 500_000 }),
    ]);
    const [voided] = await db().select().from(giftCertificates).where(eq(giftCertificates.id, whole.cert.id));
    expect(voided?.balanceKopecks).toBe(0);
    // A voided certificate pays nothing.
    const after = await getJson(api(), '/api/catalog/order.php', CheckoutOrderResponse, {
      init: postForm(courierForm(who.token, `${(await plainOffer()).id}:1`, { certificates: whole.cert.code })),
    });
    expect(after.success).toBe(false);
    await refundDone(requestId);
    expect(cardRefunded(whole.paid.transactionId)).toBe(500_000);
  });
});
