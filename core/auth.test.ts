import { describe, expect, it } from 'vitest';
import { isSessionTokenShaped, SESSION_TOKEN_MAX_LENGTH } from './auth';

describe('isSessionTokenShaped', () => {
  it('takes a compact JWT and nothing else', () => {
    expect(isSessionTokenShaped('eyJhbGciOiJIUzI1NiJ9.eyJzaWQiOiJ4In0.c2lnbmF0dXJl')).toBe(true);
    for (const junk of ['', 'abc', 'a.b', 'a.b.c.d', 'a.b.c\0', 'a b.c.d', 'а.б.в', 'a.b.c;', '%00.a.b'])
      expect(isSessionTokenShaped(junk), junk).toBe(false);
    expect(isSessionTokenShaped(null)).toBe(false);
  });
  it('refuses a cookie longer than the shop ever writes', () => {
    const part = 'a'.repeat(SESSION_TOKEN_MAX_LENGTH);
    expect(isSessionTokenShaped(`${part}.b.c`)).toBe(false);
    expect(isSessionTokenShaped(`${'a'.repeat(SESSION_TOKEN_MAX_LENGTH - 4)}.b.c`)).toBe(true);
  });
});
