import fs from 'node:fs';
import path from 'node:path';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { jobs, offers, orders, products } from '~/db/schema';
import { GIFT_COVER_OFFER_ID } from '~/core/basket';
import { placeOrder } from '~/models/orders.server';
import { moscowClock } from '~/core/payment-notice';
import { CartResponse, CheckoutOrderResponse, OrdersResponse, OrderToCartResponse } from '~/shared/contract';
import { CLOUDPAYMENTS_SECRET_FILE } from '~/integrations/cloudpayments/index.server';
import { createOfflineCloudPayments } from '~/integrations/cloudpayments/offline.server';
import { createOfflineSms, readSmsOutbox } from '~/integrations/sms/offline.server';
import { createOfflineMail, readMailOutbox } from '~/integrations/mail/offline.server';
import { orderJobHandlers } from '~/models/order-jobs.server';
import { eventually, getJson, postForm } from '~/tests/support/api';
import { courierForm, offerPicker } from '~/tests/support/checkout';
import { setUpTestShop } from '~/tests/support/server';
import { setStock } from '~/tests/support/stock';
import { customerMaker } from '~/tests/support/session';

// Issue #26 item 4: an order awaiting online payment gets its pay link at once (SMS and letter),
// a reminder before its hold ends, and a notice when the release cancels it, with its lines
// offered back in the basket. Time-based steps run with an injected clock (the job handlers'
// `now`), never by waiting; messages due now are sent by the test shop's own job worker.

const shop = setUpTestShop();
const db = () => shop.database.db;
const api = () => `${shop.baseUrl}/backend`;
const outbox = () => path.join(shop.dataDir, 'outbox');
const SITE = 'http://shop.test';

const freshOffer = offerPicker(shop);
const customer = customerMaker(shop, '7997');
let seq = 0;
const repeatUsed = new Set<number>();

/** An online order awaiting payment, placed through order.php by a customer of its own phone and e-mail. */
async function awaitingOrder(paymentId = '9') {
  const offer = await freshOffer({ quantity: 5 });
  const who = await customer();
  seq += 1;
  const phone = `7997${String(process.pid % 1000).padStart(3, '0')}${String(900 + seq).padStart(4, '0')}`;
  const email = `pay-notice-${process.pid}-${seq}@example.com`;
  const answer = await getJson(api(), '/api/catalog/order.php', CheckoutOrderResponse, {
    init: postForm(courierForm(who.token, `${offer.id}:2`, { payment_id: paymentId, phone: `+${phone}`, email })),
  });
  if (!answer.success) throw new Error(JSON.stringify(answer.data));
  expect(answer.status).toBe('awaiting_payment');
  const [row] = await db().select().from(orders).where(eq(orders.id, answer.order_id));
  return {
    ...who,
    offer,
    phone,
    email,
    orderId: answer.order_id,
    payUntil: row!.payUntil as Date,
    placedAt: row!.createdAt,
  };
}

const jobsOf = (orderId: number) =>
  db()
    .select()
    .from(jobs)
    .where(sql`${jobs.payload}->>'orderId' = ${String(orderId)}`);

/** The job handlers as the server builds them, reading the clock given. */
function handlers(now: Date) {
  const secret = fs.readFileSync(path.join(shop.dataDir, CLOUDPAYMENTS_SECRET_FILE), 'utf8').trim();
  return orderJobHandlers({
    db: db(),
    sms: createOfflineSms({ outboxDir: outbox() }),
    mail: createOfflineMail({ outboxDir: outbox(), from: 'shop@example.com' }),
    cdek: null as never,
    fromCityCode: 44,
    siteUrl: SITE,
    payments: createOfflineCloudPayments({ publicId: 'test', apiSecret: secret, outboxDir: outbox() }),
    now: () => now,
  });
}

const smsTo = async (phone: string, tag: string) =>
  (await readSmsOutbox(outbox())).filter((m) => m.phone === phone && m.tag === tag);
const mailTo = async (to: string, tag: string) =>
  (await readMailOutbox(outbox())).filter((m) => m.to === to && m.tag === tag);

