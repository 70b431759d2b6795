import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { COOKIE, readCookie } from '~/shared/cookies';
import { z } from 'zod';
import type { Database } from '~/db/client.server';
import {
  checkReview,
  canResend,
  FIT_ADVICE_RULE,
  FIT_LABELS,
  fitAdvice,
  REVIEW_PHOTOS_MAX,
  REVIEW_SORTS,
  REVIEW_STATUS_LABELS,
  REVIEW_TEXT,
  REVIEW_WINDOW_NOTE,
  summariseRatings,
  type Fit,
  type ReviewStatus,
} from '~/core/reviews';
import { moscowNow } from '~/core/working-days';
import { isAdminOrigin } from '~/core/staff-auth';
import {
  ReviewLinesResponse,
  ReviewListResponse,
  ReviewWriteResponse,
  ReviewHelpfulResponse,
  ReviewVotesResponse,
  type OwnReview,
  type PublicReview,
} from '~/shared/reviews-contract';
import { ApiError } from '~/shared/contract';
import {
  createReview,
  customerReviewVotes,
  listPublishedReviews,
  listReviewableLines,
  productReviewStats,
  resendReview,
  voteHelpful,
  type ReviewPhotoRow,
  type ReviewRow,
  type StoredPhoto,
} from '~/models/reviews.server';
import { lastValue } from '~/api/http.server';
import { BAD_PARAMETERS, defineRoute } from '~/api/route.server';
import { customerRoute, tokenField } from '~/api/account/require-customer.server';
import type { ReviewPhotoStore } from './photos';

// Product reviews for shoppers (issue #32, docs/reviews.md):
// - GET  /api/reviews/list.php        public: a product's published reviews, rating and fit advice
//                                     (cacheable like the catalogue; a publication bumps the
//                                     catalogue version, which empties the page caches)
// - POST /api/personal/review_lines.php   the customer's lines with their review state
// - POST /api/personal/review_add.php     a new review (JSON; photos as base64, at most 5)
// - POST /api/personal/review_resend.php  a rejected review edited and sent again, once
// - POST /api/reviews/helpful.php         "Помог отзыв" (a logged-in customer, once per review)
// - POST /api/reviews/my_votes.php        which of a product's reviews the customer marked «Помог»
//                                         (personal: the product page asks after paint)

export interface ReviewRouteDeps {
  db: Database;
  authSecret: string;
  /** The shop's public origin (PUBLIC_SITE_URL): the session cookie is taken from its pages only. */
  siteUrl: string;
  /** The image pipeline for photos; without it reviews with photos are refused. */
  photos?: ReviewPhotoStore | undefined;
  now: () => Date;
}

const PAGE_SIZE = 10;
/** Base64 of five photos of up to 10 MB each, and the fields. */
const WRITE_BODY_LIMIT = Math.ceil((REVIEW_PHOTOS_MAX * 10 * 1024 * 1024 * 4) / 3) + 64 * 1024;

const digits = (max: number) =>
  z.preprocess(
    lastValue,
    z
      .string()
      .regex(/^[1-9]\d{0,8}$/)
      .transform(Number)
      .refine((n) => n <= max),
  );
