import { z } from 'zod';

// Product reviews (issue #32, docs/reviews.md): the answers of the shopper's review calls and of
// the back office's moderation routes. The storefront and the admin app take their types from here.

const Fit = z.enum(['small', 'true', 'large']);
const Status = z.enum(['pending', 'published', 'rejected']);

export const ReviewPhoto = z.object({
  /** Media path (reviews/<name>.jpg), shown through /img like product photos. */
  path: z.string(),
  width: z.number().int(),
  height: z.number().int(),
});
export type ReviewPhoto = z.infer<typeof ReviewPhoto>;

/** A published review as the product page shows it. */
export const PublicReview = z.object({
  id: z.number().int(),
  author: z.string(),
  rating: z.number().int().min(1).max(5),
  fit: Fit,
  fit_label: z.string(),
  size: z.string(),
  height_cm: z.number().int().nullable(),
  usual_size: z.string().nullable(),
  /** Plain text: shown as text, never as markup. */
  text: z.string(),
  /** YYYY-MM-DD (Moscow). */
  date: z.string(),
  helpful: z.number().int(),
  photos: z.array(ReviewPhoto),
  reply: z.string().nullable(),
});
export type PublicReview = z.infer<typeof PublicReview>;

export const ReviewSummary = z.object({
  average: z.number(),
  count: z.number().int(),
  /** Reviews per rating, index 0 = 1 star. */
  histogram: z.array(z.number().int()).length(5),
  with_photos: z.number().int(),
  fit: z.object({
    counts: z.object({ small: z.number().int(), true: z.number().int(), large: z.number().int() }),
    total: z.number().int(),
    /** The majority answer once the threshold is met, and its sentence. */
    advice: Fit.nullable(),
    advice_text: z.string().nullable(),
    rule: z.string(),
  }),
  /** The period stated on the page. */
  window_note: z.string(),
});
export type ReviewSummary = z.infer<typeof ReviewSummary>;

/** GET /api/reviews/list.php?product_id=&sort=new|helpful&rating=1..5&photos=1&page= */
export const ReviewListResponse = z.object({
  summary: ReviewSummary,
  items: z.array(PublicReview),
  page: z.number().int(),
  page_count: z.number().int(),
  total: z.number().int(),
});
export type ReviewListResponse = z.infer<typeof ReviewListResponse>;

/** The customer's own review of a line, with its moderation state. */
export const OwnReview = z.object({
  id: z.number().int(),
  status: Status,
  status_label: z.string(),
  reject_reason: z.string().nullable(),
  can_resend: z.boolean(),
  rating: z.number().int(),
  fit: Fit,
  text: z.string(),
  height_cm: z.number().int().nullable(),
  usual_size: z.string().nullable(),
  photos: z.array(ReviewPhoto),
  withdrawn: z.boolean(),
  reply: z.string().nullable(),
});
export type OwnReview = z.infer<typeof OwnReview>;

export const ReviewLine = z.object({
  order_id: z.number().int(),
  offer_id: z.number().int(),
  is_preorder: z.boolean(),
  product_id: z.number().int(),
  title: z.string(),
  size: z.string(),
  color: z.string(),
  image: z.string(),
  can_review: z.boolean(),
  /** YYYY-MM-DD: the last day a review may be written. */
  until: z.string().nullable(),
  /** Why not (Russian), when there is no review and none may be written. */
  reason: z.string().nullable(),
  review: OwnReview.nullable(),
});
export type ReviewLine = z.infer<typeof ReviewLine>;

/** POST /api/personal/review_lines.php { token, order_id? , product_id? } */
export const ReviewLinesResponse = z.object({ lines: z.array(ReviewLine), window_note: z.string() });
export type ReviewLinesResponse = z.infer<typeof ReviewLinesResponse>;

/** POST /api/personal/review_add.php and review_resend.php (JSON, photos as base64). */
export const ReviewWriteResponse = z.union([
  z.object({ success: z.literal(true), review: OwnReview, published: z.boolean() }),
  z.object({ success: z.literal(false), error: z.string(), field: z.string().optional() }),
]);
export type ReviewWriteResponse = z.infer<typeof ReviewWriteResponse>;

/**
 * POST /api/reviews/helpful.php { token?, review_id }: «Помог» from a logged-in customer, once per
 * review (a second press, or two at once, leaves one vote). `helpful`: the review's count after the
 * call; `voted`: this customer's vote is there; `error` (Russian) when it was refused.
 */
export const ReviewHelpfulResponse = z.object({
  success: z.boolean(),
  helpful: z.number().int(),
  voted: z.boolean(),
  error: z.string().optional(),
});
export type ReviewHelpfulResponse = z.infer<typeof ReviewHelpfulResponse>;

/**
 * POST /api/reviews/my_votes.php { token?, product_id }: which of the product's published reviews
 * this customer marked «Помог», and which are their own (no vote on those). Personal: asked after
 * paint, never in the cached page.
 */
export const ReviewVotesResponse = z.object({
  voted: z.array(z.number().int()),
  own: z.array(z.number().int()),
  /**
   * The voted reviews' counts now (review id → count): the cached page's counts may lag by the
   * page cache's bound, but a shopper's own vote is always in the count they see.
   */
  helpful: z.record(z.string(), z.number().int()),
});
export type ReviewVotesResponse = z.infer<typeof ReviewVotesResponse>;

// ---------------------------------------------------------------------------------------------
// The back office: /backend/admin/reviews

export const AdminReviewItem = z.object({
  id: z.number().int(),
  product_id: z.number().int(),
  product_name: z.string(),
  product_url: z.string(),
  customer_id: z.number().int(),
  order_id: z.number().int(),
  offer_id: z.number().int(),
  author: z.string(),
  status: Status,
  status_label: z.string(),
  in_queue: z.boolean(),
  rating: z.number().int(),
  fit: Fit,
  fit_label: z.string(),
  size: z.string(),
  height_cm: z.number().int().nullable(),
  usual_size: z.string().nullable(),
  text: z.string(),
  photos: z.array(ReviewPhoto),
  reject_reason: z.string().nullable(),
  resend_count: z.number().int(),
  reply: z.string().nullable(),
  helpful: z.number().int(),
  withdrawn_at: z.string().nullable(),
  created_at: z.string(),
  sent_at: z.string(),
  checked_at: z.string().nullable(),
  published_at: z.string().nullable(),
});
export type AdminReviewItem = z.infer<typeof AdminReviewItem>;

export const AdminReviewListResponse = z.object({ data: z.array(AdminReviewItem), total: z.number().int() });
export const AdminReviewOneResponse = z.object({ data: AdminReviewItem });
export const ReviewRejectBody = z.object({
  reason: z.string().trim().min(3, 'Укажите причину: её увидит покупатель').max(500, 'Причина: не больше 500 символов'),
});
export const ReviewReplyBody = z.object({ reply: z.string().trim().max(2000, 'Ответ: не больше 2000 символов') });
export const ReviewPublishBody = z.object({ reason: z.string().trim().max(500).optional() });
export const ReviewSettings = z.object({ mode: z.enum(['premoderation', 'postmoderation']) });
export const ReviewSettingsResponse = z.object({ data: ReviewSettings.extend({ id: z.literal('reviews') }) });
