import { describe, expect, it } from 'vitest';
import { COLORS, SECTIONS, generateCatalog, generateProducts, slugify } from './catalog-data';
import type { SeedProduct } from './catalog-data';
import { WOMEN_CATEGORY_CODES } from '~/tests/fixtures/spec';

const WOMEN_CODES = WOMEN_CATEGORY_CODES;

const catalog = generateCatalog();
const rub = (kopecks: number): number => kopecks / 100;
const countBy = (items: SeedProduct[], key: (p: SeedProduct) => string): Map<string, number> => {
  const m = new Map<string, number>();
  for (const p of items) m.set(key(p), (m.get(key(p)) ?? 0) + 1);
  return m;
};

describe('slugify', () => {
  it('transliterates Russian into URL slugs', () => {
    expect(slugify('Чёрный')).toBe('chernyj');
    expect(slugify('Утеплённые пальто')).toBe('uteplennye-palto');
    expect(slugify('Мужчинам')).toBe('muzhchinam');
    expect(slugify('Подарочные карты')).toBe('podarochnye-karty');
    expect(slugify('Хаки')).toBe('khaki');
    expect(slugify('Платье-комбинация из шёлка')).toBe('plate-kombinatsiya-iz-shelka');
    expect(slugify('  Тёмно-синий  ')).toBe('temno-sinij');
    expect(slugify('Свитер с V-образным вырезом')).toBe('sviter-s-v-obraznym-vyrezom');
  });
});

