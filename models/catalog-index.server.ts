import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '~/db/client.server';
import { readCatalogVersion } from '~/db/catalog-version.server';
import type { CatalogFilter, SortCode } from '~/core/catalog-filter';
import type { Scope } from '~/core/catalog-scope';
import { isOnSale } from '~/core/pricing';

export type { Scope };

/**
 * A compact, derived copy of what listings need from every active product: section, flags,
 * price, colour, sizes and the three sort orders, in typed arrays. One pass over it answers a
 * listing's page, total and exact facet counts in about a millisecond at 100 000 products;
 * the database then reads only the page's rows by id. It is rebuilt when the catalogue
 * version in the database changes (checked at most every VERSION_CHECK_MS, the old copy
 * serving meanwhile), so nothing here is state of its own.
 */

export const VERSION_CHECK_MS = 5_000;

export interface ListingResult {
  ids: number[];
  total: number;
  /** Per size id: products matching every filter but the size filter. */
  sizeCounts: Map<string, number>;
  /** Per colour code: products matching every filter but the colour filter. */
  colorCounts: Map<string, number>;
  /** Every size and colour the scope holds (for disabled facet values), and its price range in kopecks. */
  scopeSizes: Set<string>;
  scopeColors: Map<string, { name: string; hex: string }>;
  minPrice: number;
  maxPrice: number;
}

const FLAG_NEW = 1;
const FLAG_SALE = 2;

export class CatalogIndex {
  private constructor(
    readonly size: number,
    private readonly ids: Int32Array,
    private readonly section: Int32Array,
    private readonly flags: Uint8Array,
    private readonly price: Int32Array,
    private readonly color: Uint16Array,
    /** Size membership bits: `words` 32-bit words per product. */
    private readonly sizeBits: Uint32Array,
    private readonly words: number,
    private readonly sizeNames: string[],
    private readonly colorNames: { code: string; name: string; hex: string }[],
    private readonly orders: Record<'popular' | 'new' | 'price_asc', Int32Array>,
    readonly builtAt: number,
    /** The sections a product stands in besides its own (product_sections), by position; few have any. */
    private readonly extra: Map<number, readonly number[]> = new Map(),
  ) {}

  static from(rows: IndexRow[]): CatalogIndex {
    const n = rows.length;
    const sizeIds = new Map<string, number>();
    const colorIds = new Map<string, number>();
    const colors: { code: string; name: string; hex: string }[] = [];
    for (const r of rows) {
      for (const s of r.sizes) if (!sizeIds.has(s)) sizeIds.set(s, sizeIds.size);
      if (!colorIds.has(r.colorCode)) {
        colorIds.set(r.colorCode, colors.length);
        colors.push({ code: r.colorCode, name: r.colorName, hex: r.colorHex });
      }
    }
    const words = Math.max(1, Math.ceil(sizeIds.size / 32));
    const ids = new Int32Array(n);
    const section = new Int32Array(n);
    const flags = new Uint8Array(n);
    const price = new Int32Array(n);
    const color = new Uint16Array(n);
    const sizeBits = new Uint32Array(n * words);
    const popularity = new Int32Array(n);
    const created = new Float64Array(n);
    const extra = new Map<number, readonly number[]>();
    rows.forEach((r, i) => {
      if (r.extraSectionIds?.length) extra.set(i, r.extraSectionIds);
      ids[i] = r.id;
      section[i] = r.sectionId;
      flags[i] = (r.isNew ? FLAG_NEW : 0) | (r.onSale ? FLAG_SALE : 0);
      price[i] = r.price;
      color[i] = colorIds.get(r.colorCode) ?? 0;
      popularity[i] = r.popularity;
      created[i] = r.createdAt;
      for (const s of r.sizes) {
        const bit = sizeIds.get(s) as number;
        sizeBits[i * words + (bit >>> 5)]! |= 1 << (bit & 31);
      }
    });
    const order = (cmp: (a: number, b: number) => number) => Int32Array.from({ length: n }, (_, i) => i).sort(cmp);
    // The same orders as SQL would give: ties broken by id.
    const orders = {
      popular: order((a, b) => popularity[b]! - popularity[a]! || ids[a]! - ids[b]!),
      new: order((a, b) => created[b]! - created[a]! || ids[b]! - ids[a]!),
      price_asc: order((a, b) => price[a]! - price[b]! || ids[a]! - ids[b]!),
    };
    return new CatalogIndex(
      n,
      ids,
      section,
      flags,
      price,
      color,
      sizeBits,
      words,
      [...sizeIds.keys()],
      colors,
      orders,
      Date.now(),
      extra,
    );
  }

  private inSections(i: number, sectionIds: ReadonlySet<number>): boolean {
    if (sectionIds.has(this.section[i] as number)) return true;
    const more = this.extra.size ? this.extra.get(i) : undefined;
    return more !== undefined && more.some((id) => sectionIds.has(id));
  }

