import { describe, expect } from 'vitest';
import { DESKTOP, MOBILE, setUpBrowserShop } from '~/tests/support/browser';
import { getJson } from '~/tests/support/api';
import { ContentPage, PageMeta } from '~/shared/contract';
import { INFO_PAGES } from '~/app/lib/info-pages';

const { shop, it } = setUpBrowserShop();
const get = (path: string) => fetch(`${shop.baseUrl}${path}`, { redirect: 'manual' });

// A piece of each page's own text (content/pages/*.md), as a shopper would look for it.
const BODY_TEXT: Record<string, RegExp> = {
  '/about/': /Собственное производство/,
  '/contacts/': /Малая Бронная улица, 24[\s\S]*Большая Конюшенная улица, 13/,
  '/warranty/': /30 дней/,
  '/pre-order/': /14 дней/,
  '/promo/': /до 30%/,
  '/return/': /7 дней с момента получения/,
  '/advices/': /Кашемир/,
  '/dolyami/': /четыре|4 платежа/,
  '/loyalty/': /5%/,
  '/delivery/': /700\s₽/,
  '/purchase-guide/': /быстрый заказ/i,
  '/shipment/': /3 рабочих дней/,
  '/yandex-split/': /четыре равных/,
  '/new-collection/': /от 5\s000\s₽/,
  '/privacy-policy/': /152-ФЗ/,
  '/podarochnye-sertifikaty/': /50\s000\s₽/,
  '/international-payments/': /иностранного банка/,
};

function decode(s: string): string {
  return s
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&nbsp;/g, '\u00a0')
    .replace(/&amp;/g, '&');
}
const titleOf = (html: string) => decode(/<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '');
const h1Of = (html: string) => decode((/<h1[^>]*>([\s\S]*?)<\/h1>/.exec(html)?.[1] ?? '').replace(/<[^>]+>/g, ''));
/** The page's own text: what is inside <main>, tags dropped. */
const mainText = (html: string) =>
  decode((/<main[^>]*>([\s\S]*?)<\/main>/.exec(html)?.[1] ?? '').replace(/<[^>]+>/g, ' ')).replace(/\s+/g, ' ');

/** Headings inside <main> in order: one h1, first, and no level skipped on the way down. */
function expectHeadingOrder(html: string) {
  const main = /<main[^>]*>([\s\S]*?)<\/main>/.exec(html)?.[1] ?? '';
  const levels = [...main.matchAll(/<h([1-6])[\s>]/g)].map((m) => Number(m[1]));
  expect(levels[0]).toBe(1);
  expect(levels.filter((l) => l === 1)).toHaveLength(1);
  levels.forEach((level, i) => {
    if (i > 0) expect(level - (levels[i - 1] ?? 1), `h${levels[i - 1]} → h${level}`).toBeLessThanOrEqual(1);
  });
}

