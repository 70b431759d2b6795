import { randomBytes } from 'node:crypto';
import { and, eq, isNotNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  bonusLots,
  bonusMoves,
  certificateMoves,
  giftCertificates,
  offers,
  orderItems,
  orders,
  products,
} from '~/db/schema';
import { CERTIFICATE_TEXT, formatCertificateCode, newCertificateCode } from '~/core/gift-certificates';
import { LOYALTY_TEXT } from '~/core/loyalty';
import { MOSCOW_COURIER_PRICE_KOPECKS } from '~/core/delivery';
import {
  CheckoutOrderResponse,
  OrderBonusesResponse,
  OrderParamsResponse,
  PaymentParamsResponse,
} from '~/shared/contract';
import { orderJobHandlers } from '~/models/order-jobs.server';
import { createOfflineSms } from '~/integrations/sms/offline.server';
import { createOfflineCloudPayments } from '~/integrations/cloudpayments/offline.server';
import { getJson, postForm } from '~/tests/support/api';
import { courierForm, offerPicker, payByCard } from '~/tests/support/checkout';
import { setUpTestShop } from '~/tests/support/server';
import { customerMaker } from '~/tests/support/session';
import path from 'node:path';

// Gift certificates and bonuses at checkout (content/pages/podarochnye-sertifikaty.md,
// loyalty.md) over HTTP, on PGlite or (TEST_DATABASE_URL) PostgreSQL: what they take off, what
// the provider is then asked for, what is given back when an unpaid order is released, and the
// same certificate or bonuses spent by two orders at once.

const shop = setUpTestShop();
const db = () => shop.database.db;
const api = () => `${shop.baseUrl}/backend`;
const DELIVERY = MOSCOW_COURIER_PRICE_KOPECKS;

const freshOffer = offerPicker(shop);
const customer = customerMaker(shop, '7998');

async function certificate(balanceKopecks: number, expiresAt = new Date(Date.now() + 86_400_000 * 300)) {
  const code = newCertificateCode((n) => randomBytes(n));
  const [row] = await db()
    .insert(giftCertificates)
    .values({
      code,
      kind: 'electronic',
      nominalKopecks: Math.max(balanceKopecks, 500_000),
      balanceKopecks,
      issueKey: `test:${code}`,
      expiresAt,
    })
    .returning({ id: giftCertificates.id });
  return { code, id: (row as { id: number }).id };
}

async function balanceOf(id: number): Promise<number> {
  const [row] = await db()
    .select({ b: giftCertificates.balanceKopecks })
    .from(giftCertificates)
    .where(eq(giftCertificates.id, id));
  return row?.b ?? -1;
}

async function giveBonuses(customerId: number, kopecks: number) {
  const now = new Date();
  const [lot] = await db()
    .insert(bonusLots)
    .values({
      customerId,
      kind: 'manual',
      lotKey: `test:${Math.random()}`,
      amountKopecks: kopecks,
      remainingKopecks: kopecks,
      availableFrom: new Date(now.getTime() - 1000),
      expiresAt: new Date(now.getTime() + 86_400_000 * 100),
    })
    .returning({ id: bonusLots.id });
  return (lot as { id: number }).id;
}

async function lotRemaining(id: number): Promise<number> {
  const [row] = await db().select({ r: bonusLots.remainingKopecks }).from(bonusLots).where(eq(bonusLots.id, id));
  return row?.r ?? -1;
}

const postOrder = (fields: Record<string, string>) =>
  getJson(api(), '/api/catalog/order.php', CheckoutOrderResponse, { init: postForm(fields) });

async function orderRow(id: number) {
  const [row] = await db().select().from(orders).where(eq(orders.id, id));
  if (!row) throw new Error(`no order ${id}`);
  return row;
}