  /** One pass in the sort order: the page's ids, the total and exact facet counts. */
  query(scope: Scope, filter: CatalogFilter, sort: SortCode, offset: number, limit: number): ListingResult {
    const wantSizes = this.sizeMask(filter.size);
    const wantColors = new Set<number>();
    for (const c of filter.color) {
      const i = this.colorNames.findIndex((x) => x.code === c);
      wantColors.add(i); // -1 for an unknown colour: matches nothing, as in SQL
    }
    const minP = filter.price.from === null ? -Infinity : filter.price.from * 100;
    const maxP = filter.price.to === null ? Infinity : filter.price.to * 100;
    const hasSize = filter.size.length > 0;
    const hasColor = filter.color.length > 0;
    const { sectionIds } = scope;
    const needFlags = (scope.isNew ? FLAG_NEW : 0) | (scope.onSale ? FLAG_SALE : 0);

    const sizeCount = new Uint32Array(this.sizeNames.length);
    const colorCount = new Uint32Array(this.colorNames.length);
    const scopeSizeBits = new Uint32Array(this.words);
    const scopeColor = new Uint8Array(this.colorNames.length);
    let minPrice = Infinity;
    let maxPrice = -Infinity;
    const page: number[] = [];
    let total = 0;

    const reverse = sort === 'price_desc';
    const perm = this.orders[sort === 'price_desc' ? 'price_asc' : sort];
    const n = this.size;
    const w = this.words;
    for (let k = 0; k < n; k++) {
      const i = perm[reverse ? n - 1 - k : k] as number;
      if (sectionIds && !this.inSections(i, sectionIds)) continue;
      if (needFlags && ((this.flags[i] as number) & needFlags) !== needFlags) continue;
      const p = this.price[i] as number;
      const c = this.color[i] as number;
      if (p < minPrice) minPrice = p;
      if (p > maxPrice) maxPrice = p;
      scopeColor[c] = 1;
      let sizeOk = !hasSize;
      for (let j = 0; j < w; j++) {
        const bits = this.sizeBits[i * w + j] as number;
        scopeSizeBits[j]! |= bits;
        if (hasSize && (bits & (wantSizes[j] as number)) !== 0) sizeOk = true;
      }
      const colorOk = !hasColor || wantColors.has(c);
      const priceOk = p >= minP && p <= maxP;
      if (colorOk && priceOk) {
        for (let j = 0; j < w; j++) {
          let bits = this.sizeBits[i * w + j] as number;
          while (bits !== 0) {
            const b = 31 - Math.clz32(bits & -bits);
            sizeCount[j * 32 + b]!++;
            bits &= bits - 1;
          }
        }
      }
      if (sizeOk && priceOk) colorCount[c]!++;
      if (sizeOk && colorOk && priceOk) {
        if (total >= offset && page.length < limit) page.push(this.ids[i] as number);
        total++;
      }
    }

    const sizeCounts = new Map<string, number>();
    const scopeSizes = new Set<string>();
    this.sizeNames.forEach((name, b) => {
      if (((scopeSizeBits[b >>> 5] as number) & (1 << (b & 31))) !== 0) {
        scopeSizes.add(name);
        sizeCounts.set(name, sizeCount[b] as number);
      }
    });
    const colorCounts = new Map<string, number>();
    const scopeColors = new Map<string, { name: string; hex: string }>();
    this.colorNames.forEach((c, i) => {
      if (scopeColor[i]) {
        scopeColors.set(c.code, { name: c.name, hex: c.hex });
        colorCounts.set(c.code, colorCount[i] as number);
      }
    });
    return {
      ids: page,
      total,
      sizeCounts,
      colorCounts,
      scopeSizes,
      scopeColors,
      minPrice: Number.isFinite(minPrice) ? minPrice : 0,
      maxPrice: Number.isFinite(maxPrice) ? maxPrice : 0,
    };
  }

  /** Whether some active product can be ordered in this size filter id ('46', 'obuv-37'). */
  hasSize(id: string): boolean {
    return this.sizeNames.includes(id);
  }

  private sizeMask(sizes: string[]): Uint32Array {
    const mask = new Uint32Array(this.words);
    for (const s of sizes) {
      const b = this.sizeNames.indexOf(s);
      if (b >= 0) mask[b >>> 5]! |= 1 << (b & 31);
    }
    return mask;
  }
}

export interface IndexRow {
  id: number;
  sectionId: number;
  isNew: boolean;
  onSale: boolean;
  price: number;
  popularity: number;
  createdAt: number;
  colorCode: string;
  colorName: string;
  colorHex: string;
  sizes: string[];
  /** Sections it stands in besides its own (product_sections). */
  extraSectionIds?: readonly number[];
}

