import { describe, expect, it } from 'vitest';
import { setUpTestShop } from '~/tests/support/server';
import { expectContract, getJson } from '~/tests/support/api';
import { ApiError, CatalogSectionResponse, PageMeta, RedirectResponse, SectionsResponse } from '~/shared/contract';
import { WOMEN_CATEGORY_CODES } from '~/tests/fixtures/spec';

const BLOCKED = 'Доступ запрещен: обнаружена попытка внедрения вредоносного кода';
const WOMEN_CODES = WOMEN_CATEGORY_CODES;

const shop = setUpTestShop();
const listing = (path: string) => getJson(shop.baseUrl, `/backend${path}`, CatalogSectionResponse);
const pageMeta = (query: string) => getJson(shop.baseUrl, `/backend/page-meta/?${query}`, PageMeta);
const storedRedirect = async (path: string) =>
  (await getJson(shop.baseUrl, `/backend/redirect/?path=${encodeURIComponent(path)}`, RedirectResponse)).redirect;

describe('health', () => {
  it('reports the database reachable', async () => {
    const res = await fetch(`${shop.baseUrl}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'ok' });
  });
});

describe('GET /catalog/?iscollection=no (menu)', () => {
  it('returns the section tree of SPEC §2', async () => {
    const body = await getJson(shop.baseUrl, '/backend/catalog/?iscollection=no', SectionsResponse);
    const woman = body.SECTIONS.find((s) => s.CODE === 'woman');
    expect(woman?.SECOND_LVL.map((s) => s.CODE).sort()).toEqual([...WOMEN_CODES].sort());
    for (const s of woman?.SECOND_LVL ?? []) expect(s.SECTION_PAGE_URL).toBe(`/catalog/woman/${s.CODE}/`);
    const urls = body.SECTIONS.map((s) => s.SECTION_PAGE_URL);
    expect(urls).toEqual(
      expect.arrayContaining(['/catalog/man/muzhchinam/', '/catalog/new-collection/', '/catalog/promo/']),
    );
  });
});

describe('GET {section path}', () => {
  it('lists a category with prices in roubles and a page count', async () => {
    const body = await listing('/catalog/woman/denim/');
    expect(body.SECTION.CODE).toBe('denim');
    expect(body.ITEMS.length).toBeGreaterThan(0);
    for (const item of body.ITEMS) {
      expect(item.DETAIL_PAGE_URL).toMatch(/^\/catalog\/woman\/denim\/[a-z0-9-]+\/$/);
      expect(Number.isInteger(Math.round(item.PRICE * 100))).toBe(true);
      if (item.OLD_PRICE !== null) expect(item.OLD_PRICE).toBeGreaterThan(item.PRICE);
    }
    expect(body.NAV_STRING.CURRENT_PAGE).toBe(1);
    expect(body.NAV_STRING.ITEMS_COUNT).toBeGreaterThanOrEqual(body.ITEMS.length);
  });

  it('treats /catalog/ and /catalog/all/ as the whole catalogue', async () => {
    const all = await listing('/catalog/all/');
    const root = await listing('/catalog/');
    expect(all.NAV_STRING.ITEMS_COUNT).toBeGreaterThanOrEqual(150);
    expect(root.NAV_STRING.ITEMS_COUNT).toBe(all.NAV_STRING.ITEMS_COUNT);
  });

  it('answers 404 for an unknown section and page 1 for a junk PAGEN_1', async () => {
    await getJson(shop.baseUrl, '/backend/catalog/woman/no-such-thing/', ApiError, { status: 404 });
    const junk = await listing('/catalog/woman/denim/?PAGEN_1=abc');
    expect(junk.NAV_STRING.CURRENT_PAGE).toBe(1);
  });

  it('gives an empty list past the last page', async () => {
    const body = await listing('/catalog/woman/denim/?PAGEN_1=999');
    expect(body.ITEMS).toEqual([]);
    expect(body.NAV_STRING.CURRENT_PAGE).toBe(999);
  });
});

describe('GET /page-meta/', () => {
  it('finds an entry with or without the trailing slash', async () => {
    const a = await pageMeta('path=/about/');
    const b = await pageMeta('path=/about');
    expect(a.title).toMatch(/Vitrina/);
    expect(b).toEqual(a);
    expect(a.canonicalPath).toBe('/about/');
  });
  it('fills the product template and names a nameless product Товар', async () => {
    const named = await pageMeta(`path=/catalog/all/x/&product=${encodeURIComponent('Пальто Аврора')}`);
    expect(named.title).toContain('Пальто Аврора');
    const nameless = await pageMeta('path=/catalog/all/x/&product=');
    expect(nameless.title).toBe('Товар');
  });
  it('falls back to the shop-wide default', async () => {
    const meta = await pageMeta('path=/nowhere/');
    expect(meta.title.length).toBeGreaterThan(0);
    expect(meta.description.length).toBeGreaterThan(0);
  });
  it('rejects a missing or relative path with 400', async () => {
    for (const query of ['', 'path=about']) {
      expect(
        (await getJson(shop.baseUrl, `/backend/page-meta/?${query}`, ApiError, { status: 400 })).error,
      ).toBeTruthy();
    }
  });
});

describe('GET /redirect/', () => {
  const SALE = { location: '/catalog/promo/', status: 301, external: false };

  it('returns stored redirects, internal and external', async () => {
    expect(await storedRedirect('/Sale')).toEqual(SALE);
    expect(await storedRedirect('/telegram/')).toEqual({
      location: 'https://t.me/vitrina_brand',
      status: 302,
      external: true,
    });
    expect(await storedRedirect('/nothing/')).toBeNull();
  });

  it('looks the address up without its query: a campaign link still finds the stored redirect', async () => {
    // Stored redirects are keyed by the bare path; the query of the link (utm tags, a search)
    // is no part of the key, so it must not turn a hit into a miss.
    for (const path of ['/sale/?utm=x', '/sale?utm_source=mail&utm_campaign=winter', '/Sale/?', '/telegram/?utm=x']) {
      expect(await storedRedirect(path), path).toEqual(
        path.startsWith('/telegram/') ? expect.objectContaining({ external: true }) : SALE,
      );
    }
    expect(await storedRedirect('/nothing/?utm=x')).toBeNull();
  });
});

describe('security filter over HTTP', () => {
  it.each([
    '/backend/catalog/?q=%3Cscript%3Ealert(1)%3C/script%3E',
    '/backend/catalog/?q=%253Cscript%253E',
    '/catalog/?x=..%2F..%2Fetc%2Fpasswd',
    '/search/?q=javascript:alert(1)',
    '/search/?q=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E',
  ])('blocks %s with 403 and the exact message', async (target) => {
    const res = await fetch(`${shop.baseUrl}${target}`);
    expect(res.status).toBe(403);
    expect(await res.text()).toBe(BLOCKED);
  });
  it('lets honest Cyrillic searches through', async () => {
    await listing(`/catalog/?q=${encodeURIComponent('платье "в горошек" 100% шерсть')}`);
  });
});

describe('media', () => {
  it('draws a product photo on first request and caches it for a year', async () => {
    const list = await listing('/catalog/woman/denim/');
    const src = list.ITEMS[0]?.PREVIEW_PICTURE;
    expect(src).toMatch(/^\/media\/products\/.+\/1\.jpg$/);
    const res = await fetch(`${shop.baseUrl}${src}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(res.headers.get('cache-control')).toContain('immutable');
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([bytes[0], bytes[1]]).toEqual([0xff, 0xd8]);
  });
  it('answers 404 for unknown media, never 500', async () => {
    expect((await fetch(`${shop.baseUrl}/media/products/nope/1.jpg`)).status).toBe(404);
    expect((await fetch(`${shop.baseUrl}/media/..%2f..%2fpackage.json`)).status).toBeGreaterThanOrEqual(403);
  });
});

describe('bad input never gives a 500', () => {
  it.each([
    '/backend/catalog/%',
    '/backend/page-meta/?path=%E0%A4%A',
    '/backend/catalog/woman/denim/?PAGEN_1=-5',
    '/backend/nothing-here',
  ])('%s', async (target) => {
    const res = await fetch(`${shop.baseUrl}${target}`);
    expect(res.status).toBeLessThan(500);
    // A refusal from the API is an ApiError like any other.
    if (res.status >= 400) expectContract(ApiError, await res.json(), target);
  });
});
