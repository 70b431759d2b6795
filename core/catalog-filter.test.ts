import { describe, expect, it } from 'vitest';
import {
  buildCatalogPath,
  EMPTY_FILTER,
  parseCatalogPath,
  parseOfferParam,
  parsePageNumber,
  parseSort,
  toggleFilterValue,
  withPrice,
} from './catalog-filter';

describe('parseCatalogPath', () => {
  it('reads sizes, colours and a price range', () => {
    const p = parseCatalogPath(
      '/catalog/woman/denim/filter/size-is-42-or-44/color-is-chernyj/price-base-from-5000-to-20000/apply/',
    );
    expect(p).toEqual({
      kind: 'listing',
      sectionPath: '/catalog/woman/denim/',
      filtered: true,
      filter: { size: ['42', '44'], color: ['chernyj'], price: { from: 5000, to: 20000 } },
    });
  });
  it('accepts an open-ended price and any order of segments', () => {
    const p = parseCatalogPath('/catalog/all/filter/price-base-to-9000/size-is-s/apply/');
    expect(p).toMatchObject({
      kind: 'listing',
      sectionPath: '/catalog/all/',
      filter: { size: ['s'], price: { from: null, to: 9000 } },
    });
  });
  it('passes a plain section or product path through', () => {
    expect(parseCatalogPath('/catalog/woman/denim')).toMatchObject({
      kind: 'listing',
      sectionPath: '/catalog/woman/denim/',
      filtered: false,
    });
  });
  it.each([
    '/catalog/woman/denim/filter/apply/',
    '/catalog/woman/denim/filter/size-is-42/',
    '/catalog/woman/denim/filter/material-is-wool/apply/',
    '/catalog/woman/denim/filter/size-is-42/size-is-44/apply/',
    '/catalog/woman/denim/filter/size-is-/apply/',
    '/catalog/woman/denim/filter/size-is-42-or-/apply/',
    '/catalog/woman/denim/filter/size-is-<b>/apply/',
    '/catalog/woman/denim/filter/price-base/apply/',
    '/catalog/woman/denim/filter/price-base-from-9000-to-100/apply/',
    '/catalog/woman/denim/filter/price-base-from-x/apply/',
    '/catalog/woman/denim/filter/price-base-from-99999999999/apply/',
  ])('rejects the malformed %s', (path) => {
    expect(parseCatalogPath(path)).toEqual({ kind: 'invalid' });
  });
});

describe('buildCatalogPath', () => {
  it('is canonical: fixed code order, sorted values, numeric sizes in numeric order', () => {
    const filter = { size: ['46', '42', '9'], color: ['seryj', 'chernyj'], price: { from: 1000, to: null } };
    expect(buildCatalogPath('/catalog/woman/denim/', filter)).toBe(
      '/catalog/woman/denim/filter/size-is-9-or-42-or-46/color-is-chernyj-or-seryj/price-base-from-1000/apply/',
    );
  });
  it('gives the section itself for an empty filter', () => {
    expect(buildCatalogPath('/catalog/woman/denim', EMPTY_FILTER)).toBe('/catalog/woman/denim/');
  });
  it('round-trips through the parser', () => {
    const path = '/catalog/promo/filter/size-is-44/color-is-kemel-or-molochnyj/price-base-from-5000-to-20000/apply/';
    const parsed = parseCatalogPath(path);
    expect(parsed.kind).toBe('listing');
    if (parsed.kind === 'listing') expect(buildCatalogPath(parsed.sectionPath, parsed.filter)).toBe(path);
  });
});

describe('filter edits', () => {
  it('toggles a value on and off without touching the original', () => {
    const on = toggleFilterValue(EMPTY_FILTER, 'size', '42');
    expect(on.size).toEqual(['42']);
    expect(toggleFilterValue(on, 'size', '42').size).toEqual([]);
    expect(EMPTY_FILTER.size).toEqual([]);
  });
  it('orders a reversed price range', () => {
    expect(withPrice(EMPTY_FILTER, 9000, 1000).price).toEqual({ from: 1000, to: 9000 });
  });
});

describe('sort and page', () => {
  it('falls back to popular and page 1 for junk', () => {
    expect(parseSort('price_asc')).toBe('price_asc');
    expect(parseSort('drop table')).toBe('popular');
    expect(parsePageNumber('3')).toBe(3);
    for (const junk of ['0', '-1', 'abc', '1e3', '', null, '99999999']) expect(parsePageNumber(junk)).toBe(1);
  });
});

describe('parseOfferParam', () => {
  it('takes positive ids that fit the database and nothing else', () => {
    expect(parseOfferParam('123')).toBe(123);
    expect(parseOfferParam('2147483647')).toBe(2_147_483_647);
    expect(parseOfferParam('2147483648')).toBeNull();
    expect(parseOfferParam('0')).toBeNull();
    expect(parseOfferParam('-1')).toBeNull();
    expect(parseOfferParam('12a')).toBeNull();
    expect(parseOfferParam(null)).toBeNull();
  });
});
