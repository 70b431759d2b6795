import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '~/db/client.server';
import { readCatalogVersion } from '~/db/catalog-version.server';
import {
  CatalogueOptionsResponse,
  ProductListResponse,
  ProductOneResponse,
  SectionListResponse,
  SectionOneResponse,
  type ProductDetail,
} from '~/shared/admin-catalogue-contract';
import {
  CatalogSectionResponse,
  PageMeta,
  SectionsResponse,
  ProductResponse,
  RedirectResponse,
  SearchResponse,
} from '~/shared/contract';
import { setUpTestShop } from '~/tests/support/server';
import { eventually, expectContract, getJson } from '~/tests/support/api';
import { admin, staffSession, testClock, type AnyBody } from '~/tests/support/admin';

// The catalogue in the back office (issue #30) over HTTP, on PGlite and (TEST_DATABASE_URL)
// PostgreSQL: who may read and change products, sizes, photos and sections; Russian refusals
// that change nothing; one change per Idempotency-Key; the audit log's before and after; and what
// a guest sees afterwards: the new price and name on the product page and in its category, the new
// name found by search (word forms and a typo), a 301 from the old address, the section in the menu.

const clock = testClock();
const shop = setUpTestShop({ clock: clock.now });
const db = () => shop.database.db;

type Role = 'admin' | 'manager' | 'warehouse' | 'content';
const sessions: Partial<Record<Role, Awaited<ReturnType<typeof staffSession>>>> = {};
async function as(role: Role) {
  sessions[role] ??= await staffSession(shop, clock, { email: `${role}@catalogue.example`, role });
  return sessions[role];
}
const api = <T>(p: string, schema: { parse: (v: unknown) => T }) =>
  getJson(shop.baseUrl, `/backend${p}`, schema as never) as Promise<T>;

let leaf: { id: number; url: string; name: string } | null = null;
let other: { id: number; url: string; name: string } | null = null;
async function sectionsToUse() {
  if (!leaf || !other) {
    const { cookie } = await as('content');
    const opts = expectContract(CatalogueOptionsResponse, (await admin(shop, '/catalogue/options', { cookie })).body);
    const cats = opts.data.sections.filter((s) => s.kind === 'category' && s.path.includes(' / '));
    leaf = cats[0] ?? null;
    other = cats.find((s) => !s.url.startsWith(leaf?.url.split('/').slice(0, 3).join('/') ?? '')) ?? cats[1] ?? null;
  }
  if (!leaf || !other) throw new Error('the seed has no nested category sections');
  return { leaf, other };
}

let made = 0;
const uniqueArticle = () => `VT-TEST-${Date.now().toString(36)}-${++made}`.toUpperCase();
async function newProduct(extra: Record<string, unknown> = {}, role: Role = 'content') {
  const { leaf } = await sectionsToUse();
  const { cookie } = await as(role);
  const body = {
    name: `Платье Ветреница ${made + 1}`,
    article: uniqueArticle(),
    section_id: leaf.id,
    color_name: 'Чёрный',
    color_hex: '#141414',
    kind: 'dress',
    price: '12 990,50',
    description: 'Платье из вискозы.',
    composition: 'Вискоза 100%',
    care: 'Деликатная стирка при 30°',
    ...extra,
  };
  const r = await admin(shop, '/products', { cookie, body });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return expectContract(ProductOneResponse, r.body).data;
}
async function change(role: Role, p: string, body: unknown, method: 'POST' | 'PATCH' = 'POST') {
  const { cookie } = await as(role);
  return admin(shop, p, { cookie, body, method });
}
async function ok(role: Role, p: string, body: unknown, method: 'POST' | 'PATCH' = 'POST'): Promise<ProductDetail> {
  const r = await change(role, p, body, method);
  expect(r.status, `${p}: ${JSON.stringify(r.body)}`).toBe(200);
  return expectContract(ProductOneResponse, r.body).data;
}
const auditOf = (type: string, id: number) =>
  queryRows<{ action: string; staff_id: number | null; before: AnyBody; after: AnyBody }>(
    db(),
    sql`select action, staff_id, before, after from audit_events where entity_type = ${type} and entity_id = ${String(id)} order by id`,
  );
