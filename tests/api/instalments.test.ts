import { and, eq } from 'drizzle-orm';
import { SignJWT } from 'jose';
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { orders, orderStatusHistory, paymentEvents } from '~/db/schema';
import { MOSCOW_COURIER_PRICE_KOPECKS } from '~/core/delivery';
import {
  ChangePaymentResponse,
  CheckoutOrderResponse,
  InstalmentLinkResponse,
  OrderParamsResponse,
  PaymentParamsResponse,
  PaymentStatusResponse,
} from '~/shared/contract';
import { OFFLINE_SPLIT_KID, OFFLINE_SPLIT_MERCHANT_ID } from '~/integrations/yandex-split/offline.server';
import { getJson, postForm } from '~/tests/support/api';
import { setUpTestShop } from '~/tests/support/server';
import { customerMaker } from '~/tests/support/session';
import { courierForm, offerPicker } from '~/tests/support/checkout';
import { setStock } from '~/tests/support/stock';

// Pay in parts (issue #12) over HTTP, on PGlite or (TEST_DATABASE_URL) PostgreSQL: orders placed
// through order.php with Dolyami ('10') or Yandex Split ('11'), sent to the offline stand-ins'
// pages, approved or declined there; the stand-ins call the shop back as the providers would
// (Dolyami: unsigned JSON, confirmed with info and committed; Split: an ES256 JWT, confirmed
// with GET /orders). Forged, replayed and simultaneous callbacks pay nothing or once.

const shop = setUpTestShop();
const db = () => shop.database.db;
const api = () => `${shop.baseUrl}/backend`;

const freshOffer = offerPicker(shop);
/** An offer priced inside (or, in a quantity, outside) the 500–40 000 ₽ range with the courier's 700 ₽. */
async function offerPriced(inRange: boolean) {
  const found = await freshOffer({ max: 4_000_000 - MOSCOW_COURIER_PRICE_KOPECKS });
  // Outside the range: enough of it to pass 40 000 ₽.
  const qty = inRange ? 1 : Math.floor(4_000_000 / found.price) + 1;
  await setStock(db(), found.id, Math.max(5, qty));
  return { ...found, qty, ids: `${found.id}:${qty}` };
}

const customer = customerMaker(shop, '7997');

async function instalmentOrder(paymentId: '10' | '11') {
  const offer = await offerPriced(true);
  const who = await customer();
  const answer = await getJson(api(), '/api/catalog/order.php', CheckoutOrderResponse, {
    init: postForm(courierForm(who.token, `${offer.id}:1`, { payment_id: paymentId })),
  });
  if (!answer.success) throw new Error(JSON.stringify(answer.data));
  expect(answer.status).toBe('awaiting_payment');
  return { ...who, offer, orderId: answer.order_id, totalKopecks: Math.round(answer.pay_amount * 100) };
}

async function link(token: string, orderId: number, status = 200) {
  return getJson(api(), '/api/catalog/instalment_link.php', InstalmentLinkResponse, {
    init: postForm({ token, order_id: String(orderId) }),
    status,
  });
}

async function linkOf(token: string, orderId: number): Promise<string> {
  const answer = await link(token, orderId);
  if (!('link' in answer)) throw new Error(answer.error);
  return answer.link;
}

/** The attempt id in a stand-in link (`?id=` for Dolyami, `?order=` for Split). */
const attemptOf = (l: string) =>
  new URL(l, 'http://x').searchParams.get('id') ?? new URL(l, 'http://x').searchParams.get('order') ?? '';

/** The shopper answers on the stand-in page; returns where the browser is sent. */
async function decide(l: string, action: 'approve' | 'decline', notify = true): Promise<string> {
  const page = await fetch(`${shop.baseUrl}${l}`);
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(html).toContain('График платежей');
  expect(html).toContain('Одобрить');
  const form = /<form method="post" action="([^"]+)"/.exec(html)?.[1] ?? '';
  const res = await fetch(`${shop.baseUrl}${form}`, {
    method: 'POST',
    body: new URLSearchParams({ id: attemptOf(l), action, notify: notify ? '1' : '0' }),
    redirect: 'manual',
  });
  expect(res.status).toBe(303);
  return res.headers.get('location') ?? '';
}

