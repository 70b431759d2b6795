import fs from 'node:fs';
import path from 'node:path';
import { and, asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { certificateMoves, giftCertificates, orders, orderStatusHistory } from '~/db/schema';
import { MOSCOW_COURIER_PRICE_KOPECKS } from '~/core/delivery';
import { CheckoutOrderResponse, ReturnCreateResponse } from '~/shared/contract';
import { StaffFittingResponse, StaffOrderStatusResponse } from '~/api/staff/routes.server';
import { StaffReturnResponse } from '~/api/staff/returns.routes.server';
import { STAFF_TOKEN_FILE } from '~/server/secrets.server';
import { fetchJson, getJson, postForm } from '~/tests/support/api';
import { courierForm, issueCertificate, offerPicker, payByCard } from '~/tests/support/checkout';
import { setUpTestShop } from '~/tests/support/server';
import { customerMaker } from '~/tests/support/session';

// Issue #26: the fitting at the door of a Moscow courier order when a gift certificate paid part
// of it. Certificates are an advance: what the kept items (and the courier) do not use of it goes
// back onto the certificate with a row in its ledger (certificate_moves, kind 'fitting'), never to
// cash or to the card, and exactly once however many times, or however concurrently, the fitting
// is sent. A return of a kept item afterwards gives the certificate back no more than it still
// has out. Over HTTP, on PGlite or (TEST_DATABASE_URL) PostgreSQL.

const shop = setUpTestShop();
const db = () => shop.database.db;
const api = () => `${shop.baseUrl}/backend`;
const DELIVERY = MOSCOW_COURIER_PRICE_KOPECKS;
const freshOffer = offerPicker(shop);
const customer = customerMaker(shop, '7993');

const staffInit = (fields: Record<string, string>): RequestInit => ({
  method: 'POST',
  headers: {
    'content-type': 'application/x-www-form-urlencoded',
    authorization: `Bearer ${fs.readFileSync(path.join(shop.dataDir, STAFF_TOKEN_FILE), 'utf8').trim()}`,
  },
  body: new URLSearchParams(fields).toString(),
});

const balanceOf = async (id: number) =>
  (
    await db().select({ b: giftCertificates.balanceKopecks }).from(giftCertificates).where(eq(giftCertificates.id, id))
  )[0]?.b;
const movesOf = (orderId: number) =>
  db()
    .select({ kind: certificateMoves.kind, amount: certificateMoves.amountKopecks })
    .from(certificateMoves)
    .where(eq(certificateMoves.orderId, orderId))
    .orderBy(asc(certificateMoves.id));

/** A Moscow courier order of a cheap and a dear item, part paid with a certificate of `balance`, on its way to the shopper. */
async function courierOrder(paymentId: '1' | '9', balance: (cheap: number, dear: number) => number) {
  const cheap = await freshOffer({ min: 300_000, max: 600_000 });
  const dear = await freshOffer({ min: 1_000_000, max: 3_000_000 });
  const cert = await issueCertificate(shop, balance(cheap.price, dear.price));
  const who = await customer();
  const placed = await getJson(api(), '/api/catalog/order.php', CheckoutOrderResponse, {
    init: postForm(
      courierForm(who.token, `${cheap.id}:1,${dear.id}:1`, { payment_id: paymentId, certificates: cert.formatted }),
    ),
  });
  if (!placed.success) throw new Error(JSON.stringify(placed.data));
  const orderId = placed.order_id;
  if (paymentId === '9') await payByCard(api(), who.token, orderId);
  for (const status of ['confirmed', 'assembling', 'shipped']) {
    const { body } = await fetchJson(api(), '/staff/orders/', StaffOrderStatusResponse, {
      init: staffInit({ action: 'status', order_id: String(orderId), status }),
    });
    expect(body.errors).toEqual({});
  }
  const [row] = await db().select().from(orders).where(eq(orders.id, orderId));
  if (!row) throw new Error('no order');
  return { ...who, orderId, cheap, dear, cert, order: row };
}

const fitting = async (orderId: number, lines: Record<number, [kept: number, refused: number]>) => {
  const fields: Record<string, string> = { action: 'fitting', order_id: String(orderId) };
  for (const [offerId, [kept, refused]] of Object.entries(lines)) {
    fields[`lines[${offerId}][kept]`] = String(kept);
    fields[`lines[${offerId}][refused]`] = String(refused);
  }
  return (await fetchJson(api(), '/staff/orders/', StaffFittingResponse, { init: staffInit(fields) })).body;
};

const rub = (kopecks: number) => `${(kopecks / 100).toLocaleString('ru-RU').replace(/\s/g, ' ')} ₽`;
const nb = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');

describe('the fitting gives the certificate back what the kept items do not use (issue #26)', () => {
  it('on receipt: kept less than the certificate paid: the rest back onto it once, under five fittings at once; a later return gives no more', async () => {
    // The certificate pays the cheap item, the courier and 1 000 ₽ more; the dear item is handed back.
    const o = await courierOrder('1', (cheap) => cheap + DELIVERY + 100_000);
    const paid = o.cheap.price + DELIVERY + 100_000;
    expect(o.order.certificateKopecks).toBe(paid);
    expect(await balanceOf(o.cert.id)).toBe(0);

    const answers = await Promise.all(
      Array.from({ length: 5 }, () => fitting(o.orderId, { [o.cheap.id]: [1, 0], [o.dear.id]: [0, 1] })),
    );
    const done = answers.filter((a) => a.data);
    expect(done).toHaveLength(1);
    expect(answers.filter((a) => !a.data).map((a) => a.errors)).toEqual(
      Array(4).fill({ order_id: 'Примерка по этому заказу уже записана' }),
    );
    // Nothing left for the courier to take; 1 000 ₽ back onto the certificate.
    expect(done[0]?.data).toMatchObject({ paid_kopecks: 0, refund_kopecks: 0, certificate_back_kopecks: 100_000 });
    expect(nb(done[0]?.warnings.join(' ') ?? '')).toContain(
      `На подарочные сертификаты покупателя вернули ${rub(100_000)}`,
    );
    expect(await balanceOf(o.cert.id)).toBe(100_000);
    expect(await movesOf(o.orderId)).toEqual([
      { kind: 'redeem', amount: -paid },
      { kind: 'fitting', amount: 100_000 },
    ]);
    const [history] = await db()
      .select({ note: orderStatusHistory.note })
      .from(orderStatusHistory)
      .where(and(eq(orderStatusHistory.orderId, o.orderId), eq(orderStatusHistory.status, 'received')));
    expect(nb(history?.note ?? '')).toBe(
      `Примерка: оставлено 1, возвращено 1; на подарочные сертификаты вернули ${rub(100_000)}`,
    );

    // Sent again later: refused, and the certificate's money does not move.
    expect((await fitting(o.orderId, { [o.cheap.id]: [0, 1], [o.dear.id]: [0, 1] })).errors).toEqual({
      order_id: 'Примерка по этому заказу уже записана',
    });
    expect(await balanceOf(o.cert.id)).toBe(100_000);

    // The kept item returned: its money goes back onto the certificate that paid it, and no more.
    const made = await getJson(api(), '/api/personal/return_add.php', ReturnCreateResponse, {
      init: postForm({
        token: o.token,
        order_id: String(o.orderId),
        reason: 'Не подошёл размер',
        [`items[${o.cheap.id}]`]: '1',
      }),
    });
    if (!made.success) throw new Error(made.error);
    const { body: approved } = await fetchJson(api(), '/staff/returns/', StaffReturnResponse, {
      init: staffInit({ action: 'approve', request_id: String(made.id) }),
    });
    expect(approved.data?.refunds).toEqual([
      expect.objectContaining({ means: 'certificate', amount_kopecks: o.cheap.price, status: 'done' }),
    ]);
    expect(await balanceOf(o.cert.id)).toBe(100_000 + o.cheap.price);
    // The certificate paid, in the end, exactly the courier.
    const net = (await movesOf(o.orderId)).reduce((sum, m) => sum + m.amount, 0);
    expect(net).toBe(-DELIVERY);
  });

  it('paid by card: all handed back: the card gets back what it paid, the certificate all but the courier, once', async () => {
    const o = await courierOrder('9', (cheap) => cheap);
    const cardPaid = o.order.totalKopecks - o.order.certificateKopecks;
    expect(o.order.certificateKopecks).toBe(o.cheap.price);
    const answers = await Promise.all(
      Array.from({ length: 3 }, () => fitting(o.orderId, { [o.cheap.id]: [0, 1], [o.dear.id]: [0, 1] })),
    );
    const done = answers.filter((a) => a.data);
    expect(done).toHaveLength(1);
    expect(done[0]?.data).toMatchObject({
      paid_kopecks: 0,
      refund_kopecks: cardPaid,
      certificate_back_kopecks: o.cheap.price - DELIVERY,
    });
    expect(await balanceOf(o.cert.id)).toBe(o.cheap.price - DELIVERY);
    expect((await movesOf(o.orderId)).filter((m) => m.kind === 'fitting')).toEqual([
      { kind: 'fitting', amount: o.cheap.price - DELIVERY },
    ]);
  });

  it('kept more than the certificate paid: the courier takes the difference, nothing goes back', async () => {
    const o = await courierOrder('1', (cheap) => cheap - 100_000);
    const done = await fitting(o.orderId, { [o.cheap.id]: [1, 0], [o.dear.id]: [0, 1] });
    expect(done.data).toMatchObject({ paid_kopecks: 100_000 + DELIVERY, certificate_back_kopecks: 0 });
    expect(done.warnings.join(' ')).not.toContain('сертификат');
    expect(await balanceOf(o.cert.id)).toBe(0);
    expect((await movesOf(o.orderId)).map((m) => m.kind)).toEqual(['redeem']);
  });
});
