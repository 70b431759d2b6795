import type { Database } from '~/db/client.server';
import { newsletterSubscriptions } from '~/db/schema';

export type SubscribeResult = 'subscribed' | 'already';

/**
 * Subscribes an address (already validated) to the newsletter. Addresses are kept lower-cased,
 * so Anna@Example.com and anna@example.com are one subscriber; subscribing twice changes nothing.
 */
export async function subscribe({ db, email }: { db: Database; email: string }): Promise<SubscribeResult> {
  const inserted = await db
    .insert(newsletterSubscriptions)
    .values({ email: email.trim().toLowerCase() })
    .onConflictDoNothing({ target: newsletterSubscriptions.email })
    .returning({ email: newsletterSubscriptions.email });
  return inserted.length > 0 ? 'subscribed' : 'already';
}