describe('gift certificates at checkout', () => {
  it('take their part off; the card is asked only for the rest, with the certificate as the receipt advance', async () => {
    const offer = await freshOffer({ min: 600_000 });
    const cert = await certificate(500_000);
    const { token } = await customer();
    const answer = await postOrder(
      courierForm(token, `${offer.id}:1`, { payment_id: '9', certificates: formatCertificateCode(cert.code) }),
    );
    if (!answer.success) throw new Error(JSON.stringify(answer.data));
    const due = offer.price + DELIVERY - 500_000;
    expect(answer.pay_amount).toBe(due / 100);
    expect(answer.status).toBe('awaiting_payment');
    expect(await balanceOf(cert.id)).toBe(0);
    const row = await orderRow(answer.order_id);
    expect(row).toMatchObject({ totalKopecks: offer.price + DELIVERY, certificateKopecks: 500_000 });

    const params = await getJson(api(), '/api/catalog/payment_params.php', PaymentParamsResponse, {
      init: postForm({ token, order_id: String(answer.order_id) }),
    });
    if (!('payment' in params)) throw new Error(params.error);
    const receipt = params.payment.params.data.CloudPayments.CustomerReceipt;
    expect(params.payment.params.amount).toBe(due / 100);
    expect(receipt.amounts).toEqual({ electronic: due / 100, advancePayment: 5000 });
    const itemsKopecks = receipt.Items.reduce((sum, i) => sum + Math.round(i.amount * 100), 0);
    expect(itemsKopecks).toBe(offer.price + DELIVERY);

    await payByCard(api(), token, answer.order_id);
    expect(await orderRow(answer.order_id)).toMatchObject({ status: 'new', paidKopecks: due });
  });

  it('an order they pay in full is placed paid, with no payment to wait for; the rest stays on the certificate', async () => {
    const offer = await freshOffer({ min: 100_000, max: 4_000_000 });
    const cert = await certificate(5_000_000);
    const { token } = await customer();
    const answer = await postOrder(courierForm(token, `${offer.id}:1`, { payment_id: '9', certificates: cert.code }));
    if (!answer.success) throw new Error(JSON.stringify(answer.data));
    expect(answer).toMatchObject({ pay_amount: 0, status: 'new' });
    const row = await orderRow(answer.order_id);
    expect(row.paidAt).not.toBeNull();
    expect(row.payUntil).toBeNull();
    expect(await balanceOf(cert.id)).toBe(5_000_000 - offer.price - DELIVERY);
  });

  it('are refused in Russian when mistyped, unknown, expired or not needed, and nothing is placed', async () => {
    const offer = await freshOffer({ min: 100_000, max: 4_000_000 });
    const { token } = await customer();
    const form = (certificates: string) => courierForm(token, `${offer.id}:1`, { certificates });
    const bad = await postOrder(form('1234'));
    expect(bad).toEqual({ success: false, data: { certificates: CERTIFICATE_TEXT.badCode } });
    const unknown = newCertificateCode((n) => randomBytes(n));
    const notFound = await postOrder(form(unknown));
    expect(notFound).toEqual({
      success: false,
      data: { certificates: `${formatCertificateCode(unknown)}: ${CERTIFICATE_TEXT.notFound}` },
    });
    const old = await certificate(500_000, new Date(Date.now() - 1000));
    const expired = await postOrder(form(old.code));
    expect(expired.success).toBe(false);
    expect(!expired.success && expired.data.certificates).toMatch(/Срок действия сертификата истёк/);
    const [a, b] = [await certificate(5_000_000), await certificate(500_000)];
    const extra = await postOrder(form(`${a.code},${b.code}`));
    expect(extra).toEqual({
      success: false,
      data: { certificates: `${formatCertificateCode(b.code)}: ${CERTIFICATE_TEXT.nothingToPay}` },
    });
    expect(await balanceOf(a.id)).toBe(5_000_000);
    // Nothing was placed: the stock is whole.
    const [stock] = await db().select({ q: offers.quantity }).from(offers).where(eq(offers.id, offer.id));
    expect(stock?.q).toBe(5);
  });

  it('one certificate spent by two orders at once pays only once, and never goes below zero', async () => {
    const [o1, o2] = [await freshOffer({ min: 600_000 }), await freshOffer({ min: 600_000 })];
    const cert = await certificate(500_000);
    const [c1, c2] = [await customer(), await customer()];
    const answers = await Promise.all([
      postOrder(courierForm(c1.token, `${o1.id}:1`, { certificates: cert.code })),
      postOrder(courierForm(c2.token, `${o2.id}:1`, { certificates: cert.code })),
    ]);
    const ok = answers.filter((a) => a.success);
    expect(ok).toHaveLength(1);
    const refused = answers.find((a) => !a.success);
    expect(refused && !refused.success && refused.data.certificates).toBe(
      `${formatCertificateCode(cert.code)}: ${CERTIFICATE_TEXT.empty}`,
    );
    expect(await balanceOf(cert.id)).toBe(0);
    const redeemed = await db()
      .select()
      .from(certificateMoves)
      .where(and(eq(certificateMoves.certificateId, cert.id), eq(certificateMoves.kind, 'redeem')));
    expect(redeemed).toHaveLength(1);
    // The refused order kept nothing: its stock is whole.
    const refusedOffer = answers[0]?.success ? o2 : o1;
    const [stock] = await db().select({ q: offers.quantity }).from(offers).where(eq(offers.id, refusedOffer.id));
    expect(stock?.q).toBe(5);
  });

  it('cannot pay for another gift certificate (a plastic one, delivered), which is paid online only', async () => {
    const [certOffer] = await db()
      .select({ id: offers.id })
      .from(offers)
      .innerJoin(products, eq(products.id, offers.productId))
      .where(and(eq(products.certificate, 'plastic'), eq(products.active, true)))
      .limit(1);
    if (!certOffer) throw new Error('the seed has no certificate products');
    const cert = await certificate(5_000_000);
    const { token } = await customer();
    const cash = await postOrder(courierForm(token, `${certOffer.id}:1`));
    expect(cash).toEqual({ success: false, data: { payment_id: CERTIFICATE_TEXT.onlineOnly } });
    const withCert = await postOrder(
      courierForm(token, `${certOffer.id}:1`, { payment_id: '9', certificates: cert.code }),
    );
    // Only the delivery is left for a certificate to pay: it pays that, never the certificate line.
    if (!withCert.success) throw new Error(JSON.stringify(withCert.data));
    const row = await orderRow(withCert.order_id);
    expect(row.certificateKopecks).toBe(DELIVERY);
    expect(row.totalKopecks - row.certificateKopecks).toBeGreaterThanOrEqual(500_000);
  });
});

