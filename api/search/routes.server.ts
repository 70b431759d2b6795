import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Database } from '~/db/client.server';
import { SearchResponse } from '~/shared/contract';
import { lastValue, queryString } from '~/api/http.server';
import { BAD_PARAMETERS, defineRoute } from '~/api/route.server';
import { searchProducts } from './search.server';

export const SearchQuery = z.object({
  q: queryString().describe('The query'),
  /** Suggestions ask for fewer hits: 1..48; junk means the default. */
  limit: z
    .preprocess((v) => {
      const s = lastValue(v);
      return typeof s === 'string' && /^\d{1,2}$/.test(s) ? Math.min(48, Math.max(1, Number(s))) : undefined;
    }, z.number().int().optional())
    .describe('At most this many hits (1–48, default 24; junk is the default)'),
});

export async function searchRoutes(app: FastifyInstance, { db }: { db: Database }): Promise<void> {
  defineRoute(app, {
    method: 'GET',
    url: '/api/search',
    summary: 'Product search: Russian word forms, prefixes, one typo per word, article numbers',
    query: SearchQuery,
    responses: { 200: { description: 'Hits, best first', schema: SearchResponse }, 400: BAD_PARAMETERS },
    handler: async ({ query }, _req, reply) => {
      reply.header('cache-control', 'public, max-age=30');
      return searchProducts({ db, q: query.q ?? '', limit: query.limit });
    },
  });
}
