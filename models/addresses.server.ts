import { and, eq, sql } from 'drizzle-orm';
import { queryPrepared, type Database } from '~/db/client.server';
import { addresses, customers } from '~/db/schema';

// A customer's saved delivery addresses. Every query is filtered by the customer id of the
// session, so an address id alone never reaches another customer's address.

export interface AddressRecord {
  id: number;
  fields: Record<string, string>;
  createdAt: Date;
}

export async function listAddresses({
  db,
  customerId,
}: {
  db: Database;
  customerId: number;
}): Promise<AddressRecord[]> {
  // Written out and sent prepared (queryPrepared): a checkout to an address reads it.
  const rows = await queryPrepared<{ id: number; fields: Record<string, string>; created_ms: number }>(
    db,
    sql`select id, fields, (extract(epoch from created_at) * 1000)::float8 as created_ms
        from addresses where customer_id = ${customerId}::int order by created_at, id`,
  );
  return rows.map((r) => ({ id: Number(r.id), fields: r.fields, createdAt: new Date(Number(r.created_ms)) }));
}

export type SaveAddressResult = { ok: true; id: number } | { ok: false; reason: 'not_found' | 'too_many' };

/**
 * Adds an address, or with `addressId` replaces the fields of one of the customer's own.
 * The count is checked under a lock on the customer's row, so two adds at once cannot pass
 * the limit together.
 */
export async function saveAddress(input: {
  db: Database;
  customerId: number;
  addressId?: number | undefined;
  fields: Record<string, string>;
  limit: number;
}): Promise<SaveAddressResult> {
  const { db, customerId, addressId, fields, limit } = input;
  if (addressId !== undefined) {
    const rows = await db
      .update(addresses)
      .set({ fields })
      .where(and(eq(addresses.id, addressId), eq(addresses.customerId, customerId)))
      .returning({ id: addresses.id });
    return rows[0] ? { ok: true, id: rows[0].id } : { ok: false, reason: 'not_found' };
  }
  return db.transaction(async (tx) => {
    const [owner] = await tx
      .select({ id: customers.id })
      .from(customers)
      .where(eq(customers.id, customerId))
      .for('update');
    if (!owner) return { ok: false, reason: 'not_found' } as const;
    const [counted] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(addresses)
      .where(eq(addresses.customerId, customerId));
    if ((counted?.n ?? 0) >= limit) return { ok: false, reason: 'too_many' } as const;
    const [row] = await tx.insert(addresses).values({ customerId, fields }).returning({ id: addresses.id });
    if (!row) throw new Error('address insert returned nothing');
    return { ok: true, id: row.id } as const;
  });
}

/** Removes one of the customer's own addresses; false when they have none with that id. */
export async function removeAddress({
  db,
  customerId,
  addressId,
}: {
  db: Database;
  customerId: number;
  addressId: number;
}): Promise<boolean> {
  const rows = await db
    .delete(addresses)
    .where(and(eq(addresses.id, addressId), eq(addresses.customerId, customerId)))
    .returning({ id: addresses.id });
  return rows.length > 0;
}