describe('electronic gift certificates only', () => {
  it('go by e-mail: no delivery to choose or pay for, no address, paid online only', async () => {
    const [certOffer] = await db()
      .select({ id: offers.id, price: offers.priceKopecks })
      .from(offers)
      .innerJoin(products, eq(products.id, offers.productId))
      .where(and(eq(products.certificate, 'electronic'), eq(products.active, true)))
      .limit(1);
    if (!certOffer) throw new Error('the seed has no certificate products');
    const params = await getJson(
      api(),
      `/api/catalog/get_order_params.php?${new URLSearchParams({ city: 'Казань', ids: `${certOffer.id}:1` })}`,
      OrderParamsResponse,
    );
    expect(params.delivery_methods.map((m) => [m.ID, m.MODE, m.PRICE])).toEqual([['300', 'email', 0]]);
    expect(params.payment_methods.map((p) => p.ID)).toEqual(['9', '10', '11']);
    const { token } = await customer();
    const answer = await postOrder(
      courierForm(token, `${certOffer.id}:1`, {
        city: 'Казань',
        delivery_id: '300',
        street: '',
        house: '',
        flat: '',
        payment_id: '9',
        deliverycost: '0',
      }),
    );
    if (!answer.success) throw new Error(JSON.stringify(answer.data));
    expect(answer.pay_amount).toBe(certOffer.price / 100);
    expect(await orderRow(answer.order_id)).toMatchObject({
      deliveryId: '300',
      deliveryCostKopecks: 0,
      status: 'awaiting_payment',
    });
    // A garment in the basket brings the usual delivery back.
    const mixed = await getJson(
      api(),
      `/api/catalog/get_order_params.php?${new URLSearchParams({ city: 'Москва', ids: `${certOffer.id}:1,${(await freshOffer()).id}:1` })}`,
      OrderParamsResponse,
    );
    expect(mixed.delivery_methods.map((m) => m.ID)).toEqual(['1', '139', '137']);
  });
});