const ListQuery = z.object({
  product_id: digits(2_147_483_647).describe('Product id'),
  sort: z.preprocess(lastValue, z.enum(REVIEW_SORTS).default('new')).describe('new (default) or helpful'),
  rating: z
    .preprocess((v) => (lastValue(v) === '' ? undefined : lastValue(v)), digits(5).optional())
    .describe('1–5: only reviews with this rating'),
  photos: z.preprocess(lastValue, z.enum(['1', '0', '']).optional()).describe('1: only reviews with photos'),
  page: z
    .preprocess((v) => (lastValue(v) === '' ? undefined : lastValue(v)), digits(1000).default(1))
    .describe('Page, from 1'),
});
const LinesBody = z.object({
  token: tokenField(),
  order_id: digits(2_147_483_647).optional().describe('Only the lines of this order'),
  product_id: digits(2_147_483_647).optional().describe('Only the lines of this product'),
});
const Fields = {
  token: z
    .string()
    .max(4000)
    .optional()
    .describe("Session token (or the session cookie, on a JSON request from the shop's own pages)"),
  rating: z
    .union([z.string().max(10), z.number()])
    .optional()
    .describe('1–5'),
  fit: z.string().max(20).optional().describe('small, true or large'),
  text: z.string().max(20_000).optional(),
  height: z
    .union([z.string().max(10), z.number()])
    .optional()
    .describe('Height, cm'),
  usual_size: z.string().max(100).optional(),
  photos: z
    .array(z.string().max(15_000_000))
    .optional()
    .describe(`Photos as base64 (or data: URLs) of JPEG, PNG or WebP, at most ${REVIEW_PHOTOS_MAX}`),
};
const AddBody = z.object({
  ...Fields,
  order_id: z.coerce.number().int().min(1).max(2_147_483_647),
  offer_id: z.coerce.number().int().min(1).max(2_147_483_647),
  is_preorder: z.union([z.boolean(), z.enum(['0', '1', 'true', 'false'])]).optional(),
});
const ResendBody = z.object({
  ...Fields,
  review_id: z.coerce.number().int().min(1).max(2_147_483_647),
  keep_photos: z.boolean().optional().describe('true keeps the photos the review has'),
});
const HelpfulBody = z.object({ token: tokenField(), review_id: digits(2_147_483_647).describe('Review id') });
const VotesBody = z.object({ token: tokenField(), product_id: digits(2_147_483_647).describe('Product id') });

/** The API's words for a call refused at the edge (the back office's rule and texts, api/admin/plugin.server.ts). */
export const REVIEW_EDGE_TEXT = {
  crossSite: 'Запрос с чужого сайта отклонён',
  json: 'Нужно тело запроса в JSON',
  helpfulLogin: 'Войдите, чтобы отметить отзыв полезным',
  helpfulNotFound: 'Отзыв не найден',
  helpfulOwn: 'Свой отзыв отметить нельзя',
} as const;

const dateOf = (d: Date) => moscowNow(d).date;
const photoOf = (p: ReviewPhotoRow) => ({ path: p.path, width: p.width, height: p.height });

export function toPublicReview(r: ReviewRow & { photos: ReviewPhotoRow[] }): PublicReview {
  return {
    id: r.id,
    author: r.authorName,
    rating: r.rating,
    fit: r.fit as Fit,
    fit_label: FIT_LABELS[r.fit as Fit],
    size: r.size,
    height_cm: r.heightCm,
    usual_size: r.usualSize,
    text: r.text,
    date: dateOf(r.publishedAt ?? r.createdAt),
    helpful: r.helpfulCount,
    photos: r.photos.map(photoOf),
    reply: r.staffReply,
  };
}

function toOwnReview(r: ReviewRow & { photos: ReviewPhotoRow[] }): OwnReview {
  return {
    id: r.id,
    status: r.status as ReviewStatus,
    status_label: r.withdrawnAt ? 'Снят после возврата' : REVIEW_STATUS_LABELS[r.status as ReviewStatus],
    reject_reason: r.status === 'rejected' ? r.rejectReason : null,
    can_resend: canResend({ status: r.status as ReviewStatus, resendCount: r.resendCount }).ok && !r.withdrawnAt,
    rating: r.rating,
    fit: r.fit as Fit,
    text: r.text,
    height_cm: r.heightCm,
    usual_size: r.usualSize,
    photos: r.photos.map(photoOf),
    withdrawn: r.withdrawnAt !== null,
    reply: r.staffReply,
  };
}

/** Base64 (optionally a data: URL) to bytes, or null when it is not base64. */
function decodePhoto(text: string): Uint8Array | null {
  const body = text.replace(/^data:image\/[a-z+.-]+;base64,/i, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(body) || body.length === 0) return null;
  return Buffer.from(body, 'base64');
}

/**
 * The session cookie in place of a `token` (CSRF, docs/reviews.md "The session cookie"). The
 * account's review form and the product page's «Помог» call this API from the browser with JSON
 * (photos are too large for a page's form, which is limited to 256 KB), and the HttpOnly session
 * cookie stands in for the `token` the contract's bodies carry. The cookie is taken only as the
 * back office takes its own (api/admin/plugin.server.ts): on a JSON request (a cross-site page
 * cannot send one without CORS, which this API never allows) whose Origin is the shop's, or,
 * without Origin, whose Sec-Fetch-Site says same-origin. Any other call that has the cookie and
 * no `token` is refused, 403 (another site) or 415 (not JSON), and logged; a `token` in the body
 * (the contract's scripts and the server-rendered pages) is judged alone, as on every other path.
 */
