import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Database } from '~/db/client.server';
import { defineRoute, type RouteResponse } from '~/api/route.server';
import { ApiError, PageMeta, RedirectResponse } from '~/shared/contract';
import { SiteSettingsResponse } from '~/shared/site-settings';
import { findRedirect, getPageMeta, getSiteSettings } from './meta.server';

const PathParam = z.string().min(1).max(2048).startsWith('/').describe('The page path');
const PageMetaQuery = z.object({
  path: PathParam,
  product: z.string().max(500).optional().describe('Product name, for product pages'),
});
const RedirectQuery = z.object({ path: PathParam });

export async function metaRoutes(app: FastifyInstance, { db }: { db: Database }): Promise<void> {
  /** A public GET read by its query, cached a minute. */
  const publicGet = <Q extends z.ZodType>(
    url: string,
    summary: string,
    query: Q,
    answer: RouteResponse,
    read: (q: z.infer<Q>) => Promise<unknown>,
  ) =>
    defineRoute(app, {
      method: 'GET',
      url,
      summary,
      query,
      responses: { 200: answer, 400: { description: 'Bad parameters', schema: ApiError } },
      handler: async (input, _req, reply) => {
        reply.header('cache-control', 'public, max-age=60');
        return read(input.query);
      },
    });

  publicGet(
    '/page-meta/',
    'Title, description and keywords for a page (SPEC §2 Page metadata)',
    PageMetaQuery,
    { description: 'Resolved metadata', schema: PageMeta },
    (q) => getPageMeta({ db, path: q.path, productName: q.product }),
  );
  publicGet(
    '/redirect/',
    'A stored redirect for a path',
    RedirectQuery,
    { description: 'The redirect or null', schema: RedirectResponse },
    async (q) => ({
      redirect: await findRedirect({ db, path: q.path }),
    }),
  );
  publicGet(
    '/site-settings/',
    "The site's texts staff edit: top banner, home page, shops, stylist chat (issue #30)",
    z.object({}),
    { description: 'The texts', schema: SiteSettingsResponse },
    () => getSiteSettings({ db }),
  );
}
