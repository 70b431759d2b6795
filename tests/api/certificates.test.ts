import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { certificateMoves, giftCertificates, jobs, offers, orderItems, orders, products } from '~/db/schema';
import {
  CERTIFICATE_TEXT,
  certificateExpiry,
  formatCertificateCode,
  newCertificateCode,
  normalizeCertificateCode,
} from '~/core/gift-certificates';
import { CERTIFICATE_MAIL_TAG } from '~/core/certificate-mail';
import {
  CartResponse,
  CatalogSectionResponse,
  CertificateCheckResponse,
  CheckoutOrderResponse,
  OrderDetailResponse,
  PaymentParamsResponse,
  ProductResponse,
} from '~/shared/contract';
import { DELIVERY_ID } from '~/shared/checkout-ids';
import { createOfflineMail, readMailOutbox } from '~/integrations/mail/offline.server';
import { createOfflineSms } from '~/integrations/sms/offline.server';
import type { MailSender } from '~/integrations/mail/mail';
import { certificateJobHandlers, enqueueCertificateIssue } from '~/models/certificate-issue.server';
import { changeOrderStatus } from '~/models/order-status.server';
import { eventually, getJson, postForm } from '~/tests/support/api';
import { setUpTestShop } from '~/tests/support/server';
import { sessionToken } from '~/tests/support/session';

// Gift certificates (issue #12) over HTTP and through the job handlers, on PGlite or
// (TEST_DATABASE_URL) PostgreSQL: one certificate per unit of a paid order, 16 digits with a
// check digit, e-mailed as a card once; retries and two jobs at once issue nothing twice; an
// unpaid order gets nothing; plastic ones are issued when the order ships; the balance check
// and its limit against guessing. TRUST_PROXY lets each test speak from its own IP.

const shop = setUpTestShop({ env: { TRUST_PROXY: 'true' } });
const db = () => shop.database.db;
const api = () => `${shop.baseUrl}/backend`;
const outbox = () => path.join(shop.dataDir, 'outbox');

function handlers(mail?: MailSender) {
  return certificateJobHandlers({
    db: db(),
    mail: mail ?? createOfflineMail({ outboxDir: outbox(), from: 'Vitrina <hello@vitrina.ru>' }),
    siteUrl: 'http://shop.test',
  });
}
const issue = (orderId: number, kind: 'electronic' | 'plastic') => handlers()['certificate.issue']!({ orderId, kind });

async function certificateOffer(kind: 'electronic' | 'plastic', nominalRub: number) {
  const [row] = await db()
    .select({ id: offers.id, priceKopecks: offers.priceKopecks, name: products.name })
    .from(offers)
    .innerJoin(products, eq(products.id, offers.productId))
    .where(and(eq(products.certificate, kind), eq(products.priceKopecks, nominalRub * 100), eq(products.active, true)));
  if (!row) throw new Error(`the seed has no ${kind} certificate of ${nominalRub}`);
  return row;
}

let seq = 0;
/** An order written straight to the database (the checkout has its own tests): paid or not. */
async function directOrder(
  lines: { offerId: number; priceKopecks: number; quantity: number }[],
  { paid = true, email = `buyer${++seq}@example.com` } = {},
) {
  const total = lines.reduce((s, l) => s + l.priceKopecks * l.quantity, 0);
  const [order] = await db()
    .insert(orders)
    .values({
      status: 'new',
      phone: '79160000000',
      customerName: 'Анна',
      itemsTotalKopecks: total,
      totalKopecks: total,
      paymentId: '9',
      email,
      deliveryId: DELIVERY_ID.moscowCourier,
      paidAt: paid ? new Date() : null,
    })
    .returning({ id: orders.id });
  if (!order) throw new Error('no order');
  await db()
    .insert(orderItems)
    .values(
      lines.map((l) => ({
        orderId: order.id,
        offerId: l.offerId,
        title: 'Сертификат',
        size: 'Единый',
        color: '',
        priceKopecks: l.priceKopecks,
        quantity: l.quantity,
      })),
    );
  return { orderId: order.id, email };
}

