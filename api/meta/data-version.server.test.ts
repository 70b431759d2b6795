import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '~/db/client.server';
import { redirects } from '~/db/schema';
import { bumpCatalogVersion } from '~/db/catalog-version.server';
import { DATA_VERSION_CHECK_MS, readPageVersion, versionedMemo } from './data-version.server';
import { findRedirect } from './meta.server';

// On an in-memory PGlite with the real migrations.

let database: DatabaseHandle;

beforeAll(async () => {
  database = await openDatabase({ pgliteDir: 'memory://' });
  await database.migrate();
}, 60_000);

afterAll(async () => {
  await database?.close();
});

const waitForVersionCheck = () => new Promise((r) => setTimeout(r, DATA_VERSION_CHECK_MS + 50));

describe('versionedMemo', () => {
  it('computes a key once while the data version stands, and again once it changed', async () => {
    const { db } = database;
    const memo = versionedMemo<number>(10);
    let computed = 0;
    const compute = async () => ++computed;
    expect(await memo(db, 'a', compute)).toBe(1);
    expect(await memo(db, 'a', compute)).toBe(1);
    expect(await memo(db, 'b', compute)).toBe(2);
    await bumpCatalogVersion(db);
    await waitForVersionCheck();
    expect(await memo(db, 'a', compute)).toBe(3);
  });

  it('keeps no failure and no more than its bound', async () => {
    const { db } = database;
    const memo = versionedMemo<string>(2);
    await expect(memo(db, 'x', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await memo(db, 'x', async () => 'up')).toBe('up');
    let calls = 0;
    await memo(db, 'k1', async () => `${++calls}`);
    await memo(db, 'k2', async () => `${++calls}`);
    // 'x' (the oldest) went when 'k2' came: computed again.
    expect(await memo(db, 'x', async () => 'again')).toBe('again');
  });

  it('computes again once an entry is older than its time to live, version unchanged', async () => {
    const { db } = database;
    let clock = 1_000;
    const memo = versionedMemo<number>(10, { ttlMs: 500, now: () => clock });
    let computed = 0;
    const compute = async () => ++computed;
    expect(await memo(db, 'a', compute)).toBe(1);
    clock += 499;
    expect(await memo(db, 'a', compute)).toBe(1);
    clock += 1;
    expect(await memo(db, 'a', compute)).toBe(2);
    expect(await memo(db, 'a', compute)).toBe(2);
  });

  it('sees a redirect stored by any means within the version check, like the page cache', async () => {
    const { db } = database;
    expect(await findRedirect({ db, path: '/old-sale/' })).toBeNull();
    const before = await readPageVersion(db);
    await db.insert(redirects).values({ fromPath: '/old-sale/', toUrl: '/catalog/promo/', status: 301 });
    expect(await readPageVersion(db)).not.toBe(before);
    // A fresh read (the page cache's) is published at once: the memo follows it.
    expect(await findRedirect({ db, path: '/old-sale/' })).toEqual({
      location: '/catalog/promo/',
      status: 301,
      external: false,
    });
  });
});
