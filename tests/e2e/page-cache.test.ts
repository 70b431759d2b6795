import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { setUpTestShop } from '~/tests/support/server';
import { sessionToken } from '~/tests/support/session';
import { updateProfile } from '~/models/profile.server';
import { CONTENT_DIR } from '~/api/content/store.server';
import { STAFF_TOKEN_FILE } from '~/server/secrets.server';

// Issue #13: the guest page cache (server/page-cache.server.ts) over real HTTP against the
// built storefront.

/** How long a change may take to reach guests: the version is read at most once a second. */
const BOUND_MS = 1000;

interface CatalogItem {
  DETAIL_PAGE_URL: string;
  OFFERS?: Array<{ ID: number; QUANTITY: number }>;
}

describe('guest page cache', () => {
  const shop = setUpTestShop({ withStorefront: true });
  const get = (p: string, init: RequestInit = {}) => fetch(`${shop.baseUrl}${p}`, { redirect: 'manual', ...init });
  const stats = () => {
    const cache = shop.app.pageCache;
    if (!cache) throw new Error('the page cache is off');
    return cache.stats();
  };

  async function productUrl(): Promise<string> {
    const res = await get('/backend/catalog/all/');
    const listing = (await res.json()) as { ITEMS: CatalogItem[] };
    const url = listing.ITEMS[0]?.DETAIL_PAGE_URL;
    if (!url) throw new Error('no product in the listing');
    return url;
  }

  /** Requests `p` until `check` holds or the bound (plus a margin for rendering) has passed. */
  async function within(
    p: string,
    check: (res: Response, body: string) => boolean,
  ): Promise<{ res: Response; body: string; ms: number }> {
    const started = Date.now();
    for (;;) {
      const res = await get(p);
      const body = await res.text();
      const ms = Date.now() - started;
      if (check(res, body)) return { res, body, ms };
      if (ms > BOUND_MS + 2000) throw new Error(`${p}: no change within ${ms} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it('answers a miss, then a hit, for the home, a category and a product page', async () => {
    for (const p of ['/', '/catalog/woman/denim/', await productUrl()]) {
      const first = await get(p);
      const firstBody = await first.text();
      expect(first.status).toBe(200);
      expect(first.headers.get('x-cache')).toBe('MISS');
      const second = await get(p);
      expect(second.headers.get('x-cache')).toBe('HIT');
      expect(await second.text()).toBe(firstBody);
      // What a browser or a CDN needs to keep it right: the page's own caching, a variant per encoding.
      expect(second.headers.get('cache-control')).toMatch(/^public/);
      expect(second.headers.get('vary')?.toLowerCase()).toContain('accept-encoding');
      expect(second.headers.get('etag')).toBe(first.headers.get('etag'));
      expect(second.headers.get('set-cookie')).toBeNull();
    }
  });

  it('stores bytes per encoding and answers a conditional request with 304', async () => {
    const p = '/catalog/woman/';
    const br = { 'accept-encoding': 'br' };
    const miss = await get(p, { headers: br });
    await miss.arrayBuffer();
    expect(miss.headers.get('content-encoding')).toBe('br');
    const hit = await get(p, { headers: br });
    await hit.arrayBuffer();
    expect(hit.headers.get('x-cache')).toBe('HIT');
    expect(hit.headers.get('content-encoding')).toBe('br');
    const gz = await get(p, { headers: { 'accept-encoding': 'gzip' } });
    await gz.arrayBuffer();
    expect(gz.headers.get('x-cache')).toBe('MISS');
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gz.headers.get('etag')).not.toBe(hit.headers.get('etag'));
    const notModified = await get(p, { headers: { ...br, 'if-none-match': hit.headers.get('etag') ?? '' } });
    expect(notModified.status).toBe(304);
  });

  it('never answers a logged-in customer from the cache, nor a forged session', async () => {
    const { token } = await sessionToken(shop, '79990000011');
    const product = await productUrl();
    for (const p of ['/', '/catalog/woman/denim/', product]) {
      await (await get(p)).text();
      expect((await get(p)).headers.get('x-cache')).toBe('HIT');
      const hitsBefore = stats().hits;
      for (const cookie of [`token=${token}`, `cart=1:1; token=${token}; logged_in=1`, 'token=forged-by-hand']) {
        const res = await get(p, { headers: { cookie } });
        await res.text();
        expect(res.status).toBe(200);
        expect(res.headers.get('x-cache')).toBe('BYPASS');
        expect(res.headers.get('etag')).toBeNull();
      }
      expect(stats().hits).toBe(hitsBefore);
    }
    // Personal addresses are never looked up, even for a guest.
    for (const p of ['/basket/', '/auth/', '/wishlist/']) {
      const res = await get(p);
      await res.text();
      expect(res.headers.get('x-cache')).toBe('BYPASS');
    }
  });

  it('shares one page among guests whatever their basket and views cookies say', async () => {
    const p = '/catalog/all/';
    const first = await get(p);
    expect(first.status).toBe(200);
    const plain = await first.text();
    const res = await get(p, {
      headers: { cookie: 'cart=5:2,7:1; preorders=9:1; promo_code=SALE10; views=3,4; favourites=3; logged_in=1' },
    });
    expect(res.headers.get('x-cache')).toBe('HIT');
    expect(await res.text()).toBe(plain);
  });

  it('gives a guest nothing of the customer who saw the page before', async () => {
    const phone = '79990000012';
    const { token, customerId } = await sessionToken(shop, phone);
    const name = 'Евлампия';
    await updateProfile({
      db: shop.database.db,
      customerId,
      change: { firstName: name, lastName: 'Кешированная', email: 'evlampia@example.com' },
    });
    const customerCookie = `token=${token}; logged_in=1; cart=5:2; promo_code=EVLAMPIA; favourites=3,4`;
    // Her own page shows who she is: the text a leak would carry.
    const own = await (await get('/personal/', { headers: { cookie: customerCookie } })).text();
    expect(own).toContain(name);
    const p = '/catalog/woman/trikotazh/';
    const theirs = await get(p, { headers: { cookie: customerCookie } });
    await theirs.text();
    expect(theirs.headers.get('x-cache')).toBe('BYPASS');
    // Guests after her, and alongside her: one render, shared among guests only.
    const [guest, , again] = await Promise.all([get(p), get(p, { headers: { cookie: customerCookie } }), get(p)]);
    const later = await get(p);
    expect(later.headers.get('x-cache')).toBe('HIT');
    for (const res of [guest, again, later]) {
      const html = await res.text();
      expect(res.headers.get('set-cookie')).toBeNull();
      for (const secret of [name, 'Кешированная', 'evlampia@example.com', phone, phone.slice(1), token, 'EVLAMPIA'])
        expect(html).not.toContain(secret);
    }
  });

  it('renders once for 20 simultaneous misses of one page', async () => {
    const p = '/blog/';
    const before = stats();
    const all = await Promise.all(Array.from({ length: 20 }, () => get(p)));
    const bodies = await Promise.all(all.map((r) => r.text()));
    const after = stats();
    expect(after.renders - before.renders).toBe(1);
    expect(all.filter((r) => r.headers.get('x-cache') === 'MISS')).toHaveLength(1);
    expect(all.filter((r) => r.headers.get('x-cache') === 'HIT')).toHaveLength(19);
    expect(new Set(bodies).size).toBe(1);
  });

  it('shows a stock change to guests within the bound', async () => {
    const listing = (await (await get('/backend/catalog/all/')).json()) as { ITEMS: CatalogItem[] };
    let target: { url: string; offerId: number } | null = null;
    for (const item of listing.ITEMS) {
      const product = (await (await get(`/backend${item.DETAIL_PAGE_URL}`)).json()) as { ITEM: CatalogItem };
      const offer = product.ITEM.OFFERS?.find((o) => o.QUANTITY > 0);
      if (offer) {
        target = { url: item.DETAIL_PAGE_URL, offerId: offer.ID };
        break;
      }
    }
    if (!target) throw new Error('no product in stock');
    const outOfStock = (html: string) => html.split('OutOfStock').length - 1;
    const before = await (await get(target.url)).text();
    expect((await get(target.url)).headers.get('x-cache')).toBe('HIT');
    const staffToken = fs.readFileSync(path.join(shop.dataDir, STAFF_TOKEN_FILE), 'utf8').trim();
    const changed = await fetch(`${shop.baseUrl}/backend/staff/stock/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${staffToken}` },
      body: new URLSearchParams({ action: 'set', offer_id: String(target.offerId), quantity: '0' }).toString(),
    });
    expect(changed.status).toBe(200);
    const seen = await within(target.url, (_res, html) => outOfStock(html) > outOfStock(before));
    expect(seen.ms).toBeLessThanOrEqual(BOUND_MS + 1000);
    expect(seen.res.headers.get('x-cache')).toBe('MISS');
  });

  it('shows a page metadata edit within the bound', async () => {
    const p = '/delivery/';
    await (await get(p)).text();
    expect((await get(p)).headers.get('x-cache')).toBe('HIT');
    const title = 'Доставка по всей России — новый заголовок';
    await shop.database.db.execute(sql`update page_meta set title = ${title} where path = ${p}`);
    const seen = await within(p, (_res, html) => html.includes(title));
    expect(seen.ms).toBeLessThanOrEqual(BOUND_MS + 1000);
  });

  it('empties itself when a content file changes', async () => {
    const p = '/about/';
    await (await get(p)).text();
    expect((await get(p)).headers.get('x-cache')).toBe('HIT');
    // A staff edit of content/pages/about.md, as far as the cache can tell: a new modification
    // time (the text itself stays, so the checkout stays clean).
    const file = path.join(CONTENT_DIR, 'pages', 'about.md');
    const { atime, mtime } = fs.statSync(file);
    try {
      fs.utimesSync(file, atime, new Date(mtime.getTime() + 60_000));
      const seen = await within(p, (res) => res.headers.get('x-cache') === 'MISS');
      expect(seen.ms).toBeLessThanOrEqual(BOUND_MS + 1000);
    } finally {
      fs.utimesSync(file, atime, mtime);
    }
  });
});

describe('PAGE_CACHE=off', () => {
  const shop = setUpTestShop({ withStorefront: true, env: { PAGE_CACHE: 'off' } });

  it('renders every request', async () => {
    expect(shop.app.pageCache).toBeNull();
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${shop.baseUrl}/`);
      expect(res.status).toBe(200);
      await res.text();
      expect(res.headers.get('x-cache')).toBeNull();
    }
  });
});
