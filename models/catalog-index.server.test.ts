import { describe, expect, it } from 'vitest';
import { openDatabase } from '~/db/client.server';
import { seedDatabase } from '~/db/seed/seed.server';
import { CatalogIndex, loadRows, type IndexRow, type Scope } from './catalog-index.server';
import type { CatalogFilter, SortCode } from '~/core/catalog-filter';

// The index must answer exactly what the obvious filter-sort-count over rows answers.

function rng(seed: number) {
  return () => {
    seed = (seed * 1664525 + 1013904223) >>> 0;
    return seed / 2 ** 32;
  };
}

const SIZES = [
  '40',
  '42',
  '44',
  '46',
  '48',
  '50',
  '52',
  'obuv-35',
  'obuv-36',
  'obuv-37',
  'obuv-38',
  'obuv-39',
  'obuv-40',
  'obuv-41',
  'edinyj',
];
// More than 32 sizes exercise the multi-word bitmask.
const MANY_SIZES = [...SIZES, ...Array.from({ length: 30 }, (_, i) => `x${i}`)];
const COLORS = ['chernyj', 'belyj', 'kemel', 'seryj', 'indigo'];

function makeRows(n: number, random: () => number, sizes: string[]): IndexRow[] {
  return Array.from({ length: n }, (_, i) => ({
    id: i + 1,
    sectionId: 1 + Math.floor(random() * 5),
    isNew: random() < 0.25,
    onSale: random() < 0.2,
    price: (5 + Math.floor(random() * 60)) * 100_000,
    popularity: Math.floor(random() * 50),
    createdAt: Date.UTC(2026, 0, 1) + Math.floor(random() * 20) * 86_400_000,
    colorCode: COLORS[Math.floor(random() * COLORS.length)] as string,
    colorName: 'c',
    colorHex: '#000000',
    sizes: sizes.filter(() => random() < 0.3),
    // Some stand in further sections too (product_sections, issue #30).
    ...(random() < 0.15 ? { extraSectionIds: [1 + Math.floor(random() * 5)] } : {}),
  }));
}

function naive(rows: IndexRow[], scope: Scope, f: CatalogFilter, sort: SortCode, offset: number, limit: number) {
  const inScope = rows.filter(
    (r) =>
      (!scope.sectionIds ||
        scope.sectionIds.has(r.sectionId) ||
        (r.extraSectionIds ?? []).some((id) => scope.sectionIds?.has(id))) &&
      (!scope.isNew || r.isNew) &&
      (!scope.onSale || r.onSale),
  );
  const sizeOk = (r: IndexRow) => !f.size.length || r.sizes.some((s) => f.size.includes(s));
  const colorOk = (r: IndexRow) => !f.color.length || f.color.includes(r.colorCode);
  const priceOk = (r: IndexRow) =>
    (f.price.from === null || r.price >= f.price.from * 100) && (f.price.to === null || r.price <= f.price.to * 100);
  const cmp: Record<SortCode, (a: IndexRow, b: IndexRow) => number> = {
    popular: (a, b) => b.popularity - a.popularity || a.id - b.id,
    new: (a, b) => b.createdAt - a.createdAt || b.id - a.id,
    price_asc: (a, b) => a.price - b.price || a.id - b.id,
    price_desc: (a, b) => b.price - a.price || b.id - a.id,
  };
  const matched = inScope.filter((r) => sizeOk(r) && colorOk(r) && priceOk(r)).sort(cmp[sort]);
  const sizeCounts = new Map<string, number>();
  for (const r of inScope)
    if (colorOk(r) && priceOk(r)) for (const s of r.sizes) sizeCounts.set(s, (sizeCounts.get(s) ?? 0) + 1);
  const colorCounts = new Map<string, number>();
  for (const r of inScope)
    if (sizeOk(r) && priceOk(r)) colorCounts.set(r.colorCode, (colorCounts.get(r.colorCode) ?? 0) + 1);
  return {
    ids: matched.slice(offset, offset + limit).map((r) => r.id),
    total: matched.length,
    sizeCounts,
    colorCounts,
    scopeSizes: new Set(inScope.flatMap((r) => r.sizes)),
    minPrice: inScope.length ? Math.min(...inScope.map((r) => r.price)) : 0,
    maxPrice: inScope.length ? Math.max(...inScope.map((r) => r.price)) : 0,
  };
}

describe('CatalogIndex', () => {
  for (const [label, sizes] of [
    ['15 sizes', SIZES],
    ['45 sizes', MANY_SIZES],
  ] as const) {
    it(`agrees with the naive answer on random catalogues and queries (${label})`, () => {
      const random = rng(label.length * 7919);
      const rows = makeRows(400, random, sizes);
      const index = CatalogIndex.from(rows);
      const sorts: SortCode[] = ['popular', 'new', 'price_asc', 'price_desc'];
      for (let q = 0; q < 300; q++) {
        const scope: Scope =
          random() < 0.3
            ? { sectionIds: null, isNew: random() < 0.3, onSale: random() < 0.3 }
            : { sectionIds: new Set([1 + Math.floor(random() * 5), 1 + Math.floor(random() * 5)]) };
        const from = random() < 0.5 ? null : 5000 + Math.floor(random() * 30_000);
        const to = random() < 0.5 ? null : (from ?? 0) + Math.floor(random() * 40_000);
        const filter: CatalogFilter = {
          size: sizes.filter(() => random() < 0.1),
          color: random() < 0.4 ? COLORS.filter(() => random() < 0.3).concat(random() < 0.1 ? ['unknown'] : []) : [],
          price: { from, to },
        };
        const sort = sorts[q % 4] as SortCode;
        const offset = Math.floor(random() * 3) * 24;
        const got = index.query(scope, filter, sort, offset, 24);
        const want = naive(rows, scope, filter, sort, offset, 24);
        expect(got.ids).toEqual(want.ids);
        expect(got.total).toBe(want.total);
        expect(got.scopeSizes).toEqual(want.scopeSizes);
        for (const s of want.scopeSizes) expect(got.sizeCounts.get(s)).toBe(want.sizeCounts.get(s) ?? 0);
        for (const [c, n] of want.colorCounts) expect(got.colorCounts.get(c)).toBe(n);
        expect([got.minPrice, got.maxPrice]).toEqual([want.minPrice, want.maxPrice]);
      }
    });
  }

  it('answers an empty catalogue', () => {
    const r = CatalogIndex.from([]).query(
      { sectionIds: null },
      { size: [], color: [], price: { from: null, to: null } },
      'popular',
      0,
      24,
    );
    expect(r).toMatchObject({ ids: [], total: 0, minPrice: 0, maxPrice: 0 });
  });
});

describe('loadRows', () => {
  it('reads the same rows a chunk at a time as at once', { timeout: 120_000 }, async () => {
    const database = await openDatabase({ pgliteDir: 'memory://' });
    try {
      await database.migrate();
      await seedDatabase(database.db, { products: 40 });
      const whole = await loadRows(database.db, 1_000_000);
      expect(whole.length).toBeGreaterThan(30);
      // Chunks of 7: several full ones and a last part; ids in order, none twice, none lost.
      expect(await loadRows(database.db, 7)).toEqual(whole);
      expect(whole.map((r) => r.id)).toEqual([...whole.map((r) => r.id)].sort((a, b) => a - b));
    } finally {
      await database.close();
    }
  });
});
