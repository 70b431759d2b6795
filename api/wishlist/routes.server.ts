import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { Database } from '~/db/client.server';
import { LIST_LIMITS, parseIdList } from '~/core/wishlist';
import { WishlistResponse } from '~/shared/contract';
import { addToCustomerList, getCustomerList, removeFromCustomerList } from '~/models/wishlist.server';
import { getCardPhotoPaths, getListingProducts } from '~/models/products.server';
import { loadSections, productUrl } from '~/models/sections.server';
import { lastValue, queryString, unauthorized } from '~/api/http.server';
import { BAD_PARAMETERS, defineRoute, NO_SESSION } from '~/api/route.server';
import { toListItem } from '~/api/catalog/mappers';
import { sessionOfToken } from '~/api/account/session.server';

// SPEC §7 `GET /wishlist/`: favourites (mode=wishlist) and recently viewed products
// (mode=watched). With a token: show, add and remove on the customer's own list. Without one:
// show the products of the `filter` ids (a guest's views cookie, SPEC §7 notes); changes are a
// 401. The ids go in `filter` ('1,2,3'); `filter[ids]` is read the same way. Junk ids are
// ignored (SPEC §5). The answer is always the list after the call, as catalogue cards.

export interface WishlistDeps {
  db: Database;
  authSecret: string;
}

const WishlistQuery = z.object({
  action: z
    .preprocess((v) => lastValue(v) ?? 'show', z.enum(['show', 'add', 'remove']))
    .describe('show (default), add or remove'),
  mode: z
    .preprocess((v) => lastValue(v) ?? 'wishlist', z.enum(['wishlist', 'watched']))
    .describe('wishlist (default) or watched'),
  token: queryString().describe('Session token; required for add and remove'),
  filter: z
    .preprocess(joinValues, z.string().max(10_000).optional())
    .describe("Product ids, comma-separated ('1,2,3'); repeated, they read as one list"),
  'filter[ids]': z.preprocess(joinValues, z.string().max(10_000).optional()).describe('Read as filter'),
});

/** A repeated `filter` (filter=1&filter=2) reads as one list. */
function joinValues(v: unknown): unknown {
  return Array.isArray(v) ? v.filter((x) => typeof x === 'string').join(',') : v;
}

export async function wishlistRoutes(app: FastifyInstance, { db, authSecret }: WishlistDeps): Promise<void> {
  /** Catalogue cards of `ids` in that order; inactive or unknown products drop out. */
  async function itemsOf(ids: number[]): Promise<WishlistResponse> {
    if (!ids.length) return { ITEMS: [] };
    const [index, rows, photos] = await Promise.all([
      loadSections(db),
      getListingProducts({ db, ids }),
      getCardPhotoPaths({ db, ids }),
    ]);
    return { ITEMS: rows.map((p) => toListItem(p, photos.get(p.id) ?? [], productUrl(p, index))) };
  }

  defineRoute(app, {
    method: 'GET',
    url: '/wishlist/',
    summary: 'Favourites (mode=wishlist) or viewed products (mode=watched) as catalogue cards, latest first',
    description:
      "With a token: the customer's list; add puts the filter ids first (no duplicates; 100 favourites and 30 views kept), remove takes them out. Without a token: show only, the cards of the filter ids (a guest's views). Junk ids are ignored; inactive products are left out.",
    query: WishlistQuery,
    responses: {
      200: { description: 'The list after the call', schema: WishlistResponse },
      400: BAD_PARAMETERS,
      401: NO_SESSION,
    },
    handler: ({ query }, _req, reply) => wishlist(query, reply),
  });

  async function wishlist(q: z.infer<typeof WishlistQuery>, reply: FastifyReply) {
    const limit = LIST_LIMITS[q.mode];
    const ids = parseIdList([q.filter, q['filter[ids]']].filter(Boolean).join(','), limit);

    if (!q.token) {
      if (q.action !== 'show') return unauthorized(reply.header('cache-control', 'private, no-store'));
      // The same ids give the same cards to everyone: a guest's row can be cached.
      reply.header('cache-control', 'public, max-age=60');
      return itemsOf(ids);
    }

    reply.header('cache-control', 'private, no-store');
    const session = await sessionOfToken({ db, secret: authSecret, token: q.token });
    if (!session) return unauthorized(reply);
    const { customerId } = session;
    const list =
      q.action === 'add'
        ? await addToCustomerList({ db, customerId, mode: q.mode, ids })
        : q.action === 'remove'
          ? await removeFromCustomerList({ db, customerId, mode: q.mode, ids })
          : await getCustomerList({ db, customerId, mode: q.mode });
    return itemsOf(list.slice(0, limit));
  }
}