async function orderRow(orderId: number) {
  const [row] = await db().select().from(orders).where(eq(orders.id, orderId));
  if (!row) throw new Error(`no order ${orderId}`);
  return row;
}
const paidEvents = (orderId: number) =>
  db()
    .select()
    .from(paymentEvents)
    .where(and(eq(paymentEvents.orderId, orderId), eq(paymentEvents.kind, 'pay')));
const history = (orderId: number) =>
  db().select().from(orderStatusHistory).where(eq(orderStatusHistory.orderId, orderId));

async function dolyamiCallback(body: unknown) {
  const res = await fetch(`${api()}/api/dolyami/callback/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return res.status;
}
async function splitWebhook(token: string) {
  const res = await fetch(`${api()}/api/yandex-split/v1/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/octet-stream' },
    body: token,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}
/** A JWT shaped like Yandex's, signed with a key that is not the provider's. */
async function forgedJwt(claims: Record<string, unknown>) {
  const { privateKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'ES256', kid: OFFLINE_SPLIT_KID })
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(privateKey);
}

describe('get_order_params.php and order.php', () => {
  it('lists Dolyami and Yandex Split with the schedule, or with the reason outside 500–40 000 ₽', async () => {
    const inside = await offerPriced(true);
    const params = await getJson(
      api(),
      `/api/catalog/get_order_params.php?city=${encodeURIComponent('Москва')}&ids=${inside.ids}`,
      OrderParamsResponse,
    );
    for (const id of ['10', '11']) {
      const m = params.payment_methods.find((p) => p.ID === id);
      expect(m?.DISABLED_REASON).toBeNull();
      expect(m?.SCHEDULE).toHaveLength(4);
      expect(m?.SCHEDULE?.reduce((s, p) => s + Math.round(p.AMOUNT * 100), 0)).toBe(inside.price);
    }
    expect(params.payment_methods.find((p) => p.ID === '10')?.NAME).toBe('Долями');
    const outside = await offerPriced(false);
    const big = await getJson(
      api(),
      `/api/catalog/get_order_params.php?city=${encodeURIComponent('Москва')}&ids=${outside.ids}`,
      OrderParamsResponse,
    );
    const split = big.payment_methods.find((p) => p.ID === '11');
    expect(split?.SCHEDULE ?? null).toBeNull();
    expect(split?.DISABLED_REASON).toMatch(/от 500 до 40 000 ₽/);
  });

  it('refuses pay in parts for a basket above 40 000 ₽ with the reason', async () => {
    const outside = await offerPriced(false);
    const who = await customer();
    const answer = await getJson(api(), '/api/catalog/order.php', CheckoutOrderResponse, {
      init: postForm(courierForm(who.token, outside.ids, { payment_id: '10' })),
    });
    expect(answer.success).toBe(false);
    if (!answer.success) expect(answer.data.payment_id).toMatch(/от 500 до 40 000 ₽/);
  });

  it('places an instalment order awaiting payment with its hold, and gives only its owner the link', async () => {
    const o = await instalmentOrder('10');
    const row = await orderRow(o.orderId);
    expect(row.status).toBe('awaiting_payment');
    expect(row.payUntil).not.toBeNull();
    const stranger = await customer();
    const answer = await link(stranger.token, o.orderId);
    expect('error' in answer && answer.status).toBe('not_found');
    const first = await linkOf(o.token, o.orderId);
    // A reload reuses the open attempt.
    expect(await linkOf(o.token, o.orderId)).toBe(first);
  });
});

