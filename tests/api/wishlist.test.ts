import { asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { customers, products } from '~/db/schema';
import { ApiError, WishlistResponse } from '~/shared/contract';
import { AUTH_TEXT } from '~/core/auth';
import { createSession, findOrCreateCustomerByPhone, revokeSession } from '~/models/auth.server';
import { signSessionToken } from '~/api/account/token.server';
import { resolveAuthSecret } from '~/server/secrets.server';
import { fetchJson } from '~/tests/support/api';
import { setUpTestShop } from '~/tests/support/server';

// SPEC §7 `GET /wishlist/` over HTTP on PGlite or (TEST_DATABASE_URL) PostgreSQL: a customer's
// favourites and views, a guest's views by filter, junk ids, owners, and changes at one moment.

const shop = setUpTestShop();
const db = () => shop.database.db;
const api = () => `${shop.baseUrl}/backend`;

let ids: number[] = [];
let inactiveId = 0;

beforeAll(async () => {
  const rows = await db()
    .select({ id: products.id })
    .from(products)
    .where(eq(products.active, true))
    .orderBy(asc(products.id));
  ids = rows.map((r) => r.id);
  expect(ids.length).toBeGreaterThan(120);
  // One product taken off sale: it never shows, and cannot be added.
  inactiveId = ids.pop() as number;
  await db().update(products).set({ active: false }).where(eq(products.id, inactiveId));
});

let phoneSeq = 0;
/** A customer of its own for a test, with a live session token. */
async function newCustomer(): Promise<{ token: string; customerId: number; sessionId: string }> {
  const phone = `7955${String(1_000_000 + ++phoneSeq)
    .slice(1)
    .padStart(7, '0')}`;
  const { id: customerId } = await findOrCreateCustomerByPhone({ db: db(), phone });
  const session = await createSession({ db: db(), customerId });
  const token = await signSessionToken(
    resolveAuthSecret({ dataDir: shop.dataDir }),
    { sessionId: session.id, customerId },
    session.expiresAt,
  );
  return { token, customerId, sessionId: session.id };
}

function query(params: Record<string, string | undefined>): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) search.set(k, v);
  return `/wishlist/?${search.toString()}`;
}

async function call(params: Record<string, string | undefined>): Promise<number[]> {
  const { body } = await fetchJson(api(), query(params), WishlistResponse);
  return body.ITEMS.map((i) => i.ID);
}

const listOf = async (customerId: number, mode: 'wishlist' | 'watched' = 'wishlist') => {
  const [row] = await db()
    .select({ wishlist: customers.wishlist, watched: customers.watched })
    .from(customers)
    .where(eq(customers.id, customerId));
  return row?.[mode] ?? [];
};

const at = (i: number) => ids[i] as number;

