import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { and, isNotNull } from 'drizzle-orm';
import { bonusLots, offers, orders, products } from '~/db/schema';
import { formatCertificateCode } from '~/core/gift-certificates';
import { formatRub } from '~/core/money';
import { MOSCOW_COURIER_PRICE_KOPECKS } from '~/core/delivery';
import { readSmsOutbox } from '~/integrations/sms/offline.server';
import { readMailOutbox } from '~/integrations/mail/offline.server';
import { StaffFittingResponse } from '~/api/staff/routes.server';
import { STAFF_TOKEN_FILE } from '~/server/secrets.server';
import { basketMoneyLines, checkoutMoney, moneyRows } from '~/core/order-money';
import {
  CartResponse,
  CertificateCheckResponse,
  CheckoutOrderResponse,
  DeliveryCostResponse,
  InstalmentLinkResponse,
  OrderBonusesResponse,
  OrderDetailResponse,
  OrdersResponse,
  PaymentParamsResponse,
  type OrderDetail,
  type PaymentReceipt,
} from '~/shared/contract';
import { eventually, fetchJson, getJson, postForm } from '~/tests/support/api';
import { courierForm, issueCertificate, offerPicker, payByCard } from '~/tests/support/checkout';
import { setUpTestShop } from '~/tests/support/server';
import { customerMaker } from '~/tests/support/session';

// Issue #26: one breakdown of an order's money, the same everywhere. Each order's checkout
// summary is worked out first as the storefront works it out (get_cart.php, getdeliverycost.php,
// order_bonuses.php, check_certificate.php into core/order-money.ts checkoutMoney). Orders are
// then placed over HTTP with every combination of promo or bonuses, a certificate paying a part or the whole,
// card, pay on receipt and pay in parts (Dolyami), then paid as the shopper would (the card
// stand-in, the Dolyami stand-in, the courier's fitting) and every place that shows or sends an
// amount is read: order.php's answer, order_detail.php (which the order pages render), the
// account's orders.php, the SMS and the letter, the card receipt, what the provider was asked for and
// what it charged, what the courier took. All must agree to the kopeck. On PGlite or
// (TEST_DATABASE_URL) PostgreSQL.

const shop = setUpTestShop();
const db = () => shop.database.db;
const api = () => `${shop.baseUrl}/backend`;
const outbox = () => path.join(shop.dataDir, 'outbox');
const DELIVERY = MOSCOW_COURIER_PRICE_KOPECKS;
const freshOffer = offerPicker(shop);
const customer = customerMaker(shop, '7996');
const nb = (s: string) => s.replace(/\u00a0/g, ' ');
const rub = (kopecks: number) => nb(formatRub(kopecks));
const kop = (roubles: number) => Math.round(roubles * 100);

async function giveBonuses(customerId: number, kopecks: number) {
  const now = Date.now();
  await db()
    .insert(bonusLots)
    .values({
      customerId,
      kind: 'manual',
      lotKey: `test:${Math.random()}`,
      amountKopecks: kopecks,
      remainingKopecks: kopecks,
      availableFrom: new Date(now - 1000),
      expiresAt: new Date(now + 86_400_000 * 100),
    });
}

const staffInit = (fields: Record<string, string>): RequestInit => ({
  method: 'POST',
  headers: {
    'content-type': 'application/x-www-form-urlencoded',
    authorization: `Bearer ${fs.readFileSync(path.join(shop.dataDir, STAFF_TOKEN_FILE), 'utf8').trim()}`,
  },
  body: new URLSearchParams(fields).toString(),
});

async function detailOf(token: string, orderId: number): Promise<OrderDetail> {
  const answer = await getJson(api(), '/api/personal/order_detail.php', OrderDetailResponse, {
    init: postForm({ token, order_id: String(orderId) }),
  });
  if (!('order' in answer)) throw new Error(answer.error);
  return answer.order;
}

/** CloudKassir's rules: each item's amount is price × quantity; the items make the total; the card pays the rest after the advance. */
function checkReceipt(receipt: PaymentReceipt, expected: { total: number; certificate: number; due: number }) {
  for (const item of receipt.Items) expect(kop(item.price) * item.quantity, item.label).toBe(kop(item.amount));
  expect(receipt.Items.reduce((s, i) => s + kop(i.amount), 0)).toBe(expected.total);
  expect(kop(receipt.amounts.electronic)).toBe(expected.due);
  expect(kop(receipt.amounts.advancePayment ?? 0)).toBe(expected.certificate);
}

