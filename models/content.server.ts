import { containsPattern } from '~/db/like';
import { and, asc, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { Database } from '~/db/client.server';
import { appState, contentEntries, pageMeta } from '~/db/schema';

// Information pages and blog articles in the database (issue #30 "The site's words"). The files
// of content/pages and content/blog are the seed: read into the table at every start, so a fresh
// shop shows exactly what the files say and a deploy brings a corrected or new file to a running
// shop, except to rows staff have saved (api/content/store.server.ts). Staff edit them in the back office (Markdown, the
// publication flag and date, the cover, the SEO texts of the page's page_meta row).

export type ContentKind = 'page' | 'article';
export type ContentRow = typeof contentEntries.$inferSelect;
export interface Refusal {
  ok: false;
  status: number;
  field: string;
  error: string;
}
const refuse = (status: number, field: string, error: string): Refusal => ({ ok: false, status, field, error });

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const isContentSlug = (value: string) => value.length <= 100 && SLUG.test(value);

/** The page's address on the storefront, the key of its page_meta row. */
export const contentPath = (kind: ContentKind, slug: string) => (kind === 'page' ? `/${slug}/` : `/blog/${slug}/`);

/** What a content file gives its row. */
export type ContentFileFields = Pick<
  typeof contentEntries.$inferInsert,
  'kind' | 'slug' | 'title' | 'lead' | 'body' | 'publishedOn' | 'coverKind' | 'coverColor' | 'products'
>;

/** Every row (dozens), to compare with the content files at start. */
export async function listAllContent(db: Database): Promise<ContentRow[]> {
  return db.select().from(contentEntries);
}

/** Rows of new files; two processes starting at once: the unique (kind, slug) keeps one copy. */
export async function insertFileContent(db: Database, rows: ContentFileFields[]): Promise<void> {
  if (rows.length) await db.insert(contentEntries).values(rows).onConflictDoNothing();
}

/**
 * A changed file's text into its row, only while no one in the back office has saved the row
 * (version 1): a save made meanwhile wins. True when written.
 */
export async function updateFromFile(db: Database, id: number, fields: ContentFileFields): Promise<boolean> {
  const written = await db
    .update(contentEntries)
    .set({ ...fields, updatedAt: sql`now()` })
    .where(and(eq(contentEntries.id, id), eq(contentEntries.version, 1)))
    .returning({ id: contentEntries.id });
  return written.length > 0;
}

const FILE_KEYS = 'content_files';

/** The rows (`kind/slug`) that came from content files; null before the first start that recorded them. */
export async function readFileContentKeys(db: Database): Promise<string[] | null> {
  const [row] = await db.select({ value: appState.value }).from(appState).where(eq(appState.key, FILE_KEYS));
  return Array.isArray(row?.value) ? (row.value as string[]) : null;
}

export async function recordFileContentKeys(db: Database, keys: string[]): Promise<void> {
  await db
    .insert(appState)
    .values({ key: FILE_KEYS, value: keys })
    .onConflictDoUpdate({ target: appState.key, set: { value: keys, updatedAt: sql`now()` } });
}

export async function getContentEntry(db: Database, kind: ContentKind, slug: string): Promise<ContentRow | null> {
  const [row] = await db
    .select()
    .from(contentEntries)
    .where(and(eq(contentEntries.kind, kind), eq(contentEntries.slug, slug)));
  return row ?? null;
}

export async function getContentById(db: Database, id: number): Promise<ContentRow | null> {
  const [row] = await db.select().from(contentEntries).where(eq(contentEntries.id, id));
  return row ?? null;
}

/** Published articles, newest first. */
export async function listPublishedArticles(db: Database): Promise<ContentRow[]> {
  return db
    .select()
    .from(contentEntries)
    .where(and(eq(contentEntries.kind, 'article'), eq(contentEntries.published, true)))
    .orderBy(desc(contentEntries.publishedOn), asc(contentEntries.slug));
}

export async function listContent(
  db: Database,
  q: { kind?: ContentKind | undefined; q?: string | undefined; published?: boolean | undefined },
  sort: 'title' | 'updated_at' | 'published_on',
  order: 'asc' | 'desc',
  offset: number,
  limit: number,
) {
  const where: SQL[] = [];
  if (q.kind) where.push(eq(contentEntries.kind, q.kind));
  if (q.published !== undefined) where.push(eq(contentEntries.published, q.published));
  if (q.q) {
    const like = containsPattern(q.q);
    const w = or(ilike(contentEntries.title, like), ilike(contentEntries.slug, like));
    if (w) where.push(w);
  }
  const cond = where.length ? and(...where) : undefined;
  const col =
    sort === 'title'
      ? contentEntries.title
      : sort === 'published_on'
        ? contentEntries.publishedOn
        : contentEntries.updatedAt;
  const rows = await db
    .select()
    .from(contentEntries)
    .where(cond)
    .orderBy(order === 'asc' ? asc(col) : desc(col), asc(contentEntries.id))
    .offset(offset)
    .limit(limit);
  const [total] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(contentEntries)
    .where(cond);
  return { rows, total: Number(total?.n ?? 0) };
}

export interface ContentSeo {
  title: string;
  description: string;
  keywords: string;
}

export async function readContentSeo(db: Database, kind: ContentKind, slug: string): Promise<ContentSeo> {
  const [row] = await db
    .select()
    .from(pageMeta)
    .where(eq(pageMeta.path, contentPath(kind, slug)));
  return { title: row?.title ?? '', description: row?.description ?? '', keywords: row?.keywords ?? '' };
}

/** Everything staff can change, as the audit log shows it before and after. */
export function contentSnapshot(r: ContentRow, seo: ContentSeo) {
  return {
    kind: r.kind,
    slug: r.slug,
    title: r.title,
    lead: r.lead,
    body: r.body,
    published: r.published,
    published_on: r.publishedOn,
    cover_kind: r.coverKind,
    cover_color: r.coverColor,
    cover_photo: r.coverPhoto,
    products: r.products,
    seo,
    version: r.version,
  };
}

export interface ContentInput {
  title?: string | undefined;
  lead?: string | undefined;
  body?: string | undefined;
  published?: boolean | undefined;
  published_on?: string | null | undefined;
  cover_kind?: string | null | undefined;
  cover_color?: string | null | undefined;
  cover_photo?: string | null | undefined;
  products?: string | undefined;
  seo?: Partial<ContentSeo> | undefined;
}

export type ContentChange =
  | {
      ok: true;
      id: number;
      before: ReturnType<typeof contentSnapshot> | null;
      after: ReturnType<typeof contentSnapshot>;
    }
  | Refusal;

export const CONFLICT_ERROR =
  'Эту страницу уже изменил другой сотрудник, пока вы её редактировали. Обновите страницу: ваши правки не сохранены, скопируйте их перед обновлением';

async function writeSeo(db: Database, kind: ContentKind, slug: string, seo: Partial<ContentSeo>, title: string) {
  const cur = await readContentSeo(db, kind, slug);
  const next = {
    title: seo.title ?? cur.title ?? '',
    description: seo.description ?? cur.description,
    keywords: seo.keywords ?? cur.keywords,
  };
  if (!next.title) next.title = `${title} — Vitrina`;
  await db
    .insert(pageMeta)
    .values({ path: contentPath(kind, slug), ...next, version: 2 })
    .onConflictDoUpdate({
      target: pageMeta.path,
      set: { ...next, version: sql`${pageMeta.version} + 1` },
    });
}

/** A new blog article (pages are the storefront's fixed routes: staff edit, never add, them). */
export async function createArticle(
  db: Database,
  slug: string,
  input: ContentInput,
  today: string,
): Promise<ContentChange> {
  if (!isContentSlug(slug))
    return refuse(400, 'slug', 'Адрес статьи — латинские буквы, цифры и дефисы, например kak-nosit-palto');
  if (await getContentEntry(db, 'article', slug)) return refuse(409, 'slug', 'Статья с таким адресом уже есть');
  const [row] = await db
    .insert(contentEntries)
    .values({
      kind: 'article',
      slug,
      title: input.title ?? slug,
      lead: input.lead ?? '',
      body: input.body ?? '',
      published: input.published ?? false,
      publishedOn: input.published_on ?? today,
      coverKind: input.cover_kind ?? 'coat',
      coverColor: input.cover_color ?? '#b59a78',
      coverPhoto: input.cover_photo ?? null,
      products: input.products ?? '',
    })
    .onConflictDoNothing()
    .returning();
  if (!row) return refuse(409, 'slug', 'Статья с таким адресом уже есть');
  if (input.seo) await writeSeo(db, 'article', slug, input.seo, row.title);
  return { ok: true, id: row.id, before: null, after: contentSnapshot(row, await readContentSeo(db, 'article', slug)) };
}

/**
 * Saves staff's edit when the row is still at the version they opened (`version`): a second
 * save from an older copy is refused with CONFLICT_ERROR, never written over the first.
 */
export async function updateContent(
  db: Database,
  id: number,
  version: number,
  input: ContentInput,
): Promise<ContentChange> {
  const [cur] = await db.select().from(contentEntries).where(eq(contentEntries.id, id)).for('update');
  if (!cur) return refuse(404, 'id', 'Страница не найдена');
  if (cur.version !== version) return refuse(409, 'version', CONFLICT_ERROR);
  const before = contentSnapshot(cur, await readContentSeo(db, cur.kind, cur.slug));
  if (cur.kind === 'page' && input.published_on)
    return refuse(400, 'published_on', 'У информационной страницы нет даты публикации');
  const [row] = await db
    .update(contentEntries)
    .set({
      ...(input.title !== undefined ? { title: input.title } : {}),
      ...(input.lead !== undefined ? { lead: input.lead } : {}),
      ...(input.body !== undefined ? { body: input.body } : {}),
      ...(input.published !== undefined ? { published: input.published } : {}),
      ...(input.published_on !== undefined && cur.kind === 'article' ? { publishedOn: input.published_on } : {}),
      ...(input.cover_kind !== undefined ? { coverKind: input.cover_kind } : {}),
      ...(input.cover_color !== undefined ? { coverColor: input.cover_color } : {}),
      ...(input.cover_photo !== undefined ? { coverPhoto: input.cover_photo } : {}),
      ...(input.products !== undefined ? { products: input.products } : {}),
      version: sql`${contentEntries.version} + 1`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(contentEntries.id, id), eq(contentEntries.version, version)))
    .returning();
  if (!row) return refuse(409, 'version', CONFLICT_ERROR);
  if (input.seo) await writeSeo(db, row.kind, row.slug, input.seo, row.title);
  return { ok: true, id, before, after: contentSnapshot(row, await readContentSeo(db, row.kind, row.slug)) };
}

/** An article's uploaded cover (a path under the media root), or null for the drawing again. */
export async function setContentCover(db: Database, id: number, coverPhoto: string | null): Promise<ContentChange> {
  const [cur] = await db.select().from(contentEntries).where(eq(contentEntries.id, id)).for('update');
  if (!cur) return refuse(404, 'id', 'Статья не найдена');
  if (cur.kind !== 'article') return refuse(400, 'files', 'Обложка бывает только у статьи блога');
  return updateContent(db, id, cur.version, { cover_photo: coverPhoto });
}
