// Product reviews (issue #32): who may review what, what a review holds, how fit answers become
// advice, and the caps. Pure: the models, the API, the storefront and the back office share it.
//
// Only buyers, only of what they kept: a customer reviews an order line of their own that was
// received (the order delivered or received, delivered_at set) and of which something is still
// kept (after a fitting only the kept units; less what approved returns took back), once per
// line, within REVIEW_WINDOW_DAYS of receipt. Gift covers and gift certificates are not reviewed.

import { hasRefusedCharacter } from './input-text';

/** Days from receipt during which a line may be reviewed (stated on the product page and in the account). */
export const REVIEW_WINDOW_DAYS = 60;
export const REVIEW_TEXT_MIN = 10;
export const REVIEW_TEXT_MAX = 2000;
export const REVIEW_PHOTOS_MAX = 5;
/** New reviews (and resends) one customer may send in 24 hours. */
export const REVIEWS_PER_DAY = 5;
/** A rejected review may be edited and sent again this many times. */
export const REVIEW_RESENDS = 1;
export const HEIGHT_MIN_CM = 100;
export const HEIGHT_MAX_CM = 230;
export const USUAL_SIZE_MAX = 10;
export const AUTHOR_NAME_MAX = 40;
export const REPLY_MAX = 2000;
export const REJECT_REASON_MAX = 500;

/** Fit advice appears once this many fit answers are published, and one answer has a clear majority. */
export const FIT_ADVICE_MIN_ANSWERS = 5;
/** "A clear majority": at least this share of the fit answers. */
export const FIT_ADVICE_MAJORITY = 0.6;

export const FITS = ['small', 'true', 'large'] as const;
export type Fit = (typeof FITS)[number];
export const FIT_LABELS: Readonly<Record<Fit, string>> = { small: 'маломерит', true: 'в размер', large: 'большемерит' };

export const REVIEW_STATUSES = ['pending', 'published', 'rejected'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];
export const REVIEW_STATUS_LABELS: Readonly<Record<ReviewStatus, string>> = {
  pending: 'На модерации',
  published: 'Опубликован',
  rejected: 'Отклонён',
};

/** The shop setting: check before publishing (the default) or publish at once and check afterwards. */
export const MODERATION_MODES = ['premoderation', 'postmoderation'] as const;
export type ModerationMode = (typeof MODERATION_MODES)[number];
export const DEFAULT_MODERATION_MODE: ModerationMode = 'premoderation';

export const REVIEW_TEXT = {
  notFound: 'Покупка не найдена',
  notReceived: 'Отзыв можно оставить после получения заказа',
  notKept: 'Отзыв можно оставить только о вещи, которую вы оставили себе',
  expired: `Отзыв можно оставить в течение ${REVIEW_WINDOW_DAYS} дней с момента получения`,
  already: 'Вы уже оставили отзыв об этой покупке',
  ratingRequired: 'Поставьте оценку от 1 до 5',
  fitRequired: 'Укажите, как сидит вещь: маломерит, в размер или большемерит',
  textShort: `Напишите отзыв: не меньше ${REVIEW_TEXT_MIN} символов`,
  textLong: `Отзыв слишком длинный: не больше ${REVIEW_TEXT_MAX} символов`,
  badCharacters: 'Текст содержит недопустимые символы',
  heightRange: `Рост укажите в сантиметрах, от ${HEIGHT_MIN_CM} до ${HEIGHT_MAX_CM}`,
  usualSizeLong: 'Обычный размер: не больше 10 символов',
  tooManyPhotos: `Можно приложить не больше ${REVIEW_PHOTOS_MAX} фотографий`,
  tooManyToday: 'Сегодня вы уже отправили много отзывов. Попробуйте завтра.',
  cannotResend: 'Этот отзыв нельзя изменить',
  resendUsed: 'Отклонённый отзыв можно исправить и отправить снова только один раз',
} as const;

export const REVIEW_WINDOW_NOTE = `Отзыв можно оставить о полученной и не возвращённой вещи в течение ${REVIEW_WINDOW_DAYS} дней с момента получения.`;

export interface ReviewableLine {
  /** The order's status code and when it was received. */
  orderStatus: string;
  deliveredAt: Date | null;
  quantity: number;
  /** The fitting's outcome: how many were kept (null: no fitting). */
  keptQuantity: number | null;
  returnedQuantity: number;
  isGift: boolean;
  /** The line is a gift certificate (not a garment). */
  isCertificate: boolean;
}