async function sellable(extra: Record<string, unknown> = {}) {
  const p = await newProduct(extra);
  await ok('content', `/products/${p.id}/offers`, { size_type: 'clothes', size: '44' });
  await ok('content', `/products/${p.id}/offers`, { size_type: 'clothes', size: '46' });
  return ok('content', `/products/${p.id}/activate`, {});
}
const guestProduct = (url: string) => getJson(shop.baseUrl, `/backend${url}`, ProductResponse);
const guestSearch = (q: string) =>
  getJson(shop.baseUrl, `/backend/api/search?q=${encodeURIComponent(q)}`, SearchResponse).then((r) =>
    r.hits.map((h) => h.id),
  );

describe('roles', () => {
  it('content and admin change the catalogue; manager and warehouse read it; nobody without a session', async () => {
    await newProduct({}, 'admin');
    await newProduct({}, 'content');
    for (const role of ['manager', 'warehouse'] as const) {
      const { cookie } = await as(role);
      expect((await admin(shop, '/products?limit=5', { cookie })).status, role).toBe(200);
      const refused = await admin(shop, '/products', { cookie, body: { name: 'x' } });
      expect(refused.status, role).toBe(403);
      expect(refused.body.error).toBe('Недостаточно прав для этого действия');
      expect((await admin(shop, '/sections', { cookie, body: { name: 'x', code: 'x' } })).status, role).toBe(403);
    }
    expect((await admin(shop, '/products')).status).toBe(401);
  });
});

