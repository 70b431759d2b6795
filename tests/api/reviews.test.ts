import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '~/db/client.server';
import { customers, offers, orderItems, orders, products, reviewPhotos, reviews, reviewVotes } from '~/db/schema';
import { readCatalogVersion } from '~/db/catalog-version.server';
import { REVIEW_TEXT, REVIEWS_PER_DAY } from '~/core/reviews';
import { CheckoutOrderResponse, ReturnCreateResponse } from '~/shared/contract';
import {
  AdminReviewListResponse,
  AdminReviewOneResponse,
  ReviewHelpfulResponse,
  ReviewLinesResponse,
  ReviewListResponse,
  ReviewVotesResponse,
  ReviewWriteResponse,
} from '~/shared/reviews-contract';
import { COOKIE } from '~/shared/cookies';
import { REVIEW_EDGE_TEXT } from '~/api/reviews/routes.server';
import { StaffOrderStatusResponse } from '~/api/staff/routes.server';
import { STAFF_TOKEN_FILE } from '~/server/secrets.server';
import { expectContract, fetchJson, getJson, postForm } from '~/tests/support/api';
import { setUpTestShop } from '~/tests/support/server';
import { customerMaker } from '~/tests/support/session';
import { courierForm, offerPicker } from '~/tests/support/checkout';
import { admin, staffSession, testClock } from '~/tests/support/admin';

// Product reviews (issue #32) over HTTP on PGlite or (TEST_DATABASE_URL) PostgreSQL: who may review
// what (received and kept lines only, once per line, within 60 days), photos through the image
// pipeline (nothing half stored), moderation in the back office (queue, reject with a reason the
// customer sees, resend once, publish, reply, audit), the public list and rating, a return that
// withdraws the review (a line returned whole; a line partly returned keeps it), the daily cap and
// the publish-then-moderate setting, «Помог» (once per customer, a double click is one vote), and
// the session cookie taken only on a same-origin JSON call (a cross-site form post is refused).

const clock = testClock();
const shop = setUpTestShop({ clock: clock.now });
const db = () => shop.database.db;
const api = () => `${shop.baseUrl}/backend`;
const customer = customerMaker(shop, '7993');
const freshOffer = offerPicker(shop);

type Role = 'admin' | 'manager' | 'warehouse' | 'content';
const sessions: Partial<Record<Role, Awaited<ReturnType<typeof staffSession>>>> = {};
async function as(role: Role) {
  sessions[role] ??= await staffSession(shop, clock, { email: `${role}@reviews.example`, role });
  return sessions[role];
}

let offerCursor = 0;
/** Offers of garments (not certificates), each of a product no other test used. */
async function garmentOffers(n: number): Promise<{ id: number; productId: number; size: string }[]> {
  const rows = await queryRows<{ id: number; product_id: number }>(
    db(),
    sql`select distinct on (p.id) o.id, p.id as product_id from offers o join products p on p.id = o.product_id
        where p.active and p.certificate is null order by p.id, o.id offset ${120 + offerCursor} limit ${n}`,
  );
  offerCursor += n;
  return rows.map((r) => ({ id: Number(r.id), productId: Number(r.product_id), size: 'M' }));
}

/** An order of the customer written straight into the tables (status and receipt as given). */
async function orderOf(
  customerId: number,
  lines: { id: number }[],
  { status = 'received', deliveredAt = clock.now() as Date | null, kept = null as number | null } = {},
) {
  const [order] = await db()
    .insert(orders)
    .values({
      customerId,
      status,
      deliveredAt,
      itemsTotalKopecks: 100_000 * lines.length,
      totalKopecks: 100_000 * lines.length,
      phone: '79990000000',
    })
    .returning({ id: orders.id });
  const orderId = (order as { id: number }).id;
  await db()
    .insert(orderItems)
    .values(
      lines.map((l) => ({
        orderId,
        offerId: l.id,
        title: 'Вещь',
        size: '44',
        color: 'чёрный',
        priceKopecks: 100_000,
        quantity: 1,
        keptQuantity: kept,
      })),
    );
  return orderId;
}

async function photo(width = 400, height = 300): Promise<string> {
  const jpeg = await sharp({ create: { width, height, channels: 3, background: { r: 180, g: 90, b: 60 } } })
    .jpeg()
    .withMetadata({ exif: { IFD0: { Copyright: 'gps-should-go' } } })
    .toBuffer();
  return jpeg.toString('base64');
}

