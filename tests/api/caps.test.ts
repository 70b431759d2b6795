import fs from 'node:fs';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { jobs, offers, orderItems, orders, orderStatusHistory, waitingList } from '~/db/schema';
import { FastOrderResponse, PaymentStatusResponse, StockChangeResponse, WaitingListResponse } from '~/shared/contract';
import { DEFAULT_ANONYMOUS_LIMITS as LIMITS, LIMIT_TEXT } from '~/core/anonymous-limits';
import { AUTH_TEXT } from '~/core/auth';
import { readSmsOutbox } from '~/integrations/sms/offline.server';
import { STAFF_TOKEN_FILE } from '~/server/secrets.server';
import { StaffJobsResponse, StaffOrderStatusResponse } from '~/api/staff/routes.server';
import { eventually, fetchJson, getJson, postForm } from '~/tests/support/api';
import { offerPicker } from '~/tests/support/checkout';
import { setUpTestShop } from '~/tests/support/server';

// Issue #27, 6: the caps on anonymous actions at their defaults (core/anonymous-limits.ts), over
// HTTP with real concurrent requests, on PGlite or (TEST_DATABASE_URL) PostgreSQL. The shop
// trusts X-Forwarded-For here, so each test is a shopper (an address) of its own.

const shop = setUpTestShop({ env: { TRUST_PROXY: 'true' } });
const db = () => shop.database.db;
const api = () => `${shop.baseUrl}/backend`;
const freshOffer = offerPicker(shop);
let addresses = 0;
/** An address of its own for a test (10.27.x.y). */
const newAddress = () => {
  addresses += 1;
  return `10.27.${Math.floor(addresses / 250)}.${(addresses % 250) + 1}`;
};

const fastOrder = (ip: string, query: Record<string, string>) =>
  getJson(api(), `/api/catalog/fastorder.php?${new URLSearchParams(query)}`, FastOrderResponse, {
    init: { headers: { 'x-forwarded-for': ip } },
  });
const joinWaitingList = (ip: string, query: Record<string, string>) =>
  getJson(api(), `/api/catalog/addtowishlist.php?${new URLSearchParams(query)}`, WaitingListResponse, {
    init: { headers: { 'x-forwarded-for': ip } },
  });
const phone = (n: number) => `+7996${String(process.pid % 1000).padStart(3, '0')}${String(n).padStart(4, '0')}`;

async function stockOf(offerId: number): Promise<number> {
  const [row] = await db().select({ q: offers.quantity }).from(offers).where(eq(offers.id, offerId));
  return row?.q ?? -1;
}

