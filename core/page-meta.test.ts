import { canonicalPagePath } from './redirects';
import { describe, it, expect } from 'vitest';
import { resolvePageMeta, truncateDescription, UNNAMED_PRODUCT } from './page-meta';
import type { PageMetaEntry, ResolvePageMetaInput } from './page-meta';
import { DEFAULT_META, PAGE_META, PRODUCT_META_TEMPLATE } from '~/content/page-meta';
import { WOMEN_CATEGORY_CODES } from '~/tests/fixtures/spec';

const defaults: PageMetaEntry = { title: 'Default', description: 'Default description', keywords: 'default' };
const productTemplate: PageMetaEntry = {
  title: '{name} — Shop',
  description: 'Buy {name} now; {name} ships fast',
  keywords: '{name}, buy {name}',
};
const entries: Record<string, PageMetaEntry> = {
  '/': { title: 'Home', description: 'Home description', keywords: 'home' },
  '/about/': { title: 'About', description: 'About description', keywords: 'about' },
  '/catalog/woman/denim/': {
    title: 'Denim',
    description: 'Denim description',
    keywords: 'denim',
    seoBottom: 'Para 1\n\nPara 2',
  },
  '/catalog/woman/denim/jeans-straight/': {
    title: 'Straight jeans — exact',
    description: 'Exact description',
    keywords: 'exact',
    seoDescription: 'Product SEO text',
  },
};

function resolve(path: string, product?: ResolvePageMetaInput['product']) {
  return resolvePageMeta({ path, entries, defaults, productTemplate, product });
}

describe('canonicalPagePath as the metadata key', () => {
  it('treats a path with and without a trailing slash as the same key', () => {
    expect(canonicalPagePath('/about')).toBe('/about/');
    expect(canonicalPagePath('/about/')).toBe('/about/');
    expect(canonicalPagePath('/catalog/woman/denim')).toBe('/catalog/woman/denim/');
    expect(canonicalPagePath('/about//')).toBe('/about/');
  });

  it('keeps the root as "/" and maps "" to the root', () => {
    expect(canonicalPagePath('/')).toBe('/');
    expect(canonicalPagePath('')).toBe('/');
    expect(canonicalPagePath('//')).toBe('/');
  });

  it('strips query and hash', () => {
    expect(canonicalPagePath('/search/?q=пальто')).toBe('/search/');
    expect(canonicalPagePath('/about#team')).toBe('/about/');
    expect(canonicalPagePath('/?utm_source=x#top')).toBe('/');
    expect(canonicalPagePath('?q=1')).toBe('/');
  });

  it('adds a missing leading slash and lower-cases (one key for every spelling)', () => {
    expect(canonicalPagePath('about')).toBe('/about/');
    expect(canonicalPagePath('/About')).toBe('/about/');
  });
});

