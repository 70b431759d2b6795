import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '~/db/client.server';
import { customers, offers, orderItems, orders, products, reviewPhotos, reviews } from '~/db/schema';
import { readCatalogVersion } from '~/db/catalog-version.server';
import { REVIEW_TEXT, REVIEWS_PER_DAY } from '~/core/reviews';
import { CheckoutOrderResponse, ReturnCreateResponse } from '~/shared/contract';
import {
  AdminReviewListResponse,
  AdminReviewOneResponse,
  ReviewLinesResponse,
  ReviewListResponse,
  ReviewWriteResponse,
} from '~/shared/reviews-contract';
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
// withdraws the review, the daily cap and the publish-then-moderate setting.

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
    const made = await add(who.token, { order_id: orderId, offer_id: offer.id, rating: 2 });
    if (!made.success) throw new Error(made.error);
    const manager = await as('manager');
    expect((await admin(shop, `/reviews/${made.review.id}/publish`, { cookie: manager.cookie, body: {} })).status).toBe(
      200,
    );
    const [productRow] = await db()
      .select({ id: products.id })
      .from(products)
      .innerJoin(offers, eq(offers.productId, products.id))
      .where(eq(offers.id, offer.id));
    const productId = productRow!.id;
    const before = (await list(productId)).summary.count;
    expect(before).toBeGreaterThanOrEqual(1);

    const returned = await getJson(api(), '/api/personal/return_add.php', ReturnCreateResponse, {
      init: postForm({
        token: who.token,
        order_id: String(orderId),
        reason: 'Не подошёл размер',
        [`items[${offer.id}]`]: '1',
      }),
    });
    if (!returned.success) throw new Error(returned.error);
    const version = await readCatalogVersion(db());
    const approved = await admin(shop, `/returns/${returned.id}/approve`, { cookie: manager.cookie, body: {} });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(await readCatalogVersion(db())).toBeGreaterThan(version);
    expect((await list(productId)).summary.count).toBe(before - 1);
    expect((await list(productId)).items.map((r) => r.id)).not.toContain(made.review.id);
    const mine = (await lines(who.token, { order_id: String(orderId) })).lines[0];
    expect(mine).toMatchObject({ can_review: false, review: { withdrawn: true, status_label: 'Снят после возврата' } });
    const [row] = await db()
      .select({ withdrawnAt: reviews.withdrawnAt })
      .from(reviews)
      .where(and(eq(reviews.id, made.review.id)));
    expect(row?.withdrawnAt).not.toBeNull();
  });
});