describe('an order awaiting payment: the pay link, the reminder, the cancellation notice', () => {
  it('sends the pay link by SMS and letter right after placing, and schedules the reminder before the hold ends', async () => {
    const o = await awaitingOrder();
    const link = `${SITE}/basket/pay/?order=${o.orderId}`;
    const [sms] = await eventually(async () => {
      const sent = await smsTo(o.phone, 'order-awaiting-payment');
      return sent.length ? sent : null;
    }, 'the awaiting-payment SMS');
    expect(sms!.text).toContain(`заказ №${o.orderId}`);
    expect(sms!.text).toContain(`до ${moscowClock(o.payUntil)} мск`);
    expect(sms!.text).toContain(link);
    const [letter] = await eventually(async () => {
      const sent = await mailTo(o.email, 'order-awaiting-payment');
      return sent.length ? sent : null;
    }, 'the awaiting-payment letter');
    expect(letter!.subject).toBe(`Заказ №${o.orderId} оформлен и ждёт оплаты`);
    expect(letter!.text).toContain(`Оплатить заказ: ${link}`);
    expect(letter!.text).toContain(`до ${moscowClock(o.payUntil)} по Москве`);
    expect(letter!.html).toContain(`href="${link}"`);
    // No personal data in the link: the order number only (the pay page asks its customer to log in).
    expect(link).not.toContain(o.phone);

    const kinds = await jobsOf(o.orderId);
    const reminder = kinds.find((j) => j.kind === 'order.payment_reminder');
    expect(reminder?.runAt.getTime()).toBe(o.payUntil.getTime() - 10 * 60_000);
    expect(kinds.find((j) => j.kind === 'order.release')?.runAt.getTime()).toBe(o.payUntil.getTime());
  });

  it('pay in parts gets the same pay link', async () => {
    const o = await awaitingOrder('10');
    const [sms] = await eventually(async () => {
      const sent = await smsTo(o.phone, 'order-awaiting-payment');
      return sent.length ? sent : null;
    }, 'the awaiting-payment SMS');
    expect(sms!.text).toContain(`${SITE}/basket/pay/?order=${o.orderId}`);
  });

  it('reminds before the hold ends (clock moved to the reminder), and not once the order is paid', async () => {
    const o = await awaitingOrder();
    const at = new Date(o.payUntil.getTime() - 10 * 60_000);
    await handlers(at)['order.payment_reminder']!({ orderId: o.orderId });
    const [sms] = await smsTo(o.phone, 'order-payment-reminder');
    expect(sms?.text).toBe(
      `Vitrina: заказ №${o.orderId} ждёт оплаты ещё 10 мин, до ${moscowClock(o.payUntil)} мск. Оплатить: ${SITE}/basket/pay/?order=${o.orderId}`,
    );
    const [letter] = await mailTo(o.email, 'order-payment-reminder');
    expect(letter?.text).toContain(`осталось 10 мин`);
    expect(letter?.html).toContain(`href="${SITE}/basket/pay/?order=${o.orderId}"`);

    // Paid meanwhile (the paid transition is tested in payments.test.ts): nothing more is sent.
    const paid = await awaitingOrder();
    await db().update(orders).set({ status: 'new', paidAt: new Date() }).where(eq(orders.id, paid.orderId));
    await handlers(at)['order.payment_reminder']!({ orderId: paid.orderId });
    expect(await smsTo(paid.phone, 'order-payment-reminder')).toEqual([]);
    // Too late (the hold ended): no reminder either.
    const late = await awaitingOrder();
    await handlers(new Date(late.payUntil.getTime() + 1000))['order.payment_reminder']!({ orderId: late.orderId });
    expect(await smsTo(late.phone, 'order-payment-reminder')).toEqual([]);
  });

  it('tells the customer when the release cancels the order, with a link that puts the lines back in the basket', async () => {
    const o = await awaitingOrder();
    // Not due yet on the injected clock: the release waits.
    await expect(
      handlers(new Date(o.payUntil.getTime() - 1000))['order.release']!({ orderId: o.orderId }),
    ).rejects.toThrow(/still has time/);
    await handlers(new Date(o.payUntil.getTime() + 1000))['order.release']!({ orderId: o.orderId });
    const [row] = await db().select().from(orders).where(eq(orders.id, o.orderId));
    expect(row?.status).toBe('cancelled');
    const repeat = `${SITE}/basket/repeat/?order=${o.orderId}`;
    const [sms] = await eventually(async () => {
      const sent = await smsTo(o.phone, 'order-payment-expired');
      return sent.length ? sent : null;
    }, 'the cancellation SMS');
    expect(sms!.text).toBe(
      `Vitrina: время на оплату заказа №${o.orderId} истекло, заказ отменён. Вернуть вещи в корзину: ${repeat}`,
    );
    const [letter] = await eventually(async () => {
      const sent = await mailTo(o.email, 'order-payment-expired');
      return sent.length ? sent : null;
    }, 'the cancellation letter');
    expect(letter!.subject).toBe(`Заказ №${o.orderId} отменён: время на оплату истекло`);
    expect(letter!.html).toContain(`href="${repeat}"`);
    // Sent once: the job is done.
    const [job] = (await jobsOf(o.orderId)).filter((j) => j.kind === 'order.payment_expired');
    expect(job?.doneAt).not.toBeNull();
  });
});

