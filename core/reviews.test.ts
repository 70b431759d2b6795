import { describe, expect, it } from 'vitest';
import {
  authorName,
  canResend,
  checkReview,
  fitAdvice,
  initialStatus,
  keptUnits,
  normaliseReviewText,
  ratingText,
  REVIEW_TEXT,
  REVIEW_TEXT_MAX,
  REVIEW_WINDOW_DAYS,
  REVIEWS_PER_DAY,
  reviewEligibility,
  summariseRatings,
  underDailyCap,
  type ReviewableLine,
} from './reviews';

const day = 86_400_000;
const received = new Date('2026-10-01T10:00:00Z');
const at = (days: number) => new Date(received.getTime() + days * day);
const line = (over: Partial<ReviewableLine> = {}): ReviewableLine => ({
  orderStatus: 'received',
  deliveredAt: received,
  quantity: 1,
  keptQuantity: null,
  returnedQuantity: 0,
  isGift: false,
  isCertificate: false,
  ...over,
});

describe('who may review what', () => {
  it('a received and kept line, within the period from receipt, once', () => {
    expect(reviewEligibility(line(), false, at(1))).toEqual({ ok: true, until: at(REVIEW_WINDOW_DAYS) });
    expect(reviewEligibility(line({ orderStatus: 'delivered' }), false, at(REVIEW_WINDOW_DAYS))).toMatchObject({
      ok: true,
    });
    expect(reviewEligibility(line(), false, at(REVIEW_WINDOW_DAYS + 0.01))).toEqual({ ok: false, reason: 'expired' });
    expect(reviewEligibility(line(), true, at(1))).toEqual({ ok: false, reason: 'already' });
  });

  it('not before receipt', () => {
    expect(reviewEligibility(line({ orderStatus: 'shipped', deliveredAt: null }), false, at(1))).toEqual({
      ok: false,
      reason: 'not_received',
    });
    expect(reviewEligibility(line({ orderStatus: 'cancelled' }), false, at(1))).toEqual({
      ok: false,
      reason: 'not_received',
    });
  });

  it('only what was kept: refused at the fitting or returned is out; gifts and certificates are never reviewed', () => {
    expect(reviewEligibility(line({ keptQuantity: 0 }), false, at(1))).toEqual({ ok: false, reason: 'not_kept' });
    expect(reviewEligibility(line({ quantity: 2, keptQuantity: 1 }), false, at(1))).toMatchObject({ ok: true });
    expect(reviewEligibility(line({ returnedQuantity: 1 }), false, at(1))).toEqual({ ok: false, reason: 'not_kept' });
    expect(reviewEligibility(line({ quantity: 2, returnedQuantity: 1 }), false, at(1))).toMatchObject({ ok: true });
    expect(reviewEligibility(line({ isGift: true }), false, at(1))).toEqual({ ok: false, reason: 'not_kept' });
    expect(reviewEligibility(line({ isCertificate: true }), false, at(1))).toEqual({ ok: false, reason: 'not_kept' });
    expect(keptUnits({ quantity: 3, keptQuantity: 2, returnedQuantity: 2 })).toBe(0);
  });
});

