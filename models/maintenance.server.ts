import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '~/db/client.server';
import type { JobHandler } from './jobs.server';

// Rows that have done their work: login codes past the longest cap window that counts them
// (a day), sessions expired or revoked a day ago, rate-limit windows older than the daily one,
// jobs done a month ago, and the record of messages sent a month ago (their jobs are gone); the
// back office's Idempotency-Keys after a week and staff sessions 90 days after they began (long
// ended: 12 hours at most). The audit log is never pruned. Run as the periodic job 'maintenance.prune'.

export interface PruneCounts {
  authCodes: number;
  sessions: number;
  rateCounters: number;
  jobs: number;
  sentMessages: number;
  idempotencyKeys: number;
  staffSessions: number;
}

export async function pruneExpired({ db, now = new Date() }: { db: Database; now?: Date }): Promise<PruneCounts> {
  const at = (hoursAgo: number) => new Date(now.getTime() - hoursAgo * 3_600_000).toISOString();
  const count = async (query: ReturnType<typeof sql>) => (await queryRows<{ n: number }>(db, query))[0]?.n ?? 0;
  return {
    authCodes: Number(
      await count(
        sql`with d as (delete from auth_codes where created_at < ${at(48)}::timestamptz returning 1) select count(*)::int as n from d`,
      ),
    ),
    sessions: Number(
      await count(
        sql`with d as (delete from sessions where expires_at < ${at(24)}::timestamptz or revoked_at < ${at(24)}::timestamptz returning 1) select count(*)::int as n from d`,
      ),
    ),
    rateCounters: Number(
      await count(
        sql`with d as (delete from rate_counters where window_start < ${at(48)}::timestamptz returning 1) select count(*)::int as n from d`,
      ),
    ),
    jobs: Number(
      await count(
        sql`with d as (delete from jobs where done_at < ${at(24 * 30)}::timestamptz returning 1) select count(*)::int as n from d`,
      ),
    ),
    sentMessages: Number(
      await count(
        sql`with d as (delete from sent_messages where sent_at < ${at(24 * 31)}::timestamptz returning 1) select count(*)::int as n from d`,
      ),
    ),
    idempotencyKeys: Number(
      await count(
        sql`with d as (delete from idempotency_keys where created_at < ${at(24 * 7)}::timestamptz returning 1) select count(*)::int as n from d`,
      ),
    ),
    staffSessions: Number(
      await count(
        sql`with d as (delete from staff_sessions where created_at < ${at(24 * 90)}::timestamptz returning 1) select count(*)::int as n from d`,
      ),
    ),
  };
}

export function maintenanceJobHandlers({
  db,
  log,
}: {
  db: Database;
  log: { info(obj: object, msg: string): void };
}): Record<string, JobHandler> {
  return {
    'maintenance.prune': async () => {
      const counts = await pruneExpired({ db });
      log.info({ ...counts }, 'pruned expired rows');
    },
  };
}
