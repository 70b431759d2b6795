import { containsPattern } from '~/db/like';
import { and, asc, desc, eq, ilike, isNull, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import { keysetBatches } from '~/db/keyset.server';
import type { Database } from '~/db/client.server';
import {
  addresses,
  bonusLots,
  bonusMoves,
  customers,
  giftCertificates,
  newsletterSubscriptions,
  orders,
  returnRequests,
  sessions,
} from '~/db/schema';
import { bonusBalance } from './loyalty.server';

// The back office's customers (issue #29): search by phone, e-mail or name; one customer's page
// (profile, addresses, orders, returns, bonus ledger, certificates, newsletter); blocking a
// customer, which ends their sessions and stops their logins (the login routes ask isBlocked).
// The bonus adjustment's home is models/loyalty.server.ts adjustBonuses.

/** The list's search (and the export's): part of the phone (3+ digits), the e-mail or the name. */
function customerSearch(q: string | undefined): SQL | undefined {
  if (!q) return undefined;
  const digits = q.replace(/\D/g, '');
  const parts = [
    ilike(customers.email, containsPattern(q)),
    ilike(
      sql`${customers.lastName} || ' ' || ${customers.firstName} || ' ' || ${customers.secondName}`,
      containsPattern(q),
    ),
  ];
  if (digits.length >= 3) parts.push(ilike(customers.phone, containsPattern(digits)));
  return or(...parts);
}

export async function listAdminCustomers(
  db: Database,
  { q, offset, limit }: { q?: string | undefined; offset: number; limit: number },
) {
  const cond = customerSearch(q);
  const rows = await db
    .select({
      id: customers.id,
      phone: customers.phone,
      email: customers.email,
      firstName: customers.firstName,
      lastName: customers.lastName,
      secondName: customers.secondName,
      createdAt: customers.createdAt,
      blockedAt: customers.blockedAt,
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

/**
 * What an export of the list with `q` will hold, in one statement (one snapshot): how many
 * customers match, and the newest one's id, the export's upper bound (customers who register
 * while it runs are not in it, so the count the audit row records is the rows written).
 */
export async function customerExportScope(
  db: Database,
  { q }: { q?: string | undefined },
): Promise<{ rows: number; maxId: number }> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int`, max: sql<number | null>`max(${customers.id})` })
    .from(customers)
    .where(customerSearch(q));
  return { rows: Number(row?.n ?? 0), maxId: Number(row?.max ?? 0) };
}

export type CustomerExportRow = Awaited<ReturnType<typeof customerExportBatch>>[number];

async function customerExportBatch(db: Database, cond: SQL | undefined, upTo: SQL, size: number) {
  return db
    .select({
      id: customers.id,
      phone: customers.phone,
      email: customers.email,
      lastName: customers.lastName,
      firstName: customers.firstName,
      secondName: customers.secondName,
      birthday: customers.birthday,
      createdAt: customers.createdAt,
      subscribed: customers.subscribed,
      blockedAt: customers.blockedAt,
    })
    .from(customers)
    .where(and(cond, upTo))
    .orderBy(desc(customers.id))
    .limit(size);
}

/**
 * The customers of the list with `q` up to id `maxId`, newest first, `size` at a time: each batch
 * is its own query after the last id of the one before (keyset, on the primary key), so an export
 * of any length holds one batch in memory, and the next is read only when the previous was sent.
 */
export async function* customerExportBatches(
  db: Database,
  { q, maxId, size = 1000 }: { q?: string | undefined; maxId: number; size?: number },
): AsyncGenerator<CustomerExportRow[]> {
  const cond = customerSearch(q);
  yield* keysetBatches(
    (cursor, n) =>
      customerExportBatch(db, cond, cursor === null ? lte(customers.id, maxId) : lt(customers.id, cursor), n),
    (c) => c.id,
    size,
  );
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
      birthday: customers.birthday,
      subscribed: customers.subscribed,
      blockedAt: customers.blockedAt,
      blockedReason: customers.blockedReason,
    })
    .from(customers)
    .where(eq(customers.id, id))
    .limit(1);
  if (!row) return null;
  const [orderRows, returnRows, bonus, addressRows, moveRows, certificateRows, newsletter, liveSessions] =
    await Promise.all([
      db
        .select({
          id: orders.id,
          status: orders.status,
          totalKopecks: orders.totalKopecks,
          createdAt: orders.createdAt,
        })
        .from(orders)
        .where(eq(orders.customerId, id))
        .orderBy(desc(orders.id))
        .limit(100),
      db
        .select({
          id: returnRequests.id,
          orderId: returnRequests.orderId,
          status: returnRequests.status,
          createdAt: returnRequests.createdAt,
        })
        .from(returnRequests)
        .where(and(eq(returnRequests.customerId, id)))
        .orderBy(desc(returnRequests.id))
        .limit(100),
      bonusBalance(db, id, now),
      db
        .select({ id: addresses.id, fields: addresses.fields, createdAt: addresses.createdAt })
        .from(addresses)
        .where(eq(addresses.customerId, id))
        .orderBy(asc(addresses.id)),
      db
        .select({
          id: bonusMoves.id,
          kind: bonusMoves.kind,
          amountKopecks: bonusMoves.amountKopecks,
          orderId: bonusMoves.orderId,
          returnRequestId: bonusMoves.returnRequestId,
          createdAt: bonusMoves.createdAt,
          expiresAt: bonusLots.expiresAt,
        })
        .from(bonusMoves)
        .leftJoin(bonusLots, eq(bonusLots.id, bonusMoves.lotId))
        .where(eq(bonusMoves.customerId, id))
        .orderBy(desc(bonusMoves.id))
        .limit(200),
      db
        .select({
          id: giftCertificates.id,
          code: giftCertificates.code,
          kind: giftCertificates.kind,
          nominalKopecks: giftCertificates.nominalKopecks,
          balanceKopecks: giftCertificates.balanceKopecks,
          orderId: giftCertificates.orderId,
          expiresAt: giftCertificates.expiresAt,
        })
        .from(giftCertificates)
        .innerJoin(orders, eq(orders.id, giftCertificates.orderId))
        .where(eq(orders.customerId, id))
        .orderBy(desc(giftCertificates.id))
        .limit(100),
      row.email
        ? db
            .select({ status: newsletterSubscriptions.status })
            .from(newsletterSubscriptions)
            .where(eq(newsletterSubscriptions.email, row.email.toLowerCase()))
            .limit(1)
        : Promise.resolve([]),
      db
        .select({ n: sql<number>`count(*)::int` })
        .from(sessions)
        .where(and(eq(sessions.customerId, id), isNull(sessions.revokedAt), sql`${sessions.expiresAt} > ${now}`)),
    ]);
  return {
    ...row,
    orders: orderRows,
    returns: returnRows,
    bonusKopecks: bonus,
    addresses: addressRows,
    bonusMoves: moveRows,
    certificates: certificateRows,
    newsletterStatus: newsletter[0]?.status ?? null,
    liveSessions: Number(liveSessions[0]?.n ?? 0),
  };
}

export type BlockResult =
  | { ok: true; before: { blocked: boolean }; after: { blocked: boolean; sessions_ended: number } }
  | { ok: false; status: number; field: string; error: string };

/**
 * Blocks (or unblocks) a customer under their row lock, inside the caller's transaction: blocking
 * ends every live session of theirs at once, and the login routes refuse them from then on
 * (isCustomerBlocked). Blocking a blocked customer (or unblocking one who is not) is a 409, so a
 * second person's click changes nothing.
 */
export async function setCustomerBlocked(
  tx: Database,
  input: { customerId: number; blocked: boolean; reason: string | null; now: Date },
): Promise<BlockResult> {
  const [row] = await tx
    .select({ id: customers.id, blockedAt: customers.blockedAt })
    .from(customers)
    .where(eq(customers.id, input.customerId))
    .for('update');
  if (!row) return { ok: false, status: 404, field: 'id', error: 'Покупатель не найден' };
  const was = row.blockedAt !== null;
  if (was === input.blocked)
    return {
      ok: false,
      status: 409,
      field: 'id',
      error: input.blocked ? 'Покупатель уже заблокирован' : 'Покупатель не заблокирован',
    };
  await tx
    .update(customers)
    .set(
      input.blocked ? { blockedAt: input.now, blockedReason: input.reason } : { blockedAt: null, blockedReason: null },
    )
    .where(eq(customers.id, input.customerId));
  let ended = 0;
  if (input.blocked) {
    const revoked = await tx
      .update(sessions)
      .set({ revokedAt: input.now })
      .where(and(eq(sessions.customerId, input.customerId), isNull(sessions.revokedAt)))
      .returning({ id: sessions.id });
    ended = revoked.length;
  }
  return { ok: true, before: { blocked: was }, after: { blocked: input.blocked, sessions_ended: ended } };
}
