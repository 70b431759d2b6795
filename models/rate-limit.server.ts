import { sql } from 'drizzle-orm';
import { queryPrepared, type Database } from '~/db/client.server';
import { rateCounters } from '~/db/schema';

/**
 * Counts one hit of `key` in the current fixed window (windows start at multiples of
 * `windowSeconds` since the epoch) and says whether it is allowed: true for the first `limit`
 * hits of a window, false after that. One atomic statement (the row's lock orders concurrent
 * hits), so two processes can never both take the last allowed hit; a refused hit changes
 * nothing. Works inside a transaction too (`db` may be one).
 */
export async function hitRateLimit({
  db,
  key,
  windowSeconds,
  limit,
  now = new Date(),
}: {
  db: Database;
  key: string;
  windowSeconds: number;
  limit: number;
  now?: Date;
}): Promise<boolean> {
  if (!(windowSeconds > 0)) throw new Error('hitRateLimit: windowSeconds must be positive');
  if (limit < 1) return false;
  const windowMs = windowSeconds * 1000;
  const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
  const counted = await db
    .insert(rateCounters)
    .values({ key, windowStart, count: 1 })
    .onConflictDoUpdate({
      target: [rateCounters.key, rateCounters.windowStart],
      // Written out: the conflict row must be named by its table, not by a bare column.
      set: { count: sql`rate_counters.count + 1` },
      setWhere: sql`rate_counters.count < ${limit}`,
    })
    .returning({ count: rateCounters.count });
  // No row back: the update's condition failed, the window is full.
  return counted.length > 0;
}

/**
 * Hits several counters as one: when one is full, the ones that allowed are given their hit
 * back, so a refused request costs nothing. One statement hits them all (a row each, each row's
 * lock ordering its concurrent hits, as hitRateLimit's), so a request that passes costs one
 * round trip whatever the number of counters. No wrapping transaction: on PGlite it would hold
 * every other request for its length. Returns the key of the first counter (in the order given)
 * that refused, or null when every one allowed.
 */
export async function hitRateLimits({
  db,
  counters,
  now = new Date(),
}: {
  db: Database;
  counters: readonly { key: string; windowSeconds: number; limit: number }[];
  now?: Date;
}): Promise<string | null> {
  // One upsert cannot touch a row twice: repeated keys are hit one by one.
  if (new Set(counters.map((c) => c.key)).size !== counters.length) return hitOneByOne({ db, counters, now });
  // A counter with no hits to give refuses without a statement (hitRateLimit's rule).
  const open = counters.filter((c) => c.limit >= 1);
  if (open.length < counters.length && counters[0]!.limit < 1) return counters[0]!.key;
  if (open.length === 0) return null;
  const rows = open.map((c) => {
    if (!(c.windowSeconds > 0)) throw new Error('hitRateLimits: windowSeconds must be positive');
    const windowMs = c.windowSeconds * 1000;
    return { key: c.key, window_start: new Date(Math.floor(now.getTime() / windowMs) * windowMs).toISOString() };
  });
  const limitOf = sql.join(
    open.map((c) => sql`when ${c.key} then ${c.limit}::int`),
    sql` `,
  );
  // Written out, the rows as one JSON parameter: every fast order runs it, and the query
  // builder's work was a visible share of an order's CPU (bench:orders).
  const allowed = await queryPrepared<{ key: string }>(
    db,
    sql`insert into rate_counters (key, window_start, count)
        select v.key, v.window_start, 1 from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(key text, window_start timestamptz)
        on conflict (key, window_start) do update set count = rate_counters.count + 1
        where rate_counters.count < (case rate_counters.key ${limitOf} end)
        returning key`,
  );
  const hit = new Set(allowed.map((r) => r.key));
  const refused = counters.find((c) => c.limit < 1 || !hit.has(c.key));
  if (!refused) return null;
  for (const c of open) if (hit.has(c.key)) await releaseRateLimit({ db, ...c, now });
  return refused.key;
}

async function hitOneByOne({
  db,
  counters,
  now,
}: {
  db: Database;
  counters: readonly { key: string; windowSeconds: number; limit: number }[];
  now: Date;
}): Promise<string | null> {
  const taken: { key: string; windowSeconds: number }[] = [];
  for (const c of counters) {
    if (await hitRateLimit({ db, ...c, now })) {
      taken.push(c);
      continue;
    }
    for (const t of taken) await releaseRateLimit({ db, ...t, now });
    return c.key;
  }
  return null;
}

/** Gives one hit of `key` back in the window holding `now` (never below zero): a try that turned out fine. */
export async function releaseRateLimit({
  db,
  key,
  windowSeconds,
  now = new Date(),
}: {
  db: Database;
  key: string;
  windowSeconds: number;
  now?: Date;
}): Promise<void> {
  const windowMs = windowSeconds * 1000;
  const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
  await db.execute(
    sql`update rate_counters set count = count - 1 where key = ${key} and window_start = ${windowStart.toISOString()}::timestamptz and count > 0`,
  );
}
