import { containsPattern } from '~/db/like';
import { and, asc, desc, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import type { Database } from '~/db/client.server';
import { contentEntries, pageMeta, products, redirects, sections } from '~/db/schema';
import { canonicalPagePath } from '~/core/redirects';
import { checkRedirectFrom, checkRedirectTo, findRedirectLoop, type ImportLine } from '~/core/redirect-rules';
import { CONFLICT_ERROR, type Refusal } from './content.server';

// Page metadata (page_meta: per-route title, description, keywords) and staff redirects (issue
// #30 "The site's words") as lists the content role edits. Every save is checked against the
// version the editor opened (two staff at once: the second is told, nothing is lost). Redirects
// are refused when they would loop (also through a chain), start at a live page (a product, a
// section, an information page, an article) or are not addresses at all.

const refuse = (status: number, field: string, error: string): Refusal => ({ ok: false, status, field, error });

export type PageMetaRow = typeof pageMeta.$inferSelect;
export type RedirectRow = typeof redirects.$inferSelect;

export async function listPageMeta(
  db: Database,
  q: string | undefined,
  order: 'asc' | 'desc',
  offset: number,
  limit: number,
) {
  const cond = q ? or(ilike(pageMeta.path, containsPattern(q)), ilike(pageMeta.title, containsPattern(q))) : undefined;
  const rows = await db
    .select()
    .from(pageMeta)
    .where(cond)
    .orderBy(order === 'asc' ? asc(pageMeta.path) : desc(pageMeta.path))
    .offset(offset)
    .limit(limit);
  const [total] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(pageMeta)
    .where(cond);
  return { rows, total: Number(total?.n ?? 0) };
}

export async function getPageMetaRow(db: Database, path: string): Promise<PageMetaRow | null> {
  const [row] = await db.select().from(pageMeta).where(eq(pageMeta.path, path));
  return row ?? null;
}

export const metaSnapshot = (r: PageMetaRow) => ({
  path: r.path,
  title: r.title,
  description: r.description,
  keywords: r.keywords,
  seo_bottom: r.seoBottom,
  version: r.version,
});

export interface MetaInput {
  title: string;
  description: string;
  keywords: string;
  seo_bottom?: string | null | undefined;
}

/** A new entry for a path (201) or, with `version`, an edit of the existing one. */
export async function savePageMeta(
  db: Database,
  rawPath: string,
  input: MetaInput,
  version: number | null,
): Promise<
  | { ok: true; path: string; before: ReturnType<typeof metaSnapshot> | null; after: ReturnType<typeof metaSnapshot> }
  | Refusal
> {
  if (!rawPath.startsWith('/') || rawPath.startsWith('//') || /[\s?#]/.test(rawPath))
    return refuse(400, 'path', 'Адрес страницы — путь на этом сайте, начинается с «/», без пробелов, «?» и «#»');
  const path = canonicalPagePath(rawPath);
  const [cur] = await db.select().from(pageMeta).where(eq(pageMeta.path, path)).for('update');
  if (version === null) {
    if (cur) return refuse(409, 'path', `Для адреса ${path} метаданные уже есть: откройте их и измените`);
    const [row] = await db
      .insert(pageMeta)
      .values({
        path,
        title: input.title,
        description: input.description,
        keywords: input.keywords,
        seoBottom: input.seo_bottom ?? null,
        version: 2,
      })
      .onConflictDoNothing()
      .returning();
    if (!row) return refuse(409, 'path', `Для адреса ${path} метаданные уже есть: откройте их и измените`);
    return { ok: true, path, before: null, after: metaSnapshot(row) };
  }
  if (!cur) return refuse(404, 'path', 'Метаданные не найдены');
  if (cur.version !== version) return refuse(409, 'version', CONFLICT_ERROR);
  const [row] = await db
    .update(pageMeta)
    .set({
      title: input.title,
      description: input.description,
      keywords: input.keywords,
      ...(input.seo_bottom !== undefined ? { seoBottom: input.seo_bottom } : {}),
      version: sql`${pageMeta.version} + 1`,
    })
    .where(and(eq(pageMeta.path, path), eq(pageMeta.version, version)))
    .returning();
  if (!row) return refuse(409, 'version', CONFLICT_ERROR);
  return { ok: true, path, before: metaSnapshot(cur), after: metaSnapshot(row) };
}

// ── Redirects ──────────────────────────────────────────────────────────────

export async function listRedirects(
  db: Database,
  q: string | undefined,
  order: 'asc' | 'desc',
  offset: number,
  limit: number,
) {
  const cond = q
    ? or(ilike(redirects.fromPath, containsPattern(q)), ilike(redirects.toUrl, containsPattern(q)))
    : undefined;
  const rows = await db
    .select()
    .from(redirects)
    .where(cond)
    .orderBy(order === 'asc' ? asc(redirects.fromPath) : desc(redirects.fromPath))
    .offset(offset)
    .limit(limit);
  const [total] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(redirects)
    .where(cond);
  return { rows, total: Number(total?.n ?? 0) };
}

export async function getRedirectRow(db: Database, fromPath: string): Promise<RedirectRow | null> {
  const [row] = await db.select().from(redirects).where(eq(redirects.fromPath, fromPath));
  return row ?? null;
}

export const redirectSnapshot = (r: RedirectRow) => ({
  from: r.fromPath,
  to: r.toUrl,
  status: r.status,
  version: r.version,
});

/** Why this address cannot be redirected away from: it is a live page of the shop; null when it may. */
async function livePage(db: Database, path: string): Promise<string | null> {
  // Information pages are the storefront's routes, each with its row (published or not).
  const info = /^\/([a-z0-9-]+)\/$/.exec(path);
  if (info) {
    const [p] = await db
      .select({ id: contentEntries.id })
      .from(contentEntries)
      .where(and(eq(contentEntries.kind, 'page'), eq(contentEntries.slug, info[1] ?? '')));
    if (p) return 'Это адрес информационной страницы: она открыта для покупателей';
  }
  const blog = /^\/blog\/([a-z0-9-]+)\/$/.exec(path);
  if (blog) {
    const [a] = await db
      .select({ published: contentEntries.published })
      .from(contentEntries)
      .where(and(eq(contentEntries.kind, 'article'), eq(contentEntries.slug, blog[1] ?? '')));
    if (a?.published) return 'Это адрес опубликованной статьи блога';
  }
  if (path === '/blog/' || path === '/catalog/' || path === '/search/' || path === '/basket/' || path === '/personal/')
    return 'Это адрес страницы магазина';
  const [s] = await db.select({ name: sections.name }).from(sections).where(eq(sections.url, path));
  if (s) return `Это адрес раздела каталога «${s.name}»`;
  const slug = /^\/catalog\/(?:[^/]+\/)+([^/]+)\/$/.exec(path)?.[1];
  if (slug) {
    const [p] = await db
      .select({ name: products.name })
      .from(products)
      .where(and(eq(products.slug, slug), eq(products.active, true)));
    if (p) return `Это адрес товара «${p.name}»`;
  }
  return null;
}

interface Checked {
  from: string;
  to: string;
  status: number;
}

/**
 * Checks one redirect against the table as it would be with `pending` (the rest of an import)
 * applied: the addresses, a live page, a loop. Answers the canonical redirect or the refusal.
 */
async function checkRedirect(
  db: Database,
  input: { from: string; to: string; status: number },
  pending: Map<string, string>,
  apiPrefix: string,
): Promise<Checked | Refusal> {
  const from = checkRedirectFrom(input.from, apiPrefix);
  if (!from.ok) return refuse(400, 'from', from.error);
  const to = checkRedirectTo(input.to);
  if (!to.ok) return refuse(400, 'to', to.error);
  if (![301, 302, 307, 308].includes(input.status))
    return refuse(400, 'status', 'Код перенаправления — 301, 302, 307 или 308');
  const live = await livePage(db, from.value);
  if (live) return refuse(400, 'from', `${live}: перенаправлять с него нельзя`);
  // The chain from the new target through stored (and pending) redirects.
  const stored = new Map<string, string>();
  let next = to.value;
  for (let i = 0; i < 50; i++) {
    const path = canonicalPagePath(next.split(/[?#]/)[0] ?? '');
    if (/^https?:\/\//i.test(next) || stored.has(path)) break;
    const hop = pending.get(path) ?? (await getRedirectRow(db, path))?.toUrl;
    if (hop === undefined) break;
    stored.set(path, hop);
    next = hop;
  }
  const loop = findRedirectLoop(from.value, to.value, (p) => (p === from.value ? undefined : stored.get(p)));
  if (loop) return refuse(400, 'to', `Перенаправление зациклится: ${loop.join(' → ')}. Измените новый адрес`);
  return { from: from.value, to: to.value, status: input.status };
}
const isRefusal = (v: unknown): v is Refusal => typeof v === 'object' && v !== null && (v as Refusal).ok === false;

export async function createRedirect(
  db: Database,
  input: { from: string; to: string; status: number },
  apiPrefix: string,
) {
  const c = await checkRedirect(db, input, new Map(), apiPrefix);
  if (isRefusal(c)) return c;
  const [row] = await db
    .insert(redirects)
    .values({ fromPath: c.from, toUrl: c.to, status: c.status, version: 1 })
    .onConflictDoNothing()
    .returning();
  if (!row) return refuse(409, 'from', `Перенаправление с ${c.from} уже есть: откройте его и измените`);
  return { ok: true as const, from: c.from, before: null, after: redirectSnapshot(row) };
}

export async function updateRedirect(
  db: Database,
  fromPath: string,
  input: { to: string; status: number },
  version: number,
  apiPrefix: string,
) {
  const [cur] = await db.select().from(redirects).where(eq(redirects.fromPath, fromPath)).for('update');
  if (!cur) return refuse(404, 'from', 'Перенаправление не найдено');
  if (cur.version !== version) return refuse(409, 'version', CONFLICT_ERROR);
  const c = await checkRedirect(db, { from: fromPath, ...input }, new Map(), apiPrefix);
  if (isRefusal(c)) return c;
  const [row] = await db
    .update(redirects)
    .set({ toUrl: c.to, status: c.status, version: sql`${redirects.version} + 1` })
    .where(and(eq(redirects.fromPath, fromPath), eq(redirects.version, version)))
    .returning();
  if (!row) return refuse(409, 'version', CONFLICT_ERROR);
  return { ok: true as const, from: fromPath, before: redirectSnapshot(cur), after: redirectSnapshot(row) };
}

export async function deleteRedirect(db: Database, fromPath: string, version: number) {
  const [cur] = await db.select().from(redirects).where(eq(redirects.fromPath, fromPath)).for('update');
  if (!cur) return refuse(404, 'from', 'Перенаправление не найдено');
  if (cur.version !== version) return refuse(409, 'version', CONFLICT_ERROR);
  await db.delete(redirects).where(eq(redirects.fromPath, fromPath));
  return { ok: true as const, from: fromPath, before: redirectSnapshot(cur), after: null };
}

export interface ImportResult {
  create: { line: number; from: string; to: string; status: number }[];
  change: {
    line: number;
    from: string;
    before: { to: string; status: number };
    after: { to: string; status: number };
  }[];
  unchanged: number;
  errors: { line: number; error: string }[];
}

/**
 * The bulk import's plan: each line checked against the table with the lines before it applied
 * (a chain inside the import is seen), the same address twice refused. `apply` writes it all
 * when there is no error; the caller rolls back otherwise (all or nothing).
 */
export async function planRedirectImport(
  db: Database,
  lines: ImportLine[],
  readErrors: { line: number; error: string }[],
  apiPrefix: string,
): Promise<ImportResult> {
  const result: ImportResult = { create: [], change: [], unchanged: 0, errors: [...readErrors] };
  const pending = new Map<string, string>();
  const seen = new Map<string, number>();
  const fromPaths = lines.flatMap((l) => {
    const f = checkRedirectFrom(l.from, apiPrefix);
    return f.ok ? [f.value] : [];
  });
  const existing = new Map(
    fromPaths.length
      ? (await db.select().from(redirects).where(inArray(redirects.fromPath, fromPaths))).map((r) => [r.fromPath, r])
      : [],
  );
  for (const l of lines) {
    const c = await checkRedirect(db, l, pending, apiPrefix);
    if (isRefusal(c)) {
      result.errors.push({ line: l.line, error: c.error });
      continue;
    }
    const twice = seen.get(c.from);
    if (twice !== undefined) {
      result.errors.push({ line: l.line, error: `Адрес ${c.from} уже есть в строке ${twice}` });
      continue;
    }
    seen.set(c.from, l.line);
    pending.set(c.from, c.to);
    const cur = existing.get(c.from);
    if (!cur) result.create.push({ line: l.line, from: c.from, to: c.to, status: c.status });
    else if (cur.toUrl === c.to && cur.status === c.status) result.unchanged++;
    else
      result.change.push({
        line: l.line,
        from: c.from,
        before: { to: cur.toUrl, status: cur.status },
        after: { to: c.to, status: c.status },
      });
  }
  result.errors.sort((a, b) => a.line - b.line);
  return result;
}

export async function applyRedirectImport(db: Database, plan: ImportResult): Promise<void> {
  for (const c of plan.create)
    await db.insert(redirects).values({ fromPath: c.from, toUrl: c.to, status: c.status, version: 1 });
  for (const c of plan.change)
    await db
      .update(redirects)
      .set({ toUrl: c.after.to, status: c.after.status, version: sql`${redirects.version} + 1` })
      .where(eq(redirects.fromPath, c.from));
}
