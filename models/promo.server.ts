import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '~/db/client.server';
import { orders, promoCodes } from '~/db/schema';
import type { PromoCode } from '~/core/promo';

type PromoRow = typeof promoCodes.$inferSelect;

export function toPromoCode(row: PromoRow, usedByCustomer: number): PromoCode {
  return {
    code: row.code,
    kind: row.kind,
    percent: row.percent,
    amountKopecks: row.amountKopecks,
    minBasketKopecks: row.minBasketKopecks,
    validFrom: row.validFrom,
    validTo: row.validTo,
    totalLimit: row.totalLimit,
    perCustomerLimit: row.perCustomerLimit,
    usedTotal: row.usedCount,
    usedByCustomer,
    excludeSale: row.excludeSale,
    active: row.active,
  };
}

/** How many orders this customer placed with the code (0 for a guest: guests have no history to count). */
export async function countPromoUsesByCustomer({
  db,
  code,
  customerId,
}: {
  db: Database;
  code: string;
  customerId: number | null;
}): Promise<number> {
  if (customerId === null) return 0;
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(orders)
    .where(and(eq(orders.promoCode, code), eq(orders.customerId, customerId), sql`${orders.status} <> 'cancelled'`));
  return Number(row?.n ?? 0);
}

/**
 * A promo code by its normalised text, with this customer's uses; null when there is none.
 * `forUpdate`: read under its row lock (an order counts its use; its limits hold under any load).
 */
export async function getPromoCode({
  db,
  code,
  customerId,
  forUpdate = false,
}: {
  db: Database;
  code: string;
  customerId: number | null;
  forUpdate?: boolean;
}): Promise<PromoCode | null> {
  const query = db.select().from(promoCodes).where(eq(promoCodes.code, code));
  const [row] = await (forUpdate ? query.for('update').limit(1) : query.limit(1));
  if (!row) return null;
  return toPromoCode(row, await countPromoUsesByCustomer({ db, code, customerId }));
}