describe('resolvePageMeta', () => {
  it('finds the entry whatever the case of the path (the /Delivery/ bug)', () => {
    const entries = { '/delivery/': { title: 'Доставка', description: 'd', keywords: 'k' } };
    const meta = resolvePageMeta({ path: '/Delivery/', entries, defaults, productTemplate: defaults });
    expect(meta.title).toBe('Доставка');
    expect(meta.canonicalPath).toBe('/delivery/');
  });

  it('finds an exact entry whether or not the path has a trailing slash', () => {
    expect(resolve('/about').title).toBe('About');
    expect(resolve('/about/').title).toBe('About');
    expect(resolve('/about?x=1#y').title).toBe('About');
    expect(resolve('/about').canonicalPath).toBe('/about/');
  });

  it('resolves both "/" and "" to the home entry', () => {
    expect(resolve('/')).toEqual({ ...entries['/'], canonicalPath: '/' });
    expect(resolve('')).toEqual({ ...entries['/'], canonicalPath: '/' });
  });

  it('also finds entries of a table keyed without the trailing slash', () => {
    const r = resolvePageMeta({
      path: '/faq/',
      entries: { '/faq': { title: 'FAQ', description: 'd', keywords: 'k' } },
      defaults,
      productTemplate,
    });
    expect(r.title).toBe('FAQ');
    expect(r.canonicalPath).toBe('/faq/');
  });

  it('falls back to the shop-wide default for unknown paths', () => {
    expect(resolve('/nowhere/')).toEqual({ ...defaults, canonicalPath: '/nowhere/' });
    expect(resolve('/nowhere', null).title).toBe('Default');
  });

  it('keeps seoBottom of category entries', () => {
    expect(resolve('/catalog/woman/denim').seoBottom).toBe('Para 1\n\nPara 2');
  });

  it('returns a copy, not the table row', () => {
    const r = resolve('/about/');
    r.title = 'changed';
    expect(entries['/about/']?.title).toBe('About');
  });

  it('fills every {name} in title, description and keywords of the product template', () => {
    const r = resolve('/catalog/woman/denim/jeans-wide/', { name: 'Джинсы широкие' });
    expect(r).toEqual({
      title: 'Джинсы широкие — Shop',
      description: 'Buy Джинсы широкие now; Джинсы широкие ships fast',
      keywords: 'Джинсы широкие, buy Джинсы широкие',
      canonicalPath: '/catalog/woman/denim/jeans-wide/',
    });
    expect(JSON.stringify(r)).not.toContain('{name}');
  });

  it('trims the product name and keeps replacement patterns literal', () => {
    expect(resolve('/catalog/all/x/', { name: '  Пальто  ' }).title).toBe('Пальто — Shop');
    expect(resolve('/catalog/all/x/', { name: "Топ $& $' $1" }).title).toBe("Топ $& $' $1 — Shop");
  });

  it.each([null, undefined, '', '   '])('uses "Товар" for a product with name %j', (name) => {
    const r = resolve('/catalog/all/unnamed/', { name });
    expect(r.title).toBe('Товар');
    expect(r.description).toBe('Buy Товар now; Товар ships fast');
    expect(r.keywords).toBe('Товар, buy Товар');
  });

  it('treats an empty product object as a product without a name', () => {
    expect(resolve('/catalog/all/unnamed/', {}).title).toBe(UNNAMED_PRODUCT);
  });

  it('lets an exact product entry (with seoDescription) win over the template', () => {
    const r = resolve('/catalog/woman/denim/jeans-straight', { name: 'Джинсы прямые' });
    expect(r).toEqual({
      title: 'Straight jeans — exact',
      description: 'Exact description',
      keywords: 'exact',
      seoDescription: 'Product SEO text',
      canonicalPath: '/catalog/woman/denim/jeans-straight/',
    });
  });

  it("keeps an exact product entry's seoBottom, which the template never gives", () => {
    const input = {
      path: '/catalog/all/coat/',
      defaults,
      productTemplate,
      product: { name: 'Пальто' },
    };
    const entry = { title: '{name}', description: 'd', keywords: 'k' };
    expect(
      resolvePageMeta({
        ...input,
        entries: { '/catalog/all/coat/': { ...entry, seoBottom: 'Абзац о модели.\n\nЕщё абзац.' } },
      }).seoBottom,
    ).toBe('Абзац о модели.\n\nЕщё абзац.');
    expect(resolvePageMeta({ ...input, entries: { '/catalog/all/coat/': entry } })).not.toHaveProperty('seoBottom');
  });

  it('fills template fields an exact product entry leaves to it, including seoDescription', () => {
    const r = resolvePageMeta({
      path: '/catalog/all/coat/',
      entries: { '/catalog/all/coat/': { title: '{name} — особая страница', description: 'd', keywords: 'k' } },
      defaults,
      productTemplate: { ...productTemplate, seoDescription: 'О модели {name}' },
      product: { name: 'Пальто' },
    });
    expect(r.title).toBe('Пальто — особая страница');
    expect(r.seoDescription).toBe('О модели Пальто');
  });

  it('works with the real table and template', () => {
    const r = resolvePageMeta({
      path: '/catalog/woman/uteplyennye_palto/palto-sherst',
      entries: PAGE_META,
      defaults: DEFAULT_META,
      productTemplate: PRODUCT_META_TEMPLATE,
      product: { name: 'Пальто из шерсти' },
    });
    expect(r.title).toBe('Пальто из шерсти: купить онлайн с доставкой — Vitrina');
    expect(r.description.startsWith('Пальто из шерсти')).toBe(true);
    expect(r.keywords).toContain('купить Пальто из шерсти');
    const home = resolvePageMeta({
      path: '',
      entries: PAGE_META,
      defaults: DEFAULT_META,
      productTemplate: PRODUCT_META_TEMPLATE,
    });
    expect(home.title).toBe(PAGE_META['/']?.title);
  });
});

