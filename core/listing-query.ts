// The query of a listing's address: the sort (left out when it is the default) and the page of
// "Показать ещё" (PAGEN_1). Apart from core/catalog-filter.ts so that the catalogue route's own
// code (which a product page loads too) does not carry the filter URLs.

export const SORTS = ['popular', 'new', 'price_asc', 'price_desc'] as const;
export type SortCode = (typeof SORTS)[number];
export const DEFAULT_SORT: SortCode = 'popular';

export function parseSort(value: string | null | undefined): SortCode {
  return SORTS.includes(value as SortCode) ? (value as SortCode) : DEFAULT_SORT;
}

/** PAGEN_1 of junk is the first page, never an error. */
export function parsePageNumber(value: string | null | undefined): number {
  if (!value || !/^\d{1,6}$/.test(value)) return 1;
  const n = Number(value);
  return n >= 1 ? n : 1;
}

/**
 * Whether going from `current` to `next` is only "Показать ещё" moving the address on: same
 * path and sort, a later page, nothing else. The items are already on screen then, so the
 * route must not load again (and replace them with one page).
 */
export function isLoadMoreStep(current: URL, next: URL): boolean {
  if (current.pathname !== next.pathname) return false;
  if (parseSort(current.searchParams.get('sort')) !== parseSort(next.searchParams.get('sort'))) return false;
  const keys = (u: URL) =>
    [...new Set(u.searchParams.keys())]
      .filter((k) => k !== 'PAGEN_1' && k !== 'sort')
      .sort()
      .join('&');
  if (keys(current) !== keys(next)) return false;
  for (const k of new Set(current.searchParams.keys())) {
    if (k !== 'PAGEN_1' && k !== 'sort' && current.searchParams.get(k) !== next.searchParams.get(k)) return false;
  }
  return parsePageNumber(next.searchParams.get('PAGEN_1')) > parsePageNumber(current.searchParams.get('PAGEN_1'));
}