/** Units of the line the customer still has: kept at the fitting (or all bought), less approved returns. */
export function keptUnits(line: Pick<ReviewableLine, 'quantity' | 'keptQuantity' | 'returnedQuantity'>): number {
  return Math.max(0, (line.keptQuantity ?? line.quantity) - line.returnedQuantity);
}

export function reviewDeadline(deliveredAt: Date): Date {
  return new Date(deliveredAt.getTime() + REVIEW_WINDOW_DAYS * 86_400_000);
}

export type Eligibility =
  { ok: true; until: Date } | { ok: false; reason: 'not_received' | 'not_kept' | 'expired' | 'already' };

/** Whether a new review of the line may be written at `now` (`reviewed`: the line already has one). */
export function reviewEligibility(line: ReviewableLine, reviewed: boolean, now: Date): Eligibility {
  if (line.isGift || line.isCertificate) return { ok: false, reason: 'not_kept' };
  if (!line.deliveredAt || !['delivered', 'received'].includes(line.orderStatus))
    return { ok: false, reason: 'not_received' };
  if (keptUnits(line) <= 0) return { ok: false, reason: 'not_kept' };
  if (reviewed) return { ok: false, reason: 'already' };
  const until = reviewDeadline(line.deliveredAt);
  if (now.getTime() > until.getTime()) return { ok: false, reason: 'expired' };
  return { ok: true, until };
}

export function eligibilityText(reason: Exclude<Eligibility, { ok: true }>['reason']): string {
  return {
    not_received: REVIEW_TEXT.notReceived,
    not_kept: REVIEW_TEXT.notKept,
    expired: REVIEW_TEXT.expired,
    already: REVIEW_TEXT.already,
  }[reason];
}

export interface ReviewInput {
  rating: unknown;
  fit: unknown;
  text: unknown;
  height?: unknown;
  usualSize?: unknown;
}

export interface ReviewFields {
  rating: number;
  fit: Fit;
  text: string;
  heightCm: number | null;
  usualSize: string | null;
}

export type ReviewCheck =
  | { ok: true; review: ReviewFields }
  | { ok: false; field: 'rating' | 'fit' | 'text' | 'height' | 'usual_size'; error: string };

/**
 * The review text as it is stored: plain text (shown as text, never as markup, so a link stays
 * words), line breaks made `\n`, spaces at line ends dropped, at most one empty line in a row.
 */
export function normaliseReviewText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t\u00A0]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** The form checked, in field order; the first mistake is named. */
export function checkReview(input: ReviewInput): ReviewCheck {
  const ratingText =
    typeof input.rating === 'number'
      ? String(input.rating)
      : typeof input.rating === 'string'
        ? input.rating.trim()
        : '';
  if (!/^[1-5]$/.test(ratingText)) return { ok: false, field: 'rating', error: REVIEW_TEXT.ratingRequired };
  const fit = typeof input.fit === 'string' ? input.fit : '';
  if (!(FITS as readonly string[]).includes(fit)) return { ok: false, field: 'fit', error: REVIEW_TEXT.fitRequired };
  const raw = typeof input.text === 'string' ? input.text : '';
  if (hasRefusedCharacter(raw)) return { ok: false, field: 'text', error: REVIEW_TEXT.badCharacters };
  const text = normaliseReviewText(raw);
  if ([...text].length < REVIEW_TEXT_MIN) return { ok: false, field: 'text', error: REVIEW_TEXT.textShort };
  if ([...text].length > REVIEW_TEXT_MAX) return { ok: false, field: 'text', error: REVIEW_TEXT.textLong };
  let heightCm: number | null = null;
  const heightText =
    typeof input.height === 'number'
      ? String(input.height)
      : typeof input.height === 'string'
        ? input.height.trim()
        : '';
  if (heightText !== '') {
    if (!/^\d{2,3}$/.test(heightText) || Number(heightText) < HEIGHT_MIN_CM || Number(heightText) > HEIGHT_MAX_CM)
      return { ok: false, field: 'height', error: REVIEW_TEXT.heightRange };
    heightCm = Number(heightText);
  }
  const usual = typeof input.usualSize === 'string' ? input.usualSize.trim() : '';
  if (usual.length > USUAL_SIZE_MAX) return { ok: false, field: 'usual_size', error: REVIEW_TEXT.usualSizeLong };
  if (hasRefusedCharacter(usual) || /[<>]/.test(usual))
    return { ok: false, field: 'usual_size', error: REVIEW_TEXT.badCharacters };
  return {
    ok: true,
    review: { rating: Number(ratingText), fit: fit as Fit, text, heightCm, usualSize: usual === '' ? null : usual },
  };
}

