import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Database } from '~/db/client.server';
import { parseQuery } from '~/api/http.server';
import { findRedirect, getPageMeta } from './meta.server';

const PathParam = z.string().min(1).max(2048).startsWith('/');
const PageMetaQuery = z.object({ path: PathParam, product: z.string().max(500).optional() });
const RedirectQuery = z.object({ path: PathParam });

export async function metaRoutes(app: FastifyInstance, { db }: { db: Database }): Promise<void> {
  app.get('/page-meta/', async (req, reply) => {
    const q = parseQuery(PageMetaQuery, req, reply);
    if (!q) return reply;
    reply.header('cache-control', 'public, max-age=60');
    return getPageMeta({ db, path: q.path, productName: q.product });
  });

  app.get('/redirect/', async (req, reply) => {
    const q = parseQuery(RedirectQuery, req, reply);
    if (!q) return reply;
    reply.header('cache-control', 'public, max-age=60');
    return { redirect: await findRedirect({ db, path: q.path }) };
  });
}
