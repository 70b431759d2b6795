import { describe, expect, it } from 'vitest';
import { runGuard } from './guards.server';
import { countCartItems, countIds, readCookie } from '~/shared/cookies';

describe('runGuard', () => {
  it('sends a shopper without a token to /auth/', async () => {
    let thrown: unknown;
    try {
      await runGuard('auth', new Request('http://x/personal/'));
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).status).toBe(302);
    expect((thrown as Response).headers.get('location')).toBe('/auth/');
  });
  it('lets a shopper with a token through', async () => {
    await expect(runGuard('auth', new Request('http://x/personal/', { headers: { cookie: 'a=1; token=abc' } }))).resolves.toBeUndefined();
  });
  it('throws for a guard that does not exist', async () => {
    await expect(runGuard('admin', new Request('http://x/'))).rejects.toThrow(/Unknown route guard: admin/);
    await expect(runGuard('toString', new Request('http://x/'))).rejects.toThrow(/Unknown route guard/);
  });
});

describe('cookies', () => {
  it('reads a cookie by exact name', () => {
    expect(readCookie('xtoken=1; token=a%20b', 'token')).toBe('a b');
    expect(readCookie('tokenx=1', 'token')).toBeNull();
    expect(readCookie(null, 'token')).toBeNull();
  });
  it('counts cart items and ids, ignoring junk', () => {
    expect(countCartItems('12:1,15:2,junk,7:x')).toBe(3);
    expect(countIds('1,2,abc,3')).toBe(3);
  });
});
