import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import pino from 'pino';
import { and, asc, eq, gt, sql } from 'drizzle-orm';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, describe, expect, it } from 'vitest';
import { offers, productPhotos, products, sections } from '~/db/schema';
import { bumpCatalogVersion } from '~/db/catalog-version.server';
import { StaffFeedsActionResponse, StaffFeedsResponse, StockChangeResponse, type FeedChannel } from '~/shared/contract';
import { STAFF_TOKEN_FILE } from '~/server/secrets.server';
import { createFeedService } from '~/server/feeds.server';
import { fetchJson } from '~/tests/support/api';
import { setUpTestShop } from '~/tests/support/server';

// Issue #32's feeds over HTTP on PGlite or (TEST_DATABASE_URL) PostgreSQL: every offer of each
// feed parsed with an XML parser and checked for the elements its reader requires; the feeds
// following the catalogue (a product taken off sale leaves, a sold-out size leaves YML and turns
// out_of_stock in Google); 304 on the build's ETag; compressed forms; the staff status and settings.

const shop = setUpTestShop();
const db = () => shop.database.db;
const SITE = 'http://shop.test';

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  isArray: (name) => ['offer', 'param', 'picture', 'item', 'category', 'g:additional_image_link'].includes(name),
});

type Node = Record<string, unknown>;
interface Yml {
  date: string;
  categories: Node[];
  offers: Node[];
}

async function getFeed(channel: FeedChannel, init: RequestInit = {}): Promise<{ res: Response; text: string }> {
  const res = await fetch(`${shop.baseUrl}/feeds/${channel === 'google' ? 'google.xml' : `${channel}.yml`}`, init);
  return { res, text: await res.text() };
}

async function yml(channel: 'yandex' | 'vk'): Promise<Yml & { etag: string }> {
  const { res, text } = await getFeed(channel);
  expect(res.status, text.slice(0, 300)).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/xml; charset=utf-8');
  expect(XMLValidator.validate(text)).toBe(true);
  const doc = parser.parse(text) as {
    yml_catalog: { '@date': string; shop: { categories: { category: Node[] }; offers: { offer?: Node[] } } };
  };
  return {
    date: doc.yml_catalog['@date'],
    categories: doc.yml_catalog.shop.categories.category,
    offers: doc.yml_catalog.shop.offers.offer ?? [],
    etag: res.headers.get('etag') ?? '',
  };
}

async function google(): Promise<{ items: Node[]; etag: string }> {
  const { res, text } = await getFeed('google');
  expect(res.status, text.slice(0, 300)).toBe(200);
  expect(XMLValidator.validate(text)).toBe(true);
  const doc = parser.parse(text) as {
    rss: { '@version': string; '@xmlns:g': string; channel: { title: string; link: string; item?: Node[] } };
  };
  expect(doc.rss['@version']).toBe('2.0');
  expect(doc.rss['@xmlns:g']).toBe('http://base.google.com/ns/1.0');
  expect(doc.rss.channel.link).toBe(`${SITE}/`);
  return { items: doc.rss.channel.item ?? [], etag: res.headers.get('etag') ?? '' };
}

const staffToken = () => fs.readFileSync(path.join(shop.dataDir, STAFF_TOKEN_FILE), 'utf8').trim();
const staffStatus = async () =>
  (
    await fetchJson(`${shop.baseUrl}/backend`, '/staff/feeds/', StaffFeedsResponse, {
      init: { headers: { authorization: `Bearer ${staffToken()}` } },
    })
  ).body;

async function staffPost(body: unknown): Promise<StaffFeedsActionResponse> {
  const init = {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${staffToken()}` },
    body: JSON.stringify(body),
  };
  return (await fetchJson(`${shop.baseUrl}/backend`, '/staff/feeds/', StaffFeedsActionResponse, { init })).body;
}

async function setStock(offerId: number, quantity: number): Promise<void> {
  const { body } = await fetchJson(`${shop.baseUrl}/backend`, '/staff/stock/', StockChangeResponse, {
    init: {
      method: 'POST',
      body: new URLSearchParams({ action: 'set', offer_id: String(offerId), quantity: String(quantity) }),
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${staffToken()}` },
    },
  });
  expect(body.errors).toEqual({});
}

