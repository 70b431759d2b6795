import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  ArticleCreateBody,
  ContentListResponse,
  ContentOneResponse,
  ContentPatchBody,
  PageMetaCreateBody,
  PageMetaListResponse,
  PageMetaOneResponse,
  PageMetaPatchBody,
  PreviewBody,
  PreviewResponse,
  RedirectCreateBody,
  RedirectDeleteBody,
  RedirectImportBody,
  RedirectImportResponse,
  RedirectListResponse,
  RedirectOneResponse,
  RedirectPatchBody,
  type ContentItem,
} from '~/shared/admin-content-contract';
import {
  contentPath,
  createArticle,
  setContentCover,
  getContentById,
  listContent,
  readContentSeo,
  updateContent,
  type ContentRow,
} from '~/models/content.server';
import {
  applyRedirectImport,
  createRedirect,
  deleteRedirect,
  getPageMetaRow,
  getRedirectRow,
  listPageMeta,
  listRedirects,
  planRedirectImport,
  savePageMeta,
  updateRedirect,
  type PageMetaRow,
  type RedirectRow,
} from '~/models/site-words.server';
import { parseRedirectLines } from '~/core/redirect-rules';
import { canonicalPagePath } from '~/core/redirects';
import { entityAudit } from '~/models/audit.server';
import { CONTENT_DIR, articleOf, ensureContentSeeded, renderPage } from '~/api/content/store.server';
import { renderMarkdown } from '~/api/content/markdown';
import { notFound } from '~/api/http.server';
import { auditItem } from './mappers';
import { adminChange, adminRead, filterValue, IdParams, listQuery, refusal } from './action.server';
import type { AdminDeps } from './context.server';
import type { UploadedFileInfo } from './multipart.server';

// The site's words in the back office (issue #30): information pages and blog articles in
// Markdown (the preview is the storefront's own rendering, sanitised), page metadata and
// redirects with their bulk import. Roles content and admin. Every save is checked against the
// version the editor opened and audited with before and after in its transaction; guests see it
// within the data version's bound (api/meta/data-version.server.ts hashes these tables).

const API_PREFIX = '/backend';
const KeyParams = z.object({ id: z.string().min(1).max(2000) });

const item = (r: ContentRow): ContentItem => ({
  id: r.id,
  kind: r.kind,
  slug: r.slug,
  url: contentPath(r.kind, r.slug),
  title: r.title,
  lead: r.lead,
  published: r.published,
  published_on: r.publishedOn,
  updated_at: r.updatedAt.toISOString(),
  version: r.version,
});
const metaItem = (r: PageMetaRow) => ({
  id: r.path,
  path: r.path,
  title: r.title,
  description: r.description,
  keywords: r.keywords,
  seo_bottom: r.seoBottom,
  version: r.version,
});
const redirectItem = (r: RedirectRow) => ({
  id: r.fromPath,
  from: r.fromPath,
  to: r.toUrl,
  status: r.status,
  version: r.version,
});

const render = (
  r: { kind: 'page' | 'article'; slug: string; title: string; lead: string; body: string },
  row?: ContentRow,
) => (r.kind === 'article' && row ? articleOf(row).html : renderPage(r).html);

