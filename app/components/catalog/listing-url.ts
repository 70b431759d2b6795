import { formatThousands } from '~/core/number-mask';
import { DEFAULT_SORT, parsePageNumber, parseSort, type SortCode } from '~/core/catalog-filter';

// Addresses of a listing: the path carries section and filter (core/catalog-filter), the query
// the sort (left out when it is the default) and the page of "Показать ещё" (PAGEN_1).

/** '?sort=price_asc&PAGEN_1=3', '' for the default sort on the first page. */
export function listingSearch(sort: SortCode, page = 1): string {
  const params = new URLSearchParams();
  if (sort !== DEFAULT_SORT) params.set('sort', sort);
  if (page > 1) params.set('PAGEN_1', String(page));
  const qs = params.toString();
  return qs ? `?${qs}` : '';
}

export function listingHref(path: string, sort: SortCode, page = 1): string {
  return `${path}${listingSearch(sort, page)}`;
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

/** Russian plural: plural(5, ['товар', 'товара', 'товаров']) → 'товаров'. */
export function plural(n: number, [one, few, many]: readonly [string, string, string]): string {
  const mod10 = n % 10;
  const mod100 = n % 100;
  if (mod10 === 1 && mod100 !== 11) return one;
  if (mod10 >= 2 && mod10 <= 4 && (mod100 < 12 || mod100 > 14)) return few;
  return many;
}

export const GOODS: readonly [string, string, string] = ['товар', 'товара', 'товаров'];

export function goodsCount(n: number): string {
  return `${formatThousands(n)} ${plural(n, GOODS)}`;
}