/** What YML must carry: the offers of active non-certificate products with photos, priced, in stock or open for pre-order. */
async function expectedYmlOfferIds(): Promise<Set<number>> {
  const rows = await db()
    .select({ id: offers.id })
    .from(offers)
    .innerJoin(products, eq(products.id, offers.productId))
    .where(
      and(
        eq(products.active, true),
        sql`${products.certificate} is null`,
        gt(offers.priceKopecks, 0),
        sql`(${offers.quantity} > 0 or ${offers.preorder})`,
        sql`exists (select 1 from ${productPhotos} where ${productPhotos.productId} = ${products.id})`,
      ),
    );
  return new Set(rows.map((r) => r.id));
}

const params = (offer: Node) =>
  Object.fromEntries(
    (offer.param as Node[]).map((p) => [
      `${String(p['@name'])}${p['@unit'] ? `/${String(p['@unit'])}` : ''}`,
      p['#text'],
    ]),
  );

describe('the YML feed (Яндекс Маркет, Товары, Директ)', () => {
  it('carries every sellable size as an offer with every element Yandex requires', async () => {
    const feed = await yml('yandex');
    // RFC 3339 with the zone, made just now (Yandex refuses a feed older than about ten days).
    expect(feed.date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+03:00$/);
    expect(Math.abs(Date.parse(feed.date) - Date.now())).toBeLessThan(10 * 60_000);

    const categoryIds = new Set(feed.categories.map((c) => String(c['@id'])));
    const dbCategories = await db()
      .select({ id: sections.id, kind: sections.kind, parentId: sections.parentId })
      .from(sections);
    expect(categoryIds).toEqual(new Set(dbCategories.filter((s) => s.kind === 'category').map((s) => String(s.id))));
    for (const c of feed.categories)
      if (c['@parentId'] !== undefined) expect(categoryIds.has(String(c['@parentId']))).toBe(true);

    const ids = feed.offers.map((o) => Number(o['@id']));
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids)).toEqual(await expectedYmlOfferIds());
    expect(ids.length).toBeGreaterThan(500);

    const productOfOffer = new Map(
      (await db().select({ offer: offers.id, product: offers.productId, sizeType: offers.sizeType }).from(offers)).map(
        (r) => [r.offer, r],
      ),
    );
    const groups = new Map<number, Set<string>>();
    for (const o of feed.offers) {
      const id = Number(o['@id']);
      expect(['true', 'false']).toContain(o['@available']);
      expect(String(o['@group_id'])).toMatch(/^\d{1,9}$/);
      expect(String(o.url)).toMatch(
        new RegExp(`^${SITE}/catalog/[a-z0-9/_-]+/\\?offer=${id}&utm_source=yandex&utm_medium=cpc&utm_campaign=feed$`),
      );
      expect(String(o.price)).toMatch(/^\d+(\.\d\d)?$/);
      expect(Number(o.price)).toBeGreaterThan(0);
      if (o.oldprice !== undefined) expect(Number(o.oldprice)).toBeGreaterThan(Number(o.price));
      expect(o.currencyId).toBe('RUR');
      expect(categoryIds.has(String(o.categoryId))).toBe(true);
      const pictures = o.picture as string[];
      expect(pictures.length).toBeGreaterThan(0);
      for (const p of pictures)
        expect(p).toMatch(new RegExp(`^${SITE}/img/1024/products/[a-z0-9/_-]+\\.(jpg|jpeg|png)$`));
      expect(String(o.name).length).toBeGreaterThan(3);
      expect(o.vendor).toBe('Vitrina');
      expect(String(o.description).length).toBeGreaterThan(10);
      const p = params(o);
      expect(p['Цвет']).toBeTruthy();
      expect(['Женский', 'Мужской', 'Унисекс']).toContain(p['Пол']);
      expect(p['Возраст']).toBe('Взрослый');
      const row = productOfOffer.get(id);
      if (row?.sizeType !== 'none') expect(p['Размер/RU']).toMatch(/^\S+$/);
      // One model, one group: every size of one product shares the group id.
      const group = groups.get(row?.product ?? 0) ?? new Set<string>();
      group.add(String(o['@group_id']));
      groups.set(row?.product ?? 0, group);
    }
    for (const g of groups.values()) expect(g.size).toBe(1);
  });

  it('VK reads the same YML with its own tags', async () => {
    const [yandex, vk] = [await yml('yandex'), await yml('vk')];
    expect(vk.offers.map((o) => o['@id'])).toEqual(yandex.offers.map((o) => o['@id']));
    for (const o of vk.offers) expect(String(o.url)).toContain('utm_source=vk&');
  });
});

