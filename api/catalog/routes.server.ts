import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Database } from '~/db/client.server';
import { parseOfferParam, parsePageNumber, parseSort } from '~/core/catalog-filter';
import { CatalogSectionResponse, ProductResponse, SectionsResponse, SitemapProducts } from '~/shared/contract';
import { lastValue, notFound, queryString } from '~/api/http.server';
import { BAD_PARAMETERS, defineRoute, NOT_FOUND } from '~/api/route.server';
import { getCatalogPage, getMenu, listProductUrls } from './page.server';

/** PAGEN_1 and sitemap pages: junk is the first page, never an error (core/catalog-filter.ts). */
const pageNumber = () =>
  z.preprocess((v) => {
    const s = lastValue(v);
    return parsePageNumber(typeof s === 'string' ? s : null);
  }, z.number().int());

const CatalogQuery = z.object({
  iscollection: queryString().describe("'no' on /catalog/: the menu sections"),
  sort: queryString().describe('popular | new | price_asc | price_desc'),
  PAGEN_1: pageNumber().describe('Page number, from 1 (junk is the first page)'),
  /** The offer a product page opens with (SPEC §4: the SELECTED offer). */
  offer: z
    .preprocess((v) => {
      const s = lastValue(v);
      return parseOfferParam(typeof s === 'string' ? s : null) ?? undefined;
    }, z.number().int().optional())
    .describe('Offer id to mark as SELECTED on a product page'),
});

const SitemapQuery = z.object({ page: pageNumber().describe('Page, from 1 (junk is the first page)') });

export async function catalogRoutes(app: FastifyInstance, { db }: { db: Database }): Promise<void> {
  // GET /catalog/?iscollection=no is the menu (SPEC §7); any other catalogue path is a
  // listing (ITEMS, with filter URLs), or a product (ITEM).
  const catalog = async (q: z.infer<typeof CatalogQuery>, req: FastifyRequest, reply: FastifyReply) => {
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
  defineRoute(app, {
    method: 'GET',
    url: '/catalog/',
    summary: 'Menu sections (iscollection=no), otherwise the whole catalogue',
    query: CatalogQuery,
    responses: {
      200: {
        description: 'Menu sections or the catalogue listing',
        schema: z.union([SectionsResponse, CatalogSectionResponse]),
      },
      400: BAD_PARAMETERS,
      404: NOT_FOUND,
    },
    handler: ({ query }, req, reply) => catalog(query, req, reply),
  });
  defineRoute(app, {
    method: 'GET',
    url: '/catalog/*',
    summary: 'A section listing (with filter URLs) or a product page',
    description:
      'Filter grammar: {section}/filter/size-is-42-or-44/color-is-chernyj/price-base-from-5000-to-20000/apply/. A product: {section path}{slug}/.',
    query: CatalogQuery,
    responses: {
      200: {
        description: 'Listing (ITEMS) or product (ITEM)',
        schema: z.union([CatalogSectionResponse, ProductResponse]),
      },
      400: BAD_PARAMETERS,
      404: NOT_FOUND,
    },
    handler: ({ query }, req, reply) => catalog(query, req, reply),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/sitemap/products/',
    summary: "The active products' addresses for the sitemap, a page at a time",
    query: SitemapQuery,
    responses: { 200: { description: 'A page of product URLs', schema: SitemapProducts }, 400: BAD_PARAMETERS },
    handler: async ({ query }, _req, reply) => {
      reply.header('cache-control', 'public, max-age=3600');
      return listProductUrls({ db, page: query.page });
    },
  });
}
