import { asc } from 'drizzle-orm';
import type { Database } from '~/db/client.server';
import { sections } from '~/db/schema';
import type { SectionKind } from '~/core/catalog-scope';

export interface Section {
  id: number;
  code: string;
  name: string;
  url: string;
  parentId: number | null;
  sort: number;
  kind: SectionKind;
}

/** The catalogue's sections, read once and kept briefly: every listing and product needs them. */
export interface SectionIndex {
  byUrl: Map<string, Section>;
  byId: Map<number, Section>;
  childrenOf(id: number): Section[];
  all: Section[];
}

/** The whole catalogue (/catalog/, shown as /catalog/all/): no row of its own. */
export const ALL_SECTION: Section = {
  id: 0,
  code: 'all',
  name: 'Каталог',
  url: '/catalog/all/',
  parentId: null,
  sort: 0,
  kind: 'all',
};

const SECTION_TTL_MS = 30_000;
const sectionCache = new WeakMap<Database, { at: number; index: Promise<SectionIndex> }>();

export function loadSections(db: Database): Promise<SectionIndex> {
  const hit = sectionCache.get(db);
  if (hit && Date.now() - hit.at < SECTION_TTL_MS) return hit.index;
  const index = db
    .select()
    .from(sections)
    .orderBy(asc(sections.sort), asc(sections.id))
    .then((rows): SectionIndex => ({
      all: rows,
      byUrl: new Map(rows.map((r) => [r.url, r])),
      byId: new Map(rows.map((r) => [r.id, r])),
      childrenOf: (id: number) => rows.filter((r) => r.parentId === id),
    }));
  index.catch(() => sectionCache.delete(db));
  sectionCache.set(db, { at: Date.now(), index });
  return index;
}

/** A section by its page address; '/catalog/' and '/catalog/all/' are the whole catalogue. */
export function sectionByPath(index: SectionIndex, path: string): Section | null {
  if (path === '/catalog/' || path === '/catalog/all/') return ALL_SECTION;
  return index.byUrl.get(path) ?? null;
}

/** The canonical product address: under its own section. */
export function productUrl(p: { slug: string; sectionId: number }, index: Pick<SectionIndex, 'byId'>): string {
  const s = index.byId.get(p.sectionId);
  return `${s ? s.url : '/catalog/all/'}${p.slug}/`;
}
