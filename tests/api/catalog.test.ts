import { beforeAll, describe, expect, it } from 'vitest';
import { setUpTestShop } from '~/tests/support/server';
import { getJson } from '~/tests/support/api';
import { ApiError, CatalogSectionResponse, ProductResponse, SearchResponse } from '~/shared/contract';

const shop = setUpTestShop();
const listing = (path: string) => getJson(shop.baseUrl, `/backend${path}`, CatalogSectionResponse);
const product = (path: string) => getJson(shop.baseUrl, `/backend${path}`, ProductResponse);
const notFound = (path: string) => getJson(shop.baseUrl, `/backend${path}`, ApiError, { status: 404 });
const facet = (page: CatalogSectionResponse, code: 'size' | 'color') => {
  const block = page.FILTER.find((f) => f.CODE === code);
  if (!block || block.CODE === 'price') throw new Error(`no ${code} facet`);
  return block.VALUES;
};
const priceOf = (page: CatalogSectionResponse) => {
  const block = page.FILTER.find((f) => f.CODE === 'price');
  if (!block || block.CODE !== 'price') throw new Error('no price facet');
  return block.VALUES;
};
const slugOf = (url: string) => url.split('/').filter(Boolean).pop() ?? '';

/** Every card of the whole catalogue, page by page. */
async function wholeCatalogue(): Promise<CatalogSectionResponse['ITEMS']> {
  const first = await listing('/catalog/all/');
  const items = [...first.ITEMS];
  for (let page = 2; page <= first.NAV_STRING.PAGE_COUNT; page++)
    items.push(...(await listing(`/catalog/all/?PAGEN_1=${page}`)).ITEMS);
  return items;
}

