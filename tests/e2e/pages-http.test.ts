import { describe, expect, it } from 'vitest';
import { setUpTestShop } from '~/tests/support/server';
import { sessionToken } from '~/tests/support/session';
import { INFO_PAGES } from '~/app/lib/info-pages';

const shop = setUpTestShop({ withStorefront: true });
const get = (path: string, init: RequestInit = {}) => fetch(`${shop.baseUrl}${path}`, { redirect: 'manual', ...init });

function tag(html: string, re: RegExp): string | undefined {
  return re.exec(html)?.[1];
}

// SPEC §2 route list: every page resolves inside the real layout.
const PUBLIC_ROUTES = [
  '/',
  '/catalog/',
  '/catalog/all/',
  '/catalog/woman/denim/',
  '/catalog/man/muzhchinam/',
  '/catalog/new-collection/',
  '/catalog/promo/',
  '/blog/',
  '/blog/kak-vybrat-palto/',
  '/search/?q=%D0%BF%D0%B0%D0%BB%D1%8C%D1%82%D0%BE',
  '/auth/',
  '/auth/email/',
  ...INFO_PAGES.map((p) => p.path),
];

describe('every route of SPEC §2', () => {
  it.each(PUBLIC_ROUTES)('%s answers 200 with one h1, a title and the shell', async (path) => {
    const res = await get(path);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<html lang="ru"');
    expect(html.match(/<h1[\s>]/g)?.length).toBe(1);
    expect(tag(html, /<title>([^<]+)<\/title>/)).toBeTruthy();
    expect(html).toContain('aria-label="Быстрые ссылки"');
    expect(html).toContain('<footer');
  });
});

describe('metadata in the first HTML', () => {
  it('renders title, description, keywords, canonical and Open Graph from the table', async () => {
    const html = await (await get('/delivery/')).text();
    const title = tag(html, /<title>([^<]+)<\/title>/);
    expect(title).toMatch(/Vitrina$/);
    expect(tag(html, /<meta name="description" content="([^"]+)"/)?.length).toBeLessThanOrEqual(155);
    expect(tag(html, /<meta name="keywords" content="([^"]+)"/)).toMatch(/доставк/i);
    expect(tag(html, /<link rel="canonical" href="([^"]+)"/)).toBe('http://shop.test/delivery/');
    expect(tag(html, /<meta property="og:title" content="([^"]+)"/)).toBe(title);
  });

  it('prints the seoBottom text of a category', async () => {
    const html = await (await get('/catalog/woman/denim/')).text();
    expect(html).toContain('class="seo-text"');
  });
});