describe('the form', () => {
  const good = { rating: '5', fit: 'small', text: 'Очень тёплое пальто, село отлично.' };
  it('accepts a good review and keeps optional fields empty', () => {
    expect(checkReview(good)).toEqual({
      ok: true,
      review: { rating: 5, fit: 'small', text: good.text, heightCm: null, usualSize: null },
    });
    expect(checkReview({ ...good, height: '172', usualSize: ' 44 ' })).toMatchObject({
      ok: true,
      review: { heightCm: 172, usualSize: '44' },
    });
  });
  it('requires a rating 1–5 and a fit', () => {
    for (const rating of ['', '0', '6', '4.5', 'пять', undefined])
      expect(checkReview({ ...good, rating })).toEqual({
        ok: false,
        field: 'rating',
        error: REVIEW_TEXT.ratingRequired,
      });
    expect(checkReview({ ...good, fit: 'tight' })).toEqual({ ok: false, field: 'fit', error: REVIEW_TEXT.fitRequired });
  });
  it('limits the text and refuses control characters', () => {
    expect(checkReview({ ...good, text: '  коротко  ' })).toEqual({
      ok: false,
      field: 'text',
      error: REVIEW_TEXT.textShort,
    });
    expect(checkReview({ ...good, text: 'я'.repeat(REVIEW_TEXT_MAX + 1) })).toEqual({
      ok: false,
      field: 'text',
      error: REVIEW_TEXT.textLong,
    });
    expect(checkReview({ ...good, text: 'я'.repeat(REVIEW_TEXT_MAX) })).toMatchObject({ ok: true });
    expect(checkReview({ ...good, text: 'Хорошее пальто\u0000 правда' })).toEqual({
      ok: false,
      field: 'text',
      error: REVIEW_TEXT.badCharacters,
    });
  });
  it('checks height and usual size', () => {
    expect(checkReview({ ...good, height: '12' })).toMatchObject({ ok: false, field: 'height' });
    expect(checkReview({ ...good, height: '250' })).toMatchObject({ ok: false, field: 'height' });
    expect(checkReview({ ...good, usualSize: '<b>44</b>' })).toMatchObject({ ok: false, field: 'usual_size' });
  });
  it('stores plain text: line breaks kept, runs of empty lines cut, markup and links left as words', () => {
    expect(normaliseReviewText(' Раз  \r\n\r\n\r\n\r\nДва <a href="x">http://spam.example</a> ')).toBe(
      'Раз\n\nДва <a href="x">http://spam.example</a>',
    );
  });
});

describe('author, resend, caps, status', () => {
  it('shows the first name only', () => {
    expect(authorName('анна мария')).toBe('Анна');
    expect(authorName('')).toBe('Покупатель');
    expect(authorName(null)).toBe('Покупатель');
  });
  it('a rejected review may be resent once', () => {
    expect(canResend({ status: 'rejected', resendCount: 0 })).toEqual({ ok: true });
    expect(canResend({ status: 'rejected', resendCount: 1 })).toEqual({ ok: false, error: REVIEW_TEXT.resendUsed });
    expect(canResend({ status: 'pending', resendCount: 0 })).toEqual({ ok: false, error: REVIEW_TEXT.cannotResend });
    expect(canResend({ status: 'published', resendCount: 0 })).toEqual({ ok: false, error: REVIEW_TEXT.cannotResend });
  });
  it('caps reviews per customer per day', () => {
    expect(underDailyCap(REVIEWS_PER_DAY - 1)).toBe(true);
    expect(underDailyCap(REVIEWS_PER_DAY)).toBe(false);
  });
  it('premoderation holds, postmoderation publishes', () => {
    expect(initialStatus('premoderation')).toBe('pending');
    expect(initialStatus('postmoderation')).toBe('published');
  });
});

describe('rating and fit advice', () => {
  it('averages to one decimal', () => {
    expect(summariseRatings([5, 4, 4])).toEqual({ average: 4.3, count: 3, histogram: [0, 0, 0, 2, 1] });
    expect(summariseRatings([])).toEqual({ average: 0, count: 0, histogram: [0, 0, 0, 0, 0] });
    expect(ratingText(4.3)).toBe('4,3');
    expect(ratingText(5)).toBe('5,0');
  });
  it('advises only from 5 answers with a 60 % majority', () => {
    expect(fitAdvice({ small: 4 }).text).toBeNull();
    expect(fitAdvice({ small: 3, true: 2 })).toMatchObject({
      fit: 'small',
      text: 'Большинство покупателей считают, что модель маломерит: берите на размер больше',
      total: 5,
    });
    expect(fitAdvice({ small: 2, true: 2, large: 1 }).fit).toBeNull();
    expect(fitAdvice({ large: 6, true: 4 }).fit).toBe('large');
    expect(fitAdvice({ true: 5 }).text).toMatch(/соответствует размеру/);
  });
});