describe('palette and sections', () => {
  it('has at least 14 colours with unique codes and hex values', () => {
    expect(COLORS.length).toBeGreaterThanOrEqual(14);
    expect(new Set(COLORS.map((c) => c.code)).size).toBe(COLORS.length);
    for (const c of COLORS) {
      expect(c.code).toBe(slugify(c.name));
      expect(c.hex).toMatch(/^#[0-9a-f]{6}$/);
    }
    expect(COLORS.find((c) => c.name === 'Кэмел')?.code).toBe('kemel');
  });

  it('has the SPEC section tree', () => {
    const byCode = new Map(SECTIONS.map((s) => [s.code, s]));
    expect(byCode.get('woman')?.url).toBe('/catalog/woman/');
    expect(byCode.get('muzhchinam')?.url).toBe('/catalog/man/muzhchinam/');
    expect(byCode.get('new-collection')).toMatchObject({
      url: '/catalog/new-collection/',
      kinds: [],
      parentCode: null,
    });
    expect(byCode.get('promo')).toMatchObject({ name: 'Sale', url: '/catalog/promo/', kinds: [] });
    expect(byCode.get('podarochnye-karty')).toMatchObject({ url: '/catalog/podarochnye-karty/', kinds: ['gift-card'] });
    const women = SECTIONS.filter((s) => s.parentCode === 'woman');
    expect(women.map((s) => s.code)).toEqual(WOMEN_CODES);
    for (const s of women) {
      expect(s.url).toBe(`/catalog/woman/${s.code}/`);
      expect(s.kinds.length).toBeGreaterThan(0);
    }
    expect(byCode.get('uteplyennye_palto')?.name).toBe('Утеплённые пальто');
    expect(byCode.get('aksessuar')?.kinds).toEqual(
      expect.arrayContaining(['bag', 'boots', 'shoes', 'scarf', 'hat', 'belt']),
    );
  });
});

describe('generateCatalog', () => {
  it('is deterministic and depends on the seed', () => {
    expect(generateCatalog()).toEqual(catalog);
    expect(generateCatalog({ seed: 7 })).toEqual(generateCatalog({ seed: 7 }));
    expect(generateCatalog({ seed: 7 }).map((p) => p.name)).not.toEqual(catalog.map((p) => p.name));
  });

  it('equals the first N products of the stream', () => {
    for (const n of [1, 37, 180, 400]) {
      const streamed: SeedProduct[] = [];
      for (const p of generateProducts({ products: n, seed: 3 })) streamed.push(p);
      expect(generateCatalog({ products: n, seed: 3 })).toEqual(streamed);
    }
    expect(generateCatalog({ products: 50 })).toEqual(catalog.slice(0, 50));
    expect(generateCatalog({ products: 500 }).slice(0, 180)).toEqual(catalog);
    expect(generateCatalog({ products: 0 })).toEqual([]);
  });

  it('covers every section at the default size', () => {
    expect(catalog.length).toBeGreaterThanOrEqual(150);
    catalog.forEach((p, i) => expect(p.index).toBe(i));
    const counts = countBy(catalog, (p) => p.sectionCode);
    for (const code of WOMEN_CODES) expect(counts.get(code) ?? 0, code).toBeGreaterThanOrEqual(8);
    expect(counts.get('muzhchinam') ?? 0).toBeGreaterThanOrEqual(12);
    expect(counts.get('podarochnye-karty')).toBe(5);
    expect(
      [...counts.keys()].every((c) => c === 'muzhchinam' || c === 'podarochnye-karty' || WOMEN_CODES.includes(c)),
    ).toBe(true);
    // Kinds belong to their section.
    const sections = new Map(SECTIONS.map((s) => [s.code, s]));
    for (const p of catalog) expect(sections.get(p.sectionCode)?.kinds, p.name).toContain(p.kind);
    // Virtual sections are populated too.
    const newCount = catalog.filter((p) => p.isNew).length;
    const saleCount = catalog.filter((p) => p.oldPriceKopecks !== null).length;
    expect(newCount).toBeGreaterThanOrEqual(180 * 0.2);
    expect(newCount).toBeLessThanOrEqual(180 * 0.3);
    expect(saleCount).toBeGreaterThanOrEqual(180 * 0.15);
    expect(saleCount).toBeLessThanOrEqual(180 * 0.25);
    // Both virtual sections span several categories.
    expect(new Set(catalog.filter((p) => p.isNew).map((p) => p.sectionCode)).size).toBeGreaterThan(5);
    expect(new Set(catalog.filter((p) => p.oldPriceKopecks !== null).map((p) => p.sectionCode)).size).toBeGreaterThan(
      5,
    );
  });

  it('has unique URL-safe slugs, also at 20 000', () => {
    const check = (items: Iterable<SeedProduct>): number => {
      const seen = new Set<string>();
      for (const p of items) {
        expect(p.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
        expect(seen.has(p.slug), p.slug).toBe(false);
        seen.add(p.slug);
      }
      return seen.size;
    };
    expect(check(catalog)).toBe(catalog.length);
    expect(check(generateProducts({ products: 20_000 }))).toBe(20_000);
    // 40 000 expectations: seconds on a loaded 2-core machine, past the default 5 s.
  }, 30_000);

  it('prices follow the brand ranges', () => {
    for (const p of catalog) {
      const price = rub(p.priceKopecks);
      expect(Number.isInteger(p.priceKopecks)).toBe(true);
      expect(p.priceKopecks % 10_000, p.name).toBe(0);
      expect(price).toBeGreaterThanOrEqual(2_500);
      if (p.isNew) expect(price).toBeGreaterThanOrEqual(5_000);
      if (p.kind === 'coat' || p.kind === 'warm-coat') {
        expect(price).toBeGreaterThanOrEqual(32_000);
        expect(price).toBeLessThanOrEqual(49_000);
      }
      if (p.kind === 'jeans') {
        expect(price).toBeGreaterThanOrEqual(9_800);
        expect(price).toBeLessThanOrEqual(13_800);
      }
      if (p.kind === 'denim-jacket') expect(price).toBe(19_800);
      if (p.kind === 'fur-coat') expect(price).toBeGreaterThanOrEqual(69_000);
      if (p.oldPriceKopecks !== null) {
        expect(Number.isInteger(p.oldPriceKopecks)).toBe(true);
        expect(p.oldPriceKopecks % 10_000).toBe(0);
        expect(p.oldPriceKopecks).toBeGreaterThan(p.priceKopecks);
        expect(p.oldPriceKopecks).toBeLessThanOrEqual(p.priceKopecks * 1.3);
        expect(p.isNew).toBe(false);
      }
    }
    const warm = catalog.filter((p) => p.kind === 'warm-coat').map((p) => rub(p.priceKopecks));
    const demi = catalog.filter((p) => p.kind === 'coat').map((p) => rub(p.priceKopecks));
    expect(Math.min(...warm)).toBeGreaterThan(Math.min(...demi));
    const cards = catalog.filter((p) => p.sectionCode === 'podarochnye-karty');
    expect(cards.map((p) => rub(p.priceKopecks)).sort((a, b) => a - b)).toEqual([
      5_000, 10_000, 15_000, 25_000, 50_000,
    ]);
    for (const c of cards) {
      expect(c.kind).toBe('gift-card');
      expect(c.oldPriceKopecks).toBeNull();
      expect(c.offers).toEqual([
        { sizeType: 'none', size: 'Единый', intlSize: null, quantity: expect.any(Number), preorder: false },
      ]);
      expect(c.offers[0]?.quantity).toBeGreaterThan(0);
    }
  });

  it('offers have the right size sets', () => {
    const intl: Record<string, string> = {
      '40': 'XXS',
      '42': 'XS',
      '44': 'S',
      '46': 'M',
      '48': 'L',
      '50': 'XL',
      '52': 'XXL',
    };
    const one = new Set(['bag', 'scarf', 'hat', 'belt']);
    for (const p of catalog) {
      if (p.kind === 'gift-card') continue;
      if (one.has(p.kind)) {
        expect(p.offers).toHaveLength(1);
        expect(p.offers[0]?.size).toBe('Единый');
        continue;
      }
      expect(p.offers.length, p.name).toBeGreaterThanOrEqual(3);
      expect(p.offers.length, p.name).toBeLessThanOrEqual(6);
      const sizes = p.offers.map((o) => Number(o.size));
      expect(new Set(sizes).size).toBe(sizes.length);
      if (p.kind === 'boots' || p.kind === 'shoes') {
        for (const o of p.offers) {
          expect(o.sizeType).toBe('shoes');
          expect(Number(o.size)).toBeGreaterThanOrEqual(35);
          expect(Number(o.size)).toBeLessThanOrEqual(41);
        }
      } else {
        for (const o of p.offers) {
          expect(o.sizeType).toBe('clothes');
          expect(intl[o.size], o.size).toBeDefined();
          expect(o.intlSize).toBe(intl[o.size]);
        }
      }
      for (const o of p.offers) {
        expect(Number.isInteger(o.quantity)).toBe(true);
        expect(o.quantity).toBeGreaterThanOrEqual(0);
        if (o.preorder) expect(o.quantity).toBe(0);
      }
    }
    const offers = catalog.flatMap((p) => p.offers);
    expect(offers.some((o) => o.quantity === 0 && !o.preorder)).toBe(true);
    expect(offers.some((o) => o.quantity === 0 && o.preorder)).toBe(true);
  });

  it('colour variants share groupKey and differ in colour', () => {
    const groups = new Map<string, SeedProduct[]>();
    for (const p of catalog) groups.set(p.groupKey, [...(groups.get(p.groupKey) ?? []), p]);
    const multi = [...groups.values()].filter((g) => g.length > 1);
    expect(multi.length).toBeGreaterThan(20);
    expect(multi.some((g) => g.length === 3)).toBe(true);
    for (const g of multi) {
      expect(new Set(g.map((p) => p.colorCode)).size).toBe(g.length);
      expect(new Set(g.map((p) => p.name)).size).toBe(1);
      expect(new Set(g.map((p) => p.sectionCode)).size).toBe(1);
      expect(new Set(g.map((p) => p.priceKopecks)).size).toBe(1);
      // variants sit next to each other in the list
      const idx = g.map((p) => p.index);
      expect(Math.max(...idx) - Math.min(...idx)).toBe(g.length - 1);
    }
  });

  it('fills texts, colours, dates and properties', () => {
    const colorCodes = new Map(COLORS.map((c) => [c.code, c]));
    for (const p of catalog) {
      expect(p.name).toMatch(/^[А-ЯЁ]/);
      const sentences = p.description.split(/(?<=\.)\s+/).filter(Boolean);
      expect(sentences.length, p.description).toBeGreaterThanOrEqual(2);
      expect(sentences.length, p.description).toBeLessThanOrEqual(4);
      expect(colorCodes.get(p.colorCode)).toEqual({ name: p.colorName, code: p.colorCode, hex: p.colorHex });
      expect(p.createdAt >= '2025-09-01' && p.createdAt < '2026-11-01').toBe(true);
      expect(new Date(p.createdAt).toISOString()).toBe(p.createdAt);
      expect(p.popularity).toBeGreaterThanOrEqual(0);
      expect(p.popularity).toBeLessThanOrEqual(1000);
      expect(p.photoCount).toBeGreaterThanOrEqual(3);
      expect(p.photoCount).toBeLessThanOrEqual(5);
      const codes = p.properties.map((x) => x.code);
      expect(p.properties.find((x) => x.code === 'CML2_ARTICLE')?.value).toMatch(/^VT-\d{2}-\d{5,}$/);
      expect(codes.filter((c) => c === 'CML2_ATTRIBUTES').length).toBeGreaterThanOrEqual(2);
      if (p.kind !== 'gift-card') {
        const country = p.kind === 'boots' || p.kind === 'shoes' ? 'Италия' : 'Россия';
        expect(p.properties).toContainEqual({
          code: 'CML2_ATTRIBUTES',
          name: 'Характеристики',
          value: country,
          description: 'Страна производства',
        });
        expect(codes).toContain('SOSTAV');
        expect(codes).toContain('REKOMENDATSII_PO_UKHODU');
      }
      expect(codes.includes('SOSTAV_UTEPLITELYA')).toBe(p.kind === 'warm-coat' || p.kind === 'puffer');
      expect(codes.includes('OKRUZHNOST_GOLOVY')).toBe(p.kind === 'hat');
      const height = p.properties.find((x) => x.code === 'ROST');
      if (height && p.offers[0]?.sizeType === 'clothes' && p.offers.length > 1) {
        const cm = Number.parseInt(height.value, 10);
        if (p.sectionCode === 'muzhchinam') expect(cm).toBeGreaterThanOrEqual(185);
        else {
          expect(cm).toBeGreaterThanOrEqual(172);
          expect(cm).toBeLessThanOrEqual(180);
        }
      }
    }
    expect(new Set(catalog.map((p) => p.name)).size).toBeGreaterThan(70);
    const seo = catalog.filter((p) => p.seoDescription !== null).length;
    expect(seo).toBeGreaterThan(3);
    expect(seo).toBeLessThan(30);
    const articles = catalog.map((p) => p.properties.find((x) => x.code === 'CML2_ARTICLE')?.value);
    expect(new Set(articles).size).toBe(catalog.length);
  });

  it('streams 100 000 products quickly', () => {
    const started = Date.now();
    let count = 0;
    let last: SeedProduct | undefined;
    for (const p of generateProducts({ products: 100_000 })) {
      count++;
      last = p;
    }
    expect(count).toBe(100_000);
    expect(last?.index).toBe(99_999);
    expect(Date.now() - started).toBeLessThan(10_000);
  }, 30_000);
});
