import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '~/db/client.server';
import { rateCounters } from '~/db/schema';
import { hitRateLimit, hitRateLimits } from './rate-limit.server';

// On an in-memory PGlite with the real migrations; the API tests repeat the limit over HTTP on
// PostgreSQL too (tests/api/newsletter.test.ts).

let database: DatabaseHandle;

beforeAll(async () => {
  database = await openDatabase({ pgliteDir: 'memory://' });
  await database.migrate();
}, 60_000);

afterAll(async () => {
  await database?.close();
});

const HOUR = 3600;
const at = (iso: string) => new Date(iso);

describe('hitRateLimit', () => {
  it('allows the first `limit` hits of a window and refuses the rest without counting them', async () => {
    const { db } = database;
    const now = at('2026-03-01T10:15:00Z');
    const results = [];
    for (let i = 0; i < 5; i++)
      results.push(await hitRateLimit({ db, key: 'test:a', windowSeconds: HOUR, limit: 3, now }));
    expect(results).toEqual([true, true, true, false, false]);

    const rows = await db.select().from(rateCounters).where(eq(rateCounters.key, 'test:a'));
    expect(rows).toEqual([{ key: 'test:a', windowStart: at('2026-03-01T10:00:00Z'), count: 3 }]);
  });

  it('starts again in the next window, and keys do not share counts', async () => {
    const { db } = database;
    const hit = (key: string, iso: string) => hitRateLimit({ db, key, windowSeconds: HOUR, limit: 1, now: at(iso) });
    expect(await hit('test:b', '2026-03-01T10:59:59.999Z')).toBe(true);
    expect(await hit('test:b', '2026-03-01T10:30:00Z')).toBe(false);
    expect(await hit('test:b', '2026-03-01T11:00:00Z')).toBe(true);
    expect(await hit('test:c', '2026-03-01T10:30:00Z')).toBe(true);
  });

  it('lets exactly `limit` of many simultaneous hits through', async () => {
    const { db } = database;
    const now = at('2026-03-02T08:00:00Z');
    const results = await Promise.all(
      Array.from({ length: 25 }, () => hitRateLimit({ db, key: 'test:burst', windowSeconds: HOUR, limit: 10, now })),
    );
    expect(results.filter(Boolean)).toHaveLength(10);
  });

  it('works inside a transaction', async () => {
    const { db } = database;
    const now = at('2026-03-03T08:00:00Z');
    const inside = await db.transaction(async (tx) =>
      hitRateLimit({ db: tx as unknown as typeof db, key: 'test:tx', windowSeconds: 60, limit: 1, now }),
    );
    expect(inside).toBe(true);
    expect(await hitRateLimit({ db, key: 'test:tx', windowSeconds: 60, limit: 1, now })).toBe(false);
  });

  it('refuses everything when the limit is 0', async () => {
    expect(await hitRateLimit({ db: database.db, key: 'test:zero', windowSeconds: HOUR, limit: 0 })).toBe(false);
  });
});

describe('hitRateLimits', () => {
  it('hits every counter or none: the one that refuses is named and the others get their hit back', async () => {
    const { db } = database;
    const now = at('2026-03-02T10:15:00Z');
    const counters = [
      { key: 'test:many:ip', windowSeconds: HOUR, limit: 5 },
      { key: 'test:many:phone', windowSeconds: HOUR, limit: 2 },
    ];
    expect(await hitRateLimits({ db, counters, now })).toBeNull();
    expect(await hitRateLimits({ db, counters, now })).toBeNull();
    expect(await hitRateLimits({ db, counters, now })).toBe('test:many:phone');
    const rows = await db.select().from(rateCounters).where(eq(rateCounters.key, 'test:many:ip'));
    expect(rows.map((r) => r.count)).toEqual([2]);
  });
});

describe('hitRateLimits in one statement', () => {
  const now = at('2026-03-04T10:15:00Z');
  const count = async (key: string) =>
    (await database.db.select().from(rateCounters).where(eq(rateCounters.key, key)))[0]?.count ?? 0;

  it('names the first full counter in the order given and leaves every count as it was', async () => {
    const { db } = database;
    const counters = [
      { key: 'one:ip', windowSeconds: HOUR, limit: 10 },
      { key: 'one:phone', windowSeconds: 60, limit: 1 },
      { key: 'one:offer', windowSeconds: HOUR, limit: 1 },
    ];
    expect(await hitRateLimits({ db, counters, now })).toBeNull();
    expect([await count('one:ip'), await count('one:phone'), await count('one:offer')]).toEqual([1, 1, 1]);
    expect(await hitRateLimits({ db, counters, now })).toBe('one:phone');
    expect([await count('one:ip'), await count('one:phone'), await count('one:offer')]).toEqual([1, 1, 1]);
  });

  it('lets exactly `limit` of simultaneous requests through and refunds the rest', async () => {
    const { db } = database;
    const counters = [
      { key: 'burst:ip', windowSeconds: HOUR, limit: 100 },
      { key: 'burst:phone', windowSeconds: HOUR, limit: 4 },
    ];
    const results = await Promise.all(Array.from({ length: 20 }, () => hitRateLimits({ db, counters, now })));
    expect(results.filter((r) => r === null)).toHaveLength(4);
    expect(results.filter((r) => r === 'burst:phone')).toHaveLength(16);
    expect(await count('burst:ip')).toBe(4);
    expect(await count('burst:phone')).toBe(4);
  });

  it('refuses on a counter with limit 0 and on a repeated key as hitRateLimit would', async () => {
    const { db } = database;
    expect(
      await hitRateLimits({
        db,
        counters: [
          { key: 'zero:a', windowSeconds: HOUR, limit: 5 },
          { key: 'zero:b', windowSeconds: HOUR, limit: 0 },
        ],
        now,
      }),
    ).toBe('zero:b');
    expect(await count('zero:a')).toBe(0);
    const twice = [
      { key: 'twice', windowSeconds: HOUR, limit: 3 },
      { key: 'twice', windowSeconds: HOUR, limit: 3 },
    ];
    expect(await hitRateLimits({ db, counters: twice, now })).toBeNull();
    expect(await hitRateLimits({ db, counters: twice, now })).toBe('twice');
    expect(await count('twice')).toBe(2);
  });
});
