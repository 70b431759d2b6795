import { and, asc, desc, eq, gte, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { queryRows, type Database } from '~/db/client.server';
import { bumpCatalogVersion } from '~/db/catalog-version.server';
import {
  appState,
  customers,
  offers,
  orderItems,
  orders,
  products,
  reviewPhotos,
  reviews,
  reviewVotes,
} from '~/db/schema';
import {
  authorName,
  canResend,
  DEFAULT_MODERATION_MODE,
  eligibilityText,
  initialStatus,
  keptUnits,
  MODERATION_MODES,
  REVIEW_TEXT,
  reviewEligibility,
  underDailyCap,
  type Fit,
  type ModerationMode,
  type ReviewFields,
  type ReviewSort,
  type ReviewStatus,
} from '~/core/reviews';

// Product reviews (issue #32, docs/reviews.md): the one SQL home of reviews, their photos and
// votes. The rules are core/reviews.ts. A review counts in its product's rating and shows on its
// page while it is 'published' and not withdrawn (a return took the whole line back). Every
// change to what a guest sees (published, rejected after publishing, withdrawn) bumps the
// catalogue version in the same transaction, so guest pages and the listing's ratings are
// rebuilt within the render path's one-second bound (docs/render-path.md).

export type ReviewRow = typeof reviews.$inferSelect;
export type ReviewPhotoRow = typeof reviewPhotos.$inferSelect;

export interface StoredPhoto {
  path: string;
  width: number;
  height: number;
}

const SETTINGS_KEY = 'reviews_settings';

export async function readModerationMode(db: Database): Promise<ModerationMode> {
  const [row] = await db.select({ value: appState.value }).from(appState).where(eq(appState.key, SETTINGS_KEY));
  const mode = (row?.value as { mode?: unknown } | undefined)?.mode;
  return (MODERATION_MODES as readonly unknown[]).includes(mode) ? (mode as ModerationMode) : DEFAULT_MODERATION_MODE;
}

export async function saveModerationMode(db: Database, mode: ModerationMode): Promise<ModerationMode> {
  const before = await readModerationMode(db);
  await db
    .insert(appState)
    .values({ key: SETTINGS_KEY, value: { mode } })
    .onConflictDoUpdate({ target: appState.key, set: { value: { mode }, updatedAt: sql`now()` } });
  return before;
}

/** Whether a review in this state is on the product page and in the rating. */
const visible = (r: Pick<ReviewRow, 'status' | 'withdrawnAt'>) => r.status === 'published' && r.withdrawnAt === null;

/** The same in SQL: a product's reviews on show. */
const publishedOf = (productId: number) =>
  and(eq(reviews.productId, productId), eq(reviews.status, 'published'), isNull(reviews.withdrawnAt));

// ---------------------------------------------------------------------------------------------
// The customer's side.

export interface ReviewableLineView {
  orderId: number;
  offerId: number;
  isPreorder: boolean;
  productId: number;
  productSlug: string;
  title: string;
  size: string;
  color: string;
  image: string;
  deliveredAt: Date | null;
  /** Whether a new review may be written now, and until when; or why not. */
  canReview: boolean;
  until: Date | null;
  reason: string | null;
  review: (ReviewRow & { photos: ReviewPhotoRow[] }) | null;
}

/** The customer's order lines with their review state: of one order, of one product, or all received ones. */
export async function listReviewableLines({
  db,
  customerId,
  orderId,
  productId,
  now,
}: {
  db: Database;
  customerId: number;
  orderId?: number;
  productId?: number;
  now: Date;
}): Promise<ReviewableLineView[]> {
  const conditions: SQL[] = [eq(orders.customerId, customerId)];
  if (orderId !== undefined) conditions.push(eq(orders.id, orderId));
  if (productId !== undefined) conditions.push(eq(offers.productId, productId));
  const rows = await db
    .select({
      orderId: orderItems.orderId,
      offerId: orderItems.offerId,
      isPreorder: orderItems.isPreorder,
      isGift: orderItems.isGift,
      quantity: orderItems.quantity,
      keptQuantity: orderItems.keptQuantity,
      returnedQuantity: orderItems.returnedQuantity,
      title: orderItems.title,
      size: orderItems.size,
      color: orderItems.color,
      image: orderItems.image,
      orderStatus: orders.status,
      deliveredAt: orders.deliveredAt,
      productId: offers.productId,
      productSlug: products.slug,
      certificate: products.certificate,
    })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .innerJoin(offers, eq(offers.id, orderItems.offerId))
    .innerJoin(products, eq(products.id, offers.productId))
    .where(and(...conditions))
    .orderBy(desc(orderItems.orderId), asc(orderItems.offerId));
  if (!rows.length) return [];
  const orderIds = [...new Set(rows.map((r) => r.orderId))];
  const written = await db
    .select()
    .from(reviews)
    .where(and(eq(reviews.customerId, customerId), inArray(reviews.orderId, orderIds)));
  const photos = await photosOf(
    db,
    written.map((r) => r.id),
  );
  const byLine = new Map(
    written.map((r) => [`${r.orderId}:${r.offerId}:${r.isPreorder}`, { ...r, photos: photos.get(r.id) ?? [] }]),
  );
  return rows.map((r) => {
    const review = byLine.get(`${r.orderId}:${r.offerId}:${r.isPreorder}`) ?? null;
    const e = reviewEligibility({ ...r, isCertificate: r.certificate !== null }, review !== null, now);
    return {
      orderId: r.orderId,
      offerId: r.offerId,
      isPreorder: r.isPreorder,
      productId: r.productId,
      productSlug: r.productSlug,
      title: r.title,
      size: r.size,
      color: r.color,
      image: r.image,
      deliveredAt: r.deliveredAt,
      canReview: e.ok,
      until: e.ok ? e.until : null,
      reason: e.ok ? null : review ? null : eligibilityText(e.reason),
      review,
    };
  });
}

async function photosOf(db: Database, reviewIds: number[]): Promise<Map<number, ReviewPhotoRow[]>> {
  const out = new Map<number, ReviewPhotoRow[]>();
  if (!reviewIds.length) return out;
  const rows = await db
    .select()
    .from(reviewPhotos)
    .where(inArray(reviewPhotos.reviewId, reviewIds))
    .orderBy(asc(reviewPhotos.reviewId), asc(reviewPhotos.position));
  for (const p of rows) out.set(p.reviewId, [...(out.get(p.reviewId) ?? []), p]);
  return out;
}

export type WriteResult =
  | { ok: true; review: ReviewRow; published: boolean }
  | { ok: false; field: string; error: string; status?: 'capped' | 'not_found' };

/** Sends counted against the daily cap, under the customer's row lock (two at once cannot both pass). */
async function checkDailyCap(tx: Database, customerId: number, now: Date): Promise<boolean> {
  await tx.select({ id: customers.id }).from(customers).where(eq(customers.id, customerId)).for('no key update');
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(reviews)
    .where(and(eq(reviews.customerId, customerId), gte(reviews.sentAt, new Date(now.getTime() - 86_400_000))));
  return underDailyCap(Number(row?.n ?? 0));
}

/**
 * A new review of one of the customer's order lines, with its photos (already stored as files by
 * the caller, who removes them when this answers anything but ok). One transaction: the daily cap
 * under the customer's lock, the line (and its order) locked and judged, the row and its photos.
 */
export async function createReview({
  db,
  customerId,
  orderId,
  offerId,
  isPreorder,
  fields,
  photos,
  now,
}: {
  db: Database;
  customerId: number;
  orderId: number;
  offerId: number;
  isPreorder: boolean;
  fields: ReviewFields;
  photos: StoredPhoto[];
  now: Date;
}): Promise<WriteResult> {
  const mode = await readModerationMode(db);
  return db.transaction(async (txn) => {
    const tx = txn as unknown as Database;
    if (!(await checkDailyCap(tx, customerId, now)))
      return { ok: false, field: 'text', error: REVIEW_TEXT.tooManyToday, status: 'capped' } as const;
    const [order] = await tx
      .select({ id: orders.id, status: orders.status, deliveredAt: orders.deliveredAt })
      .from(orders)
      .where(and(eq(orders.id, orderId), eq(orders.customerId, customerId)))
      .for('update');
    if (!order) return { ok: false, field: 'order_id', error: REVIEW_TEXT.notFound, status: 'not_found' } as const;
    const [line] = await tx
      .select({
        quantity: orderItems.quantity,
        keptQuantity: orderItems.keptQuantity,
        returnedQuantity: orderItems.returnedQuantity,
        isGift: orderItems.isGift,
        size: orderItems.size,
        productId: offers.productId,
        certificate: products.certificate,
      })
      .from(orderItems)
      .innerJoin(offers, eq(offers.id, orderItems.offerId))
      .innerJoin(products, eq(products.id, offers.productId))
      .where(
        and(eq(orderItems.orderId, orderId), eq(orderItems.offerId, offerId), eq(orderItems.isPreorder, isPreorder)),
      );
    if (!line) return { ok: false, field: 'offer_id', error: REVIEW_TEXT.notFound, status: 'not_found' } as const;
    const [existing] = await tx
      .select({ id: reviews.id })
      .from(reviews)
      .where(and(eq(reviews.orderId, orderId), eq(reviews.offerId, offerId), eq(reviews.isPreorder, isPreorder)));
    const e = reviewEligibility(
      { orderStatus: order.status, deliveredAt: order.deliveredAt, ...line, isCertificate: line.certificate !== null },
      existing !== undefined,
      now,
    );
    if (!e.ok) return { ok: false, field: 'offer_id', error: eligibilityText(e.reason) } as const;
    const [customer] = await tx
      .select({ firstName: customers.firstName })
      .from(customers)
      .where(eq(customers.id, customerId));
    const status = initialStatus(mode);
    const [row] = await tx
      .insert(reviews)
      .values({
        productId: line.productId,
        customerId,
        orderId,
        offerId,
        isPreorder,
        status,
        rating: fields.rating,
        fit: fields.fit,
        size: line.size,
        text: fields.text,
        heightCm: fields.heightCm,
        usualSize: fields.usualSize,
        authorName: authorName(customer?.firstName),
        photoCount: photos.length,
        publishedAt: status === 'published' ? now : null,
        createdAt: now,
        sentAt: now,
      })
      .returning();
    const review = row as ReviewRow;
    if (photos.length)
      await tx.insert(reviewPhotos).values(photos.map((p, i) => ({ reviewId: review.id, position: i + 1, ...p })));
    if (status === 'published') await bumpCatalogVersion(tx);
    return { ok: true, review, published: status === 'published' } as const;
  });
}

/**
 * A rejected review edited and sent again (once): the fields replaced; new photos (when given)
 * replace the old ones, whose paths are answered so the caller removes the files after the commit.
 */
export async function resendReview({
  db,
  customerId,
  reviewId,
  fields,
  photos,
  now,
}: {
  db: Database;
  customerId: number;
  reviewId: number;
  fields: ReviewFields;
  /** null: keep the photos it has. */
  photos: StoredPhoto[] | null;
  now: Date;
}): Promise<WriteResult & { removedPaths?: string[] }> {
  const mode = await readModerationMode(db);
  return db.transaction(async (txn) => {
    const tx = txn as unknown as Database;
    if (!(await checkDailyCap(tx, customerId, now)))
      return { ok: false, field: 'text', error: REVIEW_TEXT.tooManyToday, status: 'capped' } as const;
    const [current] = await tx
      .select()
      .from(reviews)
      .where(and(eq(reviews.id, reviewId), eq(reviews.customerId, customerId)))
      .for('update');
    if (!current) return { ok: false, field: 'review_id', error: REVIEW_TEXT.notFound, status: 'not_found' } as const;
    const may = canResend({ status: current.status as ReviewStatus, resendCount: current.resendCount });
    if (!may.ok) return { ok: false, field: 'review_id', error: may.error } as const;
    const status = initialStatus(mode);
    let removedPaths: string[] = [];
    if (photos) {
      const old = await tx
        .delete(reviewPhotos)
        .where(eq(reviewPhotos.reviewId, reviewId))
        .returning({ path: reviewPhotos.path });
      removedPaths = old.map((p) => p.path);
      if (photos.length)
        await tx.insert(reviewPhotos).values(photos.map((p, i) => ({ reviewId, position: i + 1, ...p })));
    }
    const [row] = await tx
      .update(reviews)
      .set({
        status,
        rating: fields.rating,
        fit: fields.fit,
        text: fields.text,
        heightCm: fields.heightCm,
        usualSize: fields.usualSize,
        ...(photos ? { photoCount: photos.length } : {}),
        resendCount: current.resendCount + 1,
        rejectReason: null,
        checkedAt: null,
        publishedAt: status === 'published' ? now : null,
        sentAt: now,
      })
      .where(eq(reviews.id, reviewId))
      .returning();
    if (status === 'published') await bumpCatalogVersion(tx);
    return { ok: true, review: row as ReviewRow, published: status === 'published', removedPaths } as const;
  });
}

export type HelpfulVote =
  { ok: true; count: number; added: boolean } | { ok: false; reason: 'not_found' | 'own'; count: number };

/**
 * "Помог отзыв" from a logged-in customer: once per review. Not a toggle: a second press (or a
 * double click whose two calls arrive together) leaves the one vote. The review's row is locked
 * (no key update: the vote's foreign key takes a key-share lock, which this does not block), so
 * two votes of the review count up one after the other; the vote's primary key (review,
 * customer) lets one row in. Only a review on show may be voted for, and not by its author.
 */
export async function voteHelpful({
  db,
  customerId,
  reviewId,
}: {
  db: Database;
  customerId: number;
  reviewId: number;
}): Promise<HelpfulVote> {
  return db.transaction(async (txn) => {
    const tx = txn as unknown as Database;
    const [review] = await tx.select().from(reviews).where(eq(reviews.id, reviewId)).for('no key update');
    if (!review || !visible(review)) return { ok: false, reason: 'not_found', count: 0 } as const;
    if (review.customerId === customerId) return { ok: false, reason: 'own', count: review.helpfulCount } as const;
    const added = await tx
      .insert(reviewVotes)
      .values({ reviewId, customerId })
      .onConflictDoNothing()
      .returning({ reviewId: reviewVotes.reviewId });
    if (!added.length) return { ok: true, count: review.helpfulCount, added: false } as const;
    const [row] = await tx
      .update(reviews)
      .set({ helpfulCount: sql`${reviews.helpfulCount} + 1` })
      .where(eq(reviews.id, reviewId))
      .returning({ n: reviews.helpfulCount });
    return { ok: true, count: row?.n ?? review.helpfulCount + 1, added: true } as const;
  });
}

/** The customer's «Помог» votes on a product's reviews on show (with those reviews' counts now), and their own reviews of it. */
export async function customerReviewVotes({
  db,
  customerId,
  productId,
}: {
  db: Database;
  customerId: number;
  productId: number;
}): Promise<{ voted: number[]; own: number[]; helpful: Record<string, number> }> {
  const [voted, own] = await Promise.all([
    db
      .select({ id: reviewVotes.reviewId, helpful: reviews.helpfulCount })
      .from(reviewVotes)
      .innerJoin(reviews, eq(reviews.id, reviewVotes.reviewId))
      .where(and(eq(reviewVotes.customerId, customerId), publishedOf(productId)))
      .orderBy(asc(reviewVotes.reviewId)),
    db
      .select({ id: reviews.id })
      .from(reviews)
      .where(and(eq(reviews.customerId, customerId), publishedOf(productId)))
      .orderBy(asc(reviews.id)),
  ]);
  return {
    voted: voted.map((r) => r.id),
    own: own.map((r) => r.id),
    helpful: Object.fromEntries(voted.map((r) => [String(r.id), r.helpful])),
  };
}

// ---------------------------------------------------------------------------------------------
// The product page.

export interface ProductReviewStats {
  ratings: number[];
  fits: Partial<Record<Fit, number>>;
  withPhotos: number;
}

/** What the product's rating, histogram and fit advice are made of. */
export async function productReviewStats({
  db,
  productId,
}: {
  db: Database;
  productId: number;
}): Promise<ProductReviewStats> {
  const rows = await db
    .select({
      rating: reviews.rating,
      fit: reviews.fit,
      n: sql<number>`count(*)::int`,
      photos: sql<number>`count(*) filter (where ${reviews.photoCount} > 0)::int`,
    })
    .from(reviews)
    .where(publishedOf(productId))
    .groupBy(reviews.rating, reviews.fit);
  const ratings: number[] = [];
  const fits: Partial<Record<Fit, number>> = {};
  let withPhotos = 0;
  for (const r of rows) {
    for (let i = 0; i < r.n; i++) ratings.push(r.rating);
    fits[r.fit as Fit] = (fits[r.fit as Fit] ?? 0) + Number(r.n);
    withPhotos += Number(r.photos);
  }
  return { ratings, fits, withPhotos };
}

/** One page of a product's published reviews with their photos. */
export async function listPublishedReviews({
  db,
  productId,
  sort,
  rating,
  withPhotos,
  offset,
  limit,
}: {
  db: Database;
  productId: number;
  sort: ReviewSort;
  rating?: number | undefined;
  withPhotos?: boolean | undefined;
  offset: number;
  limit: number;
}): Promise<{ rows: (ReviewRow & { photos: ReviewPhotoRow[] })[]; total: number }> {
  const conditions: SQL[] = [publishedOf(productId) as SQL];
  if (rating) conditions.push(eq(reviews.rating, rating));
  if (withPhotos) conditions.push(sql`${reviews.photoCount} > 0`);
  const where = and(...conditions);
  const order =
    sort === 'helpful'
      ? [
          desc(reviews.helpfulCount),
          desc(sql`(${reviews.photoCount} > 0)`),
          desc(reviews.publishedAt),
          desc(reviews.id),
        ]
      : [desc(reviews.publishedAt), desc(reviews.id)];
  const [rows, [count]] = await Promise.all([
    db
      .select()
      .from(reviews)
      .where(where)
      .orderBy(...order)
      .offset(offset)
      .limit(limit),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(reviews)
      .where(where),
  ]);
  const photos = await photosOf(
    db,
    rows.map((r) => r.id),
  );
  return { rows: rows.map((r) => ({ ...r, photos: photos.get(r.id) ?? [] })), total: Number(count?.n ?? 0) };
}

/** The published rating (average to one decimal, count) of each product id given that has any. */
export async function productRatings(
  db: Database,
  ids: readonly number[],
): Promise<Map<number, { average: number; count: number }>> {
  const out = new Map<number, { average: number; count: number }>();
  if (!ids.length) return out;
  const rows = await queryRows<{ product_id: number; average: string; count: number }>(
    db,
    sql`select product_id, round(avg(rating)::numeric, 1)::text as average, count(*)::int as count
        from reviews where product_id in (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )}) and status = 'published' and withdrawn_at is null group by product_id`,
  );
  for (const r of rows) out.set(Number(r.product_id), { average: Number(r.average), count: Number(r.count) });
  return out;
}

// ---------------------------------------------------------------------------------------------
// Returns: a line taken back whole withdraws its review.

/**
 * Called inside a return's approval (models/returns.server.ts) after the lines were marked
 * returned: each review of the order whose line has nothing kept any more is withdrawn from the
 * product page and the rating; the catalogue version is bumped when one was on show.
 */
export async function withdrawReviewsOfReturnedLines(tx: Database, orderId: number, now: Date): Promise<number[]> {
  const rows = await tx
    .select({
      id: reviews.id,
      status: reviews.status,
      quantity: orderItems.quantity,
      keptQuantity: orderItems.keptQuantity,
      returnedQuantity: orderItems.returnedQuantity,
    })
    .from(reviews)
    .innerJoin(
      orderItems,
      and(
        eq(orderItems.orderId, reviews.orderId),
        eq(orderItems.offerId, reviews.offerId),
        eq(orderItems.isPreorder, reviews.isPreorder),
      ),
    )
    .where(and(eq(reviews.orderId, orderId), isNull(reviews.withdrawnAt)));
  const gone = rows.filter((r) => keptUnits(r) <= 0);
  if (!gone.length) return [];
  await tx
    .update(reviews)
    .set({ withdrawnAt: now })
    .where(
      inArray(
        reviews.id,
        gone.map((r) => r.id),
      ),
    );
  if (gone.some((r) => r.status === 'published')) await bumpCatalogVersion(tx);
  return gone.map((r) => r.id);
}

// ---------------------------------------------------------------------------------------------
// Moderation (the back office).

export interface AdminReviewFilter {
  status?: ReviewStatus | undefined;
  /** true: not yet looked at by staff (the queue). */
  queue?: boolean | undefined;
  productId?: number | undefined;
  rating?: number | undefined;
}

export type AdminReviewRow = ReviewRow & { productName: string; productSlug: string; photos: ReviewPhotoRow[] };

export async function listAdminReviews(
  db: Database,
  { filter, offset, limit, order }: { filter: AdminReviewFilter; offset: number; limit: number; order: 'asc' | 'desc' },
): Promise<{ rows: AdminReviewRow[]; total: number }> {
  const conditions: SQL[] = [];
  if (filter.status) conditions.push(eq(reviews.status, filter.status));
  if (filter.queue === true)
    conditions.push(isNull(reviews.checkedAt), isNull(reviews.withdrawnAt), sql`${reviews.status} <> 'rejected'`);
  if (filter.queue === false) conditions.push(sql`${reviews.checkedAt} is not null`);
  if (filter.productId) conditions.push(eq(reviews.productId, filter.productId));
  if (filter.rating) conditions.push(eq(reviews.rating, filter.rating));
  const where = conditions.length ? and(...conditions) : undefined;
  const [rows, [count]] = await Promise.all([
    db
      .select({ review: reviews, productName: products.name, productSlug: products.slug })
      .from(reviews)
      .innerJoin(products, eq(products.id, reviews.productId))
      .where(where)
      .orderBy(order === 'asc' ? asc(reviews.id) : desc(reviews.id))
      .offset(offset)
      .limit(limit),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(reviews)
      .where(where),
  ]);
  const photos = await photosOf(
    db,
    rows.map((r) => r.review.id),
  );
  return {
    rows: rows.map((r) => ({
      ...r.review,
      productName: r.productName,
      productSlug: r.productSlug,
      photos: photos.get(r.review.id) ?? [],
    })),
    total: Number(count?.n ?? 0),
  };
}

export async function getAdminReview(db: Database, id: number): Promise<AdminReviewRow | null> {
  const [row] = await db
    .select({ review: reviews, productName: products.name, productSlug: products.slug })
    .from(reviews)
    .innerJoin(products, eq(products.id, reviews.productId))
    .where(eq(reviews.id, id));
  if (!row) return null;
  const photos = await photosOf(db, [id]);
  return { ...row.review, productName: row.productName, productSlug: row.productSlug, photos: photos.get(id) ?? [] };
}

export type ModerationResult =
  { ok: true; before: ReviewRow; after: ReviewRow } | { ok: false; status: number; field: string; error: string };

const NOT_FOUND = { ok: false, status: 404, field: 'id', error: 'Отзыв не найден' } as const;

async function lockReview(tx: Database, id: number): Promise<ReviewRow | null> {
  const [row] = await tx.select().from(reviews).where(eq(reviews.id, id)).for('update');
  return row ?? null;
}

/** Publishes a pending (or a rejected, on second thought) review, or marks a published one as checked. */
export async function publishReview(tx: Database, { id, now }: { id: number; now: Date }): Promise<ModerationResult> {
  const before = await lockReview(tx, id);
  if (!before) return NOT_FOUND;
  if (before.withdrawnAt) return { ok: false, status: 409, field: 'id', error: 'Отзыв снят: покупку вернули' };
  if (before.status === 'published' && before.checkedAt)
    return { ok: false, status: 409, field: 'id', error: 'Отзыв уже опубликован' };
  const [after] = await tx
    .update(reviews)
    .set({ status: 'published', checkedAt: now, rejectReason: null, publishedAt: before.publishedAt ?? now })
    .where(eq(reviews.id, id))
    .returning();
  if (before.status !== 'published') await bumpCatalogVersion(tx);
  return { ok: true, before, after: after as ReviewRow };
}

/** Rejects a review with the reason its author sees in the account; a published one leaves the page. */
export async function rejectReview(
  tx: Database,
  { id, reason, now }: { id: number; reason: string; now: Date },
): Promise<ModerationResult> {
  const before = await lockReview(tx, id);
  if (!before) return NOT_FOUND;
  if (before.status === 'rejected') return { ok: false, status: 409, field: 'id', error: 'Отзыв уже отклонён' };
  const [after] = await tx
    .update(reviews)
    .set({ status: 'rejected', checkedAt: now, rejectReason: reason })
    .where(eq(reviews.id, id))
    .returning();
  if (visible(before)) await bumpCatalogVersion(tx);
  return { ok: true, before, after: after as ReviewRow };
}

/** The shop's reply shown under the review (an empty text removes it). */
export async function replyToReview(
  tx: Database,
  { id, reply, now }: { id: number; reply: string; now: Date },
): Promise<ModerationResult> {
  const before = await lockReview(tx, id);
  if (!before) return NOT_FOUND;
  const [after] = await tx
    .update(reviews)
    .set({ staffReply: reply === '' ? null : reply, staffReplyAt: reply === '' ? null : now })
    .where(eq(reviews.id, id))
    .returning();
  if (visible(before)) await bumpCatalogVersion(tx);
  return { ok: true, before, after: after as ReviewRow };
}
