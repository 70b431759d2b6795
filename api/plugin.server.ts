import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Database } from '~/db/client.server';
import { getCatalogPage, listMenuSections, listProductUrls } from './catalog.server';
import { searchProducts } from './search.server';
import { buildOpenApi } from './openapi';
import { parsePageNumber, parseSort } from '~/core/catalog-filter';
import { findRedirect, getPageMeta } from './meta.server';
import { parseNestedForm } from './form';
import { contentRoutes } from './content.server';

export interface ApiDeps {
  db: Database;
}

// Paths below are relative to the API base (SPEC §7); the server mounts this under its prefix.
export async function productApi(app: FastifyInstance, { db }: ApiDeps): Promise<void> {
  // SPEC §7 bodies are form-encoded with a[b] nesting.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_req, body, done) => {
    done(null, parseNestedForm(body as string));
  });

  await app.register(contentRoutes, { db });

  app.get('/page-meta/', async (req, reply) => {
    const q = parseQuery(PageMetaQuery, req, reply);
    if (!q) return;
    reply.header('cache-control', 'public, max-age=60');
    return getPageMeta({ db, path: q.path, productName: q.product });
  });

  app.get('/redirect/', async (req, reply) => {
    const q = parseQuery(z.object({ path: PathParam }), req, reply);
    if (!q) return;
    reply.header('cache-control', 'public, max-age=60');
    return { redirect: await findRedirect({ db, path: q.path }) };
  });

  // GET /catalog/?iscollection=no is the menu (SPEC §7); any other catalogue path is a
  // listing (ITEMS, with filter URLs), or a product (ITEM).
  const catalog = async (req: FastifyRequest, reply: FastifyReply) => {
    const q = req.query as Record<string, unknown>;
    const rest = (req.params as { '*'?: string })['*'] ?? '';
    if (rest === '' && q.iscollection === 'no') {
      reply.header('cache-control', 'public, max-age=60');
      return { SECTIONS: await listMenuSections({ db }) };
    }
    const path = `/catalog/${rest}`.replace(/\/?$/, '/');
    const offer = typeof q.offer === 'string' && /^\d{1,9}$/.test(q.offer) ? Number(q.offer) : null;
    const result = await getCatalogPage({ db, path, sort: parseSort(str(q.sort)), page: parsePageNumber(str(q.PAGEN_1)), offerId: offer });
    if (!result) return reply.code(404).send({ error: 'Страница не найдена' });
    reply.header('cache-control', 'public, max-age=30');
    return result;
  };
  app.get('/catalog/', catalog);
  app.get('/catalog/*', catalog);

  let openApi: Record<string, unknown> | null = null;
  app.get('/openapi.json', async (_req, reply) => {
    openApi ??= buildOpenApi(app.prefix || '/');
    reply.header('cache-control', 'public, max-age=300');
    return openApi;
  });

  app.get('/sitemap/products/', async (req, reply) => {
    const page = parsePageNumber(str((req.query as Record<string, unknown>).page));
    reply.header('cache-control', 'public, max-age=3600');
    return listProductUrls({ db, page });
  });

  app.get('/api/search', async (req, reply) => {
    const q = req.query as Record<string, unknown>;
    const limit = typeof q.limit === 'string' && /^\d{1,2}$/.test(q.limit) ? Math.min(48, Math.max(1, Number(q.limit))) : undefined;
    reply.header('cache-control', 'public, max-age=30');
    return searchProducts({ db, q: str(q.q) ?? '', limit });
  });

  app.setNotFoundHandler((_req, reply) => reply.code(404).send({ error: 'Not found' }));
  app.setErrorHandler((err: Error & { statusCode?: number }, req, reply) => {
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status === 500) req.log.error({ err }, 'api error');
    return reply.code(status).send({ error: status === 500 ? 'Произошла ошибка на сервере. Пожалуйста, попробуйте позже.' : err.message });
  });
}

const PathParam = z.string().min(1).max(2048).startsWith('/');
const PageMetaQuery = z.object({ path: PathParam, product: z.string().max(500).optional() });

function parseQuery<T extends z.ZodType>(schema: T, req: FastifyRequest, reply: FastifyReply): z.infer<T> | null {
  const parsed = schema.safeParse(req.query);
  if (parsed.success) return parsed.data;
  void reply.code(400).send({ error: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') });
  return null;
}

/** A query value as one string (a repeated key gives its last value). */
function str(value: unknown): string | undefined {
  if (Array.isArray(value)) value = value[value.length - 1];
  return typeof value === 'string' ? value : undefined;
}