describe('truncateDescription', () => {
  const long =
    'Утеплённые женские пальто Vitrina для холодной зимы: шерстяные ткани, современный утеплитель и точный крой. ' +
    'Цены от 32 000 до 49 000 ₽, доставка по России, СНГ и всему миру, примерка в магазинах Москвы и Санкт-Петербурга.';

  it('returns short text unchanged (whitespace collapsed)', () => {
    expect(truncateDescription('Короткое  описание\n')).toBe('Короткое описание');
    expect(truncateDescription('x'.repeat(155))).toBe('x'.repeat(155));
  });

  it('cuts at a word boundary, adds an ellipsis and stays within 155 characters', () => {
    expect(long.length).toBeGreaterThan(155);
    const out = truncateDescription(long);
    expect(out.length).toBeLessThanOrEqual(155);
    expect(out.endsWith('…')).toBe(true);
    const head = out.slice(0, -1);
    expect(long.startsWith(head)).toBe(true);
    // The cut falls between words: the next source character is a space or punctuation.
    expect(long.charAt(head.length)).toMatch(/[\s,.;:!?]/);
    expect(head).not.toMatch(/[\s,]$/);
  });

  it('honours a custom max', () => {
    const out = truncateDescription('Пальто из шерсти с поясом', 15);
    expect(out).toBe('Пальто из…');
    expect(out.length).toBeLessThanOrEqual(15);
    for (let max = 1; max <= long.length + 1; max += 1) {
      expect(truncateDescription(long, max).length).toBeLessThanOrEqual(max);
    }
  });

  it('keeps a word that ends exactly at the limit', () => {
    // 'Пальто из' is 9 characters; with max 10 it fits together with the ellipsis.
    expect(truncateDescription('Пальто из шерсти', 10)).toBe('Пальто из…');
  });

  it('hard-cuts a single word longer than max', () => {
    expect(truncateDescription('а'.repeat(200), 20)).toBe(`${'а'.repeat(19)}…`);
  });
});