function cookieGuard(req: FastifyRequest, reply: FastifyReply, siteOrigin: string | null): FastifyReply | undefined {
  const body = req.body as { token?: unknown } | null | undefined;
  if (body && typeof body === 'object' && typeof body.token === 'string') return undefined;
  const token = readCookie(typeof req.headers.cookie === 'string' ? req.headers.cookie : null, COOKIE.token);
  // No session cookie: nothing to ride on; the route answers 401 as to any caller without a token.
  if (!token) return undefined;
  const origin = typeof req.headers.origin === 'string' ? req.headers.origin : undefined;
  const fetchSite = typeof req.headers['sec-fetch-site'] === 'string' ? req.headers['sec-fetch-site'] : undefined;
  const refuse = (status: number, error: string, why: string) => {
    req.log.warn(
      { reviews: why, origin: origin ?? null, fetchSite: fetchSite ?? null, url: req.url.slice(0, 200) },
      'reviews: session cookie refused',
    );
    return reply
      .code(status)
      .header('cache-control', 'private, no-store')
      .send({ error } satisfies ApiError);
  };
  if (!isAdminOrigin({ origin, fetchSite, requestOrigin: `${req.protocol}://${req.host}`, siteOrigin }))
    return refuse(403, REVIEW_EDGE_TEXT.crossSite, 'cross-site');
  if (!/^application\/json(\s*;|$)/i.test(String(req.headers['content-type'] ?? '')))
    return refuse(415, REVIEW_EDGE_TEXT.json, 'not json');
  if (body && typeof body === 'object') body.token = token;
  return undefined;
}

