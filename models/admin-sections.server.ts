import { asc, eq, sql } from 'drizzle-orm';
import type { Database } from '~/db/client.server';
import { products, sections } from '~/db/schema';
import { bumpCatalogVersion } from '~/db/catalog-version.server';
import { readSeo, writeSeo, type Refusal, type Seo } from './admin-catalogue.server';

// The section tree in the back office (issue #30): add, rename, move, order, the mega menu flag
// and each section's SEO texts (its page_meta row: title, description, keywords and the text
// under the listing). Two levels, as the menu and the breadcrumbs show them. A section's address
// is made once from its parent's and its code and stays when it moves or is renamed, so product
// addresses never change under shoppers' bookmarks. Every change bumps the catalogue version.

const refuse = (status: number, field: string, error: string): Refusal => ({ ok: false, status, field, error });
type SectionRow = typeof sections.$inferSelect;

export async function listSectionRows(db: Database) {
  const rows = await db.select().from(sections).orderBy(asc(sections.sort), asc(sections.id));
  const counts = await db
    .select({ sectionId: products.sectionId, n: sql<number>`count(*)::int` })
    .from(products)
    .groupBy(products.sectionId);
  const countOf = new Map(counts.map((c) => [c.sectionId, Number(c.n)]));
  const byId = new Map(rows.map((r) => [r.id, r]));
  // Parents first, each followed by its children: the tree read top to bottom.
  const roots = rows.filter((r) => r.parentId === null || !byId.has(r.parentId));
  const ordered = roots.flatMap((root) => [root, ...rows.filter((r) => r.parentId === root.id)]);
  return ordered.map((r) => ({
    row: r,
    products: countOf.get(r.id) ?? 0,
    path: r.parentId && byId.get(r.parentId) ? `${byId.get(r.parentId)?.name} / ${r.name}` : r.name,
  }));
}

export async function getSectionRow(db: Database, id: number) {
  const all = await listSectionRows(db);
  const one = all.find((s) => s.row.id === id);
  if (!one) return null;
  return { ...one, seo: await readSeo(db, one.row.url, 'seoBottom') };
}

export function sectionSnapshot(r: SectionRow, seo?: Seo) {
  return {
    name: r.name,
    code: r.code,
    url: r.url,
    parent_id: r.parentId,
    sort: r.sort,
    in_menu: r.inMenu,
    ...(seo ? { seo } : {}),
  };
}

async function checkParent(
  db: Database,
  parentId: number | null,
  selfId?: number,
): Promise<Refusal | SectionRow | null> {
  if (parentId === null) return null;
  if (parentId === selfId) return refuse(400, 'parent_id', 'Раздел не может быть внутри себя');
  const [parent] = await db.select().from(sections).where(eq(sections.id, parentId));
  if (!parent) return refuse(400, 'parent_id', 'Такого родительского раздела нет');
  if (parent.parentId !== null)
    return refuse(400, 'parent_id', 'Разделы — не глубже двух уровней: выберите раздел верхнего уровня');
  if (parent.kind !== 'category')
    return refuse(400, 'parent_id', `В раздел «${parent.name}» нельзя вложить другой: он собирается сам`);
  return parent;
}
const isRefusal = (v: unknown): v is Refusal => typeof v === 'object' && v !== null && (v as Refusal).ok === false;

export type SectionChange =
  { ok: true; id: number; before: Record<string, unknown> | null; after: Record<string, unknown> } | Refusal;