describe('guests', () => {
  it('show the cards of the filter ids in their order, catalogue cards, cacheable', async () => {
    const wanted = [at(5), at(2), at(9)];
    const { response, body } = await fetchJson(
      api(),
      query({ action: 'show', mode: 'watched', filter: wanted.join(',') }),
      WishlistResponse,
    );
    expect(body.ITEMS.map((i) => i.ID)).toEqual(wanted);
    const first = body.ITEMS[0];
    expect(first?.DETAIL_PAGE_URL).toMatch(/^\/catalog\/.+\/$/);
    expect(first?.PREVIEW_PICTURE).toMatch(/^\/media\//);
    expect(response.headers.get('cache-control')).toBe('public, max-age=60');
    // The same card the catalogue lists.
    const page = await fetch(`${api()}${first?.DETAIL_PAGE_URL ?? ''}`);
    expect(page.status).toBe(200);
  });

  it('read filter[ids] the same as filter, and default to show', async () => {
    expect(await call({ mode: 'watched', 'filter[ids]': `${at(1)},${at(0)}` })).toEqual([at(1), at(0)]);
    expect(await call({})).toEqual([]);
  });

  it('ignore junk ids, duplicates, unknown and inactive products (SPEC §5)', async () => {
    const filter = [
      '',
      'abc',
      '-1',
      '0',
      String(at(3)),
      '1.5',
      String(at(3)),
      '99999999999',
      '2147483647',
      String(inactiveId),
      `${at(4)} `,
      'x1',
    ].join(',');
    expect(await call({ mode: 'watched', filter })).toEqual([at(3), at(4)]);
    expect(await call({ mode: 'watched', filter: ',,,' })).toEqual([]);
  });

  it('cannot change a list: add and remove without a token are 401', async () => {
    for (const action of ['add', 'remove']) {
      const { body } = await fetchJson(api(), query({ action, mode: 'wishlist', filter: String(at(1)) }), ApiError, {
        status: 401,
      });
      expect(body).toEqual({ error: AUTH_TEXT.sessionGone });
    }
  });

  it('unknown actions and modes are a 400', async () => {
    await fetchJson(api(), query({ action: 'drop', filter: String(at(1)) }), ApiError, { status: 400 });
    await fetchJson(api(), query({ mode: 'basket' }), ApiError, { status: 400 });
  });
});

describe('customers', () => {
  it('add at the front without duplicates, remove, and show their own list', async () => {
    const { token, customerId } = await newCustomer();
    expect(await call({ action: 'show', mode: 'wishlist', token })).toEqual([]);
    expect(await call({ action: 'add', mode: 'wishlist', token, filter: String(at(1)) })).toEqual([at(1)]);
    expect(await call({ action: 'add', mode: 'wishlist', token, filter: String(at(2)) })).toEqual([at(2), at(1)]);
    // Again: moved to the front, never twice.
    expect(await call({ action: 'add', mode: 'wishlist', token, filter: String(at(1)) })).toEqual([at(1), at(2)]);
    expect(await listOf(customerId)).toEqual([at(1), at(2)]);
    // The filter of show is a guest's: a customer's show reads the account.
    expect(await call({ action: 'show', mode: 'wishlist', token, filter: String(at(7)) })).toEqual([at(1), at(2)]);
    expect(await call({ action: 'remove', mode: 'wishlist', token, filter: String(at(1)) })).toEqual([at(2)]);
    // Removing what is not there changes nothing.
    expect(await call({ action: 'remove', mode: 'wishlist', token, filter: String(at(9)) })).toEqual([at(2)]);
    // Views are a list of their own.
    expect(await call({ action: 'add', mode: 'watched', token, filter: String(at(3)) })).toEqual([at(3)]);
    expect(await listOf(customerId, 'watched')).toEqual([at(3)]);
    expect(await listOf(customerId)).toEqual([at(2)]);
    const { response } = await fetchJson(api(), query({ action: 'show', token }), WishlistResponse);
    expect(response.headers.get('cache-control')).toBe('private, no-store');
  });

  it('never add junk, unknown or inactive products; an inactive one already kept is not shown', async () => {
    const { token, customerId } = await newCustomer();
    expect(await call({ action: 'add', token, filter: `abc,,${inactiveId},2147483647,0` })).toEqual([]);
    expect(await listOf(customerId)).toEqual([]);
    await db()
      .update(customers)
      .set({ wishlist: [inactiveId, at(6)] })
      .where(eq(customers.id, customerId));
    expect(await call({ action: 'show', token })).toEqual([at(6)]);
  });

  it('keep at most 100 favourites and 30 views, the newest', async () => {
    const { token, customerId } = await newCustomer();
    const many = ids.slice(0, 110);
    // One at a time, oldest first: the last added is the newest.
    for (const chunk of [many.slice(0, 60), many.slice(60)])
      await call({ action: 'add', token, filter: [...chunk].reverse().join(',') });
    const kept = await listOf(customerId);
    expect(kept).toHaveLength(100);
    expect(kept[0]).toBe(at(109));
    expect(kept).not.toContain(at(0));
    expect(await call({ action: 'show', token })).toHaveLength(100);

    for (const id of ids.slice(0, 35)) await call({ action: 'add', mode: 'watched', token, filter: String(id) });
    const watched = await listOf(customerId, 'watched');
    expect(watched).toHaveLength(30);
    expect(watched[0]).toBe(at(34));
  });

  it("a token of customer A never reads or changes B's list", async () => {
    const a = await newCustomer();
    const b = await newCustomer();
    await call({ action: 'add', token: b.token, filter: String(at(10)) });
    expect(await call({ action: 'show', token: a.token })).toEqual([]);
    expect(await call({ action: 'remove', token: a.token, filter: String(at(10)) })).toEqual([]);
    expect(await call({ action: 'add', token: a.token, filter: String(at(11)) })).toEqual([at(11)]);
    expect(await listOf(b.customerId)).toEqual([at(10)]);
    expect(await listOf(a.customerId)).toEqual([at(11)]);
  });

  it('a dead or forged token is a 401, even for show', async () => {
    const { token, sessionId } = await newCustomer();
    await fetchJson(api(), query({ action: 'show', token: `${token}x` }), ApiError, { status: 401 });
    await revokeSession({ db: db(), sessionId });
    await fetchJson(api(), query({ action: 'add', token, filter: String(at(1)) }), ApiError, { status: 401 });
    await fetchJson(api(), query({ action: 'show', token }), ApiError, { status: 401 });
  });

  it('20 adds at the same moment keep every id once; 20 of the same id keep it once', async () => {
    const { token, customerId } = await newCustomer();
    const twenty = ids.slice(20, 40);
    await Promise.all(twenty.map((id) => call({ action: 'add', token, filter: String(id) })));
    const kept = await listOf(customerId);
    expect(kept).toHaveLength(20);
    expect(new Set(kept)).toEqual(new Set(twenty));

    await Promise.all(
      Array.from({ length: 20 }, () => call({ action: 'add', mode: 'watched', token, filter: String(at(50)) })),
    );
    expect(await listOf(customerId, 'watched')).toEqual([at(50)]);

    // Removes and adds racing each other: the list stays a list of distinct ids.
    await Promise.all(twenty.map((id, i) => call({ action: i % 2 ? 'remove' : 'add', token, filter: String(id) })));
    const after = await listOf(customerId);
    expect(new Set(after).size).toBe(after.length);
    expect(after).toEqual(expect.arrayContaining(twenty.filter((_, i) => i % 2 === 0)));
    expect(after.some((id) => twenty.filter((_, i) => i % 2 === 1).includes(id))).toBe(false);
  });
});
