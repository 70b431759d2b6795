import { describe, expect, it } from 'vitest';
import { setUpTestShop } from '~/tests/support/server';

const shop = setUpTestShop({ withStorefront: true });
const get = (path: string) => fetch(`${shop.baseUrl}${path}`, { redirect: 'manual' });

describe('sitemap and robots', () => {
  it('indexes the page and product sitemaps', async () => {
    const res = await get('/sitemap.xml');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/xml');
    const xml = await res.text();
    expect(xml).toContain('<sitemapindex');
    expect(xml).toContain('<loc>http://shop.test/sitemaps/pages.xml</loc>');
    expect(xml).toContain('<loc>http://shop.test/sitemaps/products-1.xml</loc>');
  });

  it('lists sections, information pages and articles', async () => {
    const xml = await (await get('/sitemaps/pages.xml')).text();
    for (const path of [
      '/',
      '/catalog/',
      '/catalog/woman/denim/',
      '/catalog/man/muzhchinam/',
      '/delivery/',
      '/warranty/',
      '/blog/',
      '/blog/kak-vybrat-palto/',
    ]) {
      expect(xml).toContain(`<loc>http://shop.test${path}</loc>`);
    }
    expect(xml).not.toContain('/basket/');
  });

  it('lists every product once, at its canonical address', async () => {
    const xml = await (await get('/sitemaps/products-1.xml')).text();
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(locs.length).toBeGreaterThanOrEqual(150);
    expect(new Set(locs).size).toBe(locs.length);
    expect(locs.every((l) => /^http:\/\/shop\.test\/catalog\/[a-z/_-]+\/[a-z0-9-]+\/$/.test(l ?? ''))).toBe(true);
    expect(locs.some((l) => l?.includes('/catalog/all/'))).toBe(false);
    expect((await get('/sitemaps/products-99.xml')).status).toBe(404);
    expect((await get('/sitemaps/other.xml')).status).toBe(404);
  });

  it('serves robots.txt with the sitemap and closed personal pages', async () => {
    const res = await get('/robots.txt');
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain('Sitemap: http://shop.test/sitemap.xml');
    expect(text).toContain('Disallow: /basket/');
    expect(text).toContain('Allow: /');
  });
});