const certificatesOf = (orderId: number) =>
  db().select().from(giftCertificates).where(eq(giftCertificates.orderId, orderId)).orderBy(giftCertificates.id);
/** Letters are jobs of their own: the server's job worker sends them. */
const mailedCertificatesOf = (orderId: number, count: number) =>
  eventually(async () => {
    const rows = await certificatesOf(orderId);
    return rows.length === count && rows.every((c) => c.mailedAt !== null) ? rows : null;
  }, `${count} certificates mailed`);
const mailsTo = async (to: string) =>
  (await readMailOutbox(outbox())).filter((m) => m.to === to && m.tag === CERTIFICATE_MAIL_TAG);

/** Until the job table has nothing due: what was queued has run (the server's worker polls every 2 s). */
async function runJobs() {
  await eventually(async () => {
    const [row] = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(jobs)
      .where(sql`${jobs.doneAt} is null and ${jobs.kind} like 'certificate.%'`);
    return row?.n === 0;
  }, 'certificate jobs to run');
}

let ipSeq = 0;
const nextIp = () => `198.51.100.${++ipSeq}`;
async function check(code: string, ip: string, extra: Record<string, string> = {}, status = 200) {
  const init = postForm({ code, ...extra });
  init.headers = { ...(init.headers as Record<string, string>), 'x-forwarded-for': ip };
  return getJson(api(), '/api/catalog/check_certificate.php', CertificateCheckResponse, { init, status });
}
/** A code of the right shape and check digit that no certificate has. */
const unknownCode = () => newCertificateCode(randomBytes);

