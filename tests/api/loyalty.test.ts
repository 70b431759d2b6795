import fs from 'node:fs';
import path from 'node:path';
import { and, asc, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bonusLots, bonusMoves, customers, jobs, offers, orderItems, orders, products } from '~/db/schema';
import { GIFT_COVER_OFFER_ID } from '~/core/basket';
import { LOYALTY_TEXT, accrualDueAt, birthdayWindow } from '~/core/loyalty';
import { moscowNow } from '~/core/working-days';
import { ApiError, BirthdayResponse, BonusesResponse } from '~/shared/contract';
import { DELIVERY_ID } from '~/shared/checkout-ids';
import { placeOrder } from '~/models/orders.server';
import { ACCRUE_JOB, expireBonuses, grantBirthdayBonuses, loyaltyJobHandlers } from '~/models/loyalty-jobs.server';
import { StaffFittingResponse, StaffJobsResponse, StaffOrderStatusResponse } from '~/api/staff/routes.server';
import { STAFF_TOKEN_FILE } from '~/server/secrets.server';
import { fetchJson, getJson, postForm } from '~/tests/support/api';
import { setUpTestShop } from '~/tests/support/server';
import { customerMaker } from '~/tests/support/session';
import { setStock } from '~/tests/support/stock';

// The loyalty programme (issue #12, content/pages/loyalty.md) on PGlite or (TEST_DATABASE_URL)
// PostgreSQL: orders placed by the one order function for a logged-in customer and moved along
// through the staff API; time driven by giving the handlers a `now` or by the staff path that
// brings jobs forward (`npm run jobs`).

const shop = setUpTestShop();
const db = () => shop.database.db;
const api = () => `${shop.baseUrl}/backend`;

const usedProducts = new Set<number>();

/** A fresh active offer of a product not used before: full price, on sale, or a coat (which brings the gift cover). */
async function takeOffer(kind: 'plain' | 'sale' | 'coat', stock = 5) {
  const rows = await db()
    .select({
      id: offers.id,
      productId: offers.productId,
      name: products.name,
      price: offers.priceKopecks,
      oldPrice: offers.oldPriceKopecks,
    })
    .from(offers)
    .innerJoin(products, eq(products.id, offers.productId))
    .where(
      and(
        eq(products.active, true),
        sql`${offers.id} <> ${GIFT_COVER_OFFER_ID}`,
        sql`${offers.priceKopecks} > 0`,
        sql`${products.certificate} is null`,
      ),
    )
    .orderBy(asc(offers.id));
  const found = rows.find((r) => {
    if (usedProducts.has(r.productId)) return false;
    const onSale = r.oldPrice !== null && r.oldPrice > r.price;
    const coat = /пальто/i.test(r.name);
    return kind === 'sale' ? onSale : !onSale && coat === (kind === 'coat');
  });
  if (!found) throw new Error(`the seed has no more ${kind} offers`);
  usedProducts.add(found.productId);
  await setStock(db(), found.id, stock, { preorder: false });
  return found;
}

const customer = customerMaker(shop, '7997');

async function makeOrder(
  customerId: number,
  cart: { offerId: number; quantity: number }[],
  deliveryId: string = DELIVERY_ID.cdekPickup,
): Promise<number> {
  const placed = await placeOrder({
    db: db(),
    kind: 'checkout',
    customerId,
    phone: '79161234567',
    name: 'Анна Бонусова',
    cart,
    preorders: [],
    deliveryCostKopecks: 70_000,
  });
  if (!placed.ok) throw new Error(`order not placed: ${JSON.stringify(placed)}`);
  await db().update(orders).set({ deliveryId, paymentId: '1' }).where(eq(orders.id, placed.orderId));
  return placed.orderId;
}

