import sharp from 'sharp';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '~/db/client.server';
import {
  ContentListResponse,
  ContentOneResponse,
  PageMetaOneResponse,
  RedirectImportResponse,
  RedirectOneResponse,
} from '~/shared/admin-content-contract';
import { ContentPage, type BlogListResponse, type PageMeta, type RedirectResponse } from '~/shared/contract';
import { setUpTestShop } from '~/tests/support/server';
import { eventually, expectContract } from '~/tests/support/api';
import { admin, staffSession, testClock } from '~/tests/support/admin';

// The site's words in the back office (issue #30) over HTTP, on PGlite and (TEST_DATABASE_URL)
// PostgreSQL: information pages and articles from the database (seeded from the files), edited in
// Markdown at a version (the second of two saves at once is refused in Russian), published and
// unpublished, sanitised; page metadata; redirects with their refusals (loop, chain, live page,
// malformed) and the bulk import (dry run, all or nothing); roles; the audit's before and after;
// and what a guest reads afterwards, through the data version.

const clock = testClock();
const shop = setUpTestShop({ clock: clock.now });
const db = () => shop.database.db;

type Role = 'admin' | 'manager' | 'warehouse' | 'content';
const sessions: Partial<Record<Role, Awaited<ReturnType<typeof staffSession>>>> = {};
async function as(role: Role) {
  sessions[role] ??= await staffSession(shop, clock, { email: `${role}@content.example`, role });
  return sessions[role].cookie;
}
const guest = async (path: string) => {
  const res = await fetch(`${shop.baseUrl}/backend${path}`);
  return { status: res.status, body: (await res.json()) as unknown };
};
const auditOf = (type: string, id: string | number) =>
  queryRows<{ action: string; before: unknown; after: unknown }>(
    db(),
    sql`select action, before, after from audit_events where entity_type = ${type} and entity_id = ${String(id)} order by id`,
  );

async function pageBySlug(slug: string, kind: 'page' | 'article' = 'page') {
  const cookie = await as('content');
  const list = expectContract(
    ContentListResponse,
    (await admin(shop, `/content?kind=${kind}&q=${slug}`, { cookie })).body,
  );
  const row = list.data.find((r) => r.slug === slug);
  if (!row) throw new Error(`no ${kind} ${slug}`);
  return expectContract(ContentOneResponse, (await admin(shop, `/content/${row.id}`, { cookie })).body).data;
}