export async function adminContentRoutes(app: FastifyInstance, deps: AdminDeps): Promise<void> {
  const { db } = deps;
  const seeded = () => ensureContentSeeded(db, CONTENT_DIR);
  const one = async (dbx: typeof db, id: number) => {
    const r = await getContentById(dbx, id);
    if (!r) return null;
    return {
      ...item(r),
      body: r.body,
      cover_kind: r.coverKind,
      cover_color: r.coverColor,
      cover_photo: r.coverPhoto,
      products: r.products,
      seo: await readContentSeo(dbx, r.kind, r.slug),
      html: render(r, r),
      audit: (await entityAudit(dbx, 'content', id)).map(auditItem),
    };
  };

  adminRead(app, deps, {
    url: '/content',
    summary: 'Information pages and blog articles (kind=page|article, q in the title or address, published)',
    permission: 'pages:write',
    query: listQuery(
      ['title', 'updated_at', 'published_on'],
      { sort: 'title', order: 'asc' },
      {
        kind: filterValue(z.enum(['page', 'article'])),
        q: filterValue(z.string().max(200)),
        published: filterValue(z.enum(['true', 'false']).transform((v) => v === 'true')),
      },
    ),
    response: ContentListResponse,
    handler: async ({ query }) => {
      await seeded();
      const { rows, total } = await listContent(db, query, query.sort, query.order, query.offset, query.limit);
      return { data: rows.map(item), total };
    },
  });

  adminRead(app, deps, {
    url: '/content/:id',
    summary: 'One page or article: its Markdown, the rendering guests get, SEO texts and history',
    permission: 'pages:write',
    params: IdParams,
    response: ContentOneResponse,
    handler: async ({ params, reply }) => {
      await seeded();
      const data = await one(db, params.id);
      if (!data) return notFound(reply);
      return { data };
    },
  });

  adminChange(app, deps, {
    method: 'POST',
    url: '/content/preview',
    summary: 'Markdown rendered as the storefront renders it (raw HTML and unsafe links escaped); changes nothing',
    permission: 'pages:write',
    body: PreviewBody,
    response: PreviewResponse,
    run: async ({ body }) => ({
      ok: false,
      // Not a change: answered as the "refusal" path so nothing is kept or audited.
      status: 200,
      body: { html: renderMarkdown(body.body) },
    }),
  });

  adminChange(app, deps, {
    method: 'POST',
    url: '/content',
    summary: 'A new blog article (201); unpublished unless `published` says otherwise',
    permission: 'blog:write',
    body: ArticleCreateBody,
    response: ContentOneResponse,
    run: async ({ tx, body, now }) => {
      await seeded();
      const r = await createArticle(tx, body.slug, body, now.toISOString().slice(0, 10));
      if (!r.ok) return refusal(r);
      return {
        ok: true,
        status: 201,
        body: { data: await one(tx, r.id) },
        audit: { action: 'content.create', entityType: 'content', entityId: r.id, before: null, after: r.after },
      };
    },
  });

  adminChange(app, deps, {
    method: 'PATCH',
    url: '/content/:id',
    summary: 'Edits a page or article (text, publication, date, cover, SEO) at the version the editor opened',
    permission: 'pages:write',
    params: IdParams,
    body: ContentPatchBody,
    response: ContentOneResponse,
    run: async ({ tx, params, body }) => {
      const { version, ...input } = body;
      const r = await updateContent(tx, params.id, version, input);
      if (!r.ok) return refusal(r);
      const action =
        input.published === undefined || input.published === r.before?.published
          ? 'content.update'
          : input.published
            ? 'content.publish'
            : 'content.unpublish';
      return {
        ok: true,
        body: { data: await one(tx, params.id) },
        audit: { action, entityType: 'content', entityId: params.id, before: r.before, after: r.after },
      };
    },
  });

  const CoverBody = z.object({
    files: z
      .array(z.object({ name: z.string(), type: z.string(), size: z.number(), sha256: z.string() }))
      .min(1, 'Выберите фотографию')
      .max(1, 'Обложка — одна фотография'),
    alt: z.array(z.string().max(300)).max(1).default([]),
  });

  adminChange(app, deps, {
    method: 'POST',
    url: '/content/:id/cover',
    summary:
      "An article's cover photo (multipart/form-data: one file in `files`) through the product photo pipeline: JPEG, PNG, WebP or AVIF, checked, re-encoded, stored at a new address",
    permission: 'blog:write',
    params: IdParams,
    body: CoverBody,
    multipart: {
      docBody: z.object({ files: z.array(z.string().meta({ format: 'binary' })).describe('One image file') }),
    },
    response: ContentOneResponse,
    run: async ({ tx, params, body, req }) => {
      const store = deps.productPhotos;
      if (!store) return refusal({ status: 503, field: 'files', error: 'Загрузка фотографий не настроена' });
      const file = (body.files as UploadedFileInfo[])[0];
      const prepared = await store.prepare([{ name: file?.name ?? '', bytes: req.uploads?.[0] ?? new Uint8Array() }]);
      if (!prepared.ok) return refusal({ status: 400, field: 'files', error: prepared.error });
      const stored = await store.store(prepared.photos);
      const undo = () => store.remove(stored.map((s) => s.path));
      try {
        const r = await setContentCover(tx, params.id, stored[0]?.path ?? null);
        if (!r.ok) {
          await undo();
          return refusal(r);
        }
        return {
          ok: true,
          body: { data: await one(tx, params.id) },
          audit: {
            action: 'content.cover',
            entityType: 'content',
            entityId: params.id,
            before: r.before,
            after: r.after,
          },
          onRollback: undo,
        };
      } catch (err) {
        await undo();
        throw err;
      }
    },
  });

  adminChange(app, deps, {
    method: 'POST',
    url: '/content/:id/cover/remove',
    summary: "Drops an article's cover photo: the drawing shows again (the file stays for pages cached with it)",
    permission: 'blog:write',
    params: IdParams,
    body: z.object({}).strict(),
    response: ContentOneResponse,
    run: async ({ tx, params }) => {
      const r = await setContentCover(tx, params.id, null);
      if (!r.ok) return refusal(r);
      return {
        ok: true,
        body: { data: await one(tx, params.id) },
        audit: {
          action: 'content.cover',
          entityType: 'content',
          entityId: params.id,
          before: r.before,
          after: r.after,
        },
      };
    },
  });

  // ── Page metadata ──
  // One row with its history, as the edit screens read it (data null when there is none).
  const withHistory =
    <R, I>(entityType: string, read: (dbx: typeof db, key: string) => Promise<R | null>, item: (row: R) => I) =>
    async (dbx: typeof db, key: string) => {
      const row = await read(dbx, key);
      return { data: row ? { ...item(row), audit: (await entityAudit(dbx, entityType, key)).map(auditItem) } : null };
    };
  const metaAnswer = withHistory('page_meta', getPageMetaRow, metaItem);
  const redirectAnswer = withHistory('redirect', getRedirectRow, redirectItem);

  adminRead(app, deps, {
    url: '/page-meta',
    summary: 'Page metadata by address (q in the address or title)',
    permission: 'page_meta:write',
    query: listQuery(['path'], { sort: 'path', order: 'asc' }, { q: filterValue(z.string().max(200)) }),
    response: PageMetaListResponse,
    handler: async ({ query }) => {
      const { rows, total } = await listPageMeta(db, query.q, query.order, query.offset, query.limit);
      return { data: rows.map(metaItem), total };
    },
  });

  adminRead(app, deps, {
    url: '/page-meta/:id',
    summary: "One address's metadata (the id is the path) and its history",
    permission: 'page_meta:write',
    params: KeyParams,
    response: PageMetaOneResponse,
    handler: async ({ params, reply }) => {
      const a = await metaAnswer(db, canonicalPagePath(params.id));
      if (!a.data) return notFound(reply);
      return a;
    },
  });

  adminChange(app, deps, {
    method: 'POST',
    url: '/page-meta',
    summary: 'Metadata for an address that has none (201)',
    permission: 'page_meta:write',
    body: PageMetaCreateBody,
    response: PageMetaOneResponse,
    run: async ({ tx, body }) => {
      const { path, ...input } = body;
      const r = await savePageMeta(tx, path, input, null);
      if (!r.ok) return refusal(r);
      return {
        ok: true,
        status: 201,
        body: await metaAnswer(tx, r.path),
        audit: { action: 'page_meta.create', entityType: 'page_meta', entityId: r.path, before: null, after: r.after },
      };
    },
  });

  adminChange(app, deps, {
    method: 'PATCH',
    url: '/page-meta/:id',
    summary: "Edits an address's title, description, keywords (and the text under a listing)",
    permission: 'page_meta:write',
    params: KeyParams,
    body: PageMetaPatchBody,
    response: PageMetaOneResponse,
    run: async ({ tx, params, body }) => {
      const { version, ...input } = body;
      const r = await savePageMeta(tx, params.id, input, version);
      if (!r.ok) return refusal(r);
      return {
        ok: true,
        body: await metaAnswer(tx, r.path),
        audit: {
          action: 'page_meta.update',
          entityType: 'page_meta',
          entityId: r.path,
          before: r.before,
          after: r.after,
        },
      };
    },
  });

  // ── Redirects ──

  adminRead(app, deps, {
    url: '/redirects',
    summary: 'Redirects by old address (q in either address)',
    permission: 'redirects:write',
    query: listQuery(['from'], { sort: 'from', order: 'asc' }, { q: filterValue(z.string().max(200)) }),
    response: RedirectListResponse,
    handler: async ({ query }) => {
      const { rows, total } = await listRedirects(db, query.q, query.order, query.offset, query.limit);
      return { data: rows.map(redirectItem), total };
    },
  });

  adminRead(app, deps, {
    url: '/redirects/:id',
    summary: 'One redirect (the id is its old address) and its history',
    permission: 'redirects:write',
    params: KeyParams,
    response: RedirectOneResponse,
    handler: async ({ params, reply }) => {
      const a = await redirectAnswer(db, canonicalPagePath(params.id));
      if (!a.data) return notFound(reply);
      return a;
    },
  });

  adminChange(app, deps, {
    method: 'POST',
    url: '/redirects',
    summary: 'A new redirect (201): refused for a loop, a live page or a malformed address',
    permission: 'redirects:write',
    body: RedirectCreateBody,
    response: RedirectOneResponse,
    run: async ({ tx, body }) => {
      await seeded(); // information pages (live addresses) are known from their rows
      const r = await createRedirect(tx, body, API_PREFIX);
      if (!r.ok) return refusal(r);
      return {
        ok: true,
        status: 201,
        body: await redirectAnswer(tx, r.from),
        audit: { action: 'redirect.create', entityType: 'redirect', entityId: r.from, before: null, after: r.after },
      };
    },
  });

  adminChange(app, deps, {
    method: 'PATCH',
    url: '/redirects/:id',
    summary: "Changes a redirect's new address or code",
    permission: 'redirects:write',
    params: KeyParams,
    body: RedirectPatchBody,
    response: RedirectOneResponse,
    run: async ({ tx, params, body }) => {
      const from = canonicalPagePath(params.id);
      const r = await updateRedirect(tx, from, { to: body.to, status: body.status }, body.version, API_PREFIX);
      if (!r.ok) return refusal(r);
      return {
        ok: true,
        body: await redirectAnswer(tx, from),
        audit: { action: 'redirect.update', entityType: 'redirect', entityId: from, before: r.before, after: r.after },
      };
    },
  });

  adminChange(app, deps, {
    method: 'POST',
    url: '/redirects/:id/delete',
    summary: 'Removes a redirect (the old address answers 404 again)',
    permission: 'redirects:write',
    params: KeyParams,
    body: RedirectDeleteBody,
    response: z.object({ data: z.object({ id: z.string() }) }),
    run: async ({ tx, params, body }) => {
      const from = canonicalPagePath(params.id);
      const r = await deleteRedirect(tx, from, body.version);
      if (!r.ok) return refusal(r);
      return {
        ok: true,
        body: { data: { id: from } },
        audit: { action: 'redirect.delete', entityType: 'redirect', entityId: from, before: r.before, after: null },
      };
    },
  });

  adminChange(app, deps, {
    method: 'POST',
    url: '/redirects/import',
    summary:
      'Bulk redirects from pasted lines or CSV (`old;new[;code]`): apply=false is the dry run (what would be created and changed, errors per line); apply=true writes all lines or, with any error, none (409)',
    permission: 'redirects:write',
    body: RedirectImportBody,
    response: RedirectImportResponse,
    run: async ({ tx, body }) => {
      await seeded();
      const read = parseRedirectLines(body.text);
      if (read.lines.length + read.errors.length > 20_000)
        return refusal({ status: 400, field: 'text', error: 'Не больше 20 000 строк за раз' });
      const plan = await planRedirectImport(tx, read.lines, read.errors, API_PREFIX);
      if (!body.apply || plan.errors.length > 0 || plan.create.length + plan.change.length === 0)
        // Nothing written: a dry run, or a plan with errors (all or nothing), answered without a change.
        return {
          ok: false,
          status: body.apply && plan.errors.length > 0 ? 409 : 200,
          body: { applied: false, ...plan },
        };
      await applyRedirectImport(tx, plan);
      return {
        ok: true,
        body: { applied: true, ...plan },
        audit: [
          ...plan.create.map((c) => ({
            action: 'redirect.import',
            entityType: 'redirect',
            entityId: c.from,
            before: null,
            after: { from: c.from, to: c.to, status: c.status },
          })),
          ...plan.change.map((c) => ({
            action: 'redirect.import',
            entityType: 'redirect',
            entityId: c.from,
            before: { from: c.from, ...c.before },
            after: { from: c.from, ...c.after },
          })),
        ],
      };
    },
  });
}