describe('Dolyami', () => {
  it('approve: the callback is confirmed with info, committed, and the order paid once', async () => {
    const o = await instalmentOrder('10');
    const l = await linkOf(o.token, o.orderId);
    expect(l).toContain('/api/dolyami/offline/pay/');
    const to = await decide(l, 'approve');
    expect(to).toBe(`/basket/submited/cloud-payments/?order=${o.orderId}`);
    const row = await orderRow(o.orderId);
    expect(row.status).toBe('new');
    expect(row.paidKopecks).toBe(o.totalKopecks);
    expect(row.paymentTransactionId).toBe(attemptOf(l));
    expect(await paidEvents(o.orderId)).toHaveLength(1);
    expect((await history(o.orderId)).map((h) => h.note)).toContain('Оплачен частями через Долями');
    // A replayed callback changes nothing.
    const replay = await fetch(`${api()}/api/dolyami/offline/replay/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: attemptOf(l) }),
    });
    expect(replay.status).toBe(200);
    expect(await dolyamiCallback({ id: attemptOf(l), status: 'committed', amount: o.totalKopecks / 100 })).toBe(200);
    expect(await paidEvents(o.orderId)).toHaveLength(1);
    expect((await orderRow(o.orderId)).paidAt?.getTime()).toBe(row.paidAt?.getTime());
  });

  it('decline: the order keeps waiting and a new attempt can start', async () => {
    const o = await instalmentOrder('10');
    const l = await linkOf(o.token, o.orderId);
    expect(await decide(l, 'decline')).toBe(`/basket/bad/?order=${o.orderId}`);
    const row = await orderRow(o.orderId);
    expect(row.status).toBe('awaiting_payment');
    expect(row.paidAt).toBeNull();
    const next = await linkOf(o.token, o.orderId);
    expect(attemptOf(next)).toBe(`${o.orderId}-2`);
  });

  it('a forged callback saying committed changes nothing: Dolyami is asked and says new', async () => {
    const o = await instalmentOrder('10');
    const l = await linkOf(o.token, o.orderId);
    expect(await dolyamiCallback({ id: attemptOf(l), status: 'committed', amount: o.totalKopecks / 100 })).toBe(200);
    expect(await dolyamiCallback({ id: `${o.orderId}-99`, status: 'committed', amount: o.totalKopecks / 100 })).toBe(
      200,
    );
    expect(await dolyamiCallback({ status: 'committed' })).toBe(400);
    const row = await orderRow(o.orderId);
    expect(row.status).toBe('awaiting_payment');
    expect(await paidEvents(o.orderId)).toHaveLength(0);
  });
});

describe('Yandex Split', () => {
  it('approve: the signed webhook is verified, confirmed with GET /orders, and the order paid once', async () => {
    const o = await instalmentOrder('11');
    const l = await linkOf(o.token, o.orderId);
    expect(l).toContain('/api/yandex-split/offline/pay/');
    expect(await decide(l, 'approve')).toBe(`/basket/submited/cloud-payments/?order=${o.orderId}`);
    const row = await orderRow(o.orderId);
    expect(row.status).toBe('new');
    expect(row.paidKopecks).toBe(o.totalKopecks);
    expect((await history(o.orderId)).map((h) => h.note)).toContain('Оплачен частями через Яндекс Сплит');
    const replay = await fetch(`${api()}/api/yandex-split/offline/replay/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: attemptOf(l) }),
    });
    expect(replay.status).toBe(200);
    expect(await paidEvents(o.orderId)).toHaveLength(1);
  });

  it('decline: FAILED keeps the order waiting; then the shopper switches to card', async () => {
    const o = await instalmentOrder('11');
    const l = await linkOf(o.token, o.orderId);
    expect(await decide(l, 'decline')).toBe(`/basket/bad/?order=${o.orderId}`);
    expect((await orderRow(o.orderId)).status).toBe('awaiting_payment');
    const fails = await db()
      .select()
      .from(paymentEvents)
      .where(and(eq(paymentEvents.orderId, o.orderId), eq(paymentEvents.kind, 'fail')));
    expect(fails.map((f) => f.outcome)).toEqual(['declined:FAILED']);
    // Then card: the method changes while the order waits, and the card widget's parameters follow.
    const changed = await getJson(api(), '/api/catalog/change_payment.php', ChangePaymentResponse, {
      init: postForm({ token: o.token, order_id: String(o.orderId), payment_id: '9' }),
    });
    expect(changed).toEqual({ success: true });
    expect((await orderRow(o.orderId)).paymentId).toBe('9');
    const params = await getJson(api(), '/api/catalog/payment_params.php', PaymentParamsResponse, {
      init: postForm({ token: o.token, order_id: String(o.orderId) }),
    });
    expect('payment' in params && params.payment.params.amount).toBe(o.totalKopecks / 100);
    const refused = await getJson(api(), '/api/catalog/change_payment.php', ChangePaymentResponse, {
      init: postForm({ token: o.token, order_id: String(o.orderId), payment_id: '1' }),
    });
    expect(refused.success).toBe(false);
  });

  it('forged, unsigned, expired or foreign-merchant webhooks are refused with 403 and change nothing', async () => {
    const o = await instalmentOrder('11');
    const l = await linkOf(o.token, o.orderId);
    const claims = {
      merchantId: OFFLINE_SPLIT_MERCHANT_ID,
      event: 'ORDER_STATUS_UPDATED',
      order: { orderId: attemptOf(l), paymentStatus: 'CAPTURED' },
    };
    const forged = await splitWebhook(await forgedJwt(claims));
    expect(forged).toEqual({ status: 403, body: { reasonCode: 'FORBIDDEN', reason: 'bad token' } });
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`;
    expect((await splitWebhook(unsigned)).status).toBe(403);
    expect((await splitWebhook('not a token')).status).toBe(403);
    expect((await orderRow(o.orderId)).status).toBe('awaiting_payment');
    expect(await paidEvents(o.orderId)).toHaveLength(0);
  });
});

describe('two callbacks at once', () => {
  it('pay an order once (Dolyami: both try to commit; one wins, the other reads committed)', async () => {
    const o = await instalmentOrder('10');
    const l = await linkOf(o.token, o.orderId);
    // Approved at Dolyami with no callback yet (wait_for_commit); then three callbacks together.
    await decide(l, 'approve', false);
    expect((await orderRow(o.orderId)).status).toBe('awaiting_payment');
    const again = await Promise.all(
      [1, 2, 3].map(() => dolyamiCallback({ id: attemptOf(l), status: 'wait_for_commit' })),
    );
    expect(again.every((s) => s === 200)).toBe(true);
    expect(await paidEvents(o.orderId)).toHaveLength(1);
    expect((await history(o.orderId)).filter((h) => h.status === 'new')).toHaveLength(1);
  });

  it('a lost callback: success_payment_order.php asks the provider and settles it (Yandex Split too), only for the owner', async () => {
    for (const paymentId of ['10', '11'] as const) {
      const o = await instalmentOrder(paymentId);
      const l = await linkOf(o.token, o.orderId);
      await decide(l, 'approve', false);
      const status = (token?: string) =>
        getJson(
          api(),
          `/api/catalog/success_payment_order.php?${new URLSearchParams({ order_id: String(o.orderId), payment_num: '1', ...(token ? { token } : {}) })}`,
          PaymentStatusResponse,
        );
      expect(await status()).toMatchObject({ paid: false, status: 'unknown' });
      expect(await status(o.token)).toMatchObject({ order_id: o.orderId, paid: true, status: 'new' });
      expect(await paidEvents(o.orderId)).toHaveLength(1);
    }
  });

  it('a lost callback: the pay page asking for the link again settles the approved attempt instead of opening a second', async () => {
    const o = await instalmentOrder('10');
    const l = await linkOf(o.token, o.orderId);
    await decide(l, 'approve', false);
    const again = await link(o.token, o.orderId);
    expect(again).toEqual({ error: 'Заказ уже оплачен', status: 'paid' });
    expect((await orderRow(o.orderId)).status).toBe('new');
    expect(await paidEvents(o.orderId)).toHaveLength(1);
  });
});
