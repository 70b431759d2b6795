import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodedBody, signBody, verifyContentHmac } from './hmac.server';

const SECRET = 'api-secret-0123456789';
const BODY =
  'TransactionId=1234567&Amount=1500.00&Currency=RUB&InvoiceId=42&AccountId=7&Email=anna%40example.com&Description=%D0%97%D0%B0%D0%BA%D0%B0%D0%B7+%E2%84%9642';

describe('CloudPayments signatures', () => {
  it('signs the raw body as base64 HMAC-SHA256 with the API secret', () => {
    const expected = crypto.createHmac('sha256', SECRET).update(BODY, 'utf8').digest('base64');
    expect(signBody(SECRET, BODY)).toBe(expected);
    expect(signBody(SECRET, Buffer.from(BODY))).toBe(expected);
  });

  it('accepts the right signature and refuses a wrong, missing or malformed one', () => {
    const sig = signBody(SECRET, BODY);
    expect(verifyContentHmac(SECRET, BODY, sig)).toBe(true);
    expect(verifyContentHmac(SECRET, BODY, [sig])).toBe(true);
    expect(verifyContentHmac('other-secret', BODY, sig)).toBe(false);
    expect(verifyContentHmac(SECRET, `${BODY}&x=1`, sig)).toBe(false);
    expect(verifyContentHmac(SECRET, BODY.replace('1500.00', '1.00'), sig)).toBe(false);
    expect(verifyContentHmac(SECRET, BODY, undefined)).toBe(false);
    expect(verifyContentHmac(SECRET, BODY, '')).toBe(false);
    expect(verifyContentHmac(SECRET, BODY, 'not base64 at all')).toBe(false);
    expect(verifyContentHmac(SECRET, BODY, sig.slice(0, -4))).toBe(false);
    // A signature of the decoded form (X-Content-HMAC) is not the raw body's.
    expect(verifyContentHmac(SECRET, BODY, signBody(SECRET, decodedBody(BODY)))).toBe(false);
  });

  it('decodes the form for X-Content-HMAC', () => {
    expect(decodedBody('a=%D0%97+b%40c')).toBe('a=З b@c');
    expect(decodedBody('bad=%E0%A4%A')).toBe('bad=%E0%A4%A');
  });
});
