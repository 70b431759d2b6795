import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Database } from '~/db/client.server';
import { lastValue, parseQuery, queryString } from '~/api/http.server';
import { searchProducts } from './search.server';

export const SearchQuery = z.object({
  q: queryString(),
  /** Suggestions ask for fewer hits: 1..48; junk means the default. */
  limit: z.preprocess((v) => {
    const s = lastValue(v);
    return typeof s === 'string' && /^\d{1,2}$/.test(s) ? Math.min(48, Math.max(1, Number(s))) : undefined;
  }, z.number().int().optional()),
});

export async function searchRoutes(app: FastifyInstance, { db }: { db: Database }): Promise<void> {
  app.get('/api/search', async (req, reply) => {
    const q = parseQuery(SearchQuery, req, reply);
    if (!q) return reply;
    reply.header('cache-control', 'public, max-age=30');
    return searchProducts({ db, q: q.q ?? '', limit: q.limit });
  });
}