export async function reviewRoutes(
  app: FastifyInstance,
  { db, authSecret, siteUrl, photos: photoStore, now }: ReviewRouteDeps,
): Promise<void> {
  const auth = { db, secret: authSecret };
  const siteOrigin = (() => {
    try {
      return new URL(siteUrl).origin;
    } catch {
      return null;
    }
  })();
  // Every POST of this plugin (review_lines, review_add with its photos, review_resend, helpful, my_votes).
  app.addHook('preHandler', async (req, reply) => {
    if (req.method === 'POST') return cookieGuard(req, reply, siteOrigin);
  });

  defineRoute(app, {
    method: 'GET',
    url: '/api/reviews/list.php',
    summary: "A product's published reviews (10 a page), its rating and the fit advice (issue #32, docs/reviews.md)",
    query: ListQuery,
    responses: {
      200: { description: 'Summary and the page of reviews', schema: ReviewListResponse },
      400: BAD_PARAMETERS,
    },
    handler: async ({ query: q }, _req, reply) => {
      const [stats, page] = await Promise.all([
        productReviewStats({ db, productId: q.product_id }),
        listPublishedReviews({
          db,
          productId: q.product_id,
          sort: q.sort,
          rating: q.rating,
          withPhotos: q.photos === '1',
          offset: (q.page - 1) * PAGE_SIZE,
          limit: PAGE_SIZE,
        }),
      ]);
      const summary = summariseRatings(stats.ratings);
      const advice = fitAdvice(stats.fits);
      // Public like the catalogue: the page cache and the kept answers keep it until the catalogue version moves.
      void reply.header('cache-control', 'public, max-age=60');
      return {
        summary: {
          average: summary.average,
          count: summary.count,
          histogram: summary.histogram,
          with_photos: stats.withPhotos,
          fit: {
            counts: advice.counts,
            total: advice.total,
            advice: advice.fit,
            advice_text: advice.text,
            rule: FIT_ADVICE_RULE,
          },
          window_note: REVIEW_WINDOW_NOTE,
        },
        items: page.rows.map(toPublicReview),
        page: q.page,
        page_count: Math.max(1, Math.ceil(page.total / PAGE_SIZE)),
        total: page.total,
      } satisfies ReviewListResponse;
    },
  });

  customerRoute(app, auth, {
    url: '/api/personal/review_lines.php',
    summary: "The customer's order lines with their review state (of one order or one product)",
    body: LinesBody,
    responses: { 200: { description: 'The lines', schema: ReviewLinesResponse } },
    handler: async (session) => {
      const lines = await listReviewableLines({
        db,
        customerId: session.customerId,
        orderId: session.body.order_id,
        productId: session.body.product_id,
        now: now(),
      });
      return {
        lines: lines.map((l) => ({
          order_id: l.orderId,
          offer_id: l.offerId,
          is_preorder: l.isPreorder,
          product_id: l.productId,
          title: l.title,
          size: l.size,
          color: l.color,
          image: l.image,
          can_review: l.canReview,
          until: l.until ? dateOf(l.until) : null,
          reason: l.reason,
          review: l.review ? toOwnReview(l.review) : null,
        })),
        window_note: REVIEW_WINDOW_NOTE,
      } satisfies ReviewLinesResponse;
    },
  });

  /** The photos of a body checked and written, or the shopper's error. */
  async function takePhotos(
    list: string[] | undefined,
  ): Promise<{ ok: true; stored: StoredPhoto[] } | { ok: false; error: string }> {
    if (!list || list.length === 0) return { ok: true, stored: [] };
    if (list.length > REVIEW_PHOTOS_MAX) return { ok: false, error: REVIEW_TEXT.tooManyPhotos };
    if (!photoStore) return { ok: false, error: 'Фотографии сейчас не принимаются' };
    const bytes: Uint8Array[] = [];
    for (const text of list) {
      const b = decodePhoto(text);
      if (!b) return { ok: false, error: 'Фотография не читается: загрузите JPEG, PNG или WebP' };
      bytes.push(b);
    }
    const prepared = await photoStore.prepare(bytes);
    if (!prepared.ok) return prepared;
    return { ok: true, stored: await photoStore.store(prepared.photos) };
  }

  /** Set before the body is read: a refused body is not kept either. */
  const noStore = async (_req: FastifyRequest, reply: FastifyReply) => {
    void reply.header('cache-control', 'private, no-store');
  };
  const writeOptions = {
    bodyLimit: WRITE_BODY_LIMIT,
    bodyType: 'json',
    preHandler: noStore,
    responses: {
      200: { description: 'The review, or the error (Russian, with its field)', schema: ReviewWriteResponse },
    },
  } as const;

  customerRoute(app, auth, {
    ...writeOptions,
    url: '/api/personal/review_add.php',
    summary:
      'A review of a received and kept order line, once per line, within 60 days (JSON; photos as base64, at most 5)',
    description:
      "Mistakes answer 200 with success false and the Russian text. Without a token in the body, the session cookie stands in on a JSON request from the shop's own pages.",
    body: AddBody,
    handler: async (session, req) => {
      const body = session.body;
      const checked = checkReview({
        rating: body.rating,
        fit: body.fit,
        text: body.text,
        height: body.height,
        usualSize: body.usual_size,
      });
      if (!checked.ok)
        return { success: false, error: checked.error, field: checked.field } satisfies ReviewWriteResponse;
      const taken = await takePhotos(body.photos);
      if (!taken.ok) return { success: false, error: taken.error, field: 'photos' } satisfies ReviewWriteResponse;
      let result: Awaited<ReturnType<typeof createReview>>;
      try {
        result = await createReview({
          db,
          customerId: session.customerId,
          orderId: body.order_id,
          offerId: body.offer_id,
          isPreorder: body.is_preorder === true || body.is_preorder === '1' || body.is_preorder === 'true',
          fields: checked.review,
          photos: taken.stored,
          now: now(),
        });
      } catch (err) {
        await photoStore?.remove(taken.stored.map((p) => p.path));
        // Two sends of one line at once: the unique line index lets one in.
        if (
          (err as { code?: string; cause?: { code?: string } }).code === '23505' ||
          (err as { cause?: { code?: string } }).cause?.code === '23505'
        )
          return { success: false, error: REVIEW_TEXT.already, field: 'offer_id' } satisfies ReviewWriteResponse;
        throw err;
      }
      if (!result.ok) {
        await photoStore?.remove(taken.stored.map((p) => p.path));
        if (result.status === 'capped')
          req.log.warn({ reviews: 'capped', customerId: session.customerId }, 'reviews: daily cap reached');
        return { success: false, error: result.error, field: result.field } satisfies ReviewWriteResponse;
      }
      const photos = taken.stored.map((p, i) => ({ ...p, id: 0, reviewId: result.review.id, position: i + 1 }));
      return {
        success: true,
        review: toOwnReview({ ...result.review, photos }),
        published: result.published,
      } satisfies ReviewWriteResponse;
    },
  });

  customerRoute(app, auth, {
    ...writeOptions,
    url: '/api/personal/review_resend.php',
    summary: 'A rejected review edited and sent again, once (JSON: review_id and the fields of review_add.php)',
    body: ResendBody,
    handler: async (session) => {
      const body = session.body;
      const checked = checkReview({
        rating: body.rating,
        fit: body.fit,
        text: body.text,
        height: body.height,
        usualSize: body.usual_size,
      });
      if (!checked.ok)
        return { success: false, error: checked.error, field: checked.field } satisfies ReviewWriteResponse;
      const replace = body.keep_photos !== true;
      const taken: Awaited<ReturnType<typeof takePhotos>> = replace
        ? await takePhotos(body.photos)
        : { ok: true, stored: [] };
      if (!taken.ok) return { success: false, error: taken.error, field: 'photos' } satisfies ReviewWriteResponse;
      let result: Awaited<ReturnType<typeof resendReview>>;
      try {
        result = await resendReview({
          db,
          customerId: session.customerId,
          reviewId: body.review_id,
          fields: checked.review,
          photos: replace ? taken.stored : null,
          now: now(),
        });
      } catch (err) {
        await photoStore?.remove(taken.stored.map((p) => p.path));
        throw err;
      }
      if (!result.ok) {
        await photoStore?.remove(taken.stored.map((p) => p.path));
        return { success: false, error: result.error, field: result.field } satisfies ReviewWriteResponse;
      }
      if (result.removedPaths?.length) await photoStore?.remove(result.removedPaths);
      const [line] = (
        await listReviewableLines({ db, customerId: session.customerId, orderId: result.review.orderId, now: now() })
      ).filter((l) => l.review?.id === result.review.id);
      const own = line?.review ?? { ...result.review, photos: [] };
      return { success: true, review: toOwnReview(own), published: result.published } satisfies ReviewWriteResponse;
    },
  });

  const cookieRefused = {
    403: { description: 'The session cookie came from another site', schema: ApiError },
    415: { description: 'The session cookie came with a body that is not JSON', schema: ApiError },
  };

  customerRoute(app, auth, {
    url: '/api/reviews/helpful.php',
    summary: '«Помог отзыв»: one vote per customer and review; pressing again changes nothing',
    description:
      'Form or JSON. Without `token`, the session cookie stands in on a same-origin JSON call only (docs/reviews.md).',
    body: HelpfulBody,
    bodyType: ['form', 'json'],
    preHandler: noStore,
    responses: {
      200: { description: 'The count, and whether the vote counted (or why not)', schema: ReviewHelpfulResponse },
      ...cookieRefused,
    },
    // A guest's press: the page asks them to log in first; a call without a session says why.
    noSession: {
      body: { error: REVIEW_EDGE_TEXT.helpfulLogin } satisfies ApiError,
      schema: ApiError,
      description: 'No token, or its session ended: the guest is asked to log in',
    },
    handler: async (session) => {
      const r = await voteHelpful({ db, customerId: session.customerId, reviewId: session.body.review_id });
      if (!r.ok)
        return {
          success: false,
          helpful: r.count,
          voted: false,
          error: r.reason === 'own' ? REVIEW_EDGE_TEXT.helpfulOwn : REVIEW_EDGE_TEXT.helpfulNotFound,
        } satisfies ReviewHelpfulResponse;
      return { success: true, helpful: r.count, voted: true } satisfies ReviewHelpfulResponse;
    },
  });

  customerRoute(app, auth, {
    url: '/api/reviews/my_votes.php',
    summary:
      "Which of a product's published reviews the customer marked «Помог», and which are their own (personal: asked after paint)",
    description:
      'Form or JSON. Without `token`, the session cookie stands in on a same-origin JSON call only (docs/reviews.md).',
    body: VotesBody,
    bodyType: ['form', 'json'],
    preHandler: noStore,
    responses: { 200: { description: 'The review ids', schema: ReviewVotesResponse }, ...cookieRefused },
    handler: async (session) => {
      return (await customerReviewVotes({
        db,
        customerId: session.customerId,
        productId: session.body.product_id,
      })) satisfies ReviewVotesResponse;
    },
  });
}
