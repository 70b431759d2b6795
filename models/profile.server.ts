import { and, eq, ne, sql } from 'drizzle-orm';
import type { Database } from '~/db/client.server';
import { customers } from '~/db/schema';

// The customer's own profile and newsletter flag. The customer id comes from the session,
// never from the request.

export interface ProfileChange {
  firstName?: string;
  lastName?: string;
  secondName?: string;
  email?: string;
}

export type ProfileUpdate = 'ok' | 'gone' | 'email_taken';

/** PostgreSQL's unique_violation of the e-mail index, however the driver wraps it. */
function isEmailTaken(err: unknown): boolean {
  for (let e: unknown = err; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const { code, constraint, message } = e as { code?: unknown; constraint?: unknown; message?: unknown };
    if (code === '23505' && (constraint === 'customers_email_uq' || String(message).includes('customers_email_uq')))
      return true;
  }
  return false;
}

/**
 * Writes the given fields (absent ones stay as they are). An e-mail is lower-cased and belongs
 * to one customer (the unique index customers_email_uq): another customer's answers
 * 'email_taken' and nothing is written. 'gone' when the customer is gone.
 */
export async function updateProfile({
  db,
  customerId,
  change,
}: {
  db: Database;
  customerId: number;
  change: ProfileChange;
}): Promise<ProfileUpdate> {
  const set = Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined)) as ProfileChange;
  if (set.email !== undefined) set.email = set.email.trim().toLowerCase();
  if (Object.keys(set).length === 0) {
    const [row] = await db.select({ id: customers.id }).from(customers).where(eq(customers.id, customerId));
    return row ? 'ok' : 'gone';
  }
  if (set.email) {
    // The friendly answer; the index settles two customers asking for it at once.
    const [other] = await db
      .select({ id: customers.id })
      .from(customers)
      .where(and(sql`lower(${customers.email}) = ${set.email}`, ne(customers.id, customerId)))
      .limit(1);
    if (other) return 'email_taken';
  }
  try {
    const rows = await db
      .update(customers)
      .set(set)
      .where(eq(customers.id, customerId))
      .returning({ id: customers.id });
    return rows.length > 0 ? 'ok' : 'gone';
  } catch (err) {
    if (isEmailTaken(err)) return 'email_taken';
    throw err;
  }
}

/** The account's newsletter toggle (subscribe.php); false when the customer is gone. */
export async function setSubscribed({
  db,
  customerId,
  subscribed,
}: {
  db: Database;
  customerId: number;
  subscribed: boolean;
}): Promise<boolean> {
  const rows = await db
    .update(customers)
    .set({ subscribed })
    .where(eq(customers.id, customerId))
    .returning({ id: customers.id });
  return rows.length > 0;
}
