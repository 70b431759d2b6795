import type { Database } from '~/db/client.server';
import { getSessionCustomerId } from '~/models/auth.server';
import { readSessionToken, type TokenClaims } from './token.server';

/** The customer and session a token stands for: signed by us, unexpired, and its session not revoked; null otherwise. */
export async function sessionOfToken({
  db,
  secret,
  token,
}: {
  db: Database;
  secret: string;
  token: unknown;
}): Promise<TokenClaims | null> {
  if (typeof token !== 'string' || token === '') return null;
  const claims = await readSessionToken(secret, token);
  if (!claims) return null;
  const customerId = await getSessionCustomerId({ db, sessionId: claims.sessionId });
  return customerId === claims.customerId ? claims : null;
}
