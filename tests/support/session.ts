import { createSession, findOrCreateCustomerByPhone } from '~/models/auth.server';
import { signSessionToken } from '~/api/account/token.server';
import { resolveAuthSecret } from '~/server/secrets.server';
import type { TestShop } from './server';

/**
 * A real session of the customer with `phone` (made when new) and its signed token, as the
 * shop's login leaves them: for tests that need a logged-in shopper without the SMS round trip
 * (the login itself has its own tests).
 */
export async function sessionToken(
  shop: Pick<TestShop, 'database' | 'dataDir'>,
  phone = '79990000000',
): Promise<{ token: string; customerId: number }> {
  const db = shop.database.db;
  const { id: customerId } = await findOrCreateCustomerByPhone({ db, phone });
  const session = await createSession({ db, customerId });
  const token = await signSessionToken(
    resolveAuthSecret({ dataDir: shop.dataDir }),
    { sessionId: session.id, customerId },
    session.expiresAt,
  );
  return { token, customerId };
}

/**
 * `customer()` for a test file: each call a new logged-in shopper. The phone is `prefix`, then
 * this process, then a count, so the customers of one file never meet and files can keep ranges
 * of their own.
 */
export function customerMaker(shop: Pick<TestShop, 'database' | 'dataDir'>, prefix: string) {
  let seq = 0;
  return () => {
    seq += 1;
    return sessionToken(shop, `${prefix}${String(process.pid % 1000).padStart(3, '0')}${String(seq).padStart(4, '0')}`);
  };
}