export async function createSection(
  db: Database,
  input: {
    name: string;
    code: string;
    parent_id: number | null;
    sort: number;
    in_menu: boolean;
    seo?: Seo | undefined;
  },
): Promise<SectionChange> {
  const parent = await checkParent(db, input.parent_id);
  if (isRefusal(parent)) return parent;
  const url = `${parent ? parent.url : '/catalog/'}${input.code}/`;
  const [taken] = await db
    .select({ id: sections.id, url: sections.url })
    .from(sections)
    .where(sql`${sections.code} = ${input.code} or ${sections.url} = ${url}`)
    .limit(1);
  if (taken) return refuse(409, 'code', `Код «${input.code}» уже занят другим разделом`);
  const [row] = await db
    .insert(sections)
    .values({
      code: input.code,
      name: input.name,
      url,
      parentId: input.parent_id,
      sort: input.sort,
      inMenu: input.in_menu,
    })
    .returning();
  if (!row) throw new Error('section insert returned nothing');
  const seo = input.seo ?? { title: '', description: '', keywords: '', text: '' };
  await writeSeo(db, url, seo, 'seoBottom');
  await bumpCatalogVersion(db);
  return { ok: true, id: row.id, before: null, after: sectionSnapshot(row, seo) };
}

export async function updateSection(
  db: Database,
  id: number,
  input: {
    name?: string | undefined;
    parent_id?: number | null | undefined;
    sort?: number | undefined;
    in_menu?: boolean | undefined;
    seo?: Seo | undefined;
  },
): Promise<SectionChange> {
  const [current] = await db.select().from(sections).where(eq(sections.id, id)).for('update');
  if (!current) return refuse(404, 'id', 'Раздел не найден');
  if (input.parent_id !== undefined && input.parent_id !== current.parentId) {
    const parent = await checkParent(db, input.parent_id, id);
    if (isRefusal(parent)) return parent;
    if (input.parent_id !== null) {
      const [child] = await db.select({ id: sections.id }).from(sections).where(eq(sections.parentId, id)).limit(1);
      if (child) return refuse(400, 'parent_id', 'У раздела есть подразделы: его нельзя вложить в другой');
    }
  }
  const seoBefore = await readSeo(db, current.url, 'seoBottom');
  const [row] = await db
    .update(sections)
    .set({
      name: input.name ?? current.name,
      parentId: input.parent_id === undefined ? current.parentId : input.parent_id,
      sort: input.sort ?? current.sort,
      inMenu: input.in_menu ?? current.inMenu,
    })
    .where(eq(sections.id, id))
    .returning();
  if (!row) throw new Error('section update returned nothing');
  if (input.seo) await writeSeo(db, row.url, input.seo, 'seoBottom');
  const before = sectionSnapshot(current, seoBefore);
  const after = sectionSnapshot(row, input.seo ?? seoBefore);
  const b: Record<string, unknown> = {};
  const a: Record<string, unknown> = {};
  for (const k of Object.keys(after) as (keyof typeof after)[])
    if (JSON.stringify(before[k]) !== JSON.stringify(after[k])) {
      b[k] = before[k];
      a[k] = after[k];
    }
  if (Object.keys(a).length === 0) return refuse(409, 'id', 'Ничего не изменилось');
  await bumpCatalogVersion(db);
  return { ok: true, id, before: b, after: a };
}

/** Puts the children of one parent (null: the top level) in the given order (sort 10, 20, …). */
export async function orderSections(
  db: Database,
  parentId: number | null,
  ids: number[],
): Promise<{ ok: true; before: number[]; after: number[] } | Refusal> {
  const siblings = await db
    .select()
    .from(sections)
    .where(parentId === null ? sql`${sections.parentId} is null` : eq(sections.parentId, parentId))
    .orderBy(asc(sections.sort), asc(sections.id))
    .for('update');
  const have = siblings.map((s) => s.id);
  if (ids.length !== have.length || new Set(ids).size !== ids.length || ids.some((id) => !have.includes(id)))
    return refuse(400, 'ids', 'Перечислите все разделы этого уровня, каждый один раз');
  if (ids.every((id, i) => have[i] === id)) return refuse(409, 'ids', 'Порядок не изменился');
  for (const [i, id] of ids.entries())
    await db
      .update(sections)
      .set({ sort: (i + 1) * 10 })
      .where(eq(sections.id, id));
  await bumpCatalogVersion(db);
  return { ok: true, before: have, after: ids };
}