describe('the Google Merchant Center feed', () => {
  it('carries every size with the apparel attributes, the same ids as YML', async () => {
    const { items } = await google();
    const ids = items.map((i) => Number(i['g:id']));
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of await expectedYmlOfferIds()) expect(ids).toContain(id);
    for (const i of items) {
      for (const name of [
        'g:id',
        'g:item_group_id',
        'g:title',
        'g:description',
        'g:link',
        'g:image_link',
        'g:brand',
        'g:color',
        'g:google_product_category',
      ])
        expect(String(i[name] ?? ''), `${name} of ${String(i['g:id'])}`).not.toBe('');
      expect(String(i['g:link'])).toMatch(
        new RegExp(`^${SITE}/catalog/.+\\?offer=${String(i['g:id'])}&utm_source=google&`),
      );
      expect(['in_stock', 'out_of_stock', 'backorder']).toContain(i['g:availability']);
      if (i['g:availability'] === 'backorder')
        expect(String(i['g:availability_date'])).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d\+0300$/);
      expect(String(i['g:price'])).toMatch(/^\d+\.\d\d RUB$/);
      if (i['g:sale_price'] !== undefined)
        expect(Number.parseFloat(String(i['g:sale_price']))).toBeLessThan(Number.parseFloat(String(i['g:price'])));
      expect(['female', 'male', 'unisex']).toContain(i['g:gender']);
      expect(i['g:age_group']).toBe('adult');
      expect(i['g:condition']).toBe('new');
      expect(String(i['g:google_product_category'])).toMatch(/^\d+$/);
    }
    expect(items.some((i) => i['g:availability'] === 'out_of_stock')).toBe(true);
    expect(items.some((i) => i['g:size'] !== undefined)).toBe(true);
  });
});

describe('serving', () => {
  it('answers 304 to its ETag and its date, sends br and gzip made at build time, and HEAD without a body', async () => {
    const first = await getFeed('yandex', { headers: { 'accept-encoding': 'identity' } });
    const etag = first.res.headers.get('etag') ?? '';
    const lastModified = first.res.headers.get('last-modified') ?? '';
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.res.headers.get('cache-control')).toBe('public, max-age=300');
    expect(Number(first.res.headers.get('content-length'))).toBe(Buffer.byteLength(first.text));

    const again = await getFeed('yandex', { headers: { 'if-none-match': etag, 'accept-encoding': 'identity' } });
    expect(again.res.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.res.headers.get('etag')).toBe(etag);
    expect((await getFeed('yandex', { headers: { 'if-modified-since': lastModified } })).res.status).toBe(304);
    expect((await getFeed('yandex', { headers: { 'if-none-match': '"other"' } })).res.status).toBe(200);

    // Node's fetch decodes the body: read the raw bytes over node:http instead.
    for (const [encoding, decode] of [
      ['br', zlib.brotliDecompressSync],
      ['gzip', zlib.gunzipSync],
    ] as const) {
      const raw = await rawGet('/feeds/yandex.yml', { 'accept-encoding': encoding });
      expect(raw.headers['content-encoding']).toBe(encoding);
      expect(raw.headers.vary).toBe('Accept-Encoding');
      expect(raw.body.length).toBeLessThan(Buffer.byteLength(first.text) / 4);
      expect(decode(raw.body).toString('utf8')).toBe(first.text);
      // The compressed form's tag names the same build: a 304 for it too.
      const tag = String(raw.headers.etag);
      expect(tag).not.toBe(etag);
      expect((await rawGet('/feeds/yandex.yml', { 'accept-encoding': encoding, 'if-none-match': tag })).status).toBe(
        304,
      );
    }

    const head = await rawGet('/feeds/yandex.yml', {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.etag).toBe(etag);
    expect(head.headers['content-length']).toBe(first.res.headers.get('content-length'));
    expect(head.body.length).toBe(0);
  });
});

