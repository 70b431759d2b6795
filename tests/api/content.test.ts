import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { setUpTestShop } from '~/tests/support/server';
import { expectContract, fetchJson, getJson } from '~/tests/support/api';
import { ApiError, BlogArticle, BlogListResponse, ContentPage } from '~/shared/contract';
import { contentRoutes } from '~/api/content/routes.server';
import { parseFrontMatter } from '~/api/content/markdown';
import { formatRussianDate } from '~/core/dates';

const PAGES = fs
  .readdirSync(path.resolve('content/pages'))
  .filter((f) => f.endsWith('.md'))
  .map((f) => f.slice(0, -3));
const ARTICLES = fs
  .readdirSync(path.resolve('content/blog'))
  .filter((f) => f.endsWith('.md'))
  .map((f) => f.slice(0, -3));

const shop = setUpTestShop();
const page = (slug: string) => getJson(shop.baseUrl, `/backend/content/pages/${slug}/`, ContentPage);
const article = (slug: string) => getJson(shop.baseUrl, `/backend/content/blog/${slug}/`, BlogArticle);
const notFound = (path: string) => getJson(shop.baseUrl, `/backend${path}`, ApiError, { status: 404 });

/** Heading levels in document order. */
function headingLevels(html: string): number[] {
  return [...html.matchAll(/<h([1-6])[\s>]/g)].map((m) => Number(m[1]));
}

describe('GET /content/pages/{slug}/', () => {
  it('has the content files of SPEC §2 info pages', () => {
    expect(PAGES).toEqual(
      expect.arrayContaining(['about', 'contacts', 'delivery', 'warranty', 'dolyami', 'return', 'privacy-policy']),
    );
    expect(PAGES.length).toBeGreaterThanOrEqual(17);
  });

  it.each(PAGES)('%s answers with title, lead and html', async (slug) => {
    const { response, body } = await fetchJson(shop.baseUrl, `/backend/content/pages/${slug}/`, ContentPage);
    expect(response.headers.get('cache-control')).toMatch(/public/);
    expect(body.slug).toBe(slug);
    expect(body.title.length).toBeGreaterThan(2);
    expect(body.lead.length).toBeGreaterThan(20);
    expect(body.html).toMatch(/<p>/);
    // No front matter leaks into the body; the page's own h1 is the only one.
    expect(body.html).not.toMatch(/^---|title:/m);
    expect(body.html).not.toMatch(/<h1[\s>]/);
    // Headings in order: never a level skipped on the way down (h2 → h4), never an h3 first.
    const levels = [1, ...headingLevels(body.html)];
    levels.forEach((level, i) => {
      if (i > 0) expect(level - (levels[i - 1] ?? 1)).toBeLessThanOrEqual(1);
    });
  });

  it('keeps shop links relative and states the facts of SPEC §9', async () => {
    const delivery = await page('delivery');
    expect(delivery.html).toContain('700 ₽');
    expect(delivery.html).toContain('href="/return/"');
    expect(delivery.html).not.toMatch(/href="https?:\/\/[^"]*\/return\/"/);
    const warranty = await page('warranty');
    expect(warranty.html).toContain('30 дней');
  });

  it('wraps tables for scrolling sideways on phones, named and reachable by keyboard', async () => {
    const body = await page('delivery');
    expect(body.html).toMatch(
      /<div class="table-scroll" role="region" aria-label="Таблица: Направление, Срок доставки" tabindex="0">\s*<table>/,
    );
    expect(body.html.match(/<table>/g)?.length).toBe(body.html.match(/class="table-scroll"/g)?.length);
  });

  it('answers 404 with an error for an unknown page', async () => {
    expect((await notFound('/content/pages/no-such-page/')).error).toBeTruthy();
  });

  it.each([
    'ABOUT',
    'about_us',
    '-about',
    'about--us',
    '%2E%2E',
    '..%2Fpage-meta',
    '..%2F..%2Fpackage.json',
    '%00',
    'a'.repeat(400),
    'about.md',
    '%D0%BE-%D0%BD%D0%B0%D1%81',
  ])('junk slug %s is refused, never a 500', async (slug) => {
    for (const base of ['/backend/content/pages/', '/backend/content/blog/']) {
      const res = await fetch(`${shop.baseUrl}${base}${slug}/`);
      expect([400, 403, 404]).toContain(res.status);
      // 403 is the security filter's plain-text answer; the API's own refusals are ApiError.
      if (res.status !== 403) expect(expectContract(ApiError, await res.json(), `${base}${slug}/`).error).toBeTruthy();
    }
  });
});