describe('information pages over HTTP', () => {
  const contentPages = INFO_PAGES.filter((p) => !p.personal);

  it('covers every page with a text', () => {
    expect(contentPages.map((p) => p.path).sort()).toEqual(Object.keys(BODY_TEXT).sort());
  });

  it.each(contentPages.map((p) => p.path))(
    '%s: 200, its own title, its text, one h1 and headings in order',
    async (path) => {
      const res = await get(path);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toMatch(/^public/);
      const html = await res.text();
      const meta = await getJson(shop.baseUrl, `/backend/page-meta/?path=${encodeURIComponent(path)}`, PageMeta);
      expect(titleOf(html)).toBe(meta.title);
      expect(mainText(html)).toMatch(BODY_TEXT[path] ?? /^$/);
      const content = await getJson(shop.baseUrl, `/backend/content/pages${path}`, ContentPage);
      expect(h1Of(html)).toBe(content.title);
      expectHeadingOrder(html);
    },
  );

  it('gives every page a title of its own', async () => {
    const titles = await Promise.all(contentPages.map(async (p) => titleOf(await (await get(p.path)).text())));
    expect(new Set(titles).size).toBe(titles.length);
  });

  it('keeps the basket flow pages to their heading, never cached', async () => {
    for (const page of INFO_PAGES.filter((p) => p.personal)) {
      const res = await get(page.path);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('private, no-store');
      const html = await res.text();
      expect(h1Of(html)).toBe(page.heading);
      expectHeadingOrder(html);
    }
  });

  it('draws both shops on /contacts/ with a map that needs no tiles', async () => {
    const html = await (await get('/contacts/')).text();
    expect(html.match(/Открыть в Яндекс Картах/g)).toHaveLength(2);
    expect(html).toContain('href="https://yandex.ru/maps/?text=');
    expect(html.match(/<svg[^>]+role="img"[^>]+aria-label="Схема проезда: [^"]+"/g)).toHaveLength(2);
    for (const text of [
      'Маяковская',
      'Невский проспект',
      '11:00',
      '+7 (495) 120-47-36',
      '+7 (812) 409-62-18',
      'Как добраться',
    ])
      expect(mainText(html)).toContain(text);
    // No third-party map scripts or tiles.
    expect(html).not.toMatch(/<script[^>]+src="https?:\/\//);
    expect(html).not.toMatch(/<img[^>]+src="https?:\/\//);
  });

  it('lets a table scroll sideways on phones', async () => {
    const html = await (await get('/delivery/')).text();
    expect(html).toMatch(/<div class="table-scroll" role="region" aria-label="Таблица: [^"]+" tabindex="0"><table>/);
  });
});

describe('blog over HTTP', () => {
  it('lists the articles newest first, each with its date in Russian, cover and lead', async () => {
    const res = await get('/blog/');
    expect(res.status).toBe(200);
    const html = await res.text();
    expectHeadingOrder(html);
    const text = mainText(html);
    const order = ['Как ухаживать за кашемиром', 'Как выбрать пальто на зиму', 'Капсульный гардероб на осень'].map(
      (t) => text.indexOf(t),
    );
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(html).toContain('<time dateTime="2026-10-14">14 октября 2026</time>');
    expect(html).toContain('href="/blog/kak-vybrat-palto/"');
    for (const img of html.match(/<img [^>]+>/g)?.filter((i) => i.includes('/art/')) ?? []) {
      expect(img).toMatch(/width="\d+"/);
      expect(img).toMatch(/height="\d+"/);
    }
  });

  it('shows an article with its date in Russian, body, illustrations and product links', async () => {
    const res = await get('/blog/kak-vybrat-palto/');
    expect(res.status).toBe(200);
    const html = await res.text();
    expectHeadingOrder(html);
    expect(h1Of(html)).toBe('Как выбрать пальто на зиму');
    expect(html).toContain('14 октября 2026');
    expect(html).toContain('<h2 id="article-products" class="section-title">Товары из статьи</h2>');
    expect(html).toMatch(/href="\/catalog\/woman\/uteplyennye_palto\/"[^>]*>Утеплённые пальто/);
    expect(html).toMatch(/<img src="\/media\/art\/[^"]+" [^>]*width="1200" height="1600" loading="lazy"/);
    expect(html).toContain('"@type":"BlogPosting"');
    expect(html).toMatch(/<meta property="og:type" content="article"/);
  });

  it('answers 404 for an unknown or malformed article', async () => {
    for (const path of ['/blog/no-such-article/', '/blog/bad_slug/', '/blog/%D0%BF%D0%B0%D0%BB%D1%8C%D1%82%D0%BE/']) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(await res.text()).toContain('Ошибка 404');
    }
  });
});

describe('home page over HTTP', () => {
  it('has the collection hero, the new-in and sale rows, categories, articles and shops', async () => {
    const res = await get('/');
    expect(res.status).toBe(200);
    const html = await res.text();
    expectHeadingOrder(html);
    expect(h1Of(html)).toBe('Новая коллекция');
    expect(mainText(html)).toContain('Осень — зима 2026');
    for (const id of ['home-new', 'home-sale', 'home-categories', 'home-blog', 'home-shops'])
      expect(html).toContain(`id="${id}"`);
    const row = (id: string) => html.slice(html.indexOf(`id="${id}"`)).split('</section>')[0] ?? '';
    expect(row('home-new').match(/<article class="card"/g)?.length).toBe(4);
    expect(row('home-sale').match(/<article class="card"/g)?.length).toBe(4);
    expect(row('home-sale')).toMatch(/card__tag--sale/);
    expect(row('home-categories')).toContain('href="/catalog/woman/denim/"');
    expect(row('home-categories')).toContain('href="/catalog/man/muzhchinam/"');
    expect(row('home-blog').match(/<article class="blog-card"/g)?.length).toBe(3);
    expect(row('home-shops')).toContain('Малая Бронная улица, 24');
    // Every picture has its size, so nothing moves while it loads.
    for (const img of html.match(/<img [^>]+>/g) ?? []) {
      expect(img).toMatch(/width="\d+"/);
      expect(img).toMatch(/height="\d+"/);
    }
  });
});

describe('in the browser', () => {
  it('opens the blog, clicks through to an article and follows its links without a reload', async ({ shopper }) => {
    const { page, store } = await shopper.open('/blog/', MOBILE);
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
    expect(await store.heading().textContent()).toBe('Блог');

    await page.getByRole('link', { name: 'Как выбрать пальто на зиму' }).click();
    await page.waitForURL('**/blog/kak-vybrat-palto/');
    await expect.poll(() => store.heading().textContent()).toBe('Как выбрать пальто на зиму');
    await expect.poll(() => page.getByText('14 октября 2026').first().isVisible()).toBe(true);
    expect(await page.getByRole('heading', { level: 2, name: 'Товары из статьи' }).isVisible()).toBe(true);
    expect(await page.getByRole('img', { name: 'Утеплённое шерстяное пальто табачного цвета' }).count()).toBe(1);

    // A link inside the Markdown body is a client-side navigation too.
    await page.getByRole('link', { name: 'советы по уходу' }).first().click();
    await page.waitForURL('**/advices/');
    await expect.poll(() => store.heading().textContent()).toBe('Советы по уходу');
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
  });

  it('does not shift the layout while fonts and pictures load', async ({ shopper }) => {
    for (const viewport of [MOBILE, DESKTOP]) {
      const page = await shopper.newPage(viewport);
      await page.addInitScript(() => {
        const w = window as unknown as { cls: number };
        w.cls = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as unknown as Array<{ value: number; hadRecentInput: boolean }>)
            if (!entry.hadRecentInput) w.cls += entry.value;
        }).observe({ type: 'layout-shift', buffered: true });
      });
      for (const path of ['/', '/blog/', '/blog/kak-vybrat-palto/', '/contacts/']) {
        await page.goto(path, { waitUntil: 'load' });
        const cls = await page.evaluate(async () => {
          await document.fonts.ready;
          // Pictures in the first screen (lazy ones further down load only on scrolling).
          const started = Array.from(document.images).filter((img) => {
            const box = img.getBoundingClientRect();
            return box.width > 0 && box.top < innerHeight;
          });
          await Promise.all(started.map((img) => img.decode().catch(() => undefined)));
          // Two frames: whatever the last picture or font changed has been laid out and reported.
          await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
          return (window as unknown as { cls: number }).cls;
        });
        expect(cls, `${viewport.width}px ${path}`).toBeLessThan(0.05);
      }
    }
  });

  it('shows the contacts with both shop maps and keyboard-reachable tables elsewhere', async ({ shopper }) => {
    const { page, store } = await shopper.open('/contacts/', DESKTOP);
    expect(await page.getByRole('img', { name: /^Схема проезда: Москва/ }).isVisible()).toBe(true);
    expect(await page.getByRole('img', { name: /^Схема проезда: Санкт-Петербург/ }).isVisible()).toBe(true);
    const maps = page.getByRole('link', { name: /Открыть в Яндекс Картах/ });
    expect(await maps.count()).toBe(2);
    expect(await maps.first().getAttribute('target')).toBe('_blank');

    await store.goto('/delivery/');
    const table = page.getByRole('region', { name: /^Таблица: Направление/ });
    await table.focus();
    expect(await table.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(
      await page
        .getByRole('navigation', { name: 'Покупателям' })
        .getByRole('link', { name: 'Доставка и оплата' })
        .getAttribute('aria-current'),
    ).toBe('page');
  });
});
