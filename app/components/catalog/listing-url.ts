import { formatThousands } from '~/core/number-mask';
import { DEFAULT_SORT, type SortCode } from '~/core/catalog-filter';
import { pluralRu } from '~/core/plural';

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

export const GOODS: readonly [string, string, string] = ['товар', 'товара', 'товаров'];

export function goodsCount(n: number): string {
  return `${formatThousands(n)} ${pluralRu(n, ...GOODS)}`;
}
