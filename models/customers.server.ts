import { and, eq, sql } from 'drizzle-orm';
import { queryPrepared, type Database } from '~/db/client.server';
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

export async function getCustomer({
  db,
  customerId,
}: {
  db: Database;
  customerId: number;
}): Promise<CustomerRecord | null> {
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

export interface CustomerBasket {
  cart: string;
  preorders: string;
  rev: number;
}

export async function getCustomerBasket({
  db,
  customerId,
}: {
  db: Database;
  customerId: number;
}): Promise<CustomerBasket | null> {
  const [row] = await db
    .select({ cart: customers.cart, preorders: customers.preorders, rev: customers.cartRev })
    .from(customers)
    .where(eq(customers.id, customerId));
  return row ?? null;
}

/**
 * Saves the customer's basket if nobody saved another since `expectedRev` was read (one
 * conditional update: two devices saving at once cannot both win). The new revision, or null
 * when the basket had moved on.
 */
export async function saveCustomerBasket(input: {
  db: Database;
  customerId: number;
  cart: string;
  preorders: string;
  expectedRev: number;
}): Promise<number | null> {
  const [row] = await input.db
    .update(customers)
    .set({ cart: input.cart, preorders: input.preorders, cartRev: sql`${customers.cartRev} + 1` })
    .where(and(eq(customers.id, input.customerId), eq(customers.cartRev, input.expectedRev)))
    .returning({ rev: customers.cartRev });
  return row?.rev ?? null;
}

/**
 * What a checkout changes on its customer's row, in one statement inside the order's transaction
 * (after the offers' row locks): the saved basket emptied (a new revision, so every device's copy
 * is replaced), and the customer's empty name fields filled with the ones typed at checkout, so
 * a repeat order starts with them (issue #26). A name already in the profile is never replaced,
 * and nothing is added to another person's first name (the recipient of one order may be someone
 * else): the last and second names are filled only when the profile's first name is empty or
 * the one typed.
 */
export async function clearBasketAfterCheckout(
  db: Database,
  { customerId, name }: { customerId: number; name: { firstName: string; lastName: string; secondName: string } },
): Promise<void> {
  await queryPrepared(
    db,
    sql`update customers set cart = '', preorders = '', cart_rev = cart_rev + 1,
          first_name = case when first_name = '' then ${name.firstName}::text else first_name end,
          last_name = case when last_name = '' and (first_name = '' or lower(first_name) = lower(${name.firstName}::text))
                           then ${name.lastName}::text else last_name end,
          second_name = case when second_name = '' and (first_name = '' or lower(first_name) = lower(${name.firstName}::text))
                             then ${name.secondName}::text else second_name end
        where id = ${customerId}::int`,
  );
}