/** The author as shown: the first word of the customer's first name, or «Покупатель». */
export function authorName(firstName: string | null | undefined): string {
  const first = (firstName ?? '').trim().split(/\s+/)[0] ?? '';
  if (first === '' || hasRefusedCharacter(first)) return 'Покупатель';
  const letters = [...first].slice(0, AUTHOR_NAME_MAX).join('');
  return letters.charAt(0).toUpperCase() + letters.slice(1).toLowerCase();
}

export type ResendCheck = { ok: true } | { ok: false; error: string };

/** Whether a review may be edited and sent again: only a rejected one, and only REVIEW_RESENDS times. */
export function canResend(review: { status: ReviewStatus; resendCount: number }): ResendCheck {
  if (review.status !== 'rejected') return { ok: false, error: REVIEW_TEXT.cannotResend };
  if (review.resendCount >= REVIEW_RESENDS) return { ok: false, error: REVIEW_TEXT.resendUsed };
  return { ok: true };
}

/** Whether one more review may be sent, given how many this customer sent in the last 24 hours. */
export function underDailyCap(sentInLastDay: number): boolean {
  return sentInLastDay < REVIEWS_PER_DAY;
}

/** The status a new or resent review starts in under the shop's setting. */
export function initialStatus(mode: ModerationMode): ReviewStatus {
  return mode === 'postmoderation' ? 'published' : 'pending';
}

export interface RatingSummary {
  /** Average of the counted reviews, rounded to one decimal; 0 when there are none. */
  average: number;
  count: number;
  /** How many reviews gave each rating, index 0 = 1 star. */
  histogram: [number, number, number, number, number];
}

export function summariseRatings(ratings: readonly number[]): RatingSummary {
  const histogram: [number, number, number, number, number] = [0, 0, 0, 0, 0];
  let sum = 0;
  for (const r of ratings) {
    if (!Number.isInteger(r) || r < 1 || r > 5) continue;
    histogram[r - 1] = (histogram[r - 1] ?? 0) + 1;
    sum += r;
  }
  const count = histogram.reduce((a, b) => a + b, 0);
  return { average: count ? Math.round((sum / count) * 10) / 10 : 0, count, histogram };
}

export interface FitAdvice {
  /** The majority answer, or null below the threshold or without a clear majority. */
  fit: Fit | null;
  /** The sentence shown next to the size picker, or null. */
  text: string | null;
  counts: Record<Fit, number>;
  total: number;
}

const FIT_ADVICE_TEXT: Readonly<Record<Fit, string>> = {
  small: 'Большинство покупателей считают, что модель маломерит: берите на размер больше',
  true: 'Большинство покупателей считают, что модель соответствует размеру: берите свой обычный размер',
  large: 'Большинство покупателей считают, что модель большемерит: берите на размер меньше',
};

/**
 * Fit advice from the published fit answers: shown once there are at least FIT_ADVICE_MIN_ANSWERS
 * answers and one of them has at least FIT_ADVICE_MAJORITY of them.
 */
export function fitAdvice(counts: Partial<Record<Fit, number>>): FitAdvice {
  const full: Record<Fit, number> = { small: counts.small ?? 0, true: counts.true ?? 0, large: counts.large ?? 0 };
  const total = full.small + full.true + full.large;
  let fit: Fit | null = null;
  if (total >= FIT_ADVICE_MIN_ANSWERS) {
    for (const f of FITS) if (full[f] / total >= FIT_ADVICE_MAJORITY) fit = f;
  }
  return { fit, text: fit ? FIT_ADVICE_TEXT[fit] : null, counts: full, total };
}

export const FIT_ADVICE_RULE = `Совет по размеру появляется, когда о посадке высказались не меньше ${FIT_ADVICE_MIN_ANSWERS} покупателей и не меньше ${Math.round(FIT_ADVICE_MAJORITY * 100)} % из них ответили одинаково.`;

export const REVIEW_SORTS = ['new', 'helpful'] as const;
export type ReviewSort = (typeof REVIEW_SORTS)[number];

// The card's and the page's rating texts are core/rating-text.ts (small: they ride in the shell).
export { ratingText, reviewsCountText } from './rating-text';
