import { eq } from 'drizzle-orm';
import type { Database } from '~/db/client.server';
import { customers } from '~/db/schema';

// A customer's own record. Every function takes the customer id from the session (never from
// the request), so no id alone reads another customer's data.

export interface CustomerRecord {
  id: number;
  phone: string;
  firstName: string;
  lastName: string;
  secondName: string;
  email: string;
  cart: string;
  preorders: string;
  wishlist: number[];
  watched: number[];
  subscribed: boolean;
}

export async function getCustomer({ db, customerId }: { db: Database; customerId: number }): Promise<CustomerRecord | null> {
  const [row] = await db
    .select({
      id: customers.id,
      phone: customers.phone,
      firstName: customers.firstName,
      lastName: customers.lastName,
      secondName: customers.secondName,
      email: customers.email,
      cart: customers.cart,
      preorders: customers.preorders,
      wishlist: customers.wishlist,
      watched: customers.watched,
      subscribed: customers.subscribed,
    })
    .from(customers)
    .where(eq(customers.id, customerId));
  return row ?? null;
}
