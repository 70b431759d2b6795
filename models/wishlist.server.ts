import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Database } from '~/db/client.server';
import { customers, products } from '~/db/schema';
import { LIST_LIMITS, type ListMode } from '~/core/wishlist';

// A customer's favourites (`wishlist`) and recently viewed products (`watched`): integer
// arrays of product ids on the customer's row, latest first. Each change is one UPDATE
// computing the new array from the row's current one, so changes at the same moment queue on
// the row lock and none is lost or duplicated. The customer id always comes from the session.

const column = (mode: ListMode) => (mode === 'wishlist' ? customers.wishlist : customers.watched);

const intArray = (ids: readonly number[]): SQL =>
  sql`array[${sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  )}]::integer[]`;

/** The customer's list, latest first; empty when there is no such customer. */
export async function getCustomerList({
  db,
  customerId,
  mode,
}: {
  db: Database;
  customerId: number;
  mode: ListMode;
}): Promise<number[]> {
  const [row] = await db
    .select({ list: column(mode) })
    .from(customers)
    .where(eq(customers.id, customerId));
  return row?.list ?? [];
}

/** Of `ids`, the ones that are active products, in the order given. */
export async function filterActiveProductIds({ db, ids }: { db: Database; ids: readonly number[] }): Promise<number[]> {
  if (!ids.length) return [];
  const rows = await db
    .select({ id: products.id })
    .from(products)
    .where(and(inArray(products.id, [...ids]), eq(products.active, true)));
  const active = new Set(rows.map((r) => r.id));
  return ids.filter((id) => active.has(id));
}

/**
 * Puts `ids` (first one first) at the front of the customer's list, moving any already there,
 * and keeps the list's limit (100 favourites, 30 views). Only active products are added.
 * Answers the list after the change.
 */
export async function addToCustomerList({
  db,
  customerId,
  mode,
  ids,
}: {
  db: Database;
  customerId: number;
  mode: ListMode;
  ids: readonly number[];
}): Promise<number[]> {
  const limit = LIST_LIMITS[mode];
  const adding = (await filterActiveProductIds({ db, ids })).slice(0, limit);
  if (!adding.length) return getCustomerList({ db, customerId, mode });
  const col = column(mode);
  const next = sql`(${intArray(adding)} || array(
      select kept.id from unnest(${col}) with ordinality as kept(id, position)
      where kept.id <> all(${intArray(adding)}) order by kept.position
    ))[1:${sql.raw(String(limit))}]`;
  const [row] = await db
    .update(customers)
    .set(mode === 'wishlist' ? { wishlist: next } : { watched: next })
    .where(eq(customers.id, customerId))
    .returning({ list: col });
  return row?.list ?? [];
}

/** Takes `ids` out of the customer's list (the rest keep their order); answers the list after. */
export async function removeFromCustomerList({
  db,
  customerId,
  mode,
  ids,
}: {
  db: Database;
  customerId: number;
  mode: ListMode;
  ids: readonly number[];
}): Promise<number[]> {
  if (!ids.length) return getCustomerList({ db, customerId, mode });
  const col = column(mode);
  const next = sql`array(
      select kept.id from unnest(${col}) with ordinality as kept(id, position)
      where kept.id <> all(${intArray(ids)}) order by kept.position
    )`;
  const [row] = await db
    .update(customers)
    .set(mode === 'wishlist' ? { wishlist: next } : { watched: next })
    .where(eq(customers.id, customerId))
    .returning({ list: col });
  return row?.list ?? [];
}