describe('certificate products', () => {
  it('the section lists all ten; a product page selects its one offer with no size to choose; the basket prices them; the photo shows', async () => {
    const listing = await getJson(api(), '/catalog/podarochnye-karty/', CatalogSectionResponse);
    const names = listing.ITEMS.map((i) => i.NAME.replace(/\u00a0/g, ' '));
    expect(names).toHaveLength(10);
    for (const kind of ['Электронный', 'Пластиковый'])
      for (const n of ['5 000', '10 000', '15 000', '25 000', '50 000'])
        expect(names).toContain(`${kind} подарочный сертификат на ${n} ₽`);

    const plastic = listing.ITEMS.find((i) => i.NAME.startsWith('Пластиковый') && i.NAME.includes('25'));
    if (!plastic) throw new Error('no plastic 25 000');
    const page = await getJson(api(), plastic.DETAIL_PAGE_URL, ProductResponse);
    expect(page.ITEM.OFFERS).toHaveLength(1);
    expect(page.ITEM.OFFERS[0]).toMatchObject({ SELECTED: true, SIZE_ID: 'edinyj', PRICE: 25_000, AVAILABLE: 'Y' });

    const offerId = page.ITEM.OFFERS[0]!.ID;
    const cart = await getJson(api(), '/api/personal/get_cart.php', CartResponse, {
      init: postForm({ ids: `${offerId}:2` }),
    });
    expect(cart.items.map((i) => [i.ID, i.QUANTITY, i.SUM])).toEqual([[offerId, 2, 50_000]]);

    const photo = await fetch(`${shop.baseUrl}${page.ITEM.OFFERS[0]!.IMAGE_SRC}`);
    expect(photo.status).toBe(200);
    expect(photo.headers.get('content-type')).toMatch(/^image\//);
  });
});

describe('issuing electronic certificates after a verified payment', () => {
  it('a card order placed and paid gets one certificate per unit, e-mailed once; a retry issues and sends nothing more', async () => {
    const offer = await certificateOffer('electronic', 10_000);
    const who = await sessionToken(shop, '79985550001');
    const email = 'gift-buyer@example.com';
    const placed = await getJson(api(), '/api/catalog/order.php', CheckoutOrderResponse, {
      init: postForm({
        token: who.token,
        ids: `${offer.id}:2`,
        firstname: 'Анна',
        lastname: 'Иванова',
        phone: '+7 (916) 123-45-67',
        email,
        city: 'Москва',
        // Electronic certificates alone go by e-mail: no address, no delivery cost.
        delivery_id: '300',
        payment_id: '9',
        deliverycost: '0',
        key: `k-${Math.random().toString(36).slice(2, 12)}`,
      }),
    });
    if (!placed.success) throw new Error(JSON.stringify(placed.data));
    const orderId = placed.order_id;

    // Not paid yet: the job does nothing.
    await issue(orderId, 'electronic');
    expect(await certificatesOf(orderId)).toEqual([]);

    // Paid through the offline CloudPayments page, which notifies the shop with a signed Pay.
    const params = await getJson(api(), '/api/catalog/payment_params.php', PaymentParamsResponse, {
      init: postForm({ token: who.token, order_id: String(orderId) }),
    });
    if (!('payment' in params)) throw new Error(params.error);
    const p = Buffer.from(JSON.stringify(params.payment.params)).toString('base64url');
    const charged = await fetch(`${api()}/api/cloudpayments/offline/charge/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ p, action: 'pay', code: '1234', card: '4242 4242 4242 4242' }),
    });
    expect(charged.status).toBe(200);
    await eventually(
      async () => (await db().select({ paidAt: orders.paidAt }).from(orders).where(eq(orders.id, orderId)))[0]?.paidAt,
      'the verified payment',
    );

    // The verified payment queued the job; running it here too is what a retry or a second
    // process would do at the same time.
    await issue(orderId, 'electronic');
    const issued = await mailedCertificatesOf(orderId, 2);
    for (const c of issued) {
      expect(c.code).toMatch(/^[1-9]\d{15}$/);
      expect(normalizeCertificateCode(c.code)).toBe(c.code);
      expect(c).toMatchObject({
        kind: 'electronic',
        nominalKopecks: 1_000_000,
        balanceKopecks: 1_000_000,
        offerId: offer.id,
        email,
      });
      expect(c.mailedAt).not.toBeNull();
      const months = (c.expiresAt.getTime() - c.issuedAt.getTime()) / (86_400_000 * 30.4);
      expect(Math.round(months)).toBe(12);
    }
    expect(issued.map((c) => c.issueKey).sort()).toEqual([
      `order:${orderId}:offer:${offer.id}:1`,
      `order:${orderId}:offer:${offer.id}:2`,
    ]);
    expect(new Set(issued.map((c) => c.code)).size).toBe(2);
    const moves = await db().select().from(certificateMoves).where(eq(certificateMoves.orderId, orderId));
    expect(moves.map((m) => [m.kind, m.amountKopecks])).toEqual([
      ['issue', 1_000_000],
      ['issue', 1_000_000],
    ]);

    const letters = await mailsTo(email);
    expect(letters).toHaveLength(2);
    for (const c of issued) {
      const letter = letters.find((m) => m.text.includes(formatCertificateCode(c.code)));
      expect(letter?.subject.replace(/\u00a0/g, ' ')).toBe('Подарочный сертификат Vitrina на 10 000 ₽');
      expect(letter?.html).toContain(formatCertificateCode(c.code));
    }

    // The job again (a retry): nothing new, no letter again.
    await issue(orderId, 'electronic');
    await issue(orderId, 'plastic');
    await runJobs();
    expect((await certificatesOf(orderId)).map((c) => c.id)).toEqual(issued.map((c) => c.id));
    expect(await mailsTo(email)).toHaveLength(2);

    // The buyer's order page lists them with their numbers; another customer gets nothing.
    const detail = await getJson(api(), '/api/personal/order_detail.php', OrderDetailResponse, {
      init: postForm({ token: who.token, order_id: String(orderId) }),
    });
    if (!('order' in detail)) throw new Error(detail.error);
    expect(detail.order.CERTIFICATES?.map((c) => c.CODE).sort()).toEqual(
      issued.map((c) => formatCertificateCode(c.code)).sort(),
    );
    expect(detail.order.CERTIFICATES?.[0]).toMatchObject({
      KIND: 'electronic',
      NOMINAL: 10_000,
      BALANCE: 10_000,
      MAILED: true,
    });
    const stranger = await sessionToken(shop, '79985550003');
    const theirs = await getJson(api(), '/api/personal/order_detail.php', OrderDetailResponse, {
      init: postForm({ token: stranger.token, order_id: String(orderId) }),
    });
    expect('order' in theirs).toBe(false);
  });

  it('an unpaid order gets nothing, and only lines of the kind asked are issued', async () => {
    const e = await certificateOffer('electronic', 5_000);
    const pl = await certificateOffer('plastic', 5_000);
    const unpaid = await directOrder([{ offerId: e.id, priceKopecks: e.priceKopecks, quantity: 1 }], { paid: false });
    await issue(unpaid.orderId, 'electronic');
    expect(await certificatesOf(unpaid.orderId)).toEqual([]);
    expect(await mailsTo(unpaid.email)).toEqual([]);

    const mixed = await directOrder([
      { offerId: e.id, priceKopecks: e.priceKopecks, quantity: 1 },
      { offerId: pl.id, priceKopecks: pl.priceKopecks, quantity: 1 },
    ]);
    await issue(mixed.orderId, 'electronic');
    expect((await certificatesOf(mixed.orderId)).map((c) => c.kind)).toEqual(['electronic']);
  });

  it('a letter that fails is sent again by its retry, and a certificate already mailed is not', async () => {
    // A certificate with no letter job queued, so the server's worker leaves it to this test.
    const e = await certificateOffer('electronic', 15_000);
    const o = await directOrder([{ offerId: e.id, priceKopecks: e.priceKopecks, quantity: 1 }]);
    const now = new Date();
    const [c] = await db()
      .insert(giftCertificates)
      .values({
        code: unknownCode(),
        kind: 'electronic',
        nominalKopecks: e.priceKopecks,
        balanceKopecks: e.priceKopecks,
        orderId: o.orderId,
        offerId: e.id,
        issueKey: `order:${o.orderId}:offer:${e.id}:1`,
        email: o.email,
        issuedAt: now,
        expiresAt: new Date(now.getTime() + 365 * 86_400_000),
      })
      .returning();
    if (!c) throw new Error('no certificate');
    const down: MailSender = {
      kind: 'offline',
      send: () => Promise.reject(new Error('SMTP is down')),
    };
    await expect(handlers(down)['certificate.mail']!({ certificateId: c.id })).rejects.toThrow('SMTP is down');
    expect((await certificatesOf(o.orderId))[0]?.mailedAt).toBeNull();
    expect(await mailsTo(o.email)).toEqual([]);

    await handlers()['certificate.mail']!({ certificateId: c.id });
    expect((await certificatesOf(o.orderId))[0]?.mailedAt).not.toBeNull();
    await handlers()['certificate.mail']!({ certificateId: c.id });
    const letters = await mailsTo(o.email);
    expect(letters).toHaveLength(1);
    expect(letters[0]?.text).toContain(formatCertificateCode(c.code));
    // The issue job finds the unit issued: nothing new, no second letter queued.
    await issue(o.orderId, 'electronic');
    await runJobs();
    expect(await certificatesOf(o.orderId)).toHaveLength(1);
    expect(await mailsTo(o.email)).toHaveLength(1);
  });

  it('two jobs for one order at once issue each unit once', async () => {
    const e = await certificateOffer('electronic', 25_000);
    const o = await directOrder([{ offerId: e.id, priceKopecks: e.priceKopecks, quantity: 3 }]);
    await Promise.all([issue(o.orderId, 'electronic'), issue(o.orderId, 'electronic'), issue(o.orderId, 'electronic')]);
    const all = await mailedCertificatesOf(o.orderId, 3);
    expect(all).toHaveLength(3);
    expect(new Set(all.map((c) => c.issueKey)).size).toBe(3);
    const moves = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(certificateMoves)
      .where(and(eq(certificateMoves.orderId, o.orderId), eq(certificateMoves.kind, 'issue')));
    expect(moves[0]?.n).toBe(3);
    await runJobs();
    const letters = await mailsTo(o.email);
    expect(letters).toHaveLength(3);
    for (const c of all) expect(letters.filter((m) => m.text.includes(formatCertificateCode(c.code)))).toHaveLength(1);
  });

  it('enqueueCertificateIssue queues the electronic job only for an order that has electronic certificates', async () => {
    const e = await certificateOffer('electronic', 50_000);
    const pl = await certificateOffer('plastic', 50_000);
    const withE = await directOrder([{ offerId: e.id, priceKopecks: e.priceKopecks, quantity: 1 }]);
    const plasticOnly = await directOrder([{ offerId: pl.id, priceKopecks: pl.priceKopecks, quantity: 1 }]);
    expect(await enqueueCertificateIssue(db(), plasticOnly.orderId)).toBe(false);
    expect(await enqueueCertificateIssue(db(), withE.orderId)).toBe(true);
    // The server's job worker runs it.
    const issued = await eventually(async () => {
      const rows = await certificatesOf(withE.orderId);
      return rows.length === 1 && rows[0]?.mailedAt ? rows : null;
    }, 'the queued issue');
    expect(issued[0]?.kind).toBe('electronic');
    expect(await certificatesOf(plasticOnly.orderId)).toEqual([]);
  });
});

describe('plastic certificates', () => {
  it('get their codes when the order ships, with no letter, valid 12 months from the purchase', async () => {
    const pl = await certificateOffer('plastic', 10_000);
    const o = await directOrder([{ offerId: pl.id, priceKopecks: pl.priceKopecks, quantity: 2 }]);
    // Paid 5 days before it ships: the 12 months count from the payment (the page: «с даты покупки»).
    const paidAt = new Date(Date.now() - 5 * 86_400_000);
    await db().update(orders).set({ paidAt }).where(eq(orders.id, o.orderId));
    await issue(o.orderId, 'electronic');
    expect(await certificatesOf(o.orderId)).toEqual([]);

    const deps = {
      db: db(),
      sms: createOfflineSms({ outboxDir: outbox() }),
      log: { info() {}, warn() {}, error() {} },
      siteUrl: 'http://shop.test',
    };
    for (const to of ['confirmed', 'assembling'])
      expect((await changeOrderStatus({ ...deps, orderId: o.orderId, to })).ok).toBe(true);
    expect(await certificatesOf(o.orderId)).toEqual([]);
    expect((await changeOrderStatus({ ...deps, orderId: o.orderId, to: 'shipped' })).ok).toBe(true);

    const issued = await eventually(async () => {
      const rows = await certificatesOf(o.orderId);
      return rows.length === 2 ? rows : null;
    }, 'plastic certificates issued by the job shipping queued');
    for (const c of issued) {
      expect(c).toMatchObject({
        kind: 'plastic',
        nominalKopecks: 1_000_000,
        balanceKopecks: 1_000_000,
        email: '',
        mailedAt: null,
      });
      expect(c.expiresAt.toISOString()).toBe(certificateExpiry(paidAt).toISOString());
      expect(normalizeCertificateCode(c.code)).toBe(c.code);
    }
    expect(await mailsTo(o.email)).toEqual([]);
  });
});

describe('check_certificate.php', () => {
  it('answers the balance, the number in groups and the last day of a valid certificate', async () => {
    const e = await certificateOffer('electronic', 5_000);
    const o = await directOrder([{ offerId: e.id, priceKopecks: e.priceKopecks, quantity: 1 }]);
    await issue(o.orderId, 'electronic');
    const [c] = await certificatesOf(o.orderId);
    if (!c) throw new Error('not issued');
    await db().update(giftCertificates).set({ balanceKopecks: 123_400 }).where(eq(giftCertificates.id, c.id));

    const answer = await check(formatCertificateCode(c.code).replace(/ /g, '-'), nextIp());
    expect(answer).toEqual({
      success: true,
      code: formatCertificateCode(c.code),
      balance: 1234,
      expires: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      text: CERTIFICATE_TEXT.balance(123_400, c.expiresAt),
    });
    if (!answer.success) throw new Error('no');
    expect(Math.abs(new Date(`${answer.expires}T12:00:00Z`).getTime() - c.expiresAt.getTime())).toBeLessThan(
      86_400_000,
    );
  });

  it('refuses a bad number, an unknown, an expired and an empty certificate in Russian', async () => {
    const ip = nextIp();
    for (const bad of ['', '1234', 'abcd efgh ijkl mnop', '1'.repeat(17)])
      expect(await check(bad, ip)).toEqual({ success: false, error: CERTIFICATE_TEXT.badCode });
    // A wrong check digit is a typo, caught before any lookup.
    const good = unknownCode();
    const typo = good.slice(0, 15) + String((Number(good[15]) + 1) % 10);
    expect(await check(typo, ip)).toEqual({ success: false, error: CERTIFICATE_TEXT.badCode });
    expect(await check(unknownCode(), ip)).toEqual({ success: false, error: CERTIFICATE_TEXT.notFound });

    const e = await certificateOffer('electronic', 5_000);
    const o = await directOrder([{ offerId: e.id, priceKopecks: e.priceKopecks, quantity: 2 }]);
    await issue(o.orderId, 'electronic');
    const [a, b] = await certificatesOf(o.orderId);
    if (!a || !b) throw new Error('not issued');
    const past = new Date(Date.now() - 86_400_000);
    await db().update(giftCertificates).set({ expiresAt: past }).where(eq(giftCertificates.id, a.id));
    await db().update(giftCertificates).set({ balanceKopecks: 0 }).where(eq(giftCertificates.id, b.id));
    expect(await check(a.code, ip)).toEqual({ success: false, error: CERTIFICATE_TEXT.expired(past) });
    expect(await check(b.code, ip)).toEqual({ success: false, error: CERTIFICATE_TEXT.empty });
  });

  it('after 10 unknown numbers from one IP in an hour answers 429, a right number too; other IPs and bad shapes are not affected', async () => {
    const e = await certificateOffer('electronic', 5_000);
    const o = await directOrder([{ offerId: e.id, priceKopecks: e.priceKopecks, quantity: 1 }]);
    await issue(o.orderId, 'electronic');
    const [c] = await certificatesOf(o.orderId);
    if (!c) throw new Error('not issued');

    const ip = nextIp();
    // Malformed numbers tell nothing and count nothing; right numbers give their try back.
    for (let i = 0; i < 15; i++) await check('1234 5678', ip);
    for (let i = 0; i < 5; i++) expect((await check(c.code, ip)).success).toBe(true);
    for (let i = 0; i < 10; i++)
      expect(await check(unknownCode(), ip)).toEqual({ success: false, error: CERTIFICATE_TEXT.notFound });
    expect(await check(c.code, ip, {}, 429)).toEqual({ success: false, error: CERTIFICATE_TEXT.rateLimited });
    expect(await check(unknownCode(), ip, {}, 429)).toEqual({ success: false, error: CERTIFICATE_TEXT.rateLimited });
    expect((await check(c.code, nextIp())).success).toBe(true);
  });

  it('counts a logged-in customer over every IP: 30 unknown numbers a day', async () => {
    const who = await sessionToken(shop, '79985550002');
    for (let n = 0; n < 3; n++) {
      const ip = nextIp();
      for (let i = 0; i < 10; i++) expect((await check(unknownCode(), ip, { token: who.token })).success).toBe(false);
    }
    const fresh = nextIp();
    expect(await check(unknownCode(), fresh, { token: who.token }, 429)).toEqual({
      success: false,
      error: CERTIFICATE_TEXT.rateLimited,
    });
    // The same IP without the customer's token is still allowed (its own count is 0).
    expect(await check(unknownCode(), fresh)).toEqual({ success: false, error: CERTIFICATE_TEXT.notFound });
  });

  it('is in the OpenAPI document', async () => {
    const doc = (await (await fetch(`${api()}/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(doc.paths['/api/catalog/check_certificate.php']).toBeDefined();
  });
});