const good = {
  rating: 4,
  fit: 'small',
  text: 'Хорошее пальто, но маломерит: берите на размер больше.',
  height: '168',
  usual_size: '44',
};

async function post<T>(apiPath: string, body: unknown, Schema: { parse: (v: unknown) => T }): Promise<T> {
  const res = await fetch(`${api()}${apiPath}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return Schema.parse(await res.json());
}
const lines = (token: string, extra: Record<string, string> = {}) =>
  post('/api/personal/review_lines.php', { token, ...extra }, ReviewLinesResponse);
const add = (token: string, body: Record<string, unknown>) =>
  post('/api/personal/review_add.php', { token, ...good, ...body }, ReviewWriteResponse);
const list = (productId: number, q = '') =>
  getJson(api(), `/api/reviews/list.php?product_id=${productId}${q}`, ReviewListResponse);
const reviewFiles = () => {
  try {
    return fs.readdirSync(path.join(shop.dataDir, 'media', 'reviews')).sort();
  } catch {
    return [];
  }
};
const auditOf = (id: number) =>
  queryRows<{ action: string; reason: string | null }>(
    db(),
    sql`select action, reason from audit_events where entity_type = 'review' and entity_id = ${String(id)} order by id`,
  );

describe('who may review what', () => {
  it('a received line, once, by its buyer; not before receipt, not what was refused at the fitting, not after 60 days', async () => {
    const who = await customer();
    await db().update(customers).set({ firstName: 'мария анна' }).where(eq(customers.id, who.customerId));
    const [a, b, c, d] = await garmentOffers(4);
    const received = await orderOf(who.customerId, [a!]);
    const onTheWay = await orderOf(who.customerId, [b!], { status: 'shipped', deliveredAt: null });
    const refused = await orderOf(who.customerId, [c!], { kept: 0 });
    const old = await orderOf(who.customerId, [d!], { deliveredAt: new Date(clock.now().getTime() - 61 * 86_400_000) });

    const all = await lines(who.token);
    const state = (orderId: number) => all.lines.find((l) => l.order_id === orderId);
    expect(state(received)).toMatchObject({ can_review: true, reason: null, review: null });
    expect(state(onTheWay)).toMatchObject({ can_review: false, reason: REVIEW_TEXT.notReceived });
    expect(state(refused)).toMatchObject({ can_review: false, reason: REVIEW_TEXT.notKept });
    expect(state(old)).toMatchObject({ can_review: false, reason: REVIEW_TEXT.expired });
    expect(all.window_note).toMatch(/60 дней/);

    for (const [orderId, offer, error] of [
      [onTheWay, b, REVIEW_TEXT.notReceived],
      [refused, c, REVIEW_TEXT.notKept],
      [old, d, REVIEW_TEXT.expired],
    ] as const)
      expect(await add(who.token, { order_id: orderId, offer_id: offer!.id })).toEqual({
        success: false,
        error,
        field: 'offer_id',
      });

    // Another customer cannot review this one's line.
    const other = await customer();
    expect(await add(other.token, { order_id: received, offer_id: a!.id })).toMatchObject({
      success: false,
      error: REVIEW_TEXT.notFound,
    });
    // The form's mistakes, in Russian.
    expect(await add(who.token, { order_id: received, offer_id: a!.id, rating: '' })).toEqual({
      success: false,
      error: REVIEW_TEXT.ratingRequired,
      field: 'rating',
    });
    expect(await add(who.token, { order_id: received, offer_id: a!.id, text: 'мало' })).toEqual({
      success: false,
      error: REVIEW_TEXT.textShort,
      field: 'text',
    });

    const made = await add(who.token, { order_id: received, offer_id: a!.id, photos: [await photo()] });
    expect(made).toMatchObject({
      success: true,
      published: false,
      review: { status: 'pending', status_label: 'На модерации', rating: 4, fit: 'small' },
    });
    const [row] = await db().select().from(reviews).where(eq(reviews.orderId, received));
    expect(row).toMatchObject({
      authorName: 'Мария',
      size: '44',
      heightCm: 168,
      usualSize: '44',
      photoCount: 1,
      productId: a!.productId,
    });
    // The photo went through the pipeline: re-encoded JPEG without its metadata.
    const [p] = await db().select().from(reviewPhotos).where(eq(reviewPhotos.reviewId, row!.id));
    const meta = await sharp(path.join(shop.dataDir, 'media', p!.path)).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 400, height: 300 });
    expect(meta.exif).toBeUndefined();
    // Once per line; not on the product page before moderation.
    expect(await add(who.token, { order_id: received, offer_id: a!.id })).toMatchObject({
      success: false,
      error: REVIEW_TEXT.already,
    });
    expect((await list(a!.productId)).summary.count).toBe(0);
  });

  it('photos: only real images, at most five; a refused photo stores nothing', async () => {
    const who = await customer();
    const [a] = await garmentOffers(1);
    const orderId = await orderOf(who.customerId, [a!]);
    const before = reviewFiles();
    const fake = Buffer.from('<?php echo "not a picture"; ?>'.repeat(20)).toString('base64');
    expect(await add(who.token, { order_id: orderId, offer_id: a!.id, photos: [await photo(), fake] })).toMatchObject({
      success: false,
      field: 'photos',
    });
    expect(await add(who.token, { order_id: orderId, offer_id: a!.id, photos: [await photo(50, 50)] })).toMatchObject({
      success: false,
      field: 'photos',
    });
    const six = await Promise.all([1, 2, 3, 4, 5, 6].map(() => photo()));
    expect(await add(who.token, { order_id: orderId, offer_id: a!.id, photos: six })).toEqual({
      success: false,
      error: REVIEW_TEXT.tooManyPhotos,
      field: 'photos',
    });
    expect(reviewFiles()).toEqual(before);
    expect(await db().select().from(reviews).where(eq(reviews.orderId, orderId))).toEqual([]);
    // A review refused after its photos were written (the line already reviewed) leaves no file either.
    expect(await add(who.token, { order_id: orderId, offer_id: a!.id, photos: [await photo()] })).toMatchObject({
      success: true,
    });
    const files = reviewFiles();
    expect(await add(who.token, { order_id: orderId, offer_id: a!.id, photos: [await photo()] })).toMatchObject({
      success: false,
      error: REVIEW_TEXT.already,
    });
    expect(reviewFiles()).toEqual(files);
  });

  it('caps new reviews per customer per day', async () => {
    const who = await customer();
    const offersMade = await garmentOffers(REVIEWS_PER_DAY + 1);
    const orderId = await orderOf(who.customerId, offersMade);
    for (const o of offersMade.slice(0, REVIEWS_PER_DAY))
      expect(await add(who.token, { order_id: orderId, offer_id: o.id })).toMatchObject({ success: true });
    const last = offersMade[REVIEWS_PER_DAY]!;
    expect(await add(who.token, { order_id: orderId, offer_id: last.id })).toEqual({
      success: false,
      error: REVIEW_TEXT.tooManyToday,
      field: 'text',
    });
  });
});

describe('moderation', () => {
  it('queue, reject with a reason, resend once, publish, reply; roles; audit; the product page and its version', async () => {
    const who = await customer();
    const [a] = await garmentOffers(1);
    const orderId = await orderOf(who.customerId, [a!]);
    const made = await add(who.token, {
      order_id: orderId,
      offer_id: a!.id,
      text: 'Ткань приятная, см. http://spam.example <b>жирно</b>',
      photos: [await photo()],
    });
    if (!made.success) throw new Error(made.error);
    const id = made.review.id;
    const content = await as('content');
    const manager = await as('manager');

    expect((await admin(shop, '/reviews?queue=true', { cookie: (await as('warehouse')).cookie })).status).toBe(403);
    const queue = expectContract(
      AdminReviewListResponse,
      (await admin(shop, '/reviews?queue=true&limit=100', { cookie: content.cookie })).body,
    );
    expect(queue.data.find((r) => r.id === id)).toMatchObject({
      in_queue: true,
      status: 'pending',
      author: 'Покупатель',
      photos: [expect.any(Object)],
    });

    // Reject: the customer sees the reason and may resend once.
    expect((await admin(shop, `/reviews/${id}/reject`, { cookie: content.cookie, body: { reason: '' } })).status).toBe(
      400,
    );
    const rejected = await admin(shop, `/reviews/${id}/reject`, {
      cookie: content.cookie,
      body: { reason: 'Уберите ссылку на другой сайт' },
    });
    expect(rejected.status, JSON.stringify(rejected.body)).toBe(200);
    let mine = (await lines(who.token, { order_id: String(orderId) })).lines[0]?.review;
    expect(mine).toMatchObject({
      status: 'rejected',
      status_label: 'Отклонён',
      reject_reason: 'Уберите ссылку на другой сайт',
      can_resend: true,
    });
    const resent = await post(
      '/api/personal/review_resend.php',
      { token: who.token, review_id: id, ...good, keep_photos: true },
      ReviewWriteResponse,
    );
    expect(resent).toMatchObject({
      success: true,
      review: { status: 'pending', can_resend: false, photos: [expect.any(Object)] },
    });
    expect(
      await post('/api/personal/review_resend.php', { token: who.token, review_id: id, ...good }, ReviewWriteResponse),
    ).toMatchObject({
      success: false,
      error: REVIEW_TEXT.cannotResend,
    });
    await admin(shop, `/reviews/${id}/reject`, { cookie: content.cookie, body: { reason: 'Всё ещё не подходит' } });
    expect(
      await post('/api/personal/review_resend.php', { token: who.token, review_id: id, ...good }, ReviewWriteResponse),
    ).toMatchObject({
      success: false,
      error: REVIEW_TEXT.resendUsed,
    });

    // Publish (the manager may too): on the product page, the catalogue version moves so cached pages go.
    const version = await readCatalogVersion(db());
    const published = await admin(shop, `/reviews/${id}/publish`, { cookie: manager.cookie, body: {} });
    expect(expectContract(AdminReviewOneResponse, published.body).data).toMatchObject({
      status: 'published',
      in_queue: false,
    });
    expect(await readCatalogVersion(db())).toBeGreaterThan(version);
    expect((await admin(shop, `/reviews/${id}/publish`, { cookie: manager.cookie, body: {} })).status).toBe(409);
    expect(
      (await admin(shop, `/reviews/${id}/reply`, { cookie: content.cookie, body: { reply: 'Спасибо за отзыв!' } }))
        .status,
    ).toBe(200);

    const page = await list(a!.productId);
    expect(page.summary).toMatchObject({ average: 4, count: 1, with_photos: 1 });
    expect(page.items[0]).toMatchObject({
      id,
      author: 'Покупатель',
      rating: 4,
      fit_label: 'маломерит',
      size: '44',
      reply: 'Спасибо за отзыв!',
      photos: [expect.any(Object)],
    });
    expect((await list(a!.productId, '&rating=5')).items).toEqual([]);
    expect((await list(a!.productId, '&photos=1&sort=helpful')).items.map((r) => r.id)).toEqual([id]);
    mine = (await lines(who.token, { order_id: String(orderId) })).lines[0]?.review;
    expect(mine).toMatchObject({ status: 'published', reject_reason: null, reply: 'Спасибо за отзыв!' });

    expect((await auditOf(id)).map((r) => r.action)).toEqual([
      'review.reject',
      'review.reject',
      'review.publish',
      'review.reply',
    ]);
    expect((await auditOf(id))[0]?.reason).toBe('Уберите ссылку на другой сайт');
  });

  it('fit advice once five answers agree; publish-then-moderate publishes at once and keeps the review in the queue', async () => {
    const content = await as('content');
    const [a] = await garmentOffers(1);
    const setting = await admin(shop, '/review-settings', { cookie: content.cookie, body: { mode: 'postmoderation' } });
    expect(setting.status, JSON.stringify(setting.body)).toBe(200);
    try {
      const fits = ['small', 'small', 'small', 'true', 'small'];
      for (const [i, fit] of fits.entries()) {
        const who = await customer();
        const orderId = await orderOf(who.customerId, [a!]);
        const made = await add(who.token, { order_id: orderId, offer_id: a!.id, fit, rating: String(5 - (i % 2)) });
        expect(made).toMatchObject({ success: true, published: true });
        const advice = (await list(a!.productId)).summary.fit;
        expect(advice.advice_text).toBe(
          i === 4 ? 'Большинство покупателей считают, что модель маломерит: берите на размер больше' : null,
        );
      }
      const page = await list(a!.productId);
      expect(page.summary).toMatchObject({
        count: 5,
        average: 4.6,
        fit: { total: 5, advice: 'small', counts: { small: 4, true: 1, large: 0 } },
      });
      const queue = expectContract(
        AdminReviewListResponse,
        (await admin(shop, `/reviews?queue=true&product_id=${a!.productId}`, { cookie: content.cookie })).body,
      );
      expect(queue.data.map((r) => r.status)).toEqual([
        'published',
        'published',
        'published',
        'published',
        'published',
      ]);
      expect(queue.data.every((r) => r.in_queue)).toBe(true);
    } finally {
      await admin(shop, '/review-settings', { cookie: content.cookie, body: { mode: 'premoderation' } });
    }
  });
});

describe('a return withdraws the review', () => {
  const staffToken = () => fs.readFileSync(path.join(shop.dataDir, STAFF_TOKEN_FILE), 'utf8').trim();
  const staffInit = (fields: Record<string, string>): RequestInit => ({
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${staffToken()}` },
    body: new URLSearchParams(fields).toString(),
  });

  /** An order placed through checkout and taken to «delivered» by staff. */
  async function deliveredOrder(token: string, ids: string): Promise<number> {
    const placed = await getJson(api(), '/api/catalog/order.php', CheckoutOrderResponse, {
      init: postForm(courierForm(token, ids)),
    });
    if (!placed.success) throw new Error(JSON.stringify(placed.data));
    for (const status of ['confirmed', 'assembling', 'shipped', 'delivered']) {
      const { body } = await fetchJson(api(), '/staff/orders/', StaffOrderStatusResponse, {
        init: staffInit({ action: 'status', order_id: String(placed.order_id), status }),
      });
      if (!body.data) throw new Error(JSON.stringify(body.errors));
    }
    return placed.order_id;
  }

  /** A review of the line written and published. */
  async function publishedReview(token: string, orderId: number, offerId: number, extra: Record<string, unknown>) {
    const made = await add(token, { order_id: orderId, offer_id: offerId, ...extra });
    if (!made.success) throw new Error(made.error);
    const manager = await as('manager');
    const published = await admin(shop, `/reviews/${made.review.id}/publish`, { cookie: manager.cookie, body: {} });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    return made.review.id;
  }

  /** A return of `items` (offer id → units) asked by the customer and approved by the manager. */
  async function approvedReturn(token: string, orderId: number, items: Record<number, number>) {
    const asked = await getJson(api(), '/api/personal/return_add.php', ReturnCreateResponse, {
      init: postForm({
        token,
        order_id: String(orderId),
        reason: 'Не подошёл размер',
        ...Object.fromEntries(Object.entries(items).map(([id, n]) => [`items[${id}]`, String(n)])),
      }),
    });
    if (!asked.success) throw new Error(asked.error);
    const manager = await as('manager');
    const approved = await admin(shop, `/returns/${asked.id}/approve`, { cookie: manager.cookie, body: {} });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
  }

  const productOf = async (offerId: number) => {
    const [row] = await db()
      .select({ id: products.id })
      .from(products)
      .innerJoin(offers, eq(offers.productId, products.id))
      .where(eq(offers.id, offerId));
    return row!.id;
  };
  const withdrawnAt = async (id: number) =>
    (await db().select({ at: reviews.withdrawnAt }).from(reviews).where(eq(reviews.id, id)))[0]?.at ?? null;

  it('a published review of a line returned whole leaves the page and the rating', async () => {
    const offer = await freshOffer({ min: 300_000, max: 1_500_000 });
    const who = await customer();
    const placed = await getJson(api(), '/api/catalog/order.php', CheckoutOrderResponse, {
      init: postForm(courierForm(who.token, `${offer.id}:1`)),
    });
    if (!placed.success) throw new Error(JSON.stringify(placed.data));
    const orderId = placed.order_id;
    expect((await lines(who.token, { order_id: String(orderId) })).lines[0]).toMatchObject({
      can_review: false,
      reason: REVIEW_TEXT.notReceived,
    });
    for (const status of ['confirmed', 'assembling', 'shipped', 'delivered']) {
      const { body } = await fetchJson(api(), '/staff/orders/', StaffOrderStatusResponse, {
        init: staffInit({ action: 'status', order_id: String(orderId), status }),
      });
      if (!body.data) throw new Error(JSON.stringify(body.errors));
    }
    const id = await publishedReview(who.token, orderId, offer.id, { rating: 2 });
    const productId = await productOf(offer.id);
    const before = (await list(productId)).summary.count;
    expect(before).toBeGreaterThanOrEqual(1);

    const version = await readCatalogVersion(db());
    await approvedReturn(who.token, orderId, { [offer.id]: 1 });
    expect(await readCatalogVersion(db())).toBeGreaterThan(version);
    expect((await list(productId)).summary.count).toBe(before - 1);
    expect((await list(productId)).items.map((r) => r.id)).not.toContain(id);
    const mine = (await lines(who.token, { order_id: String(orderId) })).lines[0];
    expect(mine).toMatchObject({ can_review: false, review: { withdrawn: true, status_label: 'Снят после возврата' } });
    expect(await withdrawnAt(id)).not.toBeNull();
  });

  it('a line partly returned keeps its review (the buyer kept a unit); the last unit back withdraws it, and only that line’s', async () => {
    // Line A: two bought, one returned, then the other; line B: one bought, kept all along.
    const a = await freshOffer({ min: 300_000, max: 1_500_000 });
    const b = await freshOffer({ min: 300_000, max: 1_500_000 });
    const who = await customer();
    const orderId = await deliveredOrder(who.token, `${a.id}:2,${b.id}:1`);
    const productA = await productOf(a.id);
    const productB = await productOf(b.id);
    const reviewA = await publishedReview(who.token, orderId, a.id, { rating: 2, fit: 'large' });
    const reviewB = await publishedReview(who.token, orderId, b.id, { rating: 5, fit: 'true' });
    const summaryA = (await list(productA)).summary;
    expect(summaryA).toMatchObject({ count: 1, average: 2, fit: { total: 1, counts: { large: 1 } } });

    // One of the two units back: the buyer still has one, the review stays on the page and in the rating.
    await approvedReturn(who.token, orderId, { [a.id]: 1 });
    expect(await withdrawnAt(reviewA)).toBeNull();
    expect((await list(productA)).summary).toEqual(summaryA);
    expect((await list(productA)).items.map((r) => r.id)).toEqual([reviewA]);
    const lineA = () =>
      lines(who.token, { order_id: String(orderId) }).then((l) => l.lines.find((x) => x.offer_id === a.id));
    expect(await lineA()).toMatchObject({ review: { withdrawn: false, status_label: 'Опубликован' } });

    // The second unit back: nothing kept, the review leaves the rating and the fit answers, and the
    // catalogue version moves (the guest page cache and the listing's ratings follow within the
    // render path's bound); line B's review is untouched.
    const version = await readCatalogVersion(db());
    await approvedReturn(who.token, orderId, { [a.id]: 1 });
    expect(await readCatalogVersion(db())).toBeGreaterThan(version);
    expect(await withdrawnAt(reviewA)).not.toBeNull();
    expect((await list(productA)).summary).toMatchObject({
      count: 0,
      average: 0,
      fit: { total: 0, counts: { small: 0, true: 0, large: 0 } },
    });
    expect((await list(productA)).items).toEqual([]);
    expect(await lineA()).toMatchObject({
      can_review: false,
      review: { withdrawn: true, status_label: 'Снят после возврата' },
    });
    expect(await withdrawnAt(reviewB)).toBeNull();
    expect((await list(productB)).summary).toMatchObject({ count: 1, average: 5 });
  });

  it('a line returned whole withdraws its review while the order’s other line keeps its own', async () => {
    const a = await freshOffer({ min: 300_000, max: 1_500_000 });
    const b = await freshOffer({ min: 300_000, max: 1_500_000 });
    const who = await customer();
    const orderId = await deliveredOrder(who.token, `${a.id}:1,${b.id}:2`);
    const reviewA = await publishedReview(who.token, orderId, a.id, { rating: 3 });
    const reviewB = await publishedReview(who.token, orderId, b.id, { rating: 4 });
    // A whole, and one of B's two, in one return.
    await approvedReturn(who.token, orderId, { [a.id]: 1, [b.id]: 1 });
    expect(await withdrawnAt(reviewA)).not.toBeNull();
    expect(await withdrawnAt(reviewB)).toBeNull();
    expect((await list(await productOf(a.id))).summary.count).toBe(0);
    expect((await list(await productOf(b.id))).items.map((r) => r.id)).toEqual([reviewB]);
  });
});

