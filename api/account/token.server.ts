import { jwtVerify, SignJWT } from 'jose';

// The session token (SPEC §3 `jwt_token`, the `token` cookie): an HS256 JWT whose `sid` names a
// row of the sessions table. The signature keeps forged and altered tokens out without a
// query; the row makes logging out real (a revoked session fails even with a good signature).

const ISSUER = 'vitrina';

export interface TokenClaims {
  sessionId: string;
  customerId: number;
}

export async function signSessionToken(secret: string, claims: TokenClaims, expiresAt: Date): Promise<string> {
  return new SignJWT({ sid: claims.sessionId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(String(claims.customerId))
    .setIssuer(ISSUER)
    .setIssuedAt()
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .sign(new TextEncoder().encode(secret));
}

/**
 * The secret as a WebCrypto key, imported once per secret: given the bytes, jose imports them at
 * every verification (a third of its time; every customer call verifies its token).
 */
const verifyKeys = new Map<string, Promise<CryptoKey>>();
function verifyKey(secret: string): Promise<CryptoKey> {
  let key = verifyKeys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'verify',
    ]);
    // A process has one secret; tests open shops with others.
    if (verifyKeys.size > 16) verifyKeys.clear();
    verifyKeys.set(secret, key);
    key.catch(() => verifyKeys.delete(secret));
  }
  return key;
}

/** The claims of a well-signed, unexpired token; null for anything else (never throws). */
export async function readSessionToken(secret: string, token: string): Promise<TokenClaims | null> {
  if (!token || token.length > 2048) return null;
  try {
    const { payload } = await jwtVerify(token, await verifyKey(secret), {
      issuer: ISSUER,
      algorithms: ['HS256'],
    });
    const customerId = Number(payload.sub);
    if (typeof payload.sid !== 'string' || !Number.isSafeInteger(customerId) || customerId <= 0) return null;
    return { sessionId: payload.sid, customerId };
  } catch {
    return null;
  }
}
