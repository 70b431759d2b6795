import { asc } from 'drizzle-orm';
import type { Database } from '~/db/client.server';
import { readCatalogVersion } from '~/db/catalog-version.server';
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
  inMenu: boolean;
}

/** The catalogue's sections: every listing and product needs them. */
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
  inMenu: false,
};

/** How old the kept sections may be before a lookup compares the catalogue version again. */
const SECTION_CHECK_MS = 1_000;
interface Kept {
  /** When the catalogue version was last compared. */
  checkedAt: number;
  /** The catalogue version the sections were read at. */
  version: number;
  index: Promise<SectionIndex>;
}
const sectionCache = new WeakMap<Database, Kept>();

function readSections(db: Database): Promise<SectionIndex> {
  return db
    .select()
    .from(sections)
    .orderBy(asc(sections.sort), asc(sections.id))
    .then((rows): SectionIndex => ({
      all: rows,
      byUrl: new Map(rows.map((r) => [r.url, r])),
      byId: new Map(rows.map((r) => [r.id, r])),
      childrenOf: (id: number) => rows.filter((r) => r.parentId === id),
    }));
}

/**
 * The sections, kept per database while the catalogue version stands (staff edits of sections
 * bump it, issue #30): compared at most once a second, or at once with `fresh` (the menu's and a
 * page answer's memo compute with it, so a memo made after a version change never keeps sections
 * from before it).
 */
export async function loadSections(db: Database, { fresh = false }: { fresh?: boolean } = {}): Promise<SectionIndex> {
  const hit = sectionCache.get(db);
  const now = Date.now();
  if (hit && !fresh && now - hit.checkedAt < SECTION_CHECK_MS) return hit.index;
  const version = await readCatalogVersion(db);
  const again = sectionCache.get(db);
  if (again && again.version === version) {
    again.checkedAt = now;
    return again.index;
  }
  const index = readSections(db);
  const kept: Kept = { checkedAt: now, version, index };
  index.catch(() => {
    if (sectionCache.get(db) === kept) sectionCache.delete(db);
  });
  sectionCache.set(db, kept);
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
