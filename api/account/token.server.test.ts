import { describe, expect, it } from 'vitest';
import { readSessionToken, signSessionToken } from './token.server';

const SECRET = 'a-test-secret-of-enough-length-000';
const later = () => new Date(Date.now() + 60_000);

describe('session tokens', () => {
  it('reads back what it signed', async () => {
    const token = await signSessionToken(SECRET, { sessionId: 'abc', customerId: 7 }, later());
    expect(await readSessionToken(SECRET, token)).toEqual({ sessionId: 'abc', customerId: 7 });
  });

  it('refuses another key, an altered payload, an expired token and junk', async () => {
    const token = await signSessionToken(SECRET, { sessionId: 'abc', customerId: 7 }, later());
    expect(await readSessionToken('another-secret-of-enough-length-0', token)).toBeNull();
    const [head, body, sig] = token.split('.');
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(body ?? '', 'base64url').toString()), sub: '8' }),
    ).toString('base64url');
    expect(await readSessionToken(SECRET, `${head}.${forged}.${sig}`)).toBeNull();
    const expired = await signSessionToken(SECRET, { sessionId: 'abc', customerId: 7 }, new Date(Date.now() - 1000));
    expect(await readSessionToken(SECRET, expired)).toBeNull();
    for (const junk of ['', 'abc', 'a.b.c', 'x'.repeat(5000)]) expect(await readSessionToken(SECRET, junk)).toBeNull();
    // alg "none" is never accepted.
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${body}.`;
    expect(await readSessionToken(SECRET, none)).toBeNull();
  });
});