describe('bonuses at checkout', () => {
  it('order_bonuses.php tells the balance and the most this basket takes (20 % of full-price goods)', async () => {
    const offer = await freshOffer({ min: 1_000_000 });
    const { token, customerId } = await customer();
    await giveBonuses(customerId, 5_000_000);
    const answer = await getJson(api(), '/api/catalog/order_bonuses.php', OrderBonusesResponse, {
      init: postForm({ token, ids: `${offer.id}:1` }),
    });
    expect(answer).toEqual({ balance: 50_000, max: Math.floor((offer.price * 0.2) / 100), note: null });
    const res = await fetch(`${api()}/api/catalog/order_bonuses.php`, {
      method: 'POST',
      body: new URLSearchParams({ ids: `${offer.id}:1` }),
    });
    expect(res.status).toBe(401);
  });

  it('are spent as a discount spread over the lines, from the lot, within the cap', async () => {
    const offer = await freshOffer({ min: 1_000_000 });
    const { token, customerId } = await customer();
    const lot = await giveBonuses(customerId, 300_000);
    const over = await postOrder(
      courierForm(token, `${offer.id}:1`, { bonuses: String(Math.floor((offer.price * 0.2) / 100) + 100) }),
    );
    expect(over.success).toBe(false);
    expect(!over.success && over.data.bonuses).toMatch(/^Бонусами можно оплатить не больше/);
    // 2 000 bonuses fit: the offer costs 10 000 ₽ or more, so its cap is 2 000 or more.
    const spent = await postOrder(courierForm(token, `${offer.id}:1`, { bonuses: '2000' }));
    if (!spent.success) throw new Error(JSON.stringify(spent.data));
    expect(spent.pay_amount).toBe((offer.price - 200_000 + DELIVERY) / 100);
    expect(await orderRow(spent.order_id)).toMatchObject({
      bonusKopecks: 200_000,
      totalKopecks: offer.price - 200_000 + DELIVERY,
    });
    const lines = await db()
      .select({ b: orderItems.bonusKopecks })
      .from(orderItems)
      .where(eq(orderItems.orderId, spent.order_id));
    expect(lines.reduce((sum, l) => sum + l.b, 0)).toBe(200_000);
    expect(await lotRemaining(lot)).toBe(100_000);
    const junk = await postOrder(courierForm(token, `${offer.id}:1`, { bonuses: '12.5' }));
    expect(junk).toEqual({ success: false, data: { bonuses: LOYALTY_TEXT.badAmount } });
  });

  it('the same bonuses spent by two orders at once are spent once', async () => {
    const [o1, o2] = [await freshOffer({ min: 1_000_000 }), await freshOffer({ min: 1_000_000 })];
    const { token, customerId } = await customer();
    const lot = await giveBonuses(customerId, 100_000);
    const answers = await Promise.all([
      postOrder(courierForm(token, `${o1.id}:1`, { bonuses: '1000' })),
      postOrder(courierForm(token, `${o2.id}:1`, { bonuses: '1000' })),
    ]);
    expect(answers.filter((a) => a.success)).toHaveLength(1);
    const refused = answers.find((a) => !a.success);
    expect(refused && !refused.success && refused.data.bonuses).toBe(LOYALTY_TEXT.overBalance(0));
    expect(await lotRemaining(lot)).toBe(0);
    const spends = await db()
      .select()
      .from(bonusMoves)
      .where(and(eq(bonusMoves.customerId, customerId), eq(bonusMoves.kind, 'spend')));
    expect(spends).toHaveLength(1);
  });
});

describe('an unpaid order released', () => {
  it('gives its certificates and bonuses back, once', async () => {
    const offer = await freshOffer({ min: 1_000_000 });
    const cert = await certificate(100_000);
    const { token, customerId } = await customer();
    const lot = await giveBonuses(customerId, 100_000);
    const answer = await postOrder(
      courierForm(token, `${offer.id}:1`, { payment_id: '9', bonuses: '1000', certificates: cert.code }),
    );
    if (!answer.success) throw new Error(JSON.stringify(answer.data));
    expect(await balanceOf(cert.id)).toBe(0);
    expect(await lotRemaining(lot)).toBe(0);
    await db()
      .update(orders)
      .set({ payUntil: new Date(Date.now() - 1000) })
      .where(eq(orders.id, answer.order_id));
    const outbox = path.join(shop.dataDir, 'outbox');
    const handlers = orderJobHandlers({
      db: db(),
      sms: createOfflineSms({ outboxDir: outbox }),
      mail: null as never,
      cdek: null as never,
      fromCityCode: 44,
      siteUrl: 'http://shop.test',
      payments: createOfflineCloudPayments({ publicId: 'test', apiSecret: 'x', outboxDir: outbox }),
    });
    await Promise.all([
      handlers['order.release']!({ orderId: answer.order_id }),
      handlers['order.release']!({ orderId: answer.order_id }),
    ]);
    expect((await orderRow(answer.order_id)).status).toBe('cancelled');
    expect(await balanceOf(cert.id)).toBe(100_000);
    expect(await lotRemaining(lot)).toBe(100_000);
    const releases = await db()
      .select()
      .from(bonusMoves)
      .where(and(eq(bonusMoves.orderId, answer.order_id), eq(bonusMoves.kind, 'release'), isNotNull(bonusMoves.lotId)));
    expect(releases).toHaveLength(1);
  });
});
