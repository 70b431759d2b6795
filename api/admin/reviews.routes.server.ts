import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { FIT_LABELS, REVIEW_STATUS_LABELS, type Fit, type ReviewStatus } from '~/core/reviews';
import {
  AdminReviewListResponse,
  AdminReviewOneResponse,
  ReviewPublishBody,
  ReviewRejectBody,
  ReviewReplyBody,
  ReviewSettings,
  ReviewSettingsResponse,
  type AdminReviewItem,
} from '~/shared/reviews-contract';
import {
  getAdminReview,
  listAdminReviews,
  publishReview,
  readModerationMode,
  rejectReview,
  replyToReview,
  saveModerationMode,
  type AdminReviewRow,
} from '~/models/reviews.server';
import { notFound } from '~/api/http.server';
import { adminChange, adminRead, filterValue, IdParams, listQuery, refusal } from './action.server';
import type { AdminDeps } from './context.server';

// Review moderation (issue #32, docs/reviews.md): the queue (new reviews staff have not looked
// at: pending ones under premoderation, published ones under publish-then-moderate), publish,
// reject with the reason the customer sees in their account, the shop's reply under a review,
// and the shop setting. Roles content and manager (reviews:read, reviews:moderate). Each change is
// one model function under the review's row lock, audited in the same transaction.

const ReviewListQuery = listQuery(
  ['id'],
  { sort: 'id', order: 'desc' },
  {
    status: filterValue(z.enum(['pending', 'published', 'rejected'])),
    queue: filterValue(z.enum(['true', 'false']).transform((v) => v === 'true')),
    product_id: filterValue(
      z
        .string()
        .regex(/^\d{1,9}$/)
        .transform(Number),
    ),
    rating: filterValue(
      z
        .string()
        .regex(/^[1-5]$/)
        .transform(Number),
    ),
  },
);

const reviewItem = (r: AdminReviewRow): AdminReviewItem => ({
  id: r.id,
  product_id: r.productId,
  product_name: r.productName,
  product_url: `/catalog/all/${r.productSlug}/`,
  customer_id: r.customerId,
  order_id: r.orderId,
  offer_id: r.offerId,
  author: r.authorName,
  status: r.status as ReviewStatus,
  status_label: r.withdrawnAt ? 'Снят после возврата' : REVIEW_STATUS_LABELS[r.status as ReviewStatus],
  in_queue: r.checkedAt === null && r.withdrawnAt === null && r.status !== 'rejected',
  rating: r.rating,
  fit: r.fit as Fit,
  fit_label: FIT_LABELS[r.fit as Fit],
  size: r.size,
  height_cm: r.heightCm,
  usual_size: r.usualSize,
  text: r.text,
  photos: r.photos.map((p) => ({ path: p.path, width: p.width, height: p.height })),
  reject_reason: r.rejectReason,
  resend_count: r.resendCount,
  reply: r.staffReply,
  helpful: r.helpfulCount,
  withdrawn_at: r.withdrawnAt?.toISOString() ?? null,
  created_at: r.createdAt.toISOString(),
  sent_at: r.sentAt.toISOString(),
  checked_at: r.checkedAt?.toISOString() ?? null,
  published_at: r.publishedAt?.toISOString() ?? null,
});

const stateOf = (r: { status: string; rejectReason: string | null; staffReply: string | null }) => ({
  status: r.status,
  reject_reason: r.rejectReason,
  reply: r.staffReply,
});

