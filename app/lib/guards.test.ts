import { describe, expect, it } from 'vitest';
import { runGuard } from './guards.server';
import { ApiClient } from '~/shared/api-client';

const PROFILE = {
  userMain: { ID: 1, PHONE: '79990000000', cart: '', preorders: '', wishlist: '', watched: '' },
  userInfo: { FIRSTNAME: 'Анна', LASTNAME: '', SECONDNAME: '', PHONE: '79990000000', EMAIL: '' },
  subscribed: false,
};

/** An API that knows one live token, 'good.live.token'; every profile call is recorded. */
function fakeApi() {
  const asked: string[] = [];
  const api = new ApiClient({
    baseUrl: 'http://api.test',
    fetch: async (_url, init) => {
      const token = new URLSearchParams(String(init?.body)).get('params[token]') ?? '';
      asked.push(token);
      return token === 'good.live.token'
        ? Response.json(PROFILE)
        : Response.json({ error: 'Войдите снова' }, { status: 401 });
    },
  });
  return { api, asked };
}
import { countCartItems, countIds, readCookie } from '~/shared/cookies';

describe('runGuard', () => {
  it('sends a shopper without a token to /auth/, asking the API nothing', async () => {
    const { api, asked } = fakeApi();
    let thrown: unknown;
    try {
      await runGuard('auth', new Request('http://x/personal/'), api);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).status).toBe(302);
    expect((thrown as Response).headers.get('location')).toBe('/auth/');
    expect(asked).toEqual([]);
  });
  it('lets a shopper with a live session through', async () => {
    const { api, asked } = fakeApi();
    await expect(
      runGuard('auth', new Request('http://x/personal/', { headers: { cookie: 'a=1; token=good.live.token' } }), api),
    ).resolves.toBeUndefined();
    expect(asked).toEqual(['good.live.token']);
  });
  it('sends a dead or forged token to /auth/ and drops its cookies', async () => {
    const { api } = fakeApi();
    const thrown = await runGuard(
      'auth',
      new Request('http://x/personal/', { headers: { cookie: 'token=forged' } }),
      api,
    ).then(
      () => null,
      (e: unknown) => e,
    );
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).headers.get('location')).toBe('/auth/');
    expect((thrown as Response).headers.get('set-cookie')).toMatch(/token=; Path=\/; Max-Age=0/);
  });
  it('throws for a guard that does not exist', async () => {
    const { api } = fakeApi();
    await expect(runGuard('admin', new Request('http://x/'), api)).rejects.toThrow(/Unknown route guard: admin/);
    await expect(runGuard('toString', new Request('http://x/'), api)).rejects.toThrow(/Unknown route guard/);
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
