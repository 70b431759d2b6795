import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '~/db/client.server';
import { ApiError, BlogArticle, BlogListResponse, ContentPage, type SectionLink, type SectionsResponse } from '~/shared/contract';
import { defineRoute } from '~/api/route.server';
import { getMenu } from '~/api/catalog/page.server';
import { notFound } from '~/api/http.server';
import { CONTENT_DIR, createContentStore, createDbContentStore, isSlug } from './store.server';

// Shop content for the storefront:
//   GET /content/pages/{slug}/  → { slug, title, lead, html }
//   GET /content/blog/          → { articles: [{ slug, title, lead, date, dateText, cover }] } newest first
//   GET /content/blog/{slug}/   → { ...summary, html, products: [{ NAME, URL }] }

export async function contentRoutes(app: FastifyInstance, opts: { db: Database; dir?: string }): Promise<void> {
  // The shop's own content is the database's (staff edit it, the files are its seed); another
  // directory (tests of the file reader) is read from its files.
  const store = opts.dir && opts.dir !== CONTENT_DIR ? createContentStore(opts.dir) : createDbContentStore(opts.db);
  const articles = () => store.articles();
  // Section names for an article's product links: the same tree the menu shows.
  const sectionNames = cachedSectionNames(() => getMenu({ db: opts.db }));

  const publicCache = (reply: FastifyReply) => reply.header('cache-control', 'public, max-age=60');

  defineRoute(app, {
    method: 'GET',
    url: '/content/pages/:slug/',
    summary: 'A content page (content/pages/{slug}.md) as HTML',
    responses: { 200: { description: 'The page', schema: ContentPage }, 404: NOT_FOUND },
    handler: async (_input, req, reply) => {
      // The slug is checked here, not by a schema: anything else is this API's 404.
      const { slug } = req.params as { slug: string };
      const page = isSlug(slug) ? await store.page(slug) : null;
      if (!page) return notFound(reply);
      publicCache(reply);
      return page satisfies ContentPage;
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: '/content/blog/',
    summary: 'The blog: every article, newest first',
    responses: { 200: { description: 'Article summaries', schema: BlogListResponse } },
    handler: async (_input, _req, reply) => {
      const all = await articles();
      publicCache(reply);
      return { articles: all.map(({ summary }) => summary) } satisfies BlogListResponse;
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: '/content/blog/:slug/',
    summary: 'One blog article as HTML, with the catalogue sections it links to',
    responses: { 200: { description: 'The article', schema: BlogArticle }, 404: NOT_FOUND },
    handler: (_input, req, reply) => blogArticle((req.params as { slug: string }).slug, req, reply),
  });

  async function blogArticle(slug: string, req: FastifyRequest, reply: FastifyReply) {
    const article = isSlug(slug) ? await store.article(slug) : null;
    if (!article) return notFound(reply);
    let names = new Map<string, string>();
    try {
      names = await sectionNames();
    } catch (err) {
      // Product links are extras: the article still answers without them.
      req.log.error({ err }, 'content: catalogue sections unavailable');
    }
    const products = article.productUrls.flatMap((url) => {
      const name = names.get(url);
      return name ? [{ NAME: name, URL: url }] : [];
    });
    publicCache(reply);
    return { ...article.summary, html: article.html, products } satisfies BlogArticle;
  }
}

const NOT_FOUND = { description: 'Not found', schema: ApiError };

const SECTION_NAMES_TTL_MS = 60_000;

function cachedSectionNames(fetchSections: () => Promise<SectionsResponse['SECTIONS']>): () => Promise<Map<string, string>> {
  let cached: { at: number; names: Promise<Map<string, string>> } | null = null;
  return () => {
    if (cached && Date.now() - cached.at < SECTION_NAMES_TTL_MS) return cached.names;
    const names = fetchSections().then((sections) => {
      const map = new Map<string, string>();
      const add = (s: SectionLink) => map.set(s.SECTION_PAGE_URL, s.NAME);
      for (const s of sections) {
        add(s);
        s.SECOND_LVL.forEach(add);
      }
      return map;
    });
    const entry = { at: Date.now(), names };
    cached = entry;
    // A failed call is not remembered: the next article asks again.
    names.catch(() => {
      if (cached === entry) cached = null;
    });
    return names;
  };
}