describe('information pages and articles', () => {
  it('are the content files on a fresh shop, for staff and guests alike', async () => {
    const cookie = await as('content');
    const pages = expectContract(
      ContentListResponse,
      (await admin(shop, '/content?kind=page&limit=100', { cookie })).body,
    );
    expect(pages.data.map((p) => p.slug)).toEqual(expect.arrayContaining(['about', 'delivery', 'return', 'advices']));
    const articles = expectContract(ContentListResponse, (await admin(shop, '/content?kind=article', { cookie })).body);
    expect(articles.total).toBeGreaterThanOrEqual(3);
    const about = await pageBySlug('about');
    expect(about.body).toContain('## Кто мы');
    expect(about.seo.title).toContain('О бренде');
    const g = expectContract(ContentPage, (await guest('/content/pages/about/')).body);
    expect(g.html).toBe(about.html);
  });

  it('refuses roles other than content and admin', async () => {
    for (const role of ['manager', 'warehouse'] as const) {
      const cookie = await as(role);
      expect((await admin(shop, '/content', { cookie })).status).toBe(403);
      expect((await admin(shop, '/redirects', { cookie })).status).toBe(403);
      expect((await admin(shop, '/page-meta', { cookie })).status).toBe(403);
    }
    expect((await admin(shop, '/content', { cookie: await as('admin') })).status).toBe(200);
    expect((await admin(shop, '/content')).status).toBe(401);
  });

  it('saves an edit that guests read, audited with before and after; the older copy is refused', async () => {
    const cookie = await as('content');
    const page = await pageBySlug('warranty');
    const body = `${page.body}\n\nНовый абзац о гарантии ${Date.now()}.`;
    const saved = await admin(shop, `/content/${page.id}`, {
      method: 'PATCH',
      cookie,
      body: { version: page.version, body, seo: { title: 'Гарантия на одежду — Vitrina' } },
    });
    expect(saved.status).toBe(200);
    const data = expectContract(ContentOneResponse, saved.body).data;
    expect(data.version).toBe(page.version + 1);
    expect(data.html).toContain('Новый абзац о гарантии');
    // A second editor who opened the same version: refused, in Russian, nothing written.
    const second = await admin(shop, `/content/${page.id}`, {
      method: 'PATCH',
      cookie: await as('admin'),
      body: { version: page.version, title: 'Чужой заголовок' },
    });
    expect(second.status).toBe(409);
    expect(second.body.error).toMatch(/уже изменил другой сотрудник/);
    expect((await pageBySlug('warranty')).title).toBe(page.title);
    // The guest: the new text and the new title, within the data version's bound.
    await eventually(async () => {
      const g = (await guest('/content/pages/warranty/')).body as ContentPage;
      return g.html.includes('Новый абзац о гарантии');
    }, 'the guest to read the new text');
    await eventually(async () => {
      const m = (await guest('/page-meta/?path=/warranty/')).body as PageMeta;
      return m.title.startsWith('Гарантия на одежду');
    }, 'the new page title');
    const audit = await auditOf('content', page.id);
    expect(audit.at(-1)).toMatchObject({
      action: 'content.update',
      before: { body: page.body, version: page.version },
      after: { body, version: page.version + 1 },
    });
  });

  it('two saves of one version at once: one is written, the other refused in Russian', async () => {
    const page = await pageBySlug('shipment');
    const [a, b] = await Promise.all([
      admin(shop, `/content/${page.id}`, {
        method: 'PATCH',
        cookie: await as('content'),
        body: { version: page.version, lead: 'Первый редактор' },
      }),
      admin(shop, `/content/${page.id}`, {
        method: 'PATCH',
        cookie: await as('admin'),
        body: { version: page.version, lead: 'Второй редактор' },
      }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const lost = a.status === 409 ? a : b;
    expect(lost.body.error).toMatch(/уже изменил другой сотрудник/);
    const now = await pageBySlug('shipment');
    expect(now.version).toBe(page.version + 1);
    expect((await auditOf('content', page.id)).length).toBe(1);
  });

  it('never lets script from a staff account reach guests', async () => {
    const cookie = await as('content');
    const page = await pageBySlug('pre-order');
    const evil = `${page.body}\n\n<script>alert(1)</script>\n\nТекст [ссылка](javascript:alert(1)) и <img src=x onerror=alert(1)>`;
    const unsafe = /<script|href="javascript:|<img src="x"/i;
    const preview = await admin(shop, '/content/preview', { cookie, body: { body: evil } });
    expect(preview.status).toBe(200);
    expect(preview.body.html).not.toMatch(unsafe);
    expect(preview.body.html).toContain('Текст ссылка и &lt;img');
    expect(preview.body.html).toContain('&lt;script&gt;');
    const r = await admin(shop, `/content/${page.id}`, {
      method: 'PATCH',
      cookie,
      body: { version: page.version, body: evil },
    });
    expect(r.status).toBe(200);
    const g = await eventually(async () => {
      const p = (await guest('/content/pages/pre-order/')).body as ContentPage;
      return p.html.includes('&lt;script&gt;') ? p : null;
    }, 'the escaped text');
    expect(g.html).not.toMatch(unsafe);
  });

  it('unpublishes a page (guests get 404) and publishes it again', async () => {
    const cookie = await as('content');
    const page = await pageBySlug('yandex-split');
    const off = await admin(shop, `/content/${page.id}`, {
      method: 'PATCH',
      cookie,
      body: { version: page.version, published: false },
    });
    expect(off.status).toBe(200);
    await eventually(async () => (await guest('/content/pages/yandex-split/')).status === 404, 'a 404 for the guest');
    const storefront = await fetch(`${shop.baseUrl}/yandex-split/`);
    expect([404, 200]).toContain(storefront.status); // the API test shop may not render pages; the e2e test checks the page
    const on = await admin(shop, `/content/${page.id}`, {
      method: 'PATCH',
      cookie,
      body: { version: page.version + 1, published: true },
    });
    expect(on.status).toBe(200);
    await eventually(async () => (await guest('/content/pages/yandex-split/')).status === 200, 'the page again');
    expect((await auditOf('content', page.id)).map((a) => a.action)).toEqual(['content.unpublish', 'content.publish']);
  });

  it('adds an article, once per Idempotency-Key, shown in the blog when published', async () => {
    const cookie = await as('content');
    const slug = `test-statya-${Date.now().toString(36)}`;
    const body = {
      slug,
      title: 'Как носить тренч',
      lead: 'Три образа.',
      body: '## Образ первый\n\nТекст.',
      published: true,
      published_on: '2030-01-02',
    };
    const first = await admin(shop, '/content', { cookie, body, key: `article-${slug}` });
    expect(first.status).toBe(201);
    const again = await admin(shop, '/content', { cookie, body, key: `article-${slug}` });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const dup = await admin(shop, '/content', { cookie, body });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toBe('Статья с таким адресом уже есть');
    const bad = await admin(shop, '/content', { cookie, body: { ...body, slug: 'Плохой адрес' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/латинские буквы/);
    const badDate = await admin(shop, '/content', {
      cookie,
      body: { ...body, slug: `${slug}-x`, published_on: '2030-02-30' },
    });
    expect(badDate.status).toBe(400);
    expect(badDate.body.error).toMatch(/Такой даты нет/);
    await eventually(async () => {
      const list = (await guest('/content/blog/')).body as BlogListResponse;
      return list.articles[0]?.slug === slug && list.articles[0].dateText.includes('2030');
    }, 'the article first in the blog');
    expect((await guest(`/content/blog/${slug}/`)).status).toBe(200);
  });
});

describe('an article’s cover photo', () => {
  const upload = async (id: number, bytes: Uint8Array, type = 'image/jpeg') => {
    const form = new FormData();
    form.append('files', new Blob([new Uint8Array(bytes)], { type }), 'cover.jpg');
    const res = await fetch(`${shop.baseUrl}/backend/admin/content/${id}/cover`, {
      method: 'POST',
      headers: { origin: shop.baseUrl, cookie: await as('content'), 'idempotency-key': crypto.randomUUID() },
      body: form,
    });
    return {
      status: res.status,
      body: (await res.json()) as { error?: string; data?: { cover_photo: string | null } },
    };
  };

  it('goes through the photo pipeline; a bad file is refused and nothing changes', async () => {
    const article = await pageBySlug('kapsulnyj-garderob', 'article');
    const bad = await upload(article.id, new TextEncoder().encode('not an image'));
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/не читается как фотография/);
    const jpeg = await sharp({ create: { width: 1200, height: 800, channels: 3, background: '#8a6f55' } })
      .jpeg()
      .toBuffer();
    const ok = await upload(article.id, jpeg);
    expect(ok.status).toBe(200);
    const path = ok.body.data?.cover_photo ?? '';
    expect(path).toMatch(/^products\/u\/[0-9a-f]{24}\.jpg$/);
    await eventually(async () => {
      const list = (await guest('/content/blog/')).body as BlogListResponse;
      return list.articles.find((a) => a.slug === 'kapsulnyj-garderob')?.cover.includes(path);
    }, 'the cover in the blog');
    const page = await pageBySlug('about');
    expect((await upload(page.id, jpeg)).status).toBe(400);
    expect((await auditOf('content', article.id)).map((a) => a.action)).toEqual(['content.cover']);
  });
});

describe('page metadata', () => {
  it('edits an address’s title at its version; guests get it', async () => {
    const cookie = await as('content');
    const one = expectContract(
      PageMetaOneResponse,
      (await admin(shop, `/page-meta/${encodeURIComponent('/delivery/')}`, { cookie })).body,
    ).data;
    const title = `Доставка по России и миру ${Date.now()} — Vitrina`;
    const r = await admin(shop, `/page-meta/${encodeURIComponent('/delivery/')}`, {
      method: 'PATCH',
      cookie,
      body: { version: one.version, title, description: one.description, keywords: one.keywords },
    });
    expect(r.status).toBe(200);
    const stale = await admin(shop, `/page-meta/${encodeURIComponent('/delivery/')}`, {
      method: 'PATCH',
      cookie,
      body: { version: one.version, title: 'Старое', description: '', keywords: '' },
    });
    expect(stale.status).toBe(409);
    const empty = await admin(shop, `/page-meta/${encodeURIComponent('/delivery/')}`, {
      method: 'PATCH',
      cookie,
      body: { version: one.version + 1, title: '  ', description: '', keywords: '' },
    });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toMatch(/заголовок страницы/i);
    await eventually(
      async () => ((await guest('/page-meta/?path=/delivery/')).body as PageMeta).title === title,
      'the new title',
    );
    expect((await auditOf('page_meta', '/delivery/')).at(-1)).toMatchObject({
      action: 'page_meta.update',
      before: { title: one.title },
      after: { title },
    });
    const created = await admin(shop, '/page-meta', {
      cookie,
      body: { path: '/Catalog/Woman/Novoe/', title: 'Новое — Vitrina', description: 'Описание', keywords: 'новое' },
    });
    expect(created.status).toBe(201);
    expect(created.body.data.path).toBe('/catalog/woman/novoe/');
  });
});

describe('redirects', () => {
  const create = async (from: string, to: string, status = 301) =>
    admin(shop, '/redirects', { cookie: await as('content'), body: { from, to, status } });

  it('adds one that guests follow, and changes it at its version', async () => {
    const from = `/old-${Date.now().toString(36)}/`;
    const r = await create(from.toUpperCase(), '/delivery/');
    expect(r.status).toBe(201);
    expect(expectContract(RedirectOneResponse, r.body).data).toMatchObject({
      from,
      to: '/delivery/',
      status: 301,
      version: 1,
    });
    await eventually(
      async () =>
        ((await guest(`/redirect/?path=${from}`)).body as RedirectResponse).redirect?.location === '/delivery/',
      'the redirect',
    );
    const cookie = await as('content');
    const moved = await admin(shop, `/redirects/${encodeURIComponent(from)}`, {
      method: 'PATCH',
      cookie,
      body: { version: 1, to: '/return/', status: 302 },
    });
    expect(moved.status).toBe(200);
    const stale = await admin(shop, `/redirects/${encodeURIComponent(from)}`, {
      method: 'PATCH',
      cookie,
      body: { version: 1, to: '/about/' },
    });
    expect(stale.status).toBe(409);
    await eventually(
      async () => ((await guest(`/redirect/?path=${from}`)).body as RedirectResponse).redirect?.location === '/return/',
      'the changed redirect',
    );
    expect((await auditOf('redirect', from)).map((a) => a.action)).toEqual(['redirect.create', 'redirect.update']);
    const gone = await admin(shop, `/redirects/${encodeURIComponent(from)}/delete`, { cookie, body: { version: 2 } });
    expect(gone.status).toBe(200);
    await eventually(
      async () => ((await guest(`/redirect/?path=${from}`)).body as RedirectResponse).redirect === null,
      'no redirect',
    );
  });

  it('refuses loops (also through a chain), live pages and malformed addresses in Russian', async () => {
    const t = Date.now().toString(36);
    expect((await create(`/a-${t}/`, `/b-${t}/`)).status).toBe(201);
    expect((await create(`/b-${t}/`, `/c-${t}/`)).status).toBe(201);
    const loop = await create(`/c-${t}/`, `/a-${t}/`);
    expect(loop.status).toBe(400);
    expect(loop.body.error).toBe(
      `Перенаправление зациклится: /c-${t}/ → /a-${t}/ → /b-${t}/ → /c-${t}/. Измените новый адрес`,
    );
    const self = await create(`/d-${t}/`, `/D-${t}/?x=1`);
    expect(self.status).toBe(400);
    expect(self.body.error).toMatch(/зациклится/);
    const about = await create('/about/', '/delivery/');
    expect(about.status).toBe(400);
    expect(about.body.error).toMatch(/информационной страницы/);
    const section = await create('/catalog/woman/', '/delivery/');
    expect(section.status).toBe(400);
    expect(section.body.error).toMatch(/раздела каталога/);
    const [product] = await queryRows<{ url: string }>(
      db(),
      sql`select s.url || p.slug || '/' as url from products p join sections s on s.id = p.section_id where p.active limit 1`,
    );
    const prod = await create(product?.url ?? '', '/delivery/');
    expect(prod.status).toBe(400);
    expect(prod.body.error).toMatch(/адрес товара/);
    for (const [from, to, error] of [
      ['sale', '/x/', /начинается с «\/»/],
      ['/x y/', '/x/', /пробелы/],
      ['/ok/', 'javascript:alert(1)', /путь на этом сайте/],
      ['/ok/', 'https://', /не похож на адрес/],
      ['/backend/catalog/', '/x/', /не страница сайта/],
    ] as const) {
      const r = await create(from, to);
      expect(r.status, `${from} → ${to}`).toBe(400);
      expect(r.body.error).toMatch(error);
    }
    expect((await auditOf('redirect', `/c-${t}/`)).length).toBe(0);
  });

  it('imports in bulk: a dry run lists errors per line, then all lines or none', async () => {
    const cookie = await as('content');
    const t = Date.now().toString(36);
    const good = `old;new;code\n/imp1-${t}/;/delivery/\n/imp2-${t}/;https://t.me/vitrina_brand;302\n`;
    const text = `${good}/about/;/x/\n/imp3-${t}/;/imp3-${t}/\nнеправильно\n`;
    const dry = expectContract(
      RedirectImportResponse,
      (await admin(shop, '/redirects/import', { cookie, body: { text } })).body,
    );
    expect(dry.applied).toBe(false);
    expect(dry.create.map((c) => c.line)).toEqual([2, 3]);
    expect(dry.errors.map((e) => e.line)).toEqual([4, 5, 6]);
    expect(dry.errors[0]?.error).toMatch(/информационной страницы/);
    expect(dry.errors[1]?.error).toMatch(/зациклится/);
    const refused = await admin(shop, '/redirects/import', { cookie, body: { text, apply: true } });
    expect(refused.status).toBe(409);
    expect(((await guest(`/redirect/?path=/imp1-${t}/`)).body as RedirectResponse).redirect).toBeNull();
    const applied = await admin(shop, '/redirects/import', { cookie, body: { text: good, apply: true } });
    expect(applied.status).toBe(200);
    expect(applied.body).toMatchObject({ applied: true, errors: [] });
    await eventually(
      async () => ((await guest(`/redirect/?path=/imp2-${t}/`)).body as RedirectResponse).redirect?.external === true,
      'the imported redirects',
    );
    expect((await auditOf('redirect', `/imp1-${t}/`))[0]).toMatchObject({ action: 'redirect.import', before: null });
    // Changing them by import: before and after per line; unchanged lines are counted.
    const again = expectContract(
      RedirectImportResponse,
      (
        await admin(shop, '/redirects/import', {
          cookie,
          body: { text: `/imp1-${t}/;/return/\n/imp2-${t}/;https://t.me/vitrina_brand;302` },
        })
      ).body,
    );
    expect(again.change).toEqual([
      {
        line: 1,
        from: `/imp1-${t}/`,
        before: { to: '/delivery/', status: 301 },
        after: { to: '/return/', status: 301 },
      },
    ]);
    expect(again.unchanged).toBe(1);
  });
});