describe('«Помог»', () => {
  /** A published review by a fresh buyer of a fresh product. */
  async function shownReview() {
    const author = await customer();
    const [o] = await garmentOffers(1);
    const orderId = await orderOf(author.customerId, [o!]);
    const made = await add(author.token, { order_id: orderId, offer_id: o!.id });
    if (!made.success) throw new Error(made.error);
    const published = await admin(shop, `/reviews/${made.review.id}/publish`, {
      cookie: (await as('content')).cookie,
      body: {},
    });
    expect(published.status).toBe(200);
    return { id: made.review.id, productId: o!.productId, author };
  }
  const helpful = (body: Record<string, unknown>) => post('/api/reviews/helpful.php', body, ReviewHelpfulResponse);
  const votesOf = async (reviewId: number) =>
    (await db().select().from(reviewVotes).where(eq(reviewVotes.reviewId, reviewId))).map((v) => v.customerId);

  it('a logged-in customer votes once per review; a second press and a double click leave one vote; not their own, not a guest', async () => {
    const { id, productId, author } = await shownReview();
    const anna = await customer();
    const boris = await customer();

    expect(await helpful({ token: anna.token, review_id: String(id) })).toEqual({
      success: true,
      helpful: 1,
      voted: true,
    });
    // A second press is no second vote (not a toggle either).
    expect(await helpful({ token: anna.token, review_id: String(id) })).toEqual({
      success: true,
      helpful: 1,
      voted: true,
    });
    // A double click: the two calls at once (and a few more) give one vote.
    const burst = await Promise.all(
      Array.from({ length: 4 }, () => helpful({ token: boris.token, review_id: String(id) })),
    );
    expect(burst.every((r) => r.success && r.voted)).toBe(true);
    expect(Math.max(...burst.map((r) => r.helpful))).toBe(2);
    expect((await votesOf(id)).sort()).toEqual([anna.customerId, boris.customerId].sort());
    expect((await list(productId)).items.find((r) => r.id === id)?.helpful).toBe(2);

    // Not one's own review.
    expect(await helpful({ token: author.token, review_id: String(id) })).toEqual({
      success: false,
      helpful: 2,
      voted: false,
      error: REVIEW_EDGE_TEXT.helpfulOwn,
    });
    // A guest (no session) is told to log in.
    const guest = await fetch(`${api()}/api/reviews/helpful.php`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ review_id: String(id) }),
    });
    expect(guest.status).toBe(401);
    expect(await guest.json()).toEqual({ error: 'Войдите, чтобы отметить отзыв полезным' });
    // A review not on show cannot be voted for.
    const who = await customer();
    const [o] = await garmentOffers(1);
    const pending = await add(who.token, { order_id: await orderOf(who.customerId, [o!]), offer_id: o!.id });
    if (!pending.success) throw new Error(pending.error);
    expect(await helpful({ token: anna.token, review_id: String(pending.review.id) })).toEqual({
      success: false,
      helpful: 0,
      voted: false,
      error: REVIEW_EDGE_TEXT.helpfulNotFound,
    });
    expect(await votesOf(id)).toHaveLength(2);

    // The page asks after paint which reviews this shopper voted for, and which are theirs.
    expect(
      await post(
        '/api/reviews/my_votes.php',
        { token: anna.token, product_id: String(productId) },
        ReviewVotesResponse,
      ),
    ).toEqual({
      voted: [id],
      own: [],
      helpful: { [id]: 2 },
    });
    expect(
      await post(
        '/api/reviews/my_votes.php',
        { token: author.token, product_id: String(productId) },
        ReviewVotesResponse,
      ),
    ).toEqual({
      voted: [],
      own: [id],
      helpful: {},
    });
    const noSession = await fetch(`${api()}/api/reviews/my_votes.php`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ product_id: String(productId) }),
    });
    expect(noSession.status).toBe(401);
    expect(noSession.headers.get('cache-control')).toBe('private, no-store');
  });
});

