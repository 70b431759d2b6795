import { and, asc, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Database } from '../db/client.server';
import { productPhotos, products, sections } from '../db/schema';
import { kopecksToRoubles } from '../core/money';
import type { CatalogListItem, CatalogSectionResponse, MenuSection, SectionLink } from './contract';

export const PAGE_SIZE = 24;

type SectionRow = typeof sections.$inferSelect;

function toLink(s: SectionRow): SectionLink {
  return { CODE: s.code, NAME: s.name, SECTION_PAGE_URL: s.url };
}

/** The menu tree of SPEC §7 `GET /catalog/?iscollection=no`. */
export async function listMenuSections({ db }: { db: Database }): Promise<MenuSection[]> {
  const rows = await db.select().from(sections).orderBy(asc(sections.sort), asc(sections.id));
  const top = rows.filter((r) => r.parentId === null);
  return top.map((t) => ({
    ...toLink(t),
    SECOND_LVL: rows.filter((r) => r.parentId === t.id).map(toLink),
  }));
}

export async function findSectionByUrl({ db, url }: { db: Database; url: string }): Promise<SectionRow | null> {
  const [row] = await db.select().from(sections).where(eq(sections.url, url)).limit(1);
  return row ?? null;
}

const ALL_SECTION: SectionRow = { id: 0, code: 'all', name: 'Каталог', url: '/catalog/all/', parentId: null, sort: 0, kind: 'virtual' };

/** A section page's product list (SPEC §7 `GET {current path}`), one page at a time. */
export async function getSectionPage({
  db,
  url,
  page,
}: {
  db: Database;
  url: string;
  page: number;
}): Promise<CatalogSectionResponse | null> {
  const section = url === '/catalog/' || url === '/catalog/all/' ? ALL_SECTION : await findSectionByUrl({ db, url });
  if (!section) return null;

  const all = await db.select().from(sections);
  const byId = new Map(all.map((s) => [s.id, s]));
  const where = [eq(products.active, true)];
  if (section.code === 'new-collection') where.push(eq(products.isNew, true));
  else if (section.code === 'promo') where.push(isNotNull(products.oldPriceKopecks));
  else if (section.id !== 0) {
    const ids = [section.id, ...all.filter((s) => s.parentId === section.id).map((s) => s.id)];
    where.push(inArray(products.sectionId, ids));
  }
  const condition = and(...where);
  const [countRow] = await db.select({ n: sql<number>`count(*)::int` }).from(products).where(condition);
  const total = countRow?.n ?? 0;
  const rows = await db
    .select()
    .from(products)
    .where(condition)
    .orderBy(desc(products.popularity), asc(products.id))
    .limit(PAGE_SIZE)
    .offset((page - 1) * PAGE_SIZE);

  const photos = rows.length
    ? await db
        .select({ productId: productPhotos.productId, path: productPhotos.path, position: productPhotos.position })
        .from(productPhotos)
        .where(and(inArray(productPhotos.productId, rows.map((r) => r.id)), sql`${productPhotos.position} <= 2`))
    : [];
  const photoOf = (id: number, pos: number) => photos.find((p) => p.productId === id && p.position === pos)?.path ?? null;

  const items: CatalogListItem[] = rows.map((p) => ({
    ID: p.id,
    NAME: p.name,
    DETAIL_PAGE_URL: productUrl(p, byId),
    PRICE: kopecksToRoubles(p.priceKopecks),
    OLD_PRICE: p.oldPriceKopecks === null ? null : kopecksToRoubles(p.oldPriceKopecks),
    PREVIEW_PICTURE: mediaUrl(photoOf(p.id, 1)),
    SECOND_PICTURE: mediaUrl(photoOf(p.id, 2)),
    COLOR: p.colorName,
    IS_NEW: p.isNew,
  }));

  const parent = section.parentId ? byId.get(section.parentId) : undefined;
  const breadcrumbs = [{ NAME: 'Каталог', URL: '/catalog/' }];
  if (parent) breadcrumbs.push({ NAME: parent.name, URL: parent.url });
  if (section.id !== 0) breadcrumbs.push({ NAME: section.name, URL: section.url });

  return {
    SECTION: toLink(section),
    BREADCRUMBS: breadcrumbs,
    ITEMS: items,
    NAV_STRING: { CURRENT_PAGE: page, PAGE_COUNT: Math.max(1, Math.ceil(total / PAGE_SIZE)), PAGE_SIZE, ITEMS_COUNT: total },
  };
}

/** The canonical product address: under its own section. */
export function productUrl(p: { slug: string; sectionId: number }, byId: Map<number, SectionRow>): string {
  const s = byId.get(p.sectionId);
  return `${s ? s.url : '/catalog/all/'}${p.slug}/`;
}

export function mediaUrl(path: string | null): string | null {
  return path ? `/media/${path}` : null;
}