/**
 * Every active product as one text value: decoding 100 000 rows one by one costs PGlite
 * seconds, one aggregated string well under one.
 */
/**
 * Products read for the index a query at a time, in id order: on PGlite a query holds the server's
 * thread, and one query over every product held each guest behind a rebuild (0.1-0.3 s at 10 000
 * products, during a 1C import every few seconds). Rows of one chunk are as one moment; the
 * version was read before the first, so a change meanwhile makes the next check rebuild.
 */
export const INDEX_LOAD_CHUNK = 5000;

export async function loadRows(db: Database, chunk = INDEX_LOAD_CHUNK): Promise<IndexRow[]> {
  const lines: string[] = [];
  for (let after = 0; ;) {
    const [packed] = await queryRows<{ t: string | null; last: number | null }>(
      db,
      sql`select string_agg(concat_ws(';', id, section_id, is_new::int, coalesce(old_price_kopecks, 0), price_kopecks,
                 popularity, (extract(epoch from created_at) * 1000)::bigint, color_code, array_to_string(sizes, ',')), E'\n') as t,
                 max(id) as last
          from (select id, section_id, is_new, old_price_kopecks, price_kopecks, popularity, created_at, color_code, sizes
                from products where active and id > ${after} order by id limit ${chunk}) p`,
    );
    if (!packed?.t || packed.last === null) break;
    lines.push(packed.t);
    after = Number(packed.last);
  }
  const colors = await queryRows<{ code: string; name: string; hex: string }>(
    db,
    sql`select color_code as code, min(color_name) as name, min(color_hex) as hex from products where active group by color_code`,
  );
  const colorOf = new Map(colors.map((c) => [c.code, c]));
  const extras = await queryRows<{ id: number; sections: string }>(
    db,
    sql`select ps.product_id as id, string_agg(ps.section_id::text, ',') as sections
        from product_sections ps join products p on p.id = ps.product_id where p.active group by ps.product_id`,
  );
  const extraOf = new Map(extras.map((e) => [Number(e.id), e.sections.split(',').map(Number)]));
  if (lines.length === 0) return [];
  return lines
    .join('\n')
    .split('\n')
    .map((line) => {
      const [id, sectionId, isNew, oldPrice, price, popularity, created, colorCode = '', sizes = ''] = line.split(';');
      const color = colorOf.get(colorCode);
      return {
        id: Number(id),
        sectionId: Number(sectionId),
        isNew: isNew === '1',
        onSale: isOnSale(Number(price), Number(oldPrice) || null),
        price: Number(price),
        popularity: Number(popularity),
        createdAt: Number(created),
        colorCode,
        colorName: color?.name ?? colorCode,
        colorHex: color?.hex ?? '#000000',
        sizes: sizes ? sizes.split(',') : [],
        ...(extraOf.has(Number(id)) ? { extraSectionIds: extraOf.get(Number(id)) } : {}),
      };
    });
}

interface Slot {
  current: CatalogIndex | null;
  building: Promise<CatalogIndex> | null;
  /** Bumped by invalidation: a build that started before it must not be installed. */
  generation: number;
  /** The catalogue version the current index was built at, and when it was last compared. */
  version: number;
  checkedAt: number;
}
const slots = new WeakMap<Database, Slot>();

function slotOf(db: Database): Slot {
  let slot = slots.get(db);
  if (!slot) slots.set(db, (slot = { current: null, building: null, generation: 0, version: -1, checkedAt: 0 }));
  return slot;
}

function rebuild(db: Database, slot: Slot): Promise<CatalogIndex> {
  if (slot.building) return slot.building;
  const generation = slot.generation;
  const building: Promise<CatalogIndex> = (async () => {
    const version = await readCatalogVersion(db);
    const index = CatalogIndex.from(await loadRows(db));
    if (slot.generation === generation) {
      slot.current = index;
      slot.version = version;
      slot.checkedAt = Date.now();
    }
    return index;
  })().finally(() => {
    if (slot.building === building) slot.building = null;
  });
  slot.building = building;
  return building;
}

/** The index for this database: built on first use, rebuilt in the background when the catalogue changed. */
export async function catalogIndex(db: Database): Promise<CatalogIndex> {
  const slot = slotOf(db);
  if (!slot.current) return rebuild(db, slot);
  if (!slot.building && Date.now() - slot.checkedAt > VERSION_CHECK_MS) {
    slot.checkedAt = Date.now();
    readCatalogVersion(db)
      .then((version) => (version !== slot.version ? rebuild(db, slot) : null))
      .catch(() => {});
  }
  return slot.current;
}

/** Writers in this process call this after changing the catalogue, so the next listing sees it. */
export function invalidateCatalogIndex(db: Database): void {
  const slot = slotOf(db);
  slot.generation++;
  slot.current = null;
  slot.building = null;
}