describe('listing', () => {
  it("shows each card with its own product's first two photos", async () => {
    const page = await listing('/catalog/all/');
    expect(page.ITEMS.length).toBeGreaterThan(0);
    for (const item of page.ITEMS) {
      const slug = item.DETAIL_PAGE_URL.replace(/\/$/, '').split('/').pop() as string;
      expect(item.PREVIEW_PICTURE, item.NAME).toMatch(new RegExp(`/${slug}/1\\.jpg$`));
      if (item.SECOND_PICTURE) expect(item.SECOND_PICTURE, item.NAME).toMatch(new RegExp(`/${slug}/2\\.jpg$`));
    }
  });

  it('has facets with counts, sorts and a nav string', async () => {
    const page = await listing('/catalog/woman/denim/');
    const sizes = facet(page, 'size');
    expect(sizes.length).toBeGreaterThan(0);
    for (const v of sizes) {
      expect(v.URL).toMatch(/^\/catalog\/woman\/denim\/filter\/size-is-[a-z0-9-]+\/apply\/$/);
      expect(v.COUNT).toBeGreaterThan(0);
    }
    const colors = facet(page, 'color');
    expect(colors.every((c) => /^#[0-9a-f]{6}$/i.test(c.HEX ?? ''))).toBe(true);
    expect(colors.reduce((n, c) => n + c.COUNT, 0)).toBe(page.NAV_STRING.ITEMS_COUNT);
    const price = priceOf(page);
    const prices = page.ITEMS.map((i) => i.PRICE);
    expect(price.MIN).toBeLessThanOrEqual(Math.min(...prices));
    expect(price.MAX).toBeGreaterThanOrEqual(Math.max(...prices));
    expect(price.MIN).toBeGreaterThan(0);
    expect(page.SORTS.map((s) => s.CODE)).toEqual(['popular', 'new', 'price_asc', 'price_desc']);
    expect(page.SORTS.find((s) => s.SELECTED)?.CODE).toBe('popular');
    expect(page.CANONICAL_URL).toBe('/catalog/woman/denim/');
  });

  it('filters by size, colour and price together', async () => {
    const base = await listing('/catalog/woman/');
    const size = facet(base, 'size')[0]!;
    const page = await listing(`/catalog/woman/filter/size-is-${size.URL_ID}/price-base-from-10000-to-40000/apply/`);
    expect(page.NAV_STRING.ITEMS_COUNT).toBeGreaterThan(0);
    expect(page.NAV_STRING.ITEMS_COUNT).toBeLessThan(base.NAV_STRING.ITEMS_COUNT);
    for (const item of page.ITEMS) {
      expect(item.PRICE).toBeGreaterThanOrEqual(10000);
      expect(item.PRICE).toBeLessThanOrEqual(40000);
    }
    expect(facet(page, 'size').find((v) => v.URL_ID === size.URL_ID)?.CHECKED).toBe(true);
    expect(priceOf(page)).toMatchObject({ FROM: 10000, TO: 40000 });
    expect(page.CANONICAL_URL).toBe(
      `/catalog/woman/filter/size-is-${size.URL_ID}/price-base-from-10000-to-40000/apply/`,
    );

    const color = facet(page, 'color').find((c) => c.COUNT > 0)!;
    const both = await listing(color.URL);
    expect(both.NAV_STRING.ITEMS_COUNT).toBe(color.COUNT);
    expect(both.ITEMS.every((i) => i.COLOR === color.VALUE)).toBe(true);
  });

  it('counts each facet with the other filters, and disables values that give nothing', async () => {
    const page = await listing('/catalog/woman/denim/filter/price-base-from-1-to-2/apply/');
    expect(page.ITEMS).toEqual([]);
    expect(page.NAV_STRING.ITEMS_COUNT).toBe(0);
    expect(facet(page, 'size').every((v) => v.DISABLED && v.COUNT === 0)).toBe(true);
  });

  it('sorts by price both ways and by novelty', async () => {
    const asc = (await listing('/catalog/all/?sort=price_asc')).ITEMS.map((i) => i.PRICE);
    expect(asc).toEqual([...asc].sort((a, b) => a - b));
    const desc = (await listing('/catalog/all/?sort=price_desc')).ITEMS.map((i) => i.PRICE);
    expect(desc).toEqual([...desc].sort((a, b) => b - a));
    expect((await listing('/catalog/all/?sort=new')).SORTS.find((s) => s.SELECTED)?.CODE).toBe('new');
  });

  it('pages without repeats and gives an empty list past the end', async () => {
    const one = await listing('/catalog/all/');
    const two = await listing('/catalog/all/?PAGEN_1=2');
    const ids = new Set(one.ITEMS.map((i) => i.ID));
    expect(two.ITEMS.some((i) => ids.has(i.ID))).toBe(false);
    const past = await listing('/catalog/all/?PAGEN_1=500');
    expect(past.ITEMS).toEqual([]);
    expect(past.NAV_STRING).toMatchObject({ CURRENT_PAGE: 500, ITEMS_COUNT: one.NAV_STRING.ITEMS_COUNT });
  });

  it('builds new collection and sale from the flags', async () => {
    const fresh = await listing('/catalog/new-collection/');
    expect(fresh.ITEMS.every((i) => i.IS_NEW)).toBe(true);
    expect(fresh.ITEMS[0]?.DETAIL_PAGE_URL).toMatch(/^\/catalog\/new-collection\/[a-z0-9-]+\/$/);
    const sale = await listing('/catalog/promo/');
    expect(sale.ITEMS.length).toBeGreaterThan(0);
    expect(
      sale.ITEMS.every((i) => i.OLD_PRICE !== null && i.OLD_PRICE > i.PRICE && i.OLD_PRICE <= i.PRICE * 1.3 + 100),
    ).toBe(true);
  });

  it.each([
    '/catalog/woman/denim/filter/size-is-42/',
    '/catalog/woman/denim/filter/fabric-is-wool/apply/',
    '/catalog/woman/denim/filter/price-base-from-9000-to-10/apply/',
    '/catalog/woman/no-such-category/',
    '/catalog/woman/denim/no-such-product/',
    '/catalog/nowhere/filter/size-is-42/apply/',
  ])('answers 404 for %s', async (path) => {
    expect((await notFound(path)).error).toBeTruthy();
  });

  it('treats junk sort and page as defaults', async () => {
    const page = await listing('/catalog/woman/denim/?sort=%27;drop&PAGEN_1=-3');
    expect(page.NAV_STRING.CURRENT_PAGE).toBe(1);
    expect(page.SORTS.find((s) => s.SELECTED)?.CODE).toBe('popular');
  });
});

describe('product', () => {
  let url = '';
  beforeAll(async () => {
    url = (await listing('/catalog/woman/uteplyennye_palto/')).ITEMS[0]!.DETAIL_PAGE_URL;
  });

  it('returns ITEM with photos, properties, offers and colour variants', async () => {
    const item = (await product(url)).ITEM;
    expect(item.DETAIL_PAGE_URL).toBe(url);
    expect(item.PRICE.DISCOUNT_PRICE).toBeGreaterThanOrEqual(32000);
    expect(item.PRICE.DISCOUNT_PRICE).toBeLessThanOrEqual(49000);
    expect(item.PRICE.PRICE).toBeGreaterThanOrEqual(item.PRICE.DISCOUNT_PRICE);
    const photos = item.PROPERTIES.MORE_PHOTO.VALUE;
    expect(photos.length).toBeGreaterThanOrEqual(3);
    expect(photos[0]?.FULL).toMatch(/^\/media\/products\//);
    for (const code of ['SOSTAV', 'CML2_ARTICLE', 'REKOMENDATSII_PO_UKHODU', 'ROST'])
      expect(item.PROPERTIES[code]?.VALUE).toBeTruthy();
    expect(Array.isArray(item.PROPERTIES.CML2_ATTRIBUTES?.VALUE)).toBe(true);
    expect(item.OFFERS.length).toBeGreaterThanOrEqual(3);
    for (const o of item.OFFERS) {
      expect(o.IS_OFFER.SIZES_CLOTHES?.VALUE).toMatch(/^\d{2}$/);
      expect(['Y', 'N']).toContain(o.AVAILABLE);
      expect(o.SELECTED).toBe(false);
    }
    expect(item.OTHER_LINK.filter((v) => v.IS_ACTIVE_PAGE).map((v) => v.ID)).toEqual([item.ID]);
  });

  it('marks the offer named in the address as selected', async () => {
    const first = (await product(url)).ITEM.OFFERS[1]!;
    const body = await product(`${url}?offer=${first.ID}`);
    expect(body.ITEM.OFFERS.filter((o) => o.SELECTED).map((o) => o.ID)).toEqual([first.ID]);
  });

  it('is the same product under /catalog/all/ with one canonical URL', async () => {
    const slug = slugOf(url);
    const body = await product(`/catalog/all/${slug}/`);
    expect(body.ITEM.DETAIL_PAGE_URL).toBe(url);
    await notFound(`/catalog/woman/denim/${slug}/`);
  });

  it('selects the only offer of a one-size product', async () => {
    const card = (await listing('/catalog/podarochnye-karty/')).ITEMS[0]!;
    const body = await product(card.DETAIL_PAGE_URL);
    expect(body.ITEM.OFFERS).toHaveLength(1);
    expect(body.ITEM.OFFERS[0]?.SELECTED).toBe(true);
  });
});

describe('new collection and sale are addresses only of their own products', () => {
  it('opens a product on sale under /catalog/promo/, and answers 404 for one that is not on sale', async () => {
    const items = await wholeCatalogue();
    const onSale = items.find((i) => i.OLD_PRICE !== null);
    const fullPrice = items.find((i) => i.OLD_PRICE === null);
    if (!onSale || !fullPrice) throw new Error('the seed needs products on sale and at full price');
    // The product itself says so, not only its card.
    const full = (await product(`/catalog/all/${slugOf(fullPrice.DETAIL_PAGE_URL)}/`)).ITEM;
    expect(full.PRICE.PRICE).toBe(full.PRICE.DISCOUNT_PRICE);
    expect(full.OFFERS.every((o) => o.OLD_PRICE === null)).toBe(true);

    const sale = (await product(`/catalog/promo/${slugOf(onSale.DETAIL_PAGE_URL)}/`)).ITEM;
    expect(sale.ID).toBe(onSale.ID);
    expect(sale.PRICE.PRICE).toBeGreaterThan(sale.PRICE.DISCOUNT_PRICE);
    await notFound(`/catalog/promo/${slugOf(fullPrice.DETAIL_PAGE_URL)}/`);
  });

  it('opens a new product under /catalog/new-collection/, and answers 404 for one that is not new', async () => {
    const items = await wholeCatalogue();
    const fresh = items.find((i) => i.IS_NEW);
    const old = items.find((i) => !i.IS_NEW);
    if (!fresh || !old) throw new Error('the seed needs new and older products');
    expect((await product(`/catalog/all/${slugOf(old.DETAIL_PAGE_URL)}/`)).ITEM.IS_NEW).toBe(false);

    const item = (await product(`/catalog/new-collection/${slugOf(fresh.DETAIL_PAGE_URL)}/`)).ITEM;
    expect(item).toMatchObject({ ID: fresh.ID, IS_NEW: true });
    await notFound(`/catalog/new-collection/${slugOf(old.DETAIL_PAGE_URL)}/`);
  });
});

describe('search', () => {
  const search = (q: string) => getJson(shop.baseUrl, `/backend/api/search?q=${encodeURIComponent(q)}`, SearchResponse);

  it('finds word forms: платья finds платье', async () => {
    const { hits } = await search('платья');
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.some((h) => /плать/i.test(h.name))).toBe(true);
  });
  it('finds by prefix while typing: пал finds пальто', async () => {
    const { hits } = await search('пал');
    expect(hits.some((h) => /пальто/i.test(h.name))).toBe(true);
  });
  it('forgives one typo: пльто finds пальто', async () => {
    const { hits } = await search('пльто');
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((h) => /пальто/i.test(h.name))).toBe(true);
  });
  it('reads е for ё', async () => {
    const { hits } = await search('утепленное');
    expect(hits.some((h) => /утеплённ/i.test(h.name))).toBe(true);
  });
  it('finds an article number', async () => {
    const item = (await product((await listing('/catalog/woman/denim/')).ITEMS[0]!.DETAIL_PAGE_URL)).ITEM;
    const article = String(item.PROPERTIES.CML2_ARTICLE?.VALUE);
    const { hits } = await search(article);
    expect(hits[0]?.id).toBe(item.ID);
  });
  it('finds part of an article number: 00081 finds VT-..-00081 (issue #26)', async () => {
    const { hits } = await search('00081');
    expect(hits).toHaveLength(1);
    const item = (await product(hits[0]!.url)).ITEM;
    expect(String(item.PROPERTIES.CML2_ARTICLE?.VALUE)).toMatch(/^VT-\d{2}-00081$/);
    // The year and number together too, and a fragment no article holds finds nothing.
    expect((await search(String(item.PROPERTIES.CML2_ARTICLE?.VALUE).slice(3))).hits[0]?.id).toBe(item.ID);
    expect((await search('99999')).hits).toEqual([]);
  });
  it('reads a query typed with the Latin layout on: gfkmnj finds пальто (issue #26)', async () => {
    const { hits } = await search('gfkmnj');
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.map((h) => h.id)).toEqual((await search('пальто')).hits.map((h) => h.id));
    // Punctuation keys are letters there: ',h.rb' is 'брюки'.
    expect((await search(',h.rb')).hits.map((h) => h.id)).toEqual((await search('брюки')).hits.map((h) => h.id));
  });
  it('reads a size among the words: брюки 46 finds trousers orderable in 46 (issue #26)', async () => {
    const { hits } = await search('брюки 46');
    expect(hits.length).toBeGreaterThan(0);
    expect(hits[0]?.name).toMatch(/брюк/i);
    for (const hit of hits) {
      // Trousers first; then what mentions them in its description, as 'брюки' alone finds.
      const { NAME, DESCRIPTION, OFFERS: offers } = (await product(hit.url)).ITEM;
      expect(`${NAME} ${DESCRIPTION}`).toMatch(/брюк/i);
      expect(
        offers.some((o) => o.SIZE_ID === '46' && (o.AVAILABLE === 'Y' || o.IS_PREORDER === 'Y')),
        hit.name,
      ).toBe(true);
    }
    // The international letter names the same size.
    expect((await search('брюки M')).hits.map((h) => h.id)).toEqual(hits.map((h) => h.id));
  });
  it('returns no hits for blank, whitespace or punctuation', async () => {
    for (const q of ['', '   ', '!!!', '&|:*']) expect((await search(q)).hits).toEqual([]);
  });
  it('is limited and carries prices and images', async () => {
    const { hits } = await search('шерсть');
    expect(hits.length).toBeLessThanOrEqual(24);
    for (const h of hits) {
      expect(h.url).toMatch(/^\/catalog\//);
      expect(h.price).toBeGreaterThan(0);
    }
  });
});

describe('OpenAPI', () => {
  it('publishes the contract with the catalogue and search paths', async () => {
    // The OpenAPI document describes the contract; it is not one of its shapes.
    const res = await fetch(`${shop.baseUrl}/backend/openapi.json`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { openapi: string; paths: Record<string, unknown>; servers: { url: string }[] };
    expect(body.openapi).toBe('3.0.3');
    expect(Object.keys(body.paths)).toEqual(expect.arrayContaining(['/catalog/{path}', '/api/search', '/page-meta/']));
    expect(body.servers[0]?.url).toBe('/backend');
    expect(JSON.stringify(body.paths['/catalog/{path}'])).toContain('NAV_STRING');
  });
});
