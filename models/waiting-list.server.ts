import { eq, sql } from 'drizzle-orm';
import type { Database } from '~/db/client.server';
import { offers, products, waitingList } from '~/db/schema';

export type JoinResult = 'added' | 'already' | 'in_stock' | 'unknown';

/** Puts a phone on an offer's waiting list; joining twice changes nothing (one open entry per phone and size). */
export async function joinWaitingList({
  db,
  offerId,
  phone,
  name,
}: {
  db: Database;
  offerId: number;
  phone: string;
  name: string;
}): Promise<JoinResult> {
  const [offer] = await db
    .select({ quantity: offers.quantity, active: products.active })
    .from(offers)
    .innerJoin(products, eq(products.id, offers.productId))
    .where(eq(offers.id, offerId))
    .limit(1);
  if (!offer || !offer.active) return 'unknown';
  if (offer.quantity > 0) return 'in_stock';
  const inserted = await db
    .insert(waitingList)
    .values({ offerId, phone, name })
    .onConflictDoNothing({
      target: [waitingList.offerId, waitingList.phone],
      where: sql`${waitingList.notifiedAt} is null`,
    })
    .returning({ id: waitingList.id });
  return inserted.length ? 'added' : 'already';
}
