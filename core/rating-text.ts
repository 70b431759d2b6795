import { pluralRu } from './plural';

// The rating texts product cards show (issue #32): apart from core/reviews.ts so that a listing,
// whose cards carry them, does not load the review rules with the product page's code.

/** «4,6» — the average as Russian text. */
export function ratingText(average: number): string {
  return average.toFixed(1).replace('.', ',');
}

/** «12 отзывов». */
export function reviewsCountText(n: number): string {
  return `${n} ${pluralRu(n, 'отзыв', 'отзыва', 'отзывов')}`;
}
