import { and, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { Database } from '~/db/client.server';
import { customers, orders, returnRequests } from '~/db/schema';
import { bonusBalance } from './loyalty.server';

// The back office's customers (issue #29): search by phone, e-mail or name, and one customer's
// profile with their orders, returns and bonus balance. Read only for now.

const like = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export async function listAdminCustomers(db: Database, { q, offset, limit }: { q?: string | undefined; offset: number; limit: number }) {
  let cond: SQL | undefined;
  if (q) {
    const digits = q.replace(/\D/g, '');
    const parts = [
      ilike(customers.email, like(q)),
      ilike(sql`${customers.lastName} || ' ' || ${customers.firstName} || ' ' || ${customers.secondName}`, like(q)),
    ];
    if (digits.length >= 3) parts.push(ilike(customers.phone, like(digits)));
    cond = or(...parts);
  }
  const rows = await db
    .select({
      id: customers.id,
      phone: customers.phone,
      email: customers.email,
      firstName: customers.firstName,
      lastName: customers.lastName,
      secondName: customers.secondName,
      createdAt: customers.createdAt,
    })
    .from(customers)
    .where(cond)
    .orderBy(desc(customers.id))
    .offset(offset)
    .limit(limit);
  const [count] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(customers)
    .where(cond);
  return { rows, total: Number(count?.n ?? 0) };
}

export async function getAdminCustomer(db: Database, id: number, now: Date) {
  const [row] = await db
    .select({
      id: customers.id,
      phone: customers.phone,
      email: customers.email,
      firstName: customers.firstName,
      lastName: customers.lastName,
      secondName: customers.secondName,
      createdAt: customers.createdAt,
    })
    .from(customers)
    .where(eq(customers.id, id))
    .limit(1);
  if (!row) return null;
  const [orderRows, returnRows, bonus] = await Promise.all([
    db
      .select({ id: orders.id, status: orders.status, totalKopecks: orders.totalKopecks, createdAt: orders.createdAt })
      .from(orders)
      .where(eq(orders.customerId, id))
      .orderBy(desc(orders.id))
      .limit(100),
    db
      .select({ id: returnRequests.id, orderId: returnRequests.orderId, status: returnRequests.status, createdAt: returnRequests.createdAt })
      .from(returnRequests)
      .where(and(eq(returnRequests.customerId, id)))
      .orderBy(desc(returnRequests.id))
      .limit(100),
    bonusBalance(db, id, now),
  ]);
  return { ...row, orders: orderRows, returns: returnRows, bonusKopecks: bonus };
}
