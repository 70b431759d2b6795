import { randomBytes } from 'node:crypto';
import { and, eq, ne } from 'drizzle-orm';
import type { Database } from '~/db/client.server';
import { newsletterSubscriptions } from '~/db/schema';

export type SubscriptionStatus = 'pending' | 'confirmed' | 'unsubscribed';

/** 256 random bits: the confirmation and unsubscribe links carry it instead of a login. */
export const newNewsletterToken = () => randomBytes(32).toString('base64url');

/**
 * Subscribes an address (already validated) to the newsletter, pending until confirmed.
 * Addresses are kept lower-cased, so Anna@Example.com and anna@example.com are one subscriber.
 * A new address, one still pending and one that unsubscribed answer 'pending' with the token of
 * the confirmation link to send (an unsubscribed one gets a new token); a confirmed one 'already'.
 */
export async function subscribe({
  db,
  email,
}: {
  db: Database;
  email: string;
}): Promise<{ status: 'pending'; token: string } | { status: 'already' }> {
  const address = email.trim().toLowerCase();
  // One statement, so two forms sent at once cannot both insert or both reset.
  const [row] = await db
    .insert(newsletterSubscriptions)
    .values({ email: address, token: newNewsletterToken() })
    .onConflictDoUpdate({
      target: newsletterSubscriptions.email,
      set: {
        status: 'pending',
        token: newNewsletterToken(),
        createdAt: new Date(),
        confirmedAt: null,
        unsubscribedAt: null,
      },
      setWhere: eq(newsletterSubscriptions.status, 'unsubscribed'),
    })
    .returning({ token: newsletterSubscriptions.token });
  if (row) return { status: 'pending', token: row.token };
  const [current] = await db
    .select({ status: newsletterSubscriptions.status, token: newsletterSubscriptions.token })
    .from(newsletterSubscriptions)
    .where(eq(newsletterSubscriptions.email, address));
  return current?.status === 'pending' ? { status: 'pending', token: current.token } : { status: 'already' };
}

export interface TokenSubscription {
  email: string;
  status: SubscriptionStatus;
}

/** The subscription a link's token belongs to, or null. */
export async function findByToken({ db, token }: { db: Database; token: string }): Promise<TokenSubscription | null> {
  const [row] = await db
    .select({ email: newsletterSubscriptions.email, status: newsletterSubscriptions.status })
    .from(newsletterSubscriptions)
    .where(eq(newsletterSubscriptions.token, token));
  return row ?? null;
}

/**
 * Confirms a pending subscription. `changed` is true only for the request that confirmed it (it
 * sends the welcome letter); an unsubscribed address is not brought back by an old letter's link.
 */
export async function confirmSubscription({
  db,
  token,
}: {
  db: Database;
  token: string;
}): Promise<(TokenSubscription & { changed: boolean }) | null> {
  const [row] = await db
    .update(newsletterSubscriptions)
    .set({ status: 'confirmed', confirmedAt: new Date() })
    .where(and(eq(newsletterSubscriptions.token, token), eq(newsletterSubscriptions.status, 'pending')))
    .returning({ email: newsletterSubscriptions.email, status: newsletterSubscriptions.status });
  if (row) return { ...row, changed: true };
  const found = await findByToken({ db, token });
  return found && { ...found, changed: false };
}

/** Unsubscribes (a pending or confirmed subscription); a repeat changes nothing. */
export async function unsubscribe({
  db,
  token,
}: {
  db: Database;
  token: string;
}): Promise<(TokenSubscription & { changed: boolean }) | null> {
  const [row] = await db
    .update(newsletterSubscriptions)
    .set({ status: 'unsubscribed', unsubscribedAt: new Date() })
    .where(and(eq(newsletterSubscriptions.token, token), ne(newsletterSubscriptions.status, 'unsubscribed')))
    .returning({ email: newsletterSubscriptions.email, status: newsletterSubscriptions.status });
  if (row) return { ...row, changed: true };
  const found = await findByToken({ db, token });
  return found && { ...found, changed: false };
}
