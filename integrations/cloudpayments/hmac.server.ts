import crypto from 'node:crypto';

// CloudPayments signs each notification (INTEGRATIONS.md §1): Content-HMAC =
// base64(HMAC-SHA256(API secret, raw body as sent)), X-Content-HMAC the same over the
// URL-decoded body. The shop checks Content-HMAC on the raw bytes, before parsing anything.

export function signBody(secret: string, rawBody: string | Buffer): string {
  return crypto.createHmac('sha256', secret).update(rawBody).digest('base64');
}

/** The decoded form X-Content-HMAC covers ('+' is a space, %XX decoded). */
export function decodedBody(rawBody: string): string {
  try {
    return decodeURIComponent(rawBody.replace(/\+/g, ' '));
  } catch {
    return rawBody;
  }
}

/** Whether `header` is the body's signature; constant-time, false for a missing or malformed header. */
export function verifyContentHmac(
  secret: string,
  rawBody: string | Buffer,
  header: string | string[] | undefined,
): boolean {
  const value = Array.isArray(header) ? header[0] : header;
  if (typeof value !== 'string' || !/^[A-Za-z0-9+/]{43}=$/.test(value.trim())) return false;
  const expected = crypto.createHmac('sha256', secret).update(rawBody).digest();
  const given = Buffer.from(value.trim(), 'base64');
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}
