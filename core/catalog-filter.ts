// Filter URLs of SPEC §7: {section}/filter/{code}-is-{v1}-or-{v2}/price-base-from-{n}-to-{m}/apply/
// One parser and one builder, shared by the API and the storefront, so a URL round-trips.

export const FILTER_CODES = ['size', 'color'] as const;
export type FilterCode = (typeof FILTER_CODES)[number];

// Sort and page of a listing's query live apart (the catalogue route's code needs only them).
export { DEFAULT_SORT, parsePageNumber, parseSort, SORTS, type SortCode } from './listing-query';

export interface CatalogFilter {
  size: string[];
  color: string[];
  /** Whole roubles, both ends inclusive; null for an open end. */
  price: { from: number | null; to: number | null };
}

export const EMPTY_FILTER: CatalogFilter = { size: [], color: [], price: { from: null, to: null } };

const VALUE = /^[a-z0-9_]+(?:-[a-z0-9_]+)*$/;
const MAX_VALUES = 40;
const MAX_PRICE = 100_000_000;

export type ParsedCatalogPath =
  { kind: 'listing'; sectionPath: string; filter: CatalogFilter; filtered: boolean } | { kind: 'invalid' };

export function isEmptyFilter(f: CatalogFilter): boolean {
  return f.size.length === 0 && f.color.length === 0 && f.price.from === null && f.price.to === null;
}

/**
 * Splits a catalogue path into its section and filter. A path without '/filter/' is returned
 * as the section path unchanged (it may still turn out to be a product page).
 */
export function parseCatalogPath(pathname: string): ParsedCatalogPath {
  const path = pathname.endsWith('/') ? pathname : `${pathname}/`;
  const at = path.indexOf('/filter/');
  if (at === -1) return { kind: 'listing', sectionPath: path, filter: cloneFilter(EMPTY_FILTER), filtered: false };
  const sectionPath = path.slice(0, at + 1);
  const rest = path.slice(at + '/filter/'.length);
  if (!rest.endsWith('apply/')) return { kind: 'invalid' };
  const segments = rest.slice(0, -'apply/'.length).split('/').filter(Boolean);
  if (segments.length === 0) return { kind: 'invalid' };
  const filter = cloneFilter(EMPTY_FILTER);
  const seen = new Set<string>();
  for (const segment of segments) {
    const price = /^price-base(?:-from-(\d{1,9}))?(?:-to-(\d{1,9}))?$/.exec(segment);
    if (price) {
      if (seen.has('price') || (!price[1] && !price[2])) return { kind: 'invalid' };
      seen.add('price');
      const from = price[1] ? Number(price[1]) : null;
      const to = price[2] ? Number(price[2]) : null;
      if ((from !== null && from > MAX_PRICE) || (to !== null && to > MAX_PRICE)) return { kind: 'invalid' };
      if (from !== null && to !== null && from > to) return { kind: 'invalid' };
      filter.price = { from, to };
      continue;
    }
    const m = /^([a-z]+)-is-(.+)$/.exec(segment);
    if (!m) return { kind: 'invalid' };
    const code = m[1] as FilterCode;
    if (!FILTER_CODES.includes(code) || seen.has(code)) return { kind: 'invalid' };
    seen.add(code);
    const values = (m[2] as string).split('-or-');
    if (values.length > MAX_VALUES || values.some((v) => !VALUE.test(v))) return { kind: 'invalid' };
    filter[code] = [...new Set(values)];
  }
  return { kind: 'listing', sectionPath, filter, filtered: true };
}

/** The canonical filter URL: codes in a fixed order, values sorted, empty filter = section. */
export function buildCatalogPath(sectionPath: string, filter: CatalogFilter): string {
  const base = sectionPath.endsWith('/') ? sectionPath : `${sectionPath}/`;
  const parts: string[] = [];
  for (const code of FILTER_CODES) {
    const values = [...new Set(filter[code])].sort(compareValues);
    if (values.length) parts.push(`${code}-is-${values.join('-or-')}`);
  }
  const { from, to } = filter.price;
  if (from !== null || to !== null)
    parts.push(`price-base${from !== null ? `-from-${from}` : ''}${to !== null ? `-to-${to}` : ''}`);
  return parts.length ? `${base}filter/${parts.join('/')}/apply/` : base;
}

/** The filter with one value switched on or off (for facet links). */
export function toggleFilterValue(filter: CatalogFilter, code: FilterCode, value: string): CatalogFilter {
  const next = cloneFilter(filter);
  next[code] = next[code].includes(value) ? next[code].filter((v) => v !== value) : [...next[code], value];
  return next;
}

export function withPrice(filter: CatalogFilter, from: number | null, to: number | null): CatalogFilter {
  const next = cloneFilter(filter);
  if (from !== null && to !== null && from > to) [from, to] = [to, from];
  next.price = { from, to };
  return next;
}

/** The `offer` of a product address (`?offer=123`): a positive id, or null for anything else. */
export function parseOfferParam(value: string | null | undefined): number | null {
  if (!value || !/^\d{1,10}$/.test(value)) return null;
  const n = Number(value);
  return n >= 1 && n <= 2_147_483_647 ? n : null;
}

function cloneFilter(f: CatalogFilter): CatalogFilter {
  return { size: [...f.size], color: [...f.color], price: { ...f.price } };
}

// Numeric sizes in numeric order ('9' before '10'), words after.
function compareValues(a: string, b: string): number {
  const na = Number(a);
  const nb = Number(b);
  if (Number.isFinite(na) && Number.isFinite(nb)) return na - nb;
  if (Number.isFinite(na)) return -1;
  if (Number.isFinite(nb)) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}