/**
 * The checkout summary's rows before the order is placed, as the storefront's CheckoutForm gets
 * them: the server's basket, the quoted delivery, the bonuses it can take, the certificates'
 * balances, through checkoutMoney() and moneyRows().
 */
async function checkoutSummary(input: {
  token: string;
  ids: string;
  promo?: string;
  bonusKopecks: number;
  certificates: string[];
  paymentId: string;
  form: Record<string, string>;
}) {
  const body = { token: input.token, ids: input.ids, ...(input.promo ? { promo_code: input.promo } : {}) };
  const cart = await getJson(api(), '/api/personal/get_cart.php', CartResponse, { init: postForm(body) });
  const query = new URLSearchParams({
    'data[city]': input.form.city ?? '',
    delivery_id: input.form.delivery_id ?? '',
    ids: input.ids,
  });
  const cost = await getJson(api(), `/api/catalog/getdeliverycost.php?${query}`, DeliveryCostResponse);
  const bonuses = await getJson(api(), '/api/catalog/order_bonuses.php', OrderBonusesResponse, {
    init: postForm(body),
  });
  const balances: number[] = [];
  for (const code of input.certificates) {
    const checked = await getJson(api(), '/api/catalog/check_certificate.php', CertificateCheckResponse, {
      init: postForm({ code }),
    });
    if (!checked.success) throw new Error(checked.error);
    balances.push(kop(checked.balance));
  }
  const money = checkoutMoney({
    lines: basketMoneyLines(cart),
    deliveryKopecks: cost.deliverycost === null ? null : kop(cost.deliverycost),
    bonusKopecks: Math.min(input.bonusKopecks, kop(bonuses.max)),
    certificateBalancesKopecks: balances,
    paymentId: input.paymentId,
  });
  return { money, rows: moneyRows(money).map((r) => ({ KEY: r.key, LABEL: r.label, TEXT: r.text })) };
}

type Discount = 'none' | 'promo' | 'bonuses';
type Certificate = 'none' | 'part' | 'whole';
type Payment = 'receipt' | 'card' | 'parts';
const PAYMENT_IDS: Record<Payment, string> = { receipt: '1', card: '9', parts: '10' };

const combos: [Discount, Certificate, Payment][] = [];
for (const d of ['none', 'promo', 'bonuses'] as const)
  for (const c of ['none', 'part', 'whole'] as const)
    for (const p of ['receipt', 'card', 'parts'] as const) combos.push([d, c, p]);

