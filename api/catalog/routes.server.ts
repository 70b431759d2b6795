import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Database } from '~/db/client.server';
import { parseOfferParam, parsePageNumber, parseSort } from '~/core/catalog-filter';
import { lastValue, notFound, parseQuery, queryString } from '~/api/http.server';
import { getCatalogPage, getMenu, listProductUrls } from './page.server';

/** PAGEN_1 and sitemap pages: junk is the first page, never an error (core/catalog-filter.ts). */
const pageNumber = () =>
  z.preprocess((v) => {
    const s = lastValue(v);
    return parsePageNumber(typeof s === 'string' ? s : null);
  }, z.number().int());

const CatalogQuery = z.object({
  iscollection: queryString(),
  sort: queryString(),
  PAGEN_1: pageNumber(),
  /** The offer a product page opens with (SPEC §4: the SELECTED offer). */
  offer: z.preprocess((v) => {
    const s = lastValue(v);
    return parseOfferParam(typeof s === 'string' ? s : null) ?? undefined;
  }, z.number().int().optional()),
});

const SitemapQuery = z.object({ page: pageNumber() });

export async function catalogRoutes(app: FastifyInstance, { db }: { db: Database }): Promise<void> {
  // GET /catalog/?iscollection=no is the menu (SPEC §7); any other catalogue path is a
  // listing (ITEMS, with filter URLs), or a product (ITEM).
  const catalog = async (req: FastifyRequest, reply: FastifyReply) => {
    const q = parseQuery(CatalogQuery, req, reply);
    if (!q) return reply;
    const rest = (req.params as { '*'?: string })['*'] ?? '';
    if (rest === '' && q.iscollection === 'no') {
      reply.header('cache-control', 'public, max-age=60');
      return { SECTIONS: await getMenu({ db }) };
    }
    const path = `/catalog/${rest}`.replace(/\/?$/, '/');
    const result = await getCatalogPage({
      db,
      path,
      sort: parseSort(q.sort),
      page: q.PAGEN_1,
      offerId: q.offer ?? null,
    });
    if (!result) return notFound(reply);
    reply.header('cache-control', 'public, max-age=30');
    return result;
  };
  app.get('/catalog/', catalog);
  app.get('/catalog/*', catalog);

  app.get('/sitemap/products/', async (req, reply) => {
    const q = parseQuery(SitemapQuery, req, reply);
    if (!q) return reply;
    reply.header('cache-control', 'public, max-age=3600');
    return listProductUrls({ db, page: q.page });
  });
}