export async function adminReviewRoutes(app: FastifyInstance, deps: AdminDeps): Promise<void> {
  const { db } = deps;

  adminRead(app, deps, {
    url: '/reviews',
    summary: 'Product reviews, newest first: filters status, queue (true: not yet looked at), product_id, rating',
    permission: 'reviews:read',
    query: ReviewListQuery,
    response: AdminReviewListResponse,
    handler: async ({ query }) => {
      const { offset, limit, order, status, queue, product_id, rating } = query;
      const { rows, total } = await listAdminReviews(db, {
        filter: { status, queue, productId: product_id, rating },
        offset,
        limit,
        order,
      });
      return { data: rows.map(reviewItem), total };
    },
  });

  adminRead(app, deps, {
    url: '/review-settings',
    summary: 'The moderation setting: premoderation (the default) or publish at once and moderate afterwards',
    permission: 'reviews:read',
    response: ReviewSettingsResponse,
    handler: async () => ({ data: { id: 'reviews' as const, mode: await readModerationMode(db) } }),
  });

  adminChange(app, deps, {
    method: 'POST',
    url: '/review-settings',
    summary: 'Changes the moderation setting',
    permission: 'reviews:moderate',
    body: ReviewSettings,
    response: ReviewSettingsResponse,
    run: async ({ tx, body }) => {
      const before = await saveModerationMode(tx, body.mode);
      return {
        ok: true,
        body: { data: { id: 'reviews' as const, mode: body.mode } },
        audit: {
          action: 'reviews.settings',
          entityType: 'settings',
          entityId: 0,
          before: { mode: before },
          after: { mode: body.mode },
          reason: null,
        },
      };
    },
  });

  adminRead(app, deps, {
    url: '/reviews/:id',
    summary: 'One review with its photos and moderation state',
    permission: 'reviews:read',
    params: IdParams,
    response: AdminReviewOneResponse,
    handler: async ({ params, reply }) => {
      const row = await getAdminReview(db, params.id);
      if (!row) return notFound(reply);
      return { data: reviewItem(row) };
    },
  });

  adminChange(app, deps, {
    method: 'POST',
    url: '/reviews/:id/publish',
    summary:
      'Publishes a review (or marks a review published at once as checked); it counts in the rating and shows on the product page',
    permission: 'reviews:moderate',
    params: IdParams,
    body: ReviewPublishBody,
    response: AdminReviewOneResponse,
    run: async ({ tx, params, body, now }) => {
      const r = await publishReview(tx, { id: params.id, now });
      if (!r.ok) return refusal(r);
      const row = (await getAdminReview(tx, params.id)) as AdminReviewRow;
      return {
        ok: true,
        body: { data: reviewItem(row) },
        audit: {
          action: 'review.publish',
          entityType: 'review',
          entityId: params.id,
          before: stateOf(r.before),
          after: stateOf(r.after),
          reason: body.reason ?? null,
        },
      };
    },
  });

  adminChange(app, deps, {
    method: 'POST',
    url: '/reviews/:id/reject',
    summary:
      'Rejects a review with the reason its author sees in the account (a published one leaves the page); the author may edit and resend it once',
    permission: 'reviews:moderate',
    params: IdParams,
    body: ReviewRejectBody,
    response: AdminReviewOneResponse,
    run: async ({ tx, params, body, now }) => {
      const r = await rejectReview(tx, { id: params.id, reason: body.reason, now });
      if (!r.ok) return refusal(r);
      const row = (await getAdminReview(tx, params.id)) as AdminReviewRow;
      return {
        ok: true,
        body: { data: reviewItem(row) },
        audit: {
          action: 'review.reject',
          entityType: 'review',
          entityId: params.id,
          before: stateOf(r.before),
          after: stateOf(r.after),
          reason: body.reason,
        },
      };
    },
  });

  adminChange(app, deps, {
    method: 'POST',
    url: '/reviews/:id/reply',
    summary: "The shop's reply shown under the review (an empty text removes it)",
    permission: 'reviews:moderate',
    params: IdParams,
    body: ReviewReplyBody,
    response: AdminReviewOneResponse,
    run: async ({ tx, params, body, now }) => {
      const r = await replyToReview(tx, { id: params.id, reply: body.reply, now });
      if (!r.ok) return refusal(r);
      const row = (await getAdminReview(tx, params.id)) as AdminReviewRow;
      return {
        ok: true,
        body: { data: reviewItem(row) },
        audit: {
          action: 'review.reply',
          entityType: 'review',
          entityId: params.id,
          before: stateOf(r.before),
          after: stateOf(r.after),
          reason: null,
        },
      };
    },
  });
}