describe('an order’s money agrees everywhere (issue #26)', () => {
  let offer: Awaited<ReturnType<typeof freshOffer>> | null = null;
  const sweater = async () => (offer ??= await freshOffer({ min: 1_500_000, max: 3_000_000, quantity: 200 }));

  it.each(combos)('%s discount, %s certificate, pay %s', async (discount, cert, payment) => {
    const o = await sweater();
    const { token, customerId } = await customer();
    const promo = discount === 'promo' ? Math.round(o.price / 10) : 0;
    const bonus = discount === 'bonuses' ? 200_000 : 0;
    if (bonus) await giveBonuses(customerId, 500_000);
    const total = o.price - promo - bonus + DELIVERY;
    const certificateKopecks = cert === 'none' ? 0 : cert === 'part' ? 500_000 : total;
    const code = cert === 'none' ? null : (await issueCertificate(shop, cert === 'part' ? 500_000 : 5_000_000)).code;
    const due = total - certificateKopecks;

    const form = courierForm(token, `${o.id}:1`, {
      payment_id: PAYMENT_IDS[payment],
      ...(promo ? { promo_code: 'VITRINA10' } : {}),
      ...(bonus ? { bonuses: String(bonus / 100) } : {}),
      ...(code ? { certificates: formatCertificateCode(code) } : {}),
    });
    // What the checkout summary says before the order exists.
    const summary = await checkoutSummary({
      token,
      ids: `${o.id}:1`,
      ...(promo ? { promo: 'VITRINA10' } : {}),
      bonusKopecks: bonus,
      certificates: code ? [formatCertificateCode(code)] : [],
      paymentId: PAYMENT_IDS[payment],
      form,
    });
    expect({
      total: summary.money.totalKopecks,
      certificate: summary.money.certificateKopecks,
      due: summary.money.dueKopecks,
    }).toEqual({
      total,
      certificate: certificateKopecks,
      due,
    });

    const placed = await getJson(api(), '/api/catalog/order.php', CheckoutOrderResponse, { init: postForm(form) });
    if (!placed.success) throw new Error(JSON.stringify(placed.data));
    const orderId = placed.order_id;
    expect(kop(placed.pay_amount)).toBe(due);
    // The placed order's rows, before it is paid, are the summary's rows, word for word.
    expect((await detailOf(token, orderId)).MONEY.ROWS).toEqual(summary.rows);

    // What the provider is asked for, and charges.
    let charged: number | null = null;
    if (payment === 'card' && due > 0) {
      const params = await getJson(api(), '/api/catalog/payment_params.php', PaymentParamsResponse, {
        init: postForm({ token, order_id: String(orderId) }),
      });
      if (!('payment' in params)) throw new Error(params.error);
      checkReceipt(params.payment.params.data.CloudPayments.CustomerReceipt, {
        total,
        certificate: certificateKopecks,
        due,
      });
      const paid = await payByCard(api(), token, orderId);
      charged = kop(paid.amount);
    }
    if (payment === 'parts' && due > 0) {
      const answer = await getJson(api(), '/api/catalog/instalment_link.php', InstalmentLinkResponse, {
        init: postForm({ token, order_id: String(orderId) }),
      });
      if (!('link' in answer)) throw new Error(answer.error);
      const id = new URL(answer.link, 'http://x').searchParams.get('id') ?? '';
      const html = await (await fetch(`${shop.baseUrl}${answer.link}`)).text();
      const form = /<form method="post" action="([^"]+)"/.exec(html)?.[1] ?? '';
      const res = await fetch(`${shop.baseUrl}${form}`, {
        method: 'POST',
        body: new URLSearchParams({ id, action: 'approve', notify: '1' }),
        redirect: 'manual',
      });
      expect(res.status).toBe(303);
      const [row] = await db().select({ paid: orders.paidKopecks }).from(orders).where(eq(orders.id, orderId));
      charged = row?.paid ?? null;
    }
    if (charged !== null) expect(charged).toBe(due);
    // What the summary said was left to pay is what was charged (or is taken at the door).
    expect(summary.money.dueKopecks).toBe(charged ?? due);

    const detail = await detailOf(token, orderId);
    const m = detail.MONEY;
    expect({
      total: kop(m.TOTAL),
      certificate: kop(m.CERTIFICATE),
      due: kop(m.DUE),
      promo: kop(m.PROMO),
      bonus: kop(m.BONUS),
    }).toEqual({
      total,
      certificate: certificateKopecks,
      due,
      promo,
      bonus,
    });
    expect(kop(detail.TOTAL.ITEMS) - kop(detail.TOTAL.DISCOUNT) + kop(detail.TOTAL.DELIVERY ?? 0)).toBe(
      kop(detail.TOTAL.TOTAL),
    );
    expect(kop(detail.TOTAL.DISCOUNT)).toBe(promo + bonus);
    const final = m.ROWS.at(-1);
    if (payment === 'receipt') {
      expect(kop(m.ON_RECEIPT)).toBe(due);
      expect(final?.LABEL).toBe('К оплате при получении');
    } else if (due > 0) {
      expect(kop(m.PAID_ONLINE)).toBe(due);
      expect(final?.LABEL).toBe('Оплачено онлайн');
    }
    expect(kop(m.ON_RECEIPT) + kop(m.PAID_ONLINE) + kop(m.CERTIFICATE)).toBe(total);
    expect(nb(final?.TEXT ?? '')).toBe(rub(due));

    // The account's list says the same.
    const list = await getJson(api(), '/api/personal/orders.php', OrdersResponse, { init: postForm({ token }) });
    expect(list.value.orders.find((x) => x.ID === orderId)?.MONEY).toEqual(m);

    // The SMS and the letter.
    const sms = await eventually(
      async () =>
        (await readSmsOutbox(outbox())).find((s) => s.tag === 'order-placed' && s.text.includes(`№${orderId} `)),
      'the SMS',
    );
    if (due === 0) expect(sms.text).toContain('оплачен подарочными сертификатами');
    else expect(nb(sms.text)).toContain(rub(due));
    if (total !== due) expect(nb(sms.text)).not.toContain(rub(total));
    const mail = await eventually(
      async () =>
        (await readMailOutbox(outbox())).find(
          (x) => x.tag === 'order-placed' && x.subject === `Заказ №${orderId} оформлен`,
        ),
      'the letter',
    );
    for (const row of m.ROWS) expect(nb(mail.text)).toContain(`${row.LABEL}: ${nb(row.TEXT)}`);

    // The courier takes what is left, and the order then says what he took.
    if (payment === 'receipt') {
      await db().update(orders).set({ status: 'shipped' }).where(eq(orders.id, orderId));
      const { body } = await fetchJson(api(), '/staff/orders/', StaffFittingResponse, {
        init: staffInit({
          action: 'fitting',
          order_id: String(orderId),
          [`lines[${o.id}][kept]`]: '1',
          [`lines[${o.id}][refused]`]: '0',
        }),
      });
      expect(body.data?.paid_kopecks).toBe(due);
      const after = await detailOf(token, orderId);
      if (due > 0) {
        expect(after.MONEY.COLLECTED === null ? null : kop(after.MONEY.COLLECTED)).toBe(due);
        expect(after.MONEY.ROWS.at(-1)?.LABEL).toBe('Оплачено при получении');
      } else expect(after.MONEY.ROWS.at(-1)?.TEXT).toBe(m.ROWS.at(-1)?.TEXT);
    }
  });

  it('free delivery (an electronic certificate by e-mail), paid by card: no delivery charged, the same everywhere', async () => {
    const [cert] = await db()
      .select({ id: offers.id, price: offers.priceKopecks })
      .from(offers)
      .innerJoin(products, eq(products.id, offers.productId))
      .where(and(eq(products.certificate, 'electronic'), isNotNull(products.certificate), eq(products.active, true)))
      .limit(1);
    if (!cert) throw new Error('the seed has no electronic certificate');
    const { token } = await customer();
    const form = courierForm(token, `${cert.id}:1`, {
      city: 'Казань',
      delivery_id: '300',
      street: '',
      house: '',
      flat: '',
      payment_id: '9',
      deliverycost: '0',
    });
    const summary = await checkoutSummary({
      token,
      ids: `${cert.id}:1`,
      bonusKopecks: 0,
      certificates: [],
      paymentId: '9',
      form,
    });
    expect(summary.rows.map((r) => [r.LABEL, nb(r.TEXT)])).toEqual([
      ['Товары', rub(cert.price)],
      ['Доставка', 'бесплатно'],
      ['К оплате', rub(cert.price)],
    ]);
    const placed = await getJson(api(), '/api/catalog/order.php', CheckoutOrderResponse, { init: postForm(form) });
    if (!placed.success) throw new Error(JSON.stringify(placed.data));
    expect(kop(placed.pay_amount)).toBe(cert.price);
    expect((await detailOf(token, placed.order_id)).MONEY.ROWS).toEqual(summary.rows);
    const params = await getJson(api(), '/api/catalog/payment_params.php', PaymentParamsResponse, {
      init: postForm({ token, order_id: String(placed.order_id) }),
    });
    if (!('payment' in params)) throw new Error(params.error);
    const receipt = params.payment.params.data.CloudPayments.CustomerReceipt;
    checkReceipt(receipt, { total: cert.price, certificate: 0, due: cert.price });
    expect(receipt.Items.map((i) => i.label)).not.toContain('Доставка');
    expect(kop((await payByCard(api(), token, placed.order_id)).amount)).toBe(summary.money.dueKopecks);
    const m = (await detailOf(token, placed.order_id)).MONEY;
    expect(m.DELIVERY).toBe(0);
    expect(m.ROWS.map((r) => [r.LABEL, nb(r.TEXT)])).toEqual([
      ['Товары', rub(cert.price)],
      ['Доставка', 'бесплатно'],
      ['Оплачено онлайн', rub(cert.price)],
    ]);
    const list = await getJson(api(), '/api/personal/orders.php', OrdersResponse, { init: postForm({ token }) });
    expect(list.value.orders.find((x) => x.ID === placed.order_id)?.MONEY).toEqual(m);
    const mail = await eventually(
      async () =>
        (await readMailOutbox(outbox())).find(
          (x) => x.tag === 'order-placed' && x.subject === `Заказ №${placed.order_id} оформлен`,
        ),
      'the letter',
    );
    // The letter shows the same money; an e-mail order ships nothing, so it has no delivery row (item 6).
    expect(nb(mail.text)).toContain(`Товары: ${rub(cert.price)}\nОплачено онлайн: ${rub(cert.price)}`);
    expect(nb(mail.text)).not.toContain('Доставка: бесплатно');
  });
});