describe('products', () => {
  it('lists by part of the name or article, section and state, page by page', async () => {
    const p = await newProduct({ name: 'Жакет Соловейчик' });
    const { cookie } = await as('content');
    const byName = expectContract(
      ProductListResponse,
      (await admin(shop, `/products?q=${encodeURIComponent('соловейч')}`, { cookie })).body,
    );
    expect(byName.data.map((r) => r.id)).toEqual([p.id]);
    const byArticle = expectContract(
      ProductListResponse,
      (await admin(shop, `/products?q=${p.article.slice(-6).toLowerCase()}&active=false`, { cookie })).body,
    );
    expect(byArticle.data.map((r) => r.id)).toContain(p.id);
    const page = expectContract(
      ProductListResponse,
      (await admin(shop, `/products?section_id=${p.section_id}&limit=2&offset=0&sort=name&order=asc`, { cookie })).body,
    );
    expect(page.data.length).toBe(2);
    expect(page.total).toBeGreaterThan(2);
    expect((await admin(shop, '/products?colour=red', { cookie })).status).toBe(400);
  });

  it('parses prices as roubles exactly and refuses bad fields in Russian, writing nothing', async () => {
    const p = await newProduct({ price: '12 990,50', old_price: '15990' });
    expect([p.price_kopecks, p.old_price_kopecks, p.price, p.old_price]).toEqual([
      1_299_050,
      1_599_000,
      '12990,50',
      '15990',
    ]);
    expect(p.active).toBe(false);
    expect([p.composition, p.care]).toEqual(['Вискоза 100%', 'Деликатная стирка при 30°']);
    const { cookie } = await as('content');
    const before = await queryRows<{ n: number }>(db(), sql`select count(*)::int as n from products`);
    const cases: [Record<string, unknown>, string][] = [
      [{ price: '12.345' }, 'Цена: рубли, до двух знаков после запятой'],
      [{ price: '1e3' }, 'Цена: рубли, до двух знаков после запятой'],
      [{ price: '0' }, 'Цена должна быть больше нуля'],
      [{ price: '1000, 5' }, 'Цена: рубли, до двух знаков после запятой'],
      [{ price: '12990,50', old_price: '12990,50' }, 'Старая цена должна быть больше цены'],
      [{ name: ' ' }, 'Укажите название'],
      [{ section_id: 999_999 }, 'Такого раздела нет'],
      [{ kind: 'rocket' }, 'Выберите вид изделия из списка'],
      [{ slug: 'Плохой адрес' }, 'Адрес: латинские буквы в нижнем регистре, цифры и дефисы'],
      [{ article: p.article }, `Товар с артикулом ${p.article} уже есть`],
    ];
    for (const [patch, text] of cases) {
      const r = await admin(shop, '/products', {
        cookie,
        body: {
          name: 'Платье',
          article: uniqueArticle(),
          section_id: p.section_id,
          color_name: 'Белый',
          color_hex: '#ffffff',
          kind: 'dress',
          price: '1000',
          ...patch,
        },
      });
      expect([r.status, r.body.error], JSON.stringify(patch)).toEqual([
        patch.article || patch.section_id === undefined ? expect.any(Number) : 400,
        expect.stringContaining(text),
      ]);
      expect(r.status).toBeGreaterThanOrEqual(400);
    }
    expect(await queryRows<{ n: number }>(db(), sql`select count(*)::int as n from products`)).toEqual(before);
  });

  it('makes one product per Idempotency-Key, and refuses the key with another body', async () => {
    const { leaf } = await sectionsToUse();
    const { cookie } = await as('content');
    const body = {
      name: 'Юбка Полдень',
      article: uniqueArticle(),
      section_id: leaf.id,
      color_name: 'Белый',
      color_hex: '#f7f6f2',
      kind: 'skirt',
      price: '8900',
    };
    const key = `product-create-${crypto.randomUUID()}`;
    const [a, b] = await Promise.all([
      admin(shop, '/products', { cookie, body, key }),
      admin(shop, '/products', { cookie, body, key }),
    ]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body).toEqual(b.body);
    expect([a.headers.get('idempotent-replayed'), b.headers.get('idempotent-replayed')]).toContain('true');
    const rows = await queryRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from products where article = ${body.article}`,
    );
    expect(rows[0]?.n).toBe(1);
    const reused = await admin(shop, '/products', { cookie, body: { ...body, price: '9900' }, key });
    expect(reused.status).toBe(422);
  });

  it('audits each change with what it was and what it became', async () => {
    const p = await newProduct();
    const { id: staffId } = await as('content');
    await ok('content', `/products/${p.id}`, { name: 'Платье Зарница', price: '14 500' }, 'PATCH');
    const audit = await auditOf('product', p.id);
    expect(audit.map((a) => a.action)).toEqual(['product.create', 'product.update']);
    expect(audit[0]).toMatchObject({
      staff_id: staffId,
      before: null,
      after: { name: p.name, price_kopecks: 1_299_050 },
    });
    expect(audit[1]).toMatchObject({
      before: { name: p.name, price_kopecks: 1_299_050 },
      after: { name: 'Платье Зарница', price_kopecks: 1_450_000 },
    });
    expect(Object.keys(audit[1]?.after ?? {}).sort()).toEqual(['name', 'price_kopecks']);
    const same = await change('content', `/products/${p.id}`, { name: 'Платье Зарница' }, 'PATCH');
    expect([same.status, same.body.error]).toEqual([409, 'Ничего не изменилось']);
    const shown = expectContract(
      ProductOneResponse,
      (await admin(shop, `/products/${p.id}`, { cookie: (await as('manager')).cookie })).body,
    );
    expect(shown.data.audit.map((a) => a.action)).toEqual(['product.create', 'product.update']);
  });

  it('copies a product hidden, with its sizes and sections but no stock, under a new article', async () => {
    const p = await sellable({ section_ids: [(await sectionsToUse()).other.id] });
    const r = await change('content', `/products/${p.id}/copy`, { article: uniqueArticle() });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const copy = expectContract(ProductOneResponse, r.body).data;
    expect(copy.id).not.toBe(p.id);
    expect(copy).toMatchObject({
      name: p.name,
      active: false,
      price_kopecks: p.price_kopecks,
      section_ids: p.section_ids,
    });
    expect(copy.offers.map((o) => [o.size, o.quantity])).toEqual([
      ['44', 0],
      ['46', 0],
    ]);
    expect(copy.slug).not.toBe(p.slug);
    expect((await auditOf('product', copy.id)).map((a) => a.action)).toEqual(['product.copy']);
  });
});

describe('sizes', () => {
  it('adds and removes sizes, prices one on its own, keeps barcodes unique and needs a size to show', async () => {
    const p = await newProduct({ price: '10000' });
    const bare = await change('content', `/products/${p.id}/activate`, {});
    expect([bare.status, bare.body.error]).toEqual([409, 'Добавьте хотя бы один размер: без размеров товар не купить']);
    let d = await ok('content', `/products/${p.id}/offers`, {
      size_type: 'clothes',
      size: '44',
      barcode: '4600000000017',
    });
    d = await ok('content', `/products/${p.id}/offers`, { size_type: 'clothes', size: '52', price: '11 000' });
    expect(d.offers.map((o) => [o.label, o.price_kopecks, o.own_price, o.quantity])).toEqual([
      ['44 (S)', 1_000_000, false, 0],
      ['52 (XXL)', 1_100_000, true, 0],
    ]);
    const twice = await change('content', `/products/${p.id}/offers`, { size_type: 'clothes', size: '44' });
    expect([twice.status, twice.body.error]).toEqual([409, 'Размер 44 уже есть у этого товара']);
    const other = await newProduct();
    const code = await change('content', `/products/${other.id}/offers`, {
      size_type: 'clothes',
      size: '44',
      barcode: '4600000000017',
    });
    expect([code.status, code.body.error]).toEqual([409, 'Такой штрихкод уже есть у другого размера']);
    const badCode = await change('content', `/products/${other.id}/offers`, {
      size_type: 'clothes',
      size: '46',
      barcode: '12ab',
    });
    expect([badCode.status, badCode.body.error]).toEqual([400, expect.stringContaining('Штрихкод: от 8 до 14 цифр')]);

    // The product's price moves the sizes without a price of their own.
    d = await ok('content', `/products/${p.id}`, { price: '9 000' }, 'PATCH');
    expect(d.offers.map((o) => o.price_kopecks)).toEqual([900_000, 1_100_000]);
    const o52 = d.offers[1]!;
    d = await ok('content', `/products/${p.id}/offers/${o52.id}`, { price: '', preorder: true }, 'PATCH');
    expect(d.offers[1]).toMatchObject({ price_kopecks: 900_000, own_price: false, preorder: true });

    // A size with stock history stays; one made by mistake goes.
    const o44 = d.offers[0]!;
    const { cookie: wh } = await as('warehouse');
    expect(
      (
        await admin(shop, `/offers/${o44.id}/stock`, {
          cookie: wh,
          body: { delta: 3, kind: 'receipt', note: 'Приход' },
        })
      ).status,
    ).toBe(200);
    const kept = await change('content', `/products/${p.id}/offers/${o44.id}/remove`, {});
    expect([kept.status, kept.body.error]).toEqual([409, expect.stringContaining('У размера есть история остатков')]);
    d = await ok('content', `/products/${p.id}/offers/${o52.id}/remove`, {});
    expect(d.offers.map((o) => o.size)).toEqual(['44']);
    expect((await auditOf('offer', o52.id)).map((a) => a.action)).toEqual([
      'offer.create',
      'offer.update',
      'offer.remove',
    ]);
    // Quantities never change here.
    expect((await change('content', `/products/${p.id}/offers/${o44.id}`, { quantity: 10 }, 'PATCH')).status).toBe(400);
  });
});

describe('what a guest sees', () => {
  it('a shown product in its category and further section, its new price and name at once, a 301 from its old address', async () => {
    const { other } = await sectionsToUse();
    const p = await sellable({ section_ids: [other.id] });
    const version = await readCatalogVersion(db());
    // The product page and both listings, as a guest (the API's memos warm up).
    expect((await guestProduct(p.url)).ITEM.NAME).toBe(p.name);
    const inListing = async (url: string, id: number) => {
      for (let page = 1; page < 50; page++) {
        const l = await getJson(shop.baseUrl, `/backend${url}?sort=new&PAGEN_1=${page}`, CatalogSectionResponse);
        if (l.ITEMS.some((i) => i.ID === id)) return true;
        if (page >= l.NAV_STRING.PAGE_COUNT) return false;
      }
      return false;
    };
    expect(await inListing((await sectionsToUse()).leaf.url, p.id)).toBe(true);
    expect(await inListing(other.url, p.id)).toBe(true);

    const started = Date.now();
    const changed = await ok('content', `/products/${p.id}`, { price: '15 000', name: 'Платье Полынь' }, 'PATCH');
    expect(await readCatalogVersion(db())).toBeGreaterThan(version);
    const seen = await eventually(async () => {
      const item = (await guestProduct(changed.url)).ITEM;
      return item.NAME === 'Платье Полынь' && item.PRICE.PRICE === 15_000 ? item : null;
    }, 'the new price on the product page');
    expect(seen.NAME).toBe('Платье Полынь');
    // The render path's bound on an announced change: about a second (docs/render-path.md).
    expect(Date.now() - started).toBeLessThan(3_000);

    // A new address: the old one answers 301 to it; the new one is never redirected.
    const moved = await ok('content', `/products/${p.id}`, { slug: `platye-polyn-${made}` }, 'PATCH');
    expect(moved.url).not.toBe(p.url);
    const redirect = await api(`/redirect/?path=${encodeURIComponent(p.url)}`, RedirectResponse);
    expect(redirect.redirect).toMatchObject({ location: moved.url, status: 301 });
    expect((await api(`/redirect/?path=${encodeURIComponent(moved.url)}`, RedirectResponse)).redirect).toBeNull();
    // Moving again points the first redirect at the newest address (no chain).
    const again = await ok('content', `/products/${p.id}`, { slug: `platye-polyn-${made}-b` }, 'PATCH');
    // (The redirect memo follows the data version: within about a second.)
    await eventually(
      async () =>
        (await api(`/redirect/?path=${encodeURIComponent(p.url)}`, RedirectResponse)).redirect?.location === again.url,
      'the first redirect to point at the newest address',
      3_000,
    );

    // SEO fields are the product page's metadata.
    await ok(
      'content',
      `/products/${p.id}`,
      { seo: { title: 'Платье Полынь — купить', description: '', keywords: '', text: 'О модели.' } },
      'PATCH',
    );
    const meta = await eventually(async () => {
      const m = await api(
        `/page-meta/?path=${encodeURIComponent(again.url)}&product=${encodeURIComponent('Платье Полынь')}`,
        PageMeta,
      );
      return m.title === 'Платье Полынь — купить' ? m : null;
    }, 'the SEO title');
    expect(meta.seoDescription).toBe('О модели.');
    expect(meta.description).not.toBe('');

    // Hidden: its page is gone for guests, the product stays.
    await ok('content', `/products/${p.id}/deactivate`, { reason: 'Сняли с продажи' });
    await eventually(async () => {
      const r = await fetch(`${shop.baseUrl}/backend${again.url}`);
      return r.status === 404;
    }, 'the hidden product page to 404');
    expect((await auditOf('product', p.id)).map((a) => a.action)).toContain('product.deactivate');
  });

  it('search finds the product by its new name in other word forms and with a typo, not by the old one', async () => {
    const p = await sellable({ name: 'Кардиган Черемшанка' });
    expect(await guestSearch('черемшанка')).toContain(p.id);
    await ok('content', `/products/${p.id}`, { name: 'Кардиган Незабудка' }, 'PATCH');
    expect(await guestSearch('незабудку')).toContain(p.id);
    expect(await guestSearch('незабутка')).toContain(p.id);
    expect(await guestSearch('черемшанка')).not.toContain(p.id);
    const terms = await queryRows<{ term: string }>(
      db(),
      sql`select term from search_terms where term in ('незабудка', 'черемшанка') order by term`,
    );
    expect(terms.map((t) => t.term)).toEqual(['незабудка']);
  });
});

// --- Photos ---------------------------------------------------------------------------------------

async function upload(
  productId: number,
  files: { name: string; type: string; bytes: Uint8Array }[],
  opts: { alt?: string[]; key?: string; role?: Role } = {},
) {
  const { cookie } = await as(opts.role ?? 'content');
  const form = new FormData();
  for (const f of files) form.append('files', new Blob([new Uint8Array(f.bytes)], { type: f.type }), f.name);
  for (const a of opts.alt ?? []) form.append('alt', a);
  const res = await fetch(`${shop.baseUrl}/backend/admin/products/${productId}/photos`, {
    method: 'POST',
    headers: { origin: shop.baseUrl, cookie, 'idempotency-key': opts.key ?? crypto.randomUUID() },
    body: form,
  });
  const text = await res.text();
  let body: AnyBody = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, body, headers: res.headers };
}
const picture = async (w: number, h: number, format: 'jpeg' | 'png' | 'webp' | 'avif') => {
  const canvas = sharp({ create: { width: w, height: h, channels: 3, background: { r: 180, g: 120, b: 90 } } });
  return new Uint8Array(await canvas.toFormat(format).toBuffer());
};

/** A PNG that claims 20 000 × 20 000 pixels in a few bytes: a decompression bomb. */
function pixelBomb(): Uint8Array {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body) >>> 0);
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(20_000, 0);
  ihdr.writeUInt32BE(20_000, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  const idat = zlib.deflateSync(Buffer.alloc(20_001 * 10));
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', ihdr),
      chunk('IDAT', idat),
      chunk('IEND', Buffer.alloc(0)),
    ]),
  );
}
function crc32(buf: Buffer): number {
  let c = ~0;
  for (const byte of buf) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c;
}
const uploadDir = () => path.join(shop.dataDir, 'media', 'products', 'u');
const filesOnDisk = () => (fs.existsSync(uploadDir()) ? fs.readdirSync(uploadDir()).sort() : []);

describe('photos', () => {
  it('takes several at once (JPEG, PNG, AVIF) at new addresses; orders, captions and removes them', async () => {
    const p = await newProduct();
    const [jpeg, png, avif] = await Promise.all([
      picture(900, 1200, 'jpeg'),
      picture(600, 800, 'png'),
      picture(600, 800, 'avif'),
    ]);
    const r = await upload(
      p.id,
      [
        { name: 'front.jpg', type: 'image/jpeg', bytes: jpeg },
        { name: 'back.png', type: 'image/png', bytes: png },
        { name: 'detail.avif', type: 'image/avif', bytes: avif },
      ],
      { alt: ['Спереди', 'Сзади', 'Деталь'] },
    );
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    let d = expectContract(ProductOneResponse, r.body).data;
    expect(d.photos.map((ph) => [ph.position, ph.alt, ph.width, ph.height])).toEqual([
      [1, 'Спереди', 900, 1200],
      [2, 'Сзади', 600, 800],
      [3, 'Деталь', 600, 800],
    ]);
    for (const ph of d.photos) {
      expect(ph.path).toMatch(/^products\/u\/[0-9a-f]{24}\.jpg$/);
      const media = await fetch(`${shop.baseUrl}/media/${ph.path}`);
      expect(media.status).toBe(200);
      expect(media.headers.get('content-type')).toBe('image/jpeg');
      const resized = await fetch(`${shop.baseUrl}${ph.thumb_url}`);
      expect(resized.status).toBe(200);
    }
    const [a, b, c] = d.photos.map((ph) => ph.id) as [number, number, number];
    d = await ok('content', `/products/${p.id}/photos/order`, { ids: [c, a, b] });
    expect(d.photos.map((ph) => ph.id)).toEqual([c, a, b]);
    expect(d.thumb_url).toBe(d.photos[0]?.thumb_url);
    const bad = await change('content', `/products/${p.id}/photos/order`, { ids: [c, a] });
    expect([bad.status, bad.body.error]).toEqual([400, 'Перечислите все фотографии товара, каждую один раз']);
    d = await ok('content', `/products/${p.id}/photos/${a}`, { alt: 'Платье спереди' }, 'PATCH');
    expect(d.photos.find((ph) => ph.id === a)?.alt).toBe('Платье спереди');
    const gone = d.photos.find((ph) => ph.id === b)!.path;
    d = await ok('content', `/products/${p.id}/photos/${b}/remove`, {});
    expect(d.photos.map((ph) => [ph.id, ph.position])).toEqual([
      [c, 1],
      [a, 2],
    ]);
    await eventually(async () => !fs.existsSync(path.join(shop.dataDir, 'media', gone)), 'the removed file to go');
    expect((await auditOf('product', p.id)).map((x) => x.action)).toEqual([
      'product.create',
      'product.photos_add',
      'product.photos_order',
      'product.photo_alt',
      'product.photo_remove',
    ]);
  });

  it('refuses a file that is not a picture, too big, too small or a pixel bomb, and stores nothing of the batch', async () => {
    const p = await newProduct();
    const good = await picture(600, 800, 'jpeg');
    const before = filesOnDisk();
    const cases: [string, { name: string; type: string; bytes: Uint8Array }, string][] = [
      [
        'text',
        { name: 'notes.jpg', type: 'image/jpeg', bytes: new TextEncoder().encode('это не фото') },
        'Файл «notes.jpg» не читается как фотография: загрузите JPEG, PNG, WebP или AVIF',
      ],
      [
        'bomb',
        { name: 'bomb.png', type: 'image/png', bytes: pixelBomb() },
        'Фотография «bomb.png» больше 40 мегапикселей: уменьшите её',
      ],
      [
        'small',
        { name: 'tiny.png', type: 'image/png', bytes: await picture(100, 300, 'png') },
        'Фотография «tiny.png» слишком маленькая',
      ],
      [
        'big',
        { name: 'huge.jpg', type: 'image/jpeg', bytes: new Uint8Array(15 * 1024 * 1024 + 1) },
        'Файл «huge.jpg» больше 15 МБ',
      ],
    ];
    for (const [what, file, text] of cases) {
      const r = await upload(p.id, [{ name: 'ok.jpg', type: 'image/jpeg', bytes: good }, file]);
      expect([r.status, r.body.field], what).toEqual([400, 'files']);
      expect(r.body.error, what).toContain(text);
    }
    const none = await upload(p.id, []);
    expect([none.status, none.body.error]).toEqual([400, expect.stringContaining('Выберите фотографии')]);
    expect(filesOnDisk()).toEqual(before);
    expect((await getDetail(p.id)).photos).toEqual([]);
    expect((await auditOf('product', p.id)).map((x) => x.action)).toEqual(['product.create']);
  });

  it('stores an upload once per Idempotency-Key; only photos:write may upload, checked before the body is read', async () => {
    const p = await newProduct();
    const jpeg = await picture(600, 800, 'jpeg');
    const key = `photos-${crypto.randomUUID()}`;
    const first = await upload(p.id, [{ name: 'a.jpg', type: 'image/jpeg', bytes: jpeg }], { key });
    const again = await upload(p.id, [{ name: 'a.jpg', type: 'image/jpeg', bytes: jpeg }], { key });
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await getDetail(p.id)).photos.length).toBe(1);
    const manager = await upload(p.id, [{ name: 'a.jpg', type: 'image/jpeg', bytes: jpeg }], { role: 'manager' });
    expect(manager.status).toBe(403);
    const anonymous = await fetch(`${shop.baseUrl}/backend/admin/products/${p.id}/photos`, {
      method: 'POST',
      headers: {
        origin: shop.baseUrl,
        'content-type': 'multipart/form-data; boundary=x',
        'idempotency-key': 'anonymous-1',
      },
      body: '--x--',
    });
    expect(anonymous.status).toBe(401);
  });
});

async function getDetail(id: number) {
  const { cookie } = await as('content');
  return expectContract(ProductOneResponse, (await admin(shop, `/products/${id}`, { cookie })).body).data;
}

// --- Sections ---------------------------------------------------------------------------------------

describe('sections', () => {
  it("adds, renames, moves, orders and hides a section from the menu; its SEO text is the listing's", async () => {
    const { cookie } = await as('content');
    const list = expectContract(SectionListResponse, (await admin(shop, '/sections?limit=100', { cookie })).body).data;
    const roots = list.filter((s) => s.parent_id === null && s.kind === 'category');
    const [rootA, rootB] = roots as [(typeof roots)[number], (typeof roots)[number]];
    const code = `kapsula-${made}-${Date.now().toString(36)}`;
    const r = await admin(shop, '/sections', {
      cookie,
      body: {
        name: 'Капсула',
        code,
        parent_id: rootA.id,
        seo: { title: 'Капсула — купить', text: 'Абзац о капсуле.' },
      },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const s = expectContract(SectionOneResponse, r.body).data;
    expect(s).toMatchObject({
      url: `${rootA.url}${code}/`,
      parent_id: rootA.id,
      in_menu: true,
      path: `${rootA.name} / Капсула`,
    });
    const menu = async () =>
      (await getJson(shop.baseUrl, '/backend/catalog/?iscollection=no', SectionsResponse)).SECTIONS;
    await eventually(
      async () => (await menu()).some((m) => m.SECOND_LVL.some((c) => c.SECTION_PAGE_URL === s.url)),
      'the section in the menu',
    );

    const dup = await admin(shop, '/sections', { cookie, body: { name: 'Ещё', code, parent_id: rootA.id } });
    expect([dup.status, dup.body.error]).toEqual([409, `Код «${code}» уже занят другим разделом`]);
    const deep = await admin(shop, '/sections', {
      cookie,
      body: { name: 'Глубже', code: `${code}-x`, parent_id: s.id },
    });
    expect([deep.status, deep.body.error]).toEqual([
      400,
      'Разделы — не глубже двух уровней: выберите раздел верхнего уровня',
    ]);

    const renamed = expectContract(
      SectionOneResponse,
      (
        await admin(shop, `/sections/${s.id}`, {
          cookie,
          method: 'PATCH',
          body: { name: 'Капсула лета', parent_id: rootB.id },
        })
      ).body,
    ).data;
    expect(renamed).toMatchObject({ name: 'Капсула лета', parent_id: rootB.id, url: s.url });
    await eventually(
      async () => (await menu()).find((m) => m.NAME === rootB.name)?.SECOND_LVL.some((c) => c.NAME === 'Капсула лета'),
      'the renamed, moved section in the menu',
    );
    await admin(shop, `/sections/${s.id}`, { cookie, method: 'PATCH', body: { in_menu: false } });
    await eventually(
      async () => !(await menu()).some((m) => m.SECOND_LVL.some((c) => c.SECTION_PAGE_URL === s.url)),
      'the section out of the menu',
    );

    const meta = await api(`/page-meta/?path=${encodeURIComponent(s.url)}`, PageMeta);
    expect(meta).toMatchObject({ title: 'Капсула — купить', seoBottom: 'Абзац о капсуле.' });

    const siblings = expectContract(SectionListResponse, (await admin(shop, '/sections?limit=100', { cookie })).body)
      .data.filter((x) => x.parent_id === null)
      .map((x) => x.id);
    const reversed = [...siblings].reverse();
    const ordered = await admin(shop, '/sections/order', { cookie, body: { parent_id: null, ids: reversed } });
    expect(ordered.status, JSON.stringify(ordered.body)).toBe(200);
    const after = expectContract(SectionListResponse, (await admin(shop, '/sections?limit=100', { cookie })).body)
      .data.filter((x) => x.parent_id === null)
      .map((x) => x.id);
    expect(after).toEqual(reversed);
    expect((await auditOf('section', s.id)).map((a) => a.action)).toEqual([
      'section.create',
      'section.update',
      'section.update',
    ]);
  });
});