describe('static files', () => {
  it('sends a hashed script precompressed, immutable, with only the headers a script uses', async () => {
    const html = await (await get('/')).text();
    const script = /"(\/assets\/entry\.client-[\w-]+\.js)"/.exec(html)?.[1];
    expect(script).toBeTruthy();
    const res = await get(script!, { headers: { 'accept-encoding': 'br' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    // Never revalidated, never framed: validators and document-only headers would be dead bytes.
    for (const name of ['etag', 'last-modified', 'accept-ranges', 'x-frame-options', 'referrer-policy']) {
      expect(res.headers.get(name), name).toBeNull();
    }
    const missing = await get('/assets/no-such-file-0000.js');
    expect(missing.status).toBe(404);
    // That answer is a page: it keeps the document's headers.
    expect(missing.headers.get('content-type')).toMatch(/^text\/html/);
    expect(missing.headers.get('x-frame-options')).toBe('SAMEORIGIN');
  });
  it('keeps validators and the document headers on unhashed files and pages', async () => {
    const favicon = await get('/favicon.svg');
    expect(favicon.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(favicon.headers.get('etag')).toBeTruthy();
    expect(favicon.headers.get('last-modified')).toBeTruthy();
    const page = await get('/');
    expect(page.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(page.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  });
});

describe('redirects (SPEC §2)', () => {
  it('lower-cases and adds the slash in one 301 hop, keeping the query', async () => {
    const res = await get('/Catalog/Woman/Denim?sort=new&PAGEN_1=2');
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe('/catalog/woman/denim/?sort=new&PAGEN_1=2');
    expect((await get(res.headers.get('location') ?? '')).status).toBe(200);
  });
  it('leaves assets, files and API paths alone', async () => {
    expect((await get('/favicon.svg')).status).toBe(200);
    expect((await get('/backend/page-meta/?path=/')).status).toBe(200);
  });
  it('sends legacy /products/ addresses to their sections', async () => {
    for (const [from, to] of [
      ['/products/accessories', '/catalog/woman/aksessuar/'],
      ['/products/tops/', '/catalog/woman/futbolki_topy/'],
      ['/products/dresses-and-jumpsuits/', '/catalog/woman/platya_i_kombinezony/'],
      ['/products/knitwear/', '/catalog/woman/trikotazh/'],
    ]) {
      const res = await get(from!);
      expect(res.status).toBe(301);
      expect(res.headers.get('location')).toBe(to);
    }
  });
  it('follows redirects stored in the database, external ones too', async () => {
    const internal = await get('/sale/');
    expect(internal.status).toBe(301);
    expect(internal.headers.get('location')).toBe('/catalog/promo/');
    const external = await get('/telegram/');
    expect(external.status).toBe(302);
    expect(external.headers.get('location')).toBe('https://t.me/vitrina_brand');
  });
  it('follows a stored redirect when the address carries a query (a campaign link)', async () => {
    // Capitals and the missing slash first, in one hop that keeps the query...
    const canonical = await get('/Sale?utm_source=mail');
    expect(canonical.status).toBe(301);
    expect(canonical.headers.get('location')).toBe('/sale/?utm_source=mail');
    // ...then the stored redirect, found although the address has a query.
    const stored = await get('/sale/?utm_source=mail');
    expect(stored.status).toBe(301);
    expect(new URL(stored.headers.get('location') ?? '', shop.baseUrl).pathname).toBe('/catalog/promo/');
  });
});

describe('404, 403 and guards', () => {
  it('answers an unknown address with the 404 page', async () => {
    const res = await get('/no-such-page/');
    expect(res.status).toBe(404);
    const html = await res.text();
    expect(html).toContain('<title>Page Not Found: /no-such-page/</title>');
    expect(html).toContain('Ошибка 404');
    expect(html).toContain('На главную');
  });
  it('answers an unknown category and blog article with 404', async () => {
    expect((await get('/catalog/woman/no-such-category/')).status).toBe(404);
    expect((await get('/blog/no-such-article/')).status).toBe(404);
  });
  it('blocks an injection in a page query with 403', async () => {
    const res = await get('/search/?q=%3Csvg%2Fonload%3Dalert(1)%3E');
    expect(res.status).toBe(403);
    expect(await res.text()).toBe('Доступ запрещен: обнаружена попытка внедрения вредоносного кода');
  });
  it('answers a search with a control character in its query, not a 500', async () => {
    const res = await get('/search/?q=%D0%BF%D0%B0%D0%BB%D1%8C%D1%82%D0%BE%01');
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('Поиск: пальто');
  });
  it('sends a guest or a forged token to /auth/ from personal pages, and lets a live session through', async () => {
    const { token } = await sessionToken(shop);
    for (const path of ['/personal/', '/wishlist/']) {
      const res = await get(path);
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe('/auth/');
      const forged = await get(path, { headers: { cookie: 'token=abc' } });
      expect(forged.status).toBe(302);
      // The dead token is dropped on the way.
      expect(forged.headers.getSetCookie().some((c) => c.startsWith('token=;'))).toBe(true);
      expect((await get(path, { headers: { cookie: `token=${token}` } })).status).toBe(200);
    }
  });
  it('logs out (a POST) by clearing the cookies and hard-redirecting to /auth/', async () => {
    const res = await get('/logout/', {
      method: 'POST',
      headers: {
        cookie: 'token=abc; cart=1:1',
        origin: shop.baseUrl,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: '',
    });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/auth/');
    const cleared = res.headers.getSetCookie().map((c) => c.split('=')[0]);
    expect(cleared).toEqual(expect.arrayContaining(['phone', 'token', 'favourites', 'views', 'cart']));
  });
});

describe('caching and compression', () => {
  it('lets guest pages be cached and never personal ones', async () => {
    expect((await get('/about/')).headers.get('cache-control')).toContain('public');
    expect((await get('/basket/')).headers.get('cache-control')).toContain('no-store');
  });
  it('serves hashed assets for a year', async () => {
    const html = await (await get('/')).text();
    const font = tag(html, /rel="preload" href="(\/assets\/[^"]+\.woff2)"/);
    expect(font).toBeTruthy();
    const res = await get(font!);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('font/woff2');
    expect(res.headers.get('cache-control')).toContain('immutable');
  });
  it('carries the stylesheet inside the document, fonts resolved to hashed assets', async () => {
    const html = await (await get('/catalog/all/')).text();
    expect(html).not.toMatch(/<link rel="stylesheet"/);
    const css = tag(html, /<style data-precedence="default" data-href="vitrina-styles">([\s\S]*?)<\/style>/);
    expect(css?.length).toBeGreaterThan(20_000);
    // It sits in the head, ahead of the page's content.
    expect(html.indexOf('data-href="vitrina-styles"')).toBeLessThan(html.indexOf('</head>'));
    const fonts = [...css!.matchAll(/url\((\/assets\/[^)]+\.woff2)\)/g)].map((m) => m[1]!);
    expect(fonts).toHaveLength(5);
    for (const font of fonts) {
      expect((await get(font)).status).toBe(200);
      // Every face the stylesheet names is preloaded, so none is found late.
      expect(html).toContain(`rel="preload" href="${font}"`);
    }
  });
  it('adds the basket, checkout and account styles (orders.css) to those pages only', async () => {
    const ordersRule = /\.basket-line\{|\.checkout__form\{|\.pay__panel\{/;
    for (const path of ['/', '/catalog/all/', '/auth/']) {
      const html = await (await get(path)).text();
      expect(html).not.toMatch(ordersRule);
      expect(html).not.toContain('vitrina-orders');
    }
    const html = await (await get('/basket/')).text();
    expect(html).not.toMatch(/<link rel="stylesheet"/);
    // React writes both style resources of one precedence as one element, shop.css first.
    const css = tag(
      html,
      /<style data-precedence="default" data-href="vitrina-styles vitrina-orders">([\s\S]*?)<\/style>/,
    );
    expect(css).toMatch(ordersRule);
    expect(css!.indexOf('.basket-line{')).toBeGreaterThan(css!.indexOf('.product__buy{'));
  });
  it.each(['br', 'gzip'])('sends the build-time %s copy of a script, byte-identical once decoded', async (encoding) => {
    const html = await (await get('/catalog/all/')).text();
    const script = tag(html, /"(\/assets\/entry\.client-[^"]+\.js)"/);
    expect(script).toBeTruthy();
    const plain = await get(script!, { headers: { 'accept-encoding': 'identity' } });
    const packed = await get(script!, { headers: { 'accept-encoding': encoding } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(packed.headers.get('content-encoding')).toBe(encoding);
    expect(packed.headers.get('content-type')).toMatch(/javascript/);
    expect(packed.headers.get('vary')).toMatch(/accept-encoding/i);
    // Precompressed, not streamed: the length is known and far below the source's.
    expect(packed.headers.get('content-length')).toMatch(/^\d+$/);
    expect(Number(packed.headers.get('content-length'))).toBeLessThan(Number(plain.headers.get('content-length')) / 3);
    expect(Buffer.from(await packed.arrayBuffer()).equals(Buffer.from(await plain.arrayBuffer()))).toBe(true);
  });
});