describe('GET /content/blog/', () => {
  it('lists every article newest first, with Russian dates and covers', async () => {
    const { articles } = await getJson(shop.baseUrl, '/backend/content/blog/', BlogListResponse);
    expect(articles.map((a) => a.slug).sort()).toEqual([...ARTICLES].sort());
    const dates = articles.map((a) => a.date);
    expect(dates).toEqual([...dates].sort().reverse());
    for (const a of articles) {
      expect(a.title).toBeTruthy();
      expect(a.lead).toBeTruthy();
      expect(a.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(a.dateText).toMatch(
        /^\d{1,2} (января|февраля|марта|апреля|мая|июня|июля|августа|сентября|октября|ноября|декабря) \d{4}$/,
      );
      expect(a.cover).toMatch(/^\/media\/art\/[a-z-]+\/[0-9a-f]{6}\/\d\.jpg$/);
    }
    expect(articles.find((a) => a.slug === 'kak-vybrat-palto')).toMatchObject({
      date: '2026-10-14',
      dateText: '14 октября 2026',
    });
  });
});

describe('GET /content/blog/{slug}/', () => {
  it.each(ARTICLES)('%s answers with its body, date and product links', async (slug) => {
    const body = await article(slug);
    expect(body).toMatchObject({ slug, title: expect.any(String), lead: expect.any(String) });
    expect(body.html).toMatch(/<h2>/);
    expect(body.dateText).toMatch(/^\d{1,2} [а-я]+ 2026$/);
    expect(body.products.length).toBeGreaterThan(0);
    for (const p of body.products) {
      expect(p.URL).toMatch(/^\/catalog\/.+\/$/);
      expect(p.NAME).toMatch(/[А-Яа-яё]/);
    }
  });

  it('names product links after the catalogue sections', async () => {
    const body = await article('kapsulnyj-garderob');
    expect(body.products).toContainEqual({ NAME: 'Новая коллекция', URL: '/catalog/new-collection/' });
    expect(body.products).toContainEqual({ NAME: 'Демисезонные пальто', URL: '/catalog/woman/demisezonnye_palto/' });
  });

  it('rewrites art: images to generated illustrations with their size and lazy loading', async () => {
    const body = await article('kapsulnyj-garderob');
    expect(body.html).not.toContain('art:');
    const images = body.html.match(/<img [^>]+>/g) ?? [];
    expect(images).toHaveLength(3);
    for (const img of images) {
      expect(img).toMatch(/src="\/media\/art\/[a-z-]+\/[0-9a-f]{6}\/[0-4]\.jpg"/);
      expect(img).toContain('width="1200"');
      expect(img).toContain('height="1600"');
      expect(img).toContain('loading="lazy"');
      expect(img).toMatch(/alt="[^"]+"/);
    }
    expect(images[0]).toContain('alt="Тренч песочного цвета"');
  });

  it('serves those illustrations as JPEG, and 404 for a drawing that does not exist', async () => {
    const body = await article('uhod-za-kashemirom');
    const src = /<img src="([^"]+)"/.exec(body.html)?.[1] ?? '';
    for (const url of [src, body.cover]) {
      const res = await fetch(`${shop.baseUrl}${url}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/jpeg');
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    }
    // A colour the shop does not use is not drawn (no one may fill the disk with variants).
    for (const bad of [
      '/media/art/spaceship/6b4f3a/0.jpg',
      '/media/art/coat/6B4F3A/0.jpg',
      '/media/art/coat/6b4f3a/7.jpg',
      '/media/art/coat/zzzzzz/0.jpg',
      '/media/art/coat/123457/0.jpg',
    ]) {
      expect((await fetch(`${shop.baseUrl}${bad}`)).status).toBe(404);
    }
  });

  it('answers 404 for an unknown article', async () => {
    expect((await notFound('/content/blog/no-such-article/')).error).toBeTruthy();
  });
});

describe('editing content without a restart', () => {
  it('re-renders a file when it changes on disk', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-content-'));
    fs.mkdirSync(path.join(dir, 'pages'));
    fs.mkdirSync(path.join(dir, 'blog'));
    const file = path.join(dir, 'pages', 'test.md');
    fs.writeFileSync(file, '---\ntitle: Первая\nlead: Вводный текст\n---\nТекст **один**.\n');
    const app = Fastify();
    await app.register(contentRoutes, { db: shop.database.db, dir });
    try {
      const first = expectContract(ContentPage, (await app.inject({ url: '/content/pages/test/' })).json());
      expect(first).toMatchObject({ title: 'Первая', html: '<p>Текст <strong>один</strong>.</p>\n' });
      fs.writeFileSync(file, '---\ntitle: Вторая\nlead: Вводный текст\n---\nТекст два, длиннее.\n');
      const later = new Date(Date.now() + 5_000);
      fs.utimesSync(file, later, later);
      const second = expectContract(ContentPage, (await app.inject({ url: '/content/pages/test/' })).json());
      expect(second).toMatchObject({ title: 'Вторая', html: '<p>Текст два, длиннее.</p>\n' });
      fs.rmSync(file);
      const gone = await app.inject({ url: '/content/pages/test/' });
      expect(gone.statusCode).toBe(404);
      expectContract(ApiError, gone.json());
      expect(expectContract(BlogListResponse, (await app.inject({ url: '/content/blog/' })).json())).toEqual({
        articles: [],
      });
    } finally {
      await app.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('front matter and dates', () => {
  it('reads key: value lines, quoted or not, and leaves colons in values alone', () => {
    const { data, body } = parseFrontMatter(
      '\uFEFF---\r\ntitle: Гарантия: 30 дней\r\ncoverColor: \'#6b4f3a\'\r\nlead: "Текст"\r\n---\r\n## Раздел\r\n',
    );
    expect(data).toEqual({ title: 'Гарантия: 30 дней', coverColor: '#6b4f3a', lead: 'Текст' });
    expect(body).toBe('## Раздел\n');
    expect(parseFrontMatter('Без шапки').data).toEqual({});
  });

  it('writes dates in the Russian long format (SPEC §9)', () => {
    expect(formatRussianDate('2026-10-14')).toBe('14 октября 2026');
    expect(formatRussianDate('2026-03-01')).toBe('1 марта 2026');
    expect(formatRussianDate('2026-05-31')).toBe('31 мая 2026');
  });
});