describe('orders.php and order_to_cart.php', () => {
  it('gives an order awaiting payment its PAY_UNTIL, and none once it is cancelled', async () => {
    const o = await awaitingOrder();
    const list = async () =>
      (
        await getJson(api(), '/api/personal/orders.php', OrdersResponse, { init: postForm({ token: o.token }) })
      ).value.orders.find((x) => x.ID === o.orderId);
    expect((await list())?.PAY_UNTIL).toBe(o.payUntil.toISOString());
    await handlers(new Date(o.payUntil.getTime() + 1000))['order.release']!({ orderId: o.orderId });
    expect((await list())?.PAY_UNTIL).toBeNull();
  });

  it("puts a cancelled order's lines back in its customer's basket, and refuses another customer and an order still awaiting payment", async () => {
    const o = await awaitingOrder();
    const toCart = (token: string, orderId: number) =>
      getJson(api(), '/api/personal/order_to_cart.php', OrderToCartResponse, {
        init: postForm({ token, order_id: String(orderId) }),
      });
    // Still awaiting payment: pay it instead.
    expect(await toCart(o.token, o.orderId)).toEqual({ error: 'Заказ не найден' });
    await handlers(new Date(o.payUntil.getTime() + 1000))['order.release']!({ orderId: o.orderId });
    const other = await customer();
    expect(await toCart(other.token, o.orderId)).toEqual({ error: 'Заказ не найден' });
    const otherBasket = await getJson(api(), '/api/personal/get_cart.php', CartResponse, {
      init: postForm({ token: other.token }),
    });
    expect(otherBasket.cart).toBe('');

    const answer = await toCart(o.token, o.orderId);
    if ('error' in answer) throw new Error(answer.error);
    expect(answer.cart).toBe(`${o.offer.id}:2`);
    expect(answer.items.find((i) => i.ID === o.offer.id)?.QUANTITY).toBe(2);
    // Saved on the server: the next basket load (any device) has it.
    const saved = await getJson(api(), '/api/personal/get_cart.php', CartResponse, {
      init: postForm({ token: o.token }),
    });
    expect(saved.cart).toBe(`${o.offer.id}:2`);
    expect(saved.cart_rev).toBe(answer.cart_rev);

    const bad = await fetch(
      `${api()}/api/personal/order_to_cart.php`,
      postForm({ token: 'nonsense', order_id: String(o.orderId) }),
    );
    expect(bad.status).toBe(401);
    expect(await toCart(o.token, 0)).toEqual({ error: 'Заказ не найден' });
  });

  it('repeats any of its orders («Повторить заказ»): pre-orders as pre-orders while they can be, the coat with its gift cover', async () => {
    const who = await customer();
    const pick = async (coat: boolean) => {
      const rows = await db()
        .select({ id: offers.id, productId: offers.productId, name: products.name })
        .from(offers)
        .innerJoin(products, eq(products.id, offers.productId))
        .where(
          and(
            eq(products.active, true),
            isNull(products.certificate),
            sql`${offers.id} <> ${GIFT_COVER_OFFER_ID}`,
            sql`${offers.priceKopecks} > 0`,
          ),
        )
        // From the end of the catalogue: offerPicker takes from its start.
        .orderBy(desc(offers.id));
      const found = rows.find((r) => !repeatUsed.has(r.productId) && /пальто/i.test(r.name) === coat);
      if (!found) throw new Error('no offer left');
      repeatUsed.add(found.productId);
      return found;
    };
    const coat = await pick(true);
    const stillPreorder = await pick(false);
    const nowInStock = await pick(false);
    const noLonger = await pick(false);
    await setStock(db(), coat.id, 5, { preorder: false });
    for (const o of [stillPreorder, nowInStock, noLonger]) await setStock(db(), o.id, 0, { preorder: true });
    const placed = await placeOrder({
      db: db(),
      kind: 'checkout',
      customerId: who.customerId,
      phone: '79970000999',
      name: 'Вера Повторова',
      cart: [{ offerId: coat.id, quantity: 1 }],
      preorders: [stillPreorder, nowInStock, noLonger].map((o) => ({ offerId: o.id, quantity: 1 })),
    });
    if (!placed.ok) throw new Error(JSON.stringify(placed));
    await db().update(orders).set({ status: 'received' }).where(eq(orders.id, placed.orderId));
    // Since then: one pre-ordered size came in, another cannot be pre-ordered any more.
    await setStock(db(), nowInStock.id, 3, { preorder: false });
    await db().update(offers).set({ preorder: false }).where(eq(offers.id, noLonger.id));

    const answer = await getJson(api(), '/api/personal/order_to_cart.php', OrderToCartResponse, {
      init: postForm({ token: who.token, order_id: String(placed.orderId) }),
    });
    if ('error' in answer) throw new Error(answer.error);
    expect(answer.cart.split(',').sort()).toEqual([`${coat.id}:1`, `${nowInStock.id}:1`].sort());
    expect(answer.preorders).toBe(`${stillPreorder.id}:1`);
    const line = (id: number) => answer.items.find((i) => i.ID === id);
    expect(line(stillPreorder.id)?.IS_PREORDER).toBe('Y');
    expect(line(nowInStock.id)?.IS_PREORDER).toBe('N');
    expect(line(GIFT_COVER_OFFER_ID)).toMatchObject({ IS_GIFT: 'Y', QUANTITY: 1 });
    expect(line(noLonger.id)).toBeUndefined();
    expect(answer.errors.join(' ')).toContain('предзаказ недоступен');
    // Saved: the next basket load has them.
    const saved = await getJson(api(), '/api/personal/get_cart.php', CartResponse, {
      init: postForm({ token: who.token }),
    });
    expect(saved.preorders).toBe(`${stillPreorder.id}:1`);
    expect(saved.items.some((i) => i.ID === GIFT_COVER_OFFER_ID)).toBe(true);
  });
});