describe('PAGE_META table', () => {
  const categories = WOMEN_CATEGORY_CODES.map((code) => `/catalog/woman/${code}/`);

  const required = [
    '/',
    '/about/',
    '/catalog/',
    '/catalog/new-collection/',
    '/catalog/promo/',
    '/new-collection/',
    '/promo/',
    '/dolyami/',
    '/purchase-guide/',
    '/delivery/',
    '/podarochnye-sertifikaty/',
    '/loyalty/',
    '/warranty/',
    '/pre-order/',
    '/blog/',
    '/contacts/',
    '/advices/',
    '/blog/kak-vybrat-palto/',
    '/blog/uhod-za-kashemirom/',
    '/blog/kapsulnyj-garderob/',
    ...categories,
    '/catalog/woman/',
    '/catalog/man/muzhchinam/',
    '/catalog/podarochnye-karty/',
    '/yandex-split/',
    '/shipment/',
    '/return/',
    '/privacy-policy/',
    '/international-payments/',
    '/search/',
    '/auth/',
    '/basket/',
    '/wishlist/',
    '/personal/',
  ];
  const cyrillic = /[А-Яа-яЁё]/;
  const all: [string, PageMetaEntry][] = [
    ...Object.entries(PAGE_META),
    ['DEFAULT_META', DEFAULT_META],
    ['PRODUCT_META_TEMPLATE', PRODUCT_META_TEMPLATE],
  ];

  it('has an entry for every listed route', () => {
    const missing = required.filter((path) => !(path in PAGE_META));
    expect(missing).toEqual([]);
  });

  it('keys are slash-form paths', () => {
    for (const key of Object.keys(PAGE_META)) {
      expect(key, key).toMatch(/^\//);
      expect(key.endsWith('/'), key).toBe(true);
      expect(canonicalPagePath(key), key).toBe(key);
    }
  });

  it('every title, description and keywords is non-empty Russian text', () => {
    for (const [key, e] of all) {
      for (const field of ['title', 'description', 'keywords'] as const) {
        expect(e[field].trim(), `${key} ${field}`).not.toBe('');
        expect(e[field], `${key} ${field}`).toMatch(cyrillic);
      }
    }
  });

  it('titles are unique, end with the brand suffix and fit in 70 characters', () => {
    const titles = all.map(([, e]) => e.title);
    expect(new Set(titles).size).toBe(titles.length);
    for (const [key, e] of all) {
      expect(e.title.endsWith(' — Vitrina'), key).toBe(true);
      expect(e.title.length, key).toBeLessThanOrEqual(70);
    }
  });

  it('descriptions are at most 200 characters and survive truncation intact', () => {
    for (const [key, e] of all) {
      expect(e.description.length, key).toBeLessThanOrEqual(200);
      expect(truncateDescription(e.description), key).toBe(e.description);
    }
  });

  it('keywords are comma-separated without empty items', () => {
    for (const [key, e] of all) {
      const items = e.keywords.split(',').map((s) => s.trim());
      expect(items.length, key).toBeGreaterThan(1);
      expect(items.includes(''), key).toBe(false);
    }
  });

  it('at least 5 categories carry a multi-paragraph seoBottom', () => {
    const withSeo = categories.filter((path) => PAGE_META[path]?.seoBottom);
    expect(withSeo.length).toBeGreaterThanOrEqual(5);
    for (const path of withSeo) {
      const parts = (PAGE_META[path]?.seoBottom ?? '').split('\n\n');
      expect(parts.length, path).toBeGreaterThanOrEqual(2);
      expect(parts.length, path).toBeLessThanOrEqual(3);
      for (const p of parts) expect(p.trim(), path).toMatch(cyrillic);
    }
  });

  it('the product template uses {name} in all three fields', () => {
    expect(PRODUCT_META_TEMPLATE.title).toContain('{name}');
    expect(PRODUCT_META_TEMPLATE.description).toContain('{name}');
    expect(PRODUCT_META_TEMPLATE.keywords).toContain('{name}');
  });

  it('blog article titles match the articles', () => {
    expect(PAGE_META['/blog/kak-vybrat-palto/']?.title).toContain('Как выбрать пальто на зиму');
    expect(PAGE_META['/blog/uhod-za-kashemirom/']?.title).toContain('Как ухаживать за кашемиром');
    expect(PAGE_META['/blog/kapsulnyj-garderob/']?.title).toContain('Капсульный гардероб на осень');
  });

  it('agrees with the business facts of SPEC §9', () => {
    const text = (path: string) => {
      const e = PAGE_META[path];
      return e ? `${e.title} ${e.description} ${e.seoBottom ?? ''}` : '';
    };
    expect(text('/warranty/')).toContain('30 дней');
    expect(text('/dolyami/')).toContain('4 платежа');
    expect(text('/delivery/')).toContain('700 ₽');
    expect(text('/catalog/promo/')).toContain('30%');
    expect(text('/new-collection/')).toContain('5 000 ₽');
    expect(text('/catalog/woman/uteplyennye_palto/')).toMatch(/32 000.*49 000/);
    expect(text('/contacts/')).toContain('11:00 до 22:00');
    expect(text('/about/')).toMatch(/Москв.*Санкт-Петербург/);
  });
});