function staffToken(): string {
  return fs.readFileSync(path.join(shop.dataDir, STAFF_TOKEN_FILE), 'utf8').trim();
}
const staffPost = (fields: Record<string, string>) => ({
  ...postForm(fields),
  headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${staffToken()}` },
});

describe('fast order caps and captcha', () => {
  it('100 fast orders at once from one address take only its cap of the size, the rest told why', async () => {
    const ip = newAddress();
    const offer = await freshOffer({ quantity: 100 });
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        fastOrder(ip, {
          id: String(offer.id),
          name: 'Скупщик',
          phone: phone(i),
          key: `cap-${process.pid}-${i}-xxxx`,
          recaptcha_token: 'offline-ok',
        }),
      ),
    );
    const won = answers.filter((a) => a.success);
    expect(won).toHaveLength(LIMITS.fastOrdersPerOfferIpDay);
    for (const a of answers) if (!a.success) expect(a.data).toEqual({ error: LIMIT_TEXT.fastOrder, fields: {} });
    expect(await stockOf(offer.id)).toBe(100 - LIMITS.fastOrdersPerOfferIpDay);

    // Other sizes from the same address: the hourly cap of the address.
    const others = [];
    for (let i = 0; i < 12; i++) others.push(await freshOffer({ quantity: 5 }));
    const more = await Promise.all(
      others.map((other, i) =>
        fastOrder(ip, { id: String(other.id), name: 'Скупщик', phone: phone(200 + i), recaptcha_token: 'offline-ok' }),
      ),
    );
    expect(more.filter((a) => a.success)).toHaveLength(LIMITS.fastOrdersPerIpHour - LIMITS.fastOrdersPerOfferIpDay);
  });

  it('one phone from many addresses: its daily cap', async () => {
    const offer = await freshOffer({ quantity: 50 });
    const answers = await Promise.all(
      Array.from({ length: LIMITS.fastOrdersPerPhoneDay + 5 }, () =>
        fastOrder(newAddress(), {
          id: String(offer.id),
          name: 'Анна',
          phone: phone(300),
          recaptcha_token: 'offline-ok',
        }),
      ),
    );
    expect(answers.filter((a) => a.success)).toHaveLength(LIMITS.fastOrdersPerPhoneDay);
    expect(await stockOf(offer.id)).toBe(50 - LIMITS.fastOrdersPerPhoneDay);
  });

  it('asks for the captcha as the login does: none or a failed one places nothing and costs no cap', async () => {
    const ip = newAddress();
    const offer = await freshOffer({ quantity: 5 });
    for (const token of [undefined, 'offline-fail']) {
      const answer = await fastOrder(ip, {
        id: String(offer.id),
        name: 'Анна',
        phone: phone(400),
        ...(token ? { recaptcha_token: token } : {}),
      });
      expect(answer).toEqual({ success: false, data: { error: AUTH_TEXT.captcha, fields: {} } });
    }
    expect(await stockOf(offer.id)).toBe(5);
    const answers = await Promise.all(
      Array.from({ length: LIMITS.fastOrdersPerOfferIpDay }, () =>
        fastOrder(ip, { id: String(offer.id), name: 'Анна', phone: phone(401), recaptcha_token: 'offline-ok' }),
      ),
    );
    expect(answers.every((a) => a.success)).toBe(true);
  });

  it(`an order staff never confirm gives its stock back after ${LIMITS.fastOrderHoldHours} hours (the release job); a confirmed one keeps it`, async () => {
    const offer = await freshOffer({ quantity: 5 });
    const ip = newAddress();
    const first = await fastOrder(ip, {
      id: String(offer.id),
      name: 'Анна',
      phone: phone(500),
      recaptcha_token: 'offline-ok',
    });
    const second = await fastOrder(ip, {
      id: String(offer.id),
      name: 'Анна',
      phone: phone(501),
      recaptcha_token: 'offline-ok',
    });
    if (!first.success || !second.success) throw new Error('fast orders refused');
    expect(await stockOf(offer.id)).toBe(3);
    const release = await db()
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, 'order.release'), sql`${jobs.payload}->>'orderId' = ${String(first.order_id)}`));
    const [placed] = await db()
      .select({ createdAt: orders.createdAt })
      .from(orders)
      .where(eq(orders.id, first.order_id));
    expect(release).toHaveLength(1);
    expect(release[0]!.runAt.getTime() - placed!.createdAt.getTime()).toBeGreaterThan(
      (LIMITS.fastOrderHoldHours - 0.1) * 3_600_000,
    );

    // Staff confirm the second one; then the hold time passes for both.
    const confirmed = await getJson(api(), '/staff/orders/', StaffOrderStatusResponse, {
      init: staffPost({ action: 'status', order_id: String(second.order_id), status: 'confirmed' }),
    });
    expect(confirmed.data?.status).toBe('confirmed');
    await db()
      .update(orders)
      .set({ createdAt: sql`${orders.createdAt} - ${`${LIMITS.fastOrderHoldHours} hours`}::interval` })
      .where(sql`${orders.id} in (${first.order_id}, ${second.order_id})`);
    await fetchJson(api(), '/staff/jobs/', StaffJobsResponse, {
      init: staffPost({ action: 'run', kind: 'order.release' }),
    });

    const rows = await db()
      .select({ id: orders.id, status: orders.status })
      .from(orders)
      .where(sql`${orders.id} in (${first.order_id}, ${second.order_id})`);
    expect(Object.fromEntries(rows.map((r) => [r.id, r.status]))).toEqual({
      [first.order_id]: 'cancelled',
      [second.order_id]: 'confirmed',
    });
    expect(await stockOf(offer.id)).toBe(4);
    const history = await db().select().from(orderStatusHistory).where(eq(orderStatusHistory.orderId, first.order_id));
    expect(history.at(-1)?.note).toMatch(/не подтверждён/);
    const items = await db().select().from(orderItems).where(eq(orderItems.orderId, first.order_id));
    expect(items).toHaveLength(1);
  });
});

describe('waiting list caps', () => {
  it('30 phones from one address on one sold-out size: its cap joins, and only they get the SMS at restock', async () => {
    const ip = newAddress();
    const offer = await freshOffer({ quantity: 0 });
    const phones = Array.from({ length: 30 }, (_, i) => phone(600 + i));
    const answers = await Promise.all(
      phones.map((p) => joinWaitingList(ip, { product_id: String(offer.id), name: 'Анна', phone: p })),
    );
    expect(answers.filter((a) => a.success)).toHaveLength(LIMITS.waitingListPerOfferIpDay);
    for (const a of answers) if (!a.success) expect(a.error.data.error).toBe(LIMIT_TEXT.waitingList);
    const entries = await db().select().from(waitingList).where(eq(waitingList.offerId, offer.id));
    expect(entries).toHaveLength(LIMITS.waitingListPerOfferIpDay);

    await fetchJson(api(), '/staff/stock/', StockChangeResponse, {
      init: staffPost({ action: 'set', offer_id: String(offer.id), quantity: '5' }),
    });
    const sms = (await readSmsOutbox(path.join(shop.dataDir, 'outbox'))).filter(
      (m) => m.tag === 'back-in-stock' && phones.includes(`+${m.phone}`),
    );
    expect(sms).toHaveLength(LIMITS.waitingListPerOfferIpDay);
  });
});

describe('success_payment_order.php cap per address', () => {
  it(`answers ${LIMITS.paymentChecksPerIpMinute} calls a minute from one address, then says to wait`, async () => {
    // A per-minute window: not straddling two.
    await eventually(async () => 60_000 - (Date.now() % 60_000) > 20_000, 'a fresh minute', 61_000);
    const ip = newAddress();
    const answers = await Promise.all(
      Array.from({ length: LIMITS.paymentChecksPerIpMinute + 10 }, (_, i) =>
        getJson(
          api(),
          `/api/catalog/success_payment_order.php?order_id=${999_000_000 + i}&payment_num=1`,
          PaymentStatusResponse,
          {
            init: { headers: { 'x-forwarded-for': ip } },
          },
        ),
      ),
    );
    expect(answers.filter((a) => a.message === 'Заказ не найден')).toHaveLength(LIMITS.paymentChecksPerIpMinute);
    expect(answers.filter((a) => a.message === LIMIT_TEXT.paymentCheck)).toHaveLength(10);
    // Another address is not held up.
    const other = await getJson(
      api(),
      '/api/catalog/success_payment_order.php?order_id=999999999',
      PaymentStatusResponse,
      {
        init: { headers: { 'x-forwarded-for': newAddress() } },
      },
    );
    expect(other.message).toBe('Заказ не найден');
  });
});

describe('CDEK calls cap per address', () => {
  it(`answers ${LIMITS.cdekCallsPerIpMinute} calls that reach CDEK a minute from one address, then 429 with the reason`, async () => {
    await eventually(async () => 60_000 - (Date.now() % 60_000) > 20_000, 'a fresh minute', 61_000);
    const ip = newAddress();
    const responses = await Promise.all(
      Array.from({ length: LIMITS.cdekCallsPerIpMinute + 5 }, () =>
        fetch(`${api()}/api/cdek/?city_code=137`, { headers: { 'x-forwarded-for': ip } }),
      ),
    );
    expect(responses.filter((r) => r.status === 200)).toHaveLength(LIMITS.cdekCallsPerIpMinute);
    const refused = responses.filter((r) => r.status === 429);
    expect(refused).toHaveLength(5);
    expect(await refused[0]!.json()).toEqual({ error: LIMIT_TEXT.cdek });
    // Leaflet's files are not counted; another address is not held up.
    expect((await fetch(`${api()}/api/cdek/leaflet.js`, { headers: { 'x-forwarded-for': ip } })).status).toBe(200);
    expect(
      (await fetch(`${api()}/api/cdek/?city_code=137`, { headers: { 'x-forwarded-for': newAddress() } })).status,
    ).toBe(200);
  });
});