const staffToken = () => fs.readFileSync(path.join(shop.dataDir, STAFF_TOKEN_FILE), 'utf8').trim();
const staffInit = (fields: Record<string, string>, token = staffToken()): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${token}` },
  body: new URLSearchParams(fields).toString(),
});

async function moveTo(orderId: number, status: string, extra: Record<string, string> = {}) {
  const { body } = await fetchJson(api(), '/staff/orders/', StaffOrderStatusResponse, {
    init: staffInit({ action: 'status', order_id: String(orderId), status, ...extra }),
  });
  if (!body.data) throw new Error(JSON.stringify(body.errors));
  return body.data;
}

/** A CDEK order taken all the way to 'received'. */
async function receive(orderId: number) {
  await moveTo(orderId, 'confirmed');
  await moveTo(orderId, 'assembling');
  await moveTo(orderId, 'shipped', { track_number: `LOY-${orderId}` });
  await moveTo(orderId, 'delivered');
  return moveTo(orderId, 'received');
}

async function lineOf(orderId: number, offerId: number) {
  const [row] = await db()
    .select()
    .from(orderItems)
    .where(and(eq(orderItems.orderId, orderId), eq(orderItems.offerId, offerId)));
  if (!row) throw new Error(`no line ${offerId} in order ${orderId}`);
  return row;
}

const lotsOf = (customerId: number) =>
  db().select().from(bonusLots).where(eq(bonusLots.customerId, customerId)).orderBy(asc(bonusLots.id));
const movesOf = (customerId: number) =>
  db().select().from(bonusMoves).where(eq(bonusMoves.customerId, customerId)).orderBy(asc(bonusMoves.id));
const accrueJobs = (orderId: number) =>
  db()
    .select()
    .from(jobs)
    .where(and(eq(jobs.kind, ACCRUE_JOB), sql`${jobs.payload}->>'orderId' = ${String(orderId)}`));

const handlers = () => loyaltyJobHandlers({ db: db() });
const accrue = (orderId: number) => handlers()[ACCRUE_JOB]!({ orderId });

const bonuses = (token: string) =>
  getJson(api(), '/api/personal/bonuses.php', BonusesResponse, { init: postForm({ token }) });
const setBirthday = (token: string, birthday: string) =>
  getJson(api(), '/api/personal/birthday.php', BirthdayResponse, { init: postForm({ token, birthday }) });

/** 5 % of kopecks, whole roubles down. */
const fivePercent = (kopecks: number) => Math.floor((kopecks * 5) / 100 / 100) * 100;

describe('accrual: 5 % of what was paid, 14 days after receipt', () => {
  it('is scheduled at receipt for 14 days on, shown as coming, then credited once even with two runners at once', async () => {
    const who = await customer();
    const plain = await takeOffer('plain');
    const sale = await takeOffer('sale');
    const coat = await takeOffer('coat');
    const cert = await takeOffer('plain');
    const orderId = await makeOrder(who.customerId, [
      { offerId: plain.id, quantity: 2 },
      { offerId: sale.id, quantity: 1 },
      { offerId: coat.id, quantity: 1 },
      { offerId: cert.id, quantity: 1 },
    ]);
    // A gift certificate earns nothing: the product is made one (the seed's may not exist yet).
    await db().update(products).set({ certificate: 'electronic' }).where(eq(products.id, cert.productId));
    expect((await lineOf(orderId, GIFT_COVER_OFFER_ID)).isGift).toBe(true);

    // Not received yet: nothing scheduled.
    await moveTo(orderId, 'confirmed');
    expect(await accrueJobs(orderId)).toHaveLength(0);
    await moveTo(orderId, 'assembling');
    await moveTo(orderId, 'shipped', { track_number: `LOY-${orderId}` });
    const delivered = await moveTo(orderId, 'delivered');
    await moveTo(orderId, 'received');
    const [job] = await accrueJobs(orderId);
    expect(job?.runAt.toISOString()).toBe(accrualDueAt(new Date(delivered.delivered_at!)).toISOString());
    expect(job?.doneAt).toBeNull();

    // One of the two plain items goes back before the credit: it earns nothing.
    await db()
      .update(orderItems)
      .set({ returnedQuantity: 1 })
      .where(and(eq(orderItems.orderId, orderId), eq(orderItems.offerId, plain.id)));
    const expected = fivePercent(plain.price + coat.price);
    expect(expected).toBeGreaterThan(0);

    const before = await bonuses(who.token);
    expect(before.balance).toBe(0);
    expect(before.pending).toEqual([
      { order_id: orderId, amount: expected / 100, date: expect.stringMatching(/^\d{1,2} [а-я]+ \d{4}$/) },
    ]);

    await Promise.all([accrue(orderId), accrue(orderId)]);
    await accrue(orderId);
    const lots = await lotsOf(who.customerId);
    expect(lots).toHaveLength(1);
    expect(lots[0]).toMatchObject({
      kind: 'purchase',
      lotKey: `order:${orderId}`,
      orderId,
      amountKopecks: expected,
      remainingKopecks: expected,
    });
    const credited = lots[0]!.createdAt;
    const expires = new Date(credited);
    expires.setUTCMonth(expires.getUTCMonth() + 12);
    expect(lots[0]!.expiresAt.toISOString()).toBe(expires.toISOString());
    expect(lots[0]!.availableFrom.getTime()).toBeLessThanOrEqual(Date.now());
    const moves = await movesOf(who.customerId);
    expect(moves.map((m) => [m.kind, m.amountKopecks, m.orderId])).toEqual([['credit', expected, orderId]]);

    const after = await bonuses(who.token);
    expect(after.balance).toBe(expected / 100);
    expect(after.pending).toEqual([]);
    expect(after.history).toEqual([
      {
        date: expect.any(String),
        kind: 'credit',
        text: `Начислено за заказ №${orderId}`,
        amount: expected / 100,
        expires: expect.stringMatching(/ \d{4}$/),
      },
    ]);
  });

  it('credits nothing for an order of sale items, certificates and delivery only, and nothing for a guest', async () => {
    const who = await customer();
    const sale = await takeOffer('sale');
    const orderId = await makeOrder(who.customerId, [{ offerId: sale.id, quantity: 1 }]);
    await receive(orderId);
    await accrue(orderId);
    expect(await lotsOf(who.customerId)).toEqual([]);
    expect((await bonuses(who.token)).pending).toEqual([]);

    const plain = await takeOffer('plain');
    const guestOrder = await makeOrder(who.customerId, [{ offerId: plain.id, quantity: 1 }]);
    await db().update(orders).set({ customerId: null }).where(eq(orders.id, guestOrder));
    await receive(guestOrder);
    await accrue(guestOrder);
    expect(await lotsOf(who.customerId)).toEqual([]);
  });

  it('credits nothing while the order is not received (a job left from before changes nothing)', async () => {
    const who = await customer();
    const plain = await takeOffer('plain');
    const orderId = await makeOrder(who.customerId, [{ offerId: plain.id, quantity: 1 }]);
    await moveTo(orderId, 'cancelled');
    await accrue(orderId);
    expect(await lotsOf(who.customerId)).toEqual([]);
  });

  it('counts only what was kept at a Moscow courier fitting', async () => {
    const who = await customer();
    const plain = await takeOffer('plain');
    const orderId = await makeOrder(who.customerId, [{ offerId: plain.id, quantity: 2 }], DELIVERY_ID.moscowCourier);
    for (const s of ['confirmed', 'assembling', 'shipped']) await moveTo(orderId, s);
    const { body } = await fetchJson(api(), '/staff/orders/', StaffFittingResponse, {
      init: staffInit({
        action: 'fitting',
        order_id: String(orderId),
        [`lines[${plain.id}][kept]`]: '1',
        [`lines[${plain.id}][refused]`]: '1',
      }),
    });
    expect(body.data?.status).toBe('received');
    expect(await accrueJobs(orderId)).toHaveLength(1);
    await accrue(orderId);
    const [lot] = await lotsOf(who.customerId);
    expect(lot?.amountKopecks).toBe(fivePercent(plain.price));
  });

  it('npm run jobs -- run bonus.accrue: the staff path makes the waiting accruals due and runs them', async () => {
    const who = await customer();
    const plain = await takeOffer('plain');
    const orderId = await makeOrder(who.customerId, [{ offerId: plain.id, quantity: 1 }]);
    await receive(orderId);
    // Due in 14 days: the shop's own worker leaves it alone.
    expect((await accrueJobs(orderId))[0]!.runAt.getTime()).toBeGreaterThan(Date.now() + 13 * 86_400_000);

    const { body } = await fetchJson(api(), '/staff/jobs/', StaffJobsResponse, {
      init: staffInit({ action: 'run', kind: ACCRUE_JOB }),
    });
    expect(body.errors).toEqual({});
    expect(body.data?.kinds).toEqual(expect.arrayContaining([ACCRUE_JOB, 'loyalty.daily', 'maintenance.prune']));
    expect(body.data?.made_due).toBeGreaterThanOrEqual(1);
    expect(body.data?.ran).toBeGreaterThanOrEqual(1);
    const [job] = await accrueJobs(orderId);
    expect(job?.doneAt).not.toBeNull();
    expect((await lotsOf(who.customerId)).map((l) => l.amountKopecks)).toEqual([fivePercent(plain.price)]);

    // Without a kind: only the periodic ones.
    const periodic = await fetchJson(api(), '/staff/jobs/', StaffJobsResponse, { init: staffInit({ action: 'run' }) });
    expect(periodic.body.data?.kinds).not.toContain(ACCRUE_JOB);
    const unknown = await fetchJson(api(), '/staff/jobs/', StaffJobsResponse, {
      init: staffInit({ action: 'run', kind: 'no.such' }),
    });
    expect(unknown.body).toMatchObject({
      data: null,
      errors: { kind: expect.stringContaining('Нет задач вида no.such') },
    });
    await fetchJson(api(), '/staff/jobs/', ApiError, {
      init: staffInit({ action: 'run' }, 'wrong-token-wrong-token-123'),
      status: 401,
    });
  });
});

describe('the birthday gift', () => {
  it('is granted once per year, only inside its window, with two runners at once', async () => {
    const who = await customer();
    await db().update(customers).set({ birthday: '1990-03-14' }).where(eq(customers.id, who.customerId));
    const at = (iso: string) => new Date(iso);

    // 8 days before (Moscow): not yet.
    await grantBirthdayBonuses(db(), at('2030-03-05T12:00:00Z'));
    expect(await lotsOf(who.customerId)).toEqual([]);
    // 7 days before, just after Moscow midnight: the window opens.
    await Promise.all([
      grantBirthdayBonuses(db(), at('2030-03-06T21:30:00Z')),
      grantBirthdayBonuses(db(), at('2030-03-06T21:30:00Z')),
    ]);
    await grantBirthdayBonuses(db(), at('2030-03-20T12:00:00Z'));
    let lots = await lotsOf(who.customerId);
    const window = birthdayWindow('1990-03-14', at('2030-03-10T00:00:00Z'));
    expect(lots).toHaveLength(1);
    expect(lots[0]).toMatchObject({
      kind: 'birthday',
      lotKey: 'birthday:2030',
      amountKopecks: 200_000,
      remainingKopecks: 200_000,
    });
    expect(lots[0]!.availableFrom.toISOString()).toBe(window.from.toISOString());
    expect(lots[0]!.expiresAt.toISOString()).toBe(window.to.toISOString());
    expect((await movesOf(who.customerId)).map((m) => [m.kind, m.amountKopecks])).toEqual([['birthday', 200_000]]);

    // After the window: nothing more; the next year's window: the next gift.
    await grantBirthdayBonuses(db(), at('2030-03-23T12:00:00Z'));
    expect(await lotsOf(who.customerId)).toHaveLength(1);
    await grantBirthdayBonuses(db(), at('2031-03-14T12:00:00Z'));
    lots = await lotsOf(who.customerId);
    expect(lots.map((l) => l.lotKey)).toEqual(['birthday:2030', 'birthday:2031']);
  });

  it('is set once in the account, granted at once when its window is open, and a second date is refused in Russian', async () => {
    const who = await customer();
    await fetchJson(api(), '/api/personal/birthday.php', ApiError, {
      init: postForm({ birthday: '14.03.1990' }),
      status: 401,
    });
    expect(await setBirthday(who.token, '31.02.1990')).toEqual({
      success: false,
      error: LOYALTY_TEXT.badBirthday,
      field: 'birthday',
    });
    expect(await setBirthday(who.token, '01.01.2030')).toEqual({
      success: false,
      error: LOYALTY_TEXT.badBirthday,
      field: 'birthday',
    });

    // Today (Moscow) in 1990: the window is open now.
    const today = moscowNow(new Date()).date;
    const birthday = today.slice(5) === '02-29' ? '1992-02-29' : `1990-${today.slice(5)}`;
    const [d, m, y] = [birthday.slice(8), birthday.slice(5, 7), birthday.slice(0, 4)];
    expect(await setBirthday(who.token, `${d}.${m}.${y}`)).toEqual({ success: true, birthday, granted: true });
    // The same date again is no change; another is refused.
    expect(await setBirthday(who.token, birthday)).toEqual({ success: true, birthday, granted: false });
    expect(await setBirthday(who.token, '01.01.1991')).toEqual({
      success: false,
      error: LOYALTY_TEXT.birthdayOnce,
      field: 'birthday',
    });
    const [row] = await db()
      .select({ birthday: customers.birthday })
      .from(customers)
      .where(eq(customers.id, who.customerId));
    expect(row?.birthday).toBe(birthday);

    const account = await bonuses(who.token);
    expect(account.balance).toBe(2000);
    expect(account.birthday).toBe(birthday);
    expect(account.history).toEqual([
      {
        date: expect.any(String),
        kind: 'birthday',
        text: 'Подарок ко дню рождения',
        amount: 2000,
        expires: expect.any(String),
      },
    ]);
    // The daily run finds it granted.
    await grantBirthdayBonuses(db());
    expect(await lotsOf(who.customerId)).toHaveLength(1);
  });

  it('two different dates sent at once: one is stored, the other refused', async () => {
    const who = await customer();
    const answers = await Promise.all([setBirthday(who.token, '1985-06-01'), setBirthday(who.token, '1986-07-02')]);
    expect(answers.filter((a) => a.success)).toHaveLength(1);
    expect(answers.filter((a) => !a.success)).toEqual([
      { success: false, error: LOYALTY_TEXT.birthdayOnce, field: 'birthday' },
    ]);
  });
});

describe('expiry', () => {
  it('burns what is left of expired lots once, and the history says «Сгорели»', async () => {
    const who = await customer();
    const now = new Date();
    const [lot] = await db()
      .insert(bonusLots)
      .values({
        customerId: who.customerId,
        kind: 'manual',
        lotKey: 'test:expiring',
        amountKopecks: 50_000,
        remainingKopecks: 30_000,
        availableFrom: new Date(now.getTime() - 400 * 86_400_000),
        expiresAt: new Date(now.getTime() - 1000),
      })
      .returning({ id: bonusLots.id });
    await db()
      .insert(bonusLots)
      .values({
        customerId: who.customerId,
        kind: 'manual',
        lotKey: 'test:live',
        amountKopecks: 10_000,
        remainingKopecks: 10_000,
        availableFrom: new Date(now.getTime() - 1000),
        expiresAt: new Date(now.getTime() + 86_400_000),
      });
    await db()
      .insert(bonusMoves)
      .values([
        {
          customerId: who.customerId,
          lotId: lot!.id,
          kind: 'manual',
          amountKopecks: 50_000,
          createdAt: new Date(now.getTime() - 400 * 86_400_000),
        },
        {
          customerId: who.customerId,
          lotId: lot!.id,
          kind: 'spend',
          amountKopecks: -20_000,
          createdAt: new Date(now.getTime() - 300 * 86_400_000),
        },
      ]);
    expect((await bonuses(who.token)).balance).toBe(100);

    await Promise.all([expireBonuses(db(), now), expireBonuses(db(), now)]);
    await handlers()['loyalty.daily']!({});
    const lots = await lotsOf(who.customerId);
    expect(lots.map((l) => [l.lotKey, l.remainingKopecks])).toEqual([
      ['test:expiring', 0],
      ['test:live', 10_000],
    ]);
    const moves = await movesOf(who.customerId);
    expect(moves.filter((m) => m.kind === 'expire').map((m) => [m.lotId, m.amountKopecks])).toEqual([
      [lot!.id, -30_000],
    ]);

    const account = await bonuses(who.token);
    expect(account.balance).toBe(100);
    expect(account.history.map((h) => [h.kind, h.text, h.amount])).toEqual([
      ['expire', 'Сгорели', -300],
      ['spend', 'Списано', -200],
      ['manual', 'Начислено магазином', 500],
    ]);
  });
});

describe('bonuses.php', () => {
  it('answers 401 without a token or with a dead one, and an empty account for a new customer', async () => {
    await fetchJson(api(), '/api/personal/bonuses.php', ApiError, { init: postForm({}), status: 401 });
    await fetchJson(api(), '/api/personal/bonuses.php', ApiError, {
      init: postForm({ token: 'not-a-token' }),
      status: 401,
    });
    const who = await customer();
    const { response, body } = await fetchJson(api(), '/api/personal/bonuses.php', BonusesResponse, {
      init: postForm({ token: who.token }),
    });
    expect(body).toEqual({ balance: 0, birthday: null, history: [], pending: [] });
    expect(response.headers.get('cache-control')).toBe('private, no-store');
  });

  it('shows one entry for a spend taken from two lots', async () => {
    const who = await customer();
    const now = new Date();
    const plain = await takeOffer('plain');
    const orderId = await makeOrder(who.customerId, [{ offerId: plain.id, quantity: 1 }]);
    const lotIds = await db()
      .insert(bonusLots)
      .values(
        [1, 2].map((i) => ({
          customerId: who.customerId,
          kind: 'manual' as const,
          lotKey: `test:two:${i}`,
          amountKopecks: 10_000,
          remainingKopecks: 0,
          availableFrom: now,
          expiresAt: new Date(now.getTime() + i * 86_400_000),
        })),
      )
      .returning({ id: bonusLots.id });
    await db()
      .insert(bonusMoves)
      .values(
        lotIds.map((l) => ({
          customerId: who.customerId,
          lotId: l.id,
          kind: 'spend' as const,
          amountKopecks: -10_000,
          orderId,
          createdAt: now,
        })),
      );
    const account = await bonuses(who.token);
    expect(account.history).toEqual([
      { date: expect.any(String), kind: 'spend', text: `Списано в заказе №${orderId}`, amount: -200, expires: null },
    ]);
  });
});
