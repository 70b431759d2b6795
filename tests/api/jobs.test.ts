import { eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { authCodes, customers, jobs, rateCounters, sessions } from '~/db/schema';
import { ensurePeriodicJob, MAX_ATTEMPTS, runDueJobs } from '~/models/jobs.server';
import { pruneExpired } from '~/models/maintenance.server';
import { setUpTestShop } from '~/tests/support/server';

// The job table (models/jobs.server.ts) on PGlite or (TEST_DATABASE_URL) PostgreSQL. Test jobs
// are due far in the future, and the runners here are given that future as "now", so the test
// shop's own worker (which runs on the real clock) never takes them.

const shop = setUpTestShop();
const db = () => shop.database.db;
const FUTURE = new Date(Date.now() + 10 * 365 * 86_400_000);
const silent = { info() {}, warn() {}, error() {} };
let seq = 0;

async function addJobs(kind: string, n: number): Promise<number[]> {
  const rows = await db()
    .insert(jobs)
    .values(
      Array.from({ length: n }, (_, i) => ({ kind, payload: { i }, runAt: new Date(FUTURE.getTime() - 1000 + i) })),
    )
    .returning({ id: jobs.id });
  return rows.map((r) => r.id);
}

describe('job table', () => {
  it('runs each due job once even with two runners at the same time, and marks it done', async () => {
    const kind = `test.once.${++seq}`;
    const ids = await addJobs(kind, 12);
    const seen: number[] = [];
    const handlers = {
      [kind]: async (payload: Record<string, unknown>) => {
        seen.push(Number(payload.i));
        await new Promise((r) => setTimeout(r, 5));
      },
    };
    await Promise.all([0, 1].map(() => runDueJobs({ db: db(), handlers, log: silent, limit: 50, now: () => FUTURE })));
    expect(seen.sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i));
    const rows = await db().select().from(jobs).where(inArray(jobs.id, ids));
    expect(rows.every((r) => r.doneAt !== null && r.attempts === 1 && r.lastError === null)).toBe(true);
  });

  it('retries a failing job later with its error kept, and stops after the last attempt', async () => {
    const kind = `test.fail.${++seq}`;
    const [id] = await addJobs(kind, 1);
    const handlers = {
      [kind]: async () => {
        throw new Error('gateway down');
      },
    };
    await runDueJobs({ db: db(), handlers, log: silent, now: () => FUTURE });
    let [row] = await db()
      .select()
      .from(jobs)
      .where(eq(jobs.id, id as number));
    expect(row).toMatchObject({ attempts: 1, lastError: 'gateway down', doneAt: null });
    expect(row!.runAt.getTime()).toBeGreaterThan(FUTURE.getTime());
    // Not due again until its back-off has passed.
    expect(await runDueJobs({ db: db(), handlers, log: silent, now: () => FUTURE })).toBe(0);
    let later = FUTURE.getTime();
    for (let i = 1; i < MAX_ATTEMPTS + 2; i++) {
      later += 2 * 3_600_000;
      await runDueJobs({ db: db(), handlers, log: silent, now: () => new Date(later) });
    }
    [row] = await db()
      .select()
      .from(jobs)
      .where(eq(jobs.id, id as number));
    expect(row?.attempts).toBe(MAX_ATTEMPTS);
    expect(row?.doneAt).toBeNull();
  });

  it('keeps one periodic job waiting', async () => {
    const kind = `test.periodic.${++seq}`;
    await Promise.all([ensurePeriodicJob(db(), kind, 3_600_000), ensurePeriodicJob(db(), kind, 3_600_000)]);
    await ensurePeriodicJob(db(), kind, 3_600_000);
    const rows = await db().select().from(jobs).where(eq(jobs.kind, kind));
    // Two processes checking at the very same moment may add two (PostgreSQL); never more.
    expect(rows.length).toBeGreaterThanOrEqual(1);
    expect(rows.length).toBeLessThanOrEqual(2);
    expect(rows[0]!.runAt.getTime()).toBeGreaterThan(Date.now() + 3_500_000);
  });
});

describe('maintenance.prune', () => {
  it('deletes expired codes, sessions and rate windows, and keeps live ones', async () => {
    const now = new Date();
    const old = new Date(now.getTime() - 3 * 86_400_000);
    const [customer] = await db().insert(customers).values({ phone: '79995550101' }).returning({ id: customers.id });
    const customerId = customer!.id;
    await db()
      .insert(sessions)
      .values([
        { id: `old-${seq}`, customerId, expiresAt: old },
        { id: `live-${seq}`, customerId, expiresAt: new Date(now.getTime() + 86_400_000) },
      ]);
    await db()
      .insert(authCodes)
      .values([
        { channel: 'phone', target: '79995550101', codeHash: 'x', createdAt: old, expiresAt: old },
        { channel: 'phone', target: '79995550101', codeHash: 'y', expiresAt: new Date(now.getTime() + 300_000) },
      ]);
    await db()
      .insert(rateCounters)
      .values([
        { key: `test:${seq}`, windowStart: old, count: 3 },
        { key: `test:${seq}`, windowStart: now, count: 1 },
      ]);
    const counts = await pruneExpired({ db: db(), now });
    expect(counts.sessions).toBeGreaterThanOrEqual(1);
    expect(counts.authCodes).toBeGreaterThanOrEqual(1);
    expect(counts.rateCounters).toBeGreaterThanOrEqual(1);
    const left = await db().select({ id: sessions.id }).from(sessions).where(eq(sessions.customerId, customerId));
    expect(left.map((s) => s.id)).toEqual([`live-${seq}`]);
    const [codes] = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(authCodes)
      .where(eq(authCodes.target, '79995550101'));
    expect(Number(codes?.n)).toBe(1);
    const windows = await db()
      .select()
      .from(rateCounters)
      .where(eq(rateCounters.key, `test:${seq}`));
    expect(windows).toHaveLength(1);
  });
});
