import { describe, expect, it } from 'vitest';
import { canonicalPagePath, isExternalUrl, isPagePath, legacyProductTarget, pageRedirect } from './redirects';

describe('isPagePath', () => {
  it('treats shop routes as pages', () => {
    for (const p of [
      '/',
      '/about',
      '/catalog/woman/denim/',
      '/Catalog/Woman',
      '/blog/kak-vybrat-palto',
      '/administration',
      '/Admin',
    ]) {
      expect(isPagePath(p, '/backend')).toBe(true);
    }
  });
  it('leaves API, assets, media and files alone', () => {
    for (const p of [
      '/backend',
      '/backend/catalog/',
      '/assets/root-abc.js',
      '/media/products/a/1.jpg',
      '/favicon.ico',
      '/robots.txt',
      '/healthz',
      '/about.data',
      // The back office's app keeps its own addresses (no lower-casing, no trailing slash).
      '/admin',
      '/admin/staff/12',
      '/admin/setup',
    ]) {
      expect(isPagePath(p, '/backend')).toBe(false);
    }
  });
});

describe('canonicalPagePath', () => {
  it('lower-cases and adds the trailing slash', () => {
    expect(canonicalPagePath('/About')).toBe('/about/');
    expect(canonicalPagePath('/CATALOG/Woman/Denim/')).toBe('/catalog/woman/denim/');
    expect(canonicalPagePath('/')).toBe('/');
  });
  it('keeps percent escapes as they are', () => {
    expect(canonicalPagePath('/blog/%D0%BF%D0%B0')).toBe('/blog/%D0%BF%D0%B0/');
  });
  it('folds repeated slashes', () => {
    expect(canonicalPagePath('//about//')).toBe('/about/');
  });
  it('drops the query and the hash: a path with a query is the same key (stored redirects, metadata)', () => {
    expect(canonicalPagePath('/Sale?utm_source=mail&utm_medium=x')).toBe('/sale/');
    expect(canonicalPagePath('/sale/?utm=x')).toBe('/sale/');
    expect(canonicalPagePath('/sale/?')).toBe('/sale/');
    expect(canonicalPagePath('/about#team')).toBe('/about/');
    expect(canonicalPagePath('/?utm=x')).toBe('/');
  });
});

describe('legacyProductTarget', () => {
  it.each([
    ['/products/accessories/', '/catalog/woman/aksessuar/'],
    ['/products/aksessuary/sumka-1/', '/catalog/woman/aksessuar/'],
    ['/products/tops/', '/catalog/woman/futbolki_topy/'],
    ['/products/dresses-and-jumpsuits/', '/catalog/woman/platya_i_kombinezony/'],
    ['/products/knitwear/', '/catalog/woman/trikotazh/'],
    ['/products/something-else/', '/catalog/'],
  ])('%s -> %s', (from, to) => {
    expect(legacyProductTarget(from)).toBe(to);
  });
  it('ignores other paths', () => {
    expect(legacyProductTarget('/catalog/woman/')).toBeNull();
  });
});

describe('pageRedirect', () => {
  it('makes one hop for capitals and a missing slash, keeping the query', () => {
    expect(pageRedirect('/Catalog/Woman/Denim', '?sort=price&PAGEN_1=2')).toEqual({
      location: '/catalog/woman/denim/?sort=price&PAGEN_1=2',
      status: 301,
    });
  });
  it('sends legacy addresses straight to their section', () => {
    expect(pageRedirect('/Products/Tops', '')).toEqual({ location: '/catalog/woman/futbolki_topy/', status: 301 });
  });
  it('does nothing for canonical paths', () => {
    expect(pageRedirect('/catalog/woman/denim/', '?q=1')).toBeNull();
    expect(pageRedirect('/', '')).toBeNull();
  });
});

it('tells external URLs', () => {
  expect(isExternalUrl('https://example.com/x')).toBe(true);
  expect(isExternalUrl('/catalog/')).toBe(false);
});
