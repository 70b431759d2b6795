import { formatThousands } from '~/core/number-mask';
import { DEFAULT_SORT, type SortCode } from '~/core/catalog-filter';

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