async function rawGet(
  urlPath: string,
  headers: Record<string, string>,
  method = 'GET',
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  const http = await import('node:http');
  return new Promise((resolve, reject) => {
    const req = http.request(`${shop.baseUrl}${urlPath}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('following the catalogue', () => {
  it('a product taken off sale leaves every feed; a sold-out size leaves YML and is out_of_stock in Google; staff see why', async () => {
    const before = await yml('yandex');
    const beforeGoogle = await google();
    const ids = new Set(before.offers.map((o) => Number(o['@id'])));

    // Two products in the feed: one goes off sale, one loses its in-stock size (no pre-order).
    const candidates = await db()
      .select({ id: offers.id, productId: offers.productId, quantity: offers.quantity, preorder: offers.preorder })
      .from(offers)
      .innerJoin(products, eq(products.id, offers.productId))
      .where(and(eq(products.active, true), sql`${products.certificate} is null`))
      .orderBy(asc(offers.id));
    const inFeed = candidates.filter((c) => ids.has(c.id));
    const gone = inFeed[0];
    const soldOut = inFeed.find((c) => c.productId !== gone?.productId && c.quantity > 0 && !c.preorder);
    if (!gone || !soldOut) throw new Error('fixture: no products in the feed');
    const goneOffers = candidates.filter((c) => c.productId === gone.productId).map((c) => c.id);

    await db().update(products).set({ active: false }).where(eq(products.id, gone.productId));
    await bumpCatalogVersion(db());
    await setStock(soldOut.id, 0);

    const after = await yml('yandex');
    const afterIds = new Set(after.offers.map((o) => Number(o['@id'])));
    expect(after.etag).not.toBe(before.etag);
    for (const id of goneOffers) expect(afterIds.has(id)).toBe(false);
    expect(afterIds.has(soldOut.id)).toBe(false);
    expect(afterIds).toEqual(await expectedYmlOfferIds());
    // The old tag no longer matches: a robot that had the old feed gets the new one.
    expect((await getFeed('yandex', { headers: { 'if-none-match': before.etag } })).res.status).toBe(200);

    const afterGoogle = await google();
    expect(afterGoogle.etag).not.toBe(beforeGoogle.etag);
    const byId = new Map(afterGoogle.items.map((i) => [Number(i['g:id']), i]));
    for (const id of goneOffers) expect(byId.has(id)).toBe(false);
    expect(byId.get(soldOut.id)?.['g:availability']).toBe('out_of_stock');

    const status = await staffStatus();
    const yandex = status.feeds.find((f) => f.channel === 'yandex');
    expect(yandex).toMatchObject({ url: `${SITE}/feeds/yandex.yml`, enabled: true, current: true });
    expect(yandex?.last_build?.offers).toBe(afterIds.size);
    expect(yandex?.last_build?.left_out).toContainEqual({
      product_id: gone.productId,
      offer_id: null,
      name: expect.any(String) as string,
      reason: 'inactive',
      reason_text: 'Товар снят с продажи',
    });
    expect(yandex?.last_build?.left_out.some((l) => l.offer_id === soldOut.id && l.reason === 'sold_out')).toBe(true);
    // The hidden gift garment cover is inactive and the gift cards are certificates: both counted.
    expect(yandex?.last_build?.left_out_counts.inactive).toBeGreaterThanOrEqual(goneOffers.length + 1);
    expect(yandex?.last_build?.left_out_counts.certificate).toBeGreaterThan(0);

    // Back on sale and in stock: back in the feed.
    await db().update(products).set({ active: true }).where(eq(products.id, gone.productId));
    await bumpCatalogVersion(db());
    await setStock(soldOut.id, 2);
    const back = new Set((await yml('yandex')).offers.map((o) => Number(o['@id'])));
    expect(back.has(soldOut.id)).toBe(true);
    expect(back).toEqual(await expectedYmlOfferIds());
  });

  it('no photo and no price are left out with their reason', async () => {
    const [a, b] = (await yml('yandex')).offers.map((o) => Number(o['@id']));
    const [pa] = await db()
      .select({ productId: offers.productId })
      .from(offers)
      .where(eq(offers.id, a ?? 0));
    await db()
      .delete(productPhotos)
      .where(eq(productPhotos.productId, pa?.productId ?? 0));
    const [ob] = await db()
      .select({ productId: offers.productId })
      .from(offers)
      .where(eq(offers.id, b ?? 0));
    // b's product is another one unless a's product has several sizes; take the last offer of the feed then.
    let noPrice = b ?? 0;
    if (ob?.productId === pa?.productId) noPrice = Number((await yml('yandex')).offers.at(-1)?.['@id']);
    await db().update(offers).set({ priceKopecks: 0, oldPriceKopecks: null }).where(eq(offers.id, noPrice));
    await bumpCatalogVersion(db());

    const ids = new Set((await yml('yandex')).offers.map((o) => Number(o['@id'])));
    expect(ids.has(a ?? 0)).toBe(false);
    expect(ids.has(noPrice)).toBe(false);
    const report = (await staffStatus()).feeds.find((f) => f.channel === 'yandex')?.last_build;
    expect(
      report?.left_out.some(
        (l) => l.product_id === pa?.productId && l.reason === 'no_photo' && l.reason_text === 'Нет фото',
      ),
    ).toBe(true);
    expect(
      report?.left_out.some((l) => l.offer_id === noPrice && l.reason === 'no_price' && l.reason_text === 'Нет цены'),
    ).toBe(true);
  });
});

describe('staff settings', () => {
  it('the status needs the staff token, and the OpenAPI document describes it', async () => {
    const res = await fetch(`${shop.baseUrl}/backend/staff/feeds/`);
    expect(res.status).toBe(401);
    const doc = (await (await fetch(`${shop.baseUrl}/backend/openapi.json`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    expect(Object.keys(doc.paths['/staff/feeds/'] ?? {}).sort()).toEqual(['get', 'post']);
  });

  it('a channel’s selection and tags change its feed only; bad settings are refused in Russian; a channel can be turned off', async () => {
    const yandexBefore = await yml('yandex');
    const [woman] = await db().select({ id: sections.id }).from(sections).where(eq(sections.code, 'woman'));
    const saved = await staffPost({
      action: 'settings',
      settings: {
        channels: { vk: { sections: ['muzhchinam'], utm: { utm_source: 'vk', utm_campaign: '{campaign_id}' } } },
      },
    });
    expect(saved.errors).toEqual({});
    expect(saved.data?.settings.channels.vk.sections).toEqual(['muzhchinam']);
    expect(saved.data?.feeds.find((f) => f.channel === 'vk')?.current).toBe(false);

    const vk = await yml('vk');
    expect(vk.offers.length).toBeGreaterThan(0);
    for (const o of vk.offers) {
      expect(params(o)['Пол']).toBe('Мужской');
      expect(String(o.url)).toMatch(/\?offer=\d+&utm_source=vk&utm_campaign=\{campaign_id\}$/);
      expect(Number(o.categoryId)).not.toBe(woman?.id);
    }
    // Yandex's build is untouched: the same tag, a 304.
    expect((await getFeed('yandex', { headers: { 'if-none-match': yandexBefore.etag } })).res.status).toBe(304);

    const bad = await staffPost({
      action: 'settings',
      settings: { imageWidth: 10, channels: { google: { utm: { utm_source: 'a b' }, sections: ['Не код'] } } },
    });
    expect(bad.data).toBeNull();
    expect(bad.errors).toMatchObject({
      imageWidth: 'Ширина фото не меньше 320',
      'channels.google.utm.utm_source': 'Метка без пробелов и управляющих символов',
      'channels.google.sections.0': 'Код раздела: латинские буквы, цифры, _ и -',
    });

    expect(
      (await staffPost({ action: 'settings', settings: { channels: { google: { enabled: false } } } })).errors,
    ).toEqual({});
    expect((await getFeed('google')).res.status).toBe(404);
    expect(
      (await staffPost({ action: 'settings', settings: { channels: { google: { enabled: true } } } })).errors,
    ).toEqual({});
    expect((await getFeed('google')).res.status).toBe(200);

    const built = await staffPost({ action: 'build', channel: 'vk' });
    expect(built.errors).toEqual({});
    expect(built.data?.feeds.find((f) => f.channel === 'vk')).toMatchObject({ current: true, enabled: true });
  });
});

// The service itself, beside the shop's own (on the same database, in a data directory of its
// own): one build per catalogue version, builds shared by simultaneous requests, another process
// finding a build on disk, the earlier build served while a slow new one is made, a day-old
// build made again, files of earlier builds removed.
const log = pino({ level: 'silent' });
let ownDir: string | null = null;
const serviceDir = () => (ownDir ??= fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-feeds-')));
afterAll(() => {
  if (ownDir) fs.rmSync(ownDir, { recursive: true, force: true });
});

describe('the feed service', () => {
  it('builds once per catalogue version, shares a build between simultaneous requests and removes earlier files', async () => {
    const service = createFeedService({ db: db(), dataDir: serviceDir(), siteUrl: 'https://shop.test', log });
    const [a, b] = await Promise.all([service.current('yandex'), service.current('yandex')]);
    expect(a).not.toBeNull();
    expect(b).toBe(a);
    expect(await service.current('yandex')).toBe(a);
    const plain = fs.readFileSync(service.fileOf(a!, 'identity'), 'utf8');
    expect(plain.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<yml_catalog date=')).toBe(true);
    expect(a!.bytes).toBe(Buffer.byteLength(plain));

    // Another process on the same DATA_DIR finds the build on disk and makes none.
    const other = createFeedService({ db: db(), dataDir: serviceDir(), siteUrl: 'https://shop.test', log });
    expect(await other.current('yandex')).toEqual(a);

    await bumpCatalogVersion(db());
    const c = await service.current('yandex');
    expect(c?.key).not.toBe(a?.key);
    expect(c?.builtAt).toBeGreaterThanOrEqual(a!.builtAt);
    const names = fs.readdirSync(service.dir).filter((n) => n.startsWith('yandex-'));
    expect(names.sort()).toEqual([`${c!.key}.json`, `${c!.key}.xml`, `${c!.key}.xml.br`, `${c!.key}.xml.gz`].sort());
  });

  it('serves the earlier build while a new one takes longer than the wait, then the new one', async () => {
    const service = createFeedService({
      db: db(),
      dataDir: serviceDir(),
      siteUrl: 'https://shop.test',
      log,
      waitMs: 0,
    });
    const first = await service.current('google');
    await bumpCatalogVersion(db());
    // The new build cannot be ready within 0 ms: the earlier one answers.
    expect(await service.current('google')).toBe(first);
    let next = first;
    for (let i = 0; i < 100 && next === first; i++) {
      await new Promise((r) => setTimeout(r, 50));
      next = await service.current('google');
    }
    expect(next?.key).not.toBe(first?.key);
  });

  it('makes a day-old build again (Yandex refuses a feed dated long ago)', async () => {
    let clock = Date.now();
    const service = createFeedService({
      db: db(),
      dataDir: serviceDir(),
      siteUrl: 'https://shop.test',
      log,
      now: () => clock,
    });
    const first = await service.current('vk');
    clock += 24 * 3_600_000 + 1;
    const again = await service.current('vk');
    expect(again?.key).toBe(first?.key);
    expect(again?.builtAt).toBeGreaterThan(first!.builtAt);
  });
});
