import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestShop, type TestShop } from '~/tests/support/server';
import type { CatalogSectionResponse, PageMeta, SectionsResponse } from '~/shared/contract';
import { WOMEN_CATEGORY_CODES } from '~/tests/fixtures/spec';

const BLOCKED = 'Доступ запрещен: обнаружена попытка внедрения вредоносного кода';
const WOMEN_CODES = WOMEN_CATEGORY_CODES;

let shop: TestShop;
const api = (path: string, init?: RequestInit) => fetch(`${shop.baseUrl}/backend${path}`, init);

beforeAll(async () => {
  shop = await startTestShop();
});
afterAll(async () => {
  await shop?.close();
});

describe('health', () => {
  it('reports the database reachable', async () => {
    const res = await fetch(`${shop.baseUrl}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'ok' });
  });
});

describe('GET /catalog/?iscollection=no (menu)', () => {
  it('returns the section tree of SPEC §2', async () => {
    const res = await api('/catalog/?iscollection=no');
    expect(res.status).toBe(200);
    const body = (await res.json()) as SectionsResponse;
    const woman = body.SECTIONS.find((s) => s.CODE === 'woman');
    expect(woman?.SECOND_LVL.map((s) => s.CODE).sort()).toEqual([...WOMEN_CODES].sort());
    for (const s of woman?.SECOND_LVL ?? []) expect(s.SECTION_PAGE_URL).toBe(`/catalog/woman/${s.CODE}/`);
    const urls = body.SECTIONS.map((s) => s.SECTION_PAGE_URL);
    expect(urls).toEqual(expect.arrayContaining(['/catalog/man/muzhchinam/', '/catalog/new-collection/', '/catalog/promo/']));
  });
});

describe('GET {section path}', () => {
  it('lists a category with prices in roubles and a page count', async () => {
    const res = await api('/catalog/woman/denim/');
    expect(res.status).toBe(200);
    const body = (await res.json()) as CatalogSectionResponse;
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
    const all = (await (await api('/catalog/all/')).json()) as CatalogSectionResponse;
    const root = (await (await api('/catalog/')).json()) as CatalogSectionResponse;
    expect(all.NAV_STRING.ITEMS_COUNT).toBeGreaterThanOrEqual(150);
    expect(root.NAV_STRING.ITEMS_COUNT).toBe(all.NAV_STRING.ITEMS_COUNT);
  });

  it('answers 404 for an unknown section and page 1 for a junk PAGEN_1', async () => {
    expect((await api('/catalog/woman/no-such-thing/')).status).toBe(404);
    const junk = (await (await api('/catalog/woman/denim/?PAGEN_1=abc')).json()) as CatalogSectionResponse;
    expect(junk.NAV_STRING.CURRENT_PAGE).toBe(1);
  });

  it('gives an empty list past the last page', async () => {
    const body = (await (await api('/catalog/woman/denim/?PAGEN_1=999')).json()) as CatalogSectionResponse;
    expect(body.ITEMS).toEqual([]);
    expect(body.NAV_STRING.CURRENT_PAGE).toBe(999);
  });
});

describe('GET /page-meta/', () => {
  it('finds an entry with or without the trailing slash', async () => {
    const a = (await (await api('/page-meta/?path=/about/')).json()) as PageMeta;
    const b = (await (await api('/page-meta/?path=/about')).json()) as PageMeta;
    expect(a.title).toMatch(/Vitrina/);
    expect(b).toEqual(a);
    expect(a.canonicalPath).toBe('/about/');
  });
  it('fills the product template and names a nameless product Товар', async () => {
    const named = (await (await api(`/page-meta/?path=/catalog/all/x/&product=${encodeURIComponent('Пальто Аврора')}`)).json()) as PageMeta;
    expect(named.title).toContain('Пальто Аврора');
    const nameless = (await (await api('/page-meta/?path=/catalog/all/x/&product=')).json()) as PageMeta;
    expect(nameless.title).toBe('Товар');
  });
  it('falls back to the shop-wide default', async () => {
    const meta = (await (await api('/page-meta/?path=/nowhere/')).json()) as PageMeta;
    expect(meta.title.length).toBeGreaterThan(0);
    expect(meta.description.length).toBeGreaterThan(0);
  });
  it('rejects a missing or relative path with 400', async () => {
    expect((await api('/page-meta/')).status).toBe(400);
    expect((await api('/page-meta/?path=about')).status).toBe(400);
  });
});

describe('GET /redirect/', () => {
  it('returns stored redirects, internal and external', async () => {
    expect(await (await api('/redirect/?path=/Sale')).json()).toEqual({ redirect: { location: '/catalog/promo/', status: 301, external: false } });
    const ext = (await (await api('/redirect/?path=/telegram/')).json()) as { redirect: { external: boolean } };
    expect(ext.redirect.external).toBe(true);
    expect(await (await api('/redirect/?path=/nothing/')).json()).toEqual({ redirect: null });
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
    const res = await api(`/catalog/?q=${encodeURIComponent('платье "в горошек" 100% шерсть')}`);
    expect(res.status).toBe(200);
  });
});

describe('media', () => {
  it('draws a product photo on first request and caches it for a year', async () => {
    const list = (await (await api('/catalog/woman/denim/')).json()) as CatalogSectionResponse;
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
  it.each(['/backend/catalog/%', '/backend/page-meta/?path=%E0%A4%A', '/backend/catalog/woman/denim/?PAGEN_1=-5', '/backend/nothing-here'])('%s', async (target) => {
    const res = await fetch(`${shop.baseUrl}${target}`);
    expect(res.status).toBeLessThan(500);
  });
});