describe('the session cookie: same-origin JSON only', () => {
  const cookieOf = (token: string) => `${COOKIE.token}=${encodeURIComponent(token)}`;
  const call = (apiPath: string, init: { headers: Record<string, string>; body: string }) =>
    fetch(`${api()}${apiPath}`, { method: 'POST', ...init });
  const formBody = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

  it('a cross-site form post riding on the cookie is refused on every review call; the shop’s own JSON call is taken', async () => {
    const author = await customer();
    const voter = await customer();
    const [o] = await garmentOffers(1);
    const orderId = await orderOf(author.customerId, [o!]);
    const made = await add(author.token, { order_id: orderId, offer_id: o!.id });
    if (!made.success) throw new Error(made.error);
    await admin(shop, `/reviews/${made.review.id}/publish`, { cookie: (await as('content')).cookie, body: {} });
    const id = made.review.id;
    const [other] = await garmentOffers(1);
    const otherOrder = await orderOf(voter.customerId, [other!]);

    const evil = 'https://evil.example';
    const crossSiteForms: [string, Record<string, string>][] = [
      ['/api/reviews/helpful.php', { review_id: String(id) }],
      ['/api/reviews/my_votes.php', { product_id: String(o!.productId) }],
      ['/api/personal/review_lines.php', { order_id: String(otherOrder) }],
      [
        '/api/personal/review_add.php',
        {
          order_id: String(otherOrder),
          offer_id: String(other!.id),
          rating: '5',
          fit: 'true',
          text: 'Отзыв, отправленный чужим сайтом',
          'photos[]': 'aGVsbG8=',
        },
      ],
      [
        '/api/personal/review_resend.php',
        { review_id: String(id), rating: '1', fit: 'small', text: 'Исправленный чужим сайтом отзыв' },
      ],
    ];
    for (const [apiPath, fields] of crossSiteForms) {
      // What a hidden form on another site sends (a browser that still attaches the cookie).
      const res = await call(apiPath, {
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          origin: evil,
          'sec-fetch-site': 'cross-site',
          cookie: cookieOf(apiPath === '/api/personal/review_resend.php' ? author.token : voter.token),
        },
        body: formBody(fields),
      });
      expect(res.status, apiPath).toBe(403);
      expect(await res.json()).toEqual({ error: REVIEW_EDGE_TEXT.crossSite });
    }
    // JSON from another site, or with no Origin but the browser saying cross-site; an opaque origin.
    for (const headers of [{ origin: evil }, { 'sec-fetch-site': 'cross-site' }, { origin: 'null' }, {}] as Record<
      string,
      string
    >[]) {
      const res = await call('/api/reviews/helpful.php', {
        headers: { 'content-type': 'application/json', cookie: cookieOf(voter.token), ...headers },
        body: JSON.stringify({ review_id: String(id) }),
      });
      expect(res.status, JSON.stringify(headers)).toBe(403);
    }
    // The shop's own page posting a form (not what it does): not JSON, refused too.
    const ownForm = await call('/api/reviews/helpful.php', {
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: shop.baseUrl,
        cookie: cookieOf(voter.token),
      },
      body: formBody({ review_id: String(id) }),
    });
    expect(ownForm.status).toBe(415);
    expect(await ownForm.json()).toEqual({ error: REVIEW_EDGE_TEXT.json });
    // Nothing was done on the cookie's behalf.
    expect(await db().select().from(reviewVotes).where(eq(reviewVotes.reviewId, id))).toEqual([]);
    expect(await db().select().from(reviews).where(eq(reviews.orderId, otherOrder))).toEqual([]);
    expect((await db().select({ text: reviews.text }).from(reviews).where(eq(reviews.id, id)))[0]?.text).toBe(
      good.text,
    );

    // The shop's own JSON call: Origin the shop's, or no Origin and Sec-Fetch-Site same-origin.
    const ownJson = await call('/api/reviews/helpful.php', {
      headers: { 'content-type': 'application/json', origin: shop.baseUrl, cookie: cookieOf(voter.token) },
      body: JSON.stringify({ review_id: String(id) }),
    });
    expect(ownJson.status).toBe(200);
    expect(ReviewHelpfulResponse.parse(await ownJson.json())).toEqual({ success: true, helpful: 1, voted: true });
    const sameSite = await call('/api/reviews/my_votes.php', {
      headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin', cookie: cookieOf(voter.token) },
      body: JSON.stringify({ product_id: String(o!.productId) }),
    });
    expect(ReviewVotesResponse.parse(await sameSite.json())).toEqual({ voted: [id], own: [], helpful: { [id]: 1 } });
    // A token in the body is the credential itself (scripts, the server-rendered pages), wherever the call comes from.
    const withToken = await call('/api/personal/review_lines.php', {
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: evil },
      body: formBody({ token: voter.token, order_id: String(otherOrder) }),
    });
    expect(ReviewLinesResponse.parse(await withToken.json()).lines).toHaveLength(1);
    // No cookie and no token: the usual 401, wherever from.
    const none = await call('/api/personal/review_lines.php', {
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: evil },
      body: formBody({ order_id: String(otherOrder) }),
    });
    expect(none.status).toBe(401);
  });
});
