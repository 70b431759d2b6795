import { eq } from 'drizzle-orm';
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

/** Writes the given fields (absent ones stay as they are); false when the customer is gone. */
export async function updateProfile({ db, customerId, change }: { db: Database; customerId: number; change: ProfileChange }): Promise<boolean> {
  const set = Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined)) as ProfileChange;
  if (Object.keys(set).length === 0) {
    const [row] = await db.select({ id: customers.id }).from(customers).where(eq(customers.id, customerId));
    return row !== undefined;
  }
  const rows = await db.update(customers).set(set).where(eq(customers.id, customerId)).returning({ id: customers.id });
  return rows.length > 0;
}

/** The account's newsletter toggle (subscribe.php); false when the customer is gone. */
export async function setSubscribed({ db, customerId, subscribed }: { db: Database; customerId: number; subscribed: boolean }): Promise<boolean> {
  const rows = await db.update(customers).set({ subscribed }).where(eq(customers.id, customerId)).returning({ id: customers.id });
  return rows.length > 0;
}
