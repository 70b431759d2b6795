import { AsyncLocalStorage } from 'node:async_hooks';
import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '~/db/client.server';
import { jobs } from '~/db/schema';

// DESIGN.md's scheduler: work that follows a commit (order notices, carrier registration) is
// written as a row in the same transaction as its cause, so it is never lost and never runs for
// something that rolled back. Any process claims due rows with `for update skip locked`, so N
// processes on one PostgreSQL share the work without running a job twice at once. A failed job
// is retried with back-off; after MAX_ATTEMPTS it stays in the table, undone, with its error.

export const MAX_ATTEMPTS = 8;
/** How long a claimed job is left to its process before another may take it. */
export const LEASE_SECONDS = 300;

export interface JobLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export type JobHandler = (payload: Record<string, unknown>) => Promise<void>;

/** The job a handler is running for, as the send path sees it (models/sent-messages.server.ts). */
export interface RunningJob {
  id: number;
  kind: string;
  payload: Record<string, unknown>;
}

const runningJob = new AsyncLocalStorage<RunningJob>();

/** The job whose handler called this, if any: messages it sends get idempotency keys from it. */
export function currentJob(): RunningJob | undefined {
  return runningJob.getStore();
}

export async function enqueueJob(
  db: Database,
  kind: string,
  payload: Record<string, unknown>,
  runAt?: Date,
): Promise<void> {
  await db.insert(jobs).values({ kind, payload, ...(runAt ? { runAt } : {}) });
}

/** Seconds before the next try: 5, 20, 80 … capped at an hour. */
export function retryDelaySeconds(attempts: number): number {
  return Math.min(3600, 5 * 4 ** Math.max(0, attempts - 1));
}

/**
 * Runs up to `limit` due jobs. A job is claimed in a short statement that pushes its `run_at`
 * one lease ahead (so another process skips it, and a process that dies mid-job lets it come
 * due again), then its handler runs outside any transaction (an SMS gateway must not hold a
 * database connection), then it is marked done or rescheduled. Returns how many ran.
 */
export async function runDueJobs({
  db,
  handlers,
  log,
  limit = 20,
  now = () => new Date(),
}: {
  db: Database;
  handlers: Readonly<Record<string, JobHandler>>;
  log: JobLogger;
  limit?: number;
  now?: () => Date;
}): Promise<number> {
  let ran = 0;
  for (; ran < limit; ran++) {
    const at = now();
    const lease = new Date(at.getTime() + LEASE_SECONDS * 1000);
    const [job] = await queryRows<{ id: number; kind: string; payload: Record<string, unknown>; attempts: number }>(
      db,
      sql`update jobs set run_at = ${lease.toISOString()}::timestamptz, attempts = attempts + 1
          where id = (
            select id from jobs
            where done_at is null and attempts < ${MAX_ATTEMPTS} and run_at <= ${at.toISOString()}::timestamptz
            order by run_at, id limit 1 for update skip locked)
          returning id, kind, payload, attempts`,
    );
    if (!job) break;
    const attempts = Number(job.attempts);
    try {
      const handler = handlers[job.kind];
      if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
      await runningJob.run({ id: job.id, kind: job.kind, payload: job.payload }, () => handler(job.payload));
      await db.execute(sql`update jobs set done_at = now(), last_error = null where id = ${job.id}`);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const next = new Date(now().getTime() + retryDelaySeconds(attempts) * 1000);
      await db.execute(
        sql`update jobs set last_error = ${message.slice(0, 1000)}, run_at = ${next.toISOString()}::timestamptz where id = ${job.id}`,
      );
      (attempts >= MAX_ATTEMPTS ? log.error : log.warn).call(
        log,
        { jobId: job.id, kind: job.kind, attempts, err: message },
        'job failed',
      );
    }
  }
  return ran;
}

/**
 * Polls for due jobs every `intervalMs` (and at once when nudged, after an order), one run at
 * a time per process. `stop()` waits for the run in progress.
 */
export function startJobWorker({
  db,
  handlers,
  log,
  intervalMs = 2000,
  periodic = [],
}: {
  db: Database;
  handlers: Readonly<Record<string, JobHandler>>;
  log: JobLogger;
  intervalMs?: number;
  /** Jobs that recur: one is kept waiting, due `everyMs` after the last one ran. */
  periodic?: readonly { kind: string; everyMs: number }[];
}): {
  nudge(): void;
  runNow(kind?: string, bringForward?: BringForward): Promise<RunNowResult>;
  stop(): Promise<void>;
} {
  let running: Promise<void> | null = null;
  let lastPeriodicCheck = 0;
  const schedulePeriodic = async () => {
    if (periodic.length === 0 || Date.now() - lastPeriodicCheck < 60_000) return;
    lastPeriodicCheck = Date.now();
    for (const p of periodic) await ensurePeriodicJob(db, p.kind, p.everyMs);
  };
  let again = false;
  let stopped = false;
  const tick = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = schedulePeriodic()
      .then(() => runDueJobs({ db, handlers, log }))
      .then(
        () => undefined,
        (err: unknown) => log.error({ err }, 'job worker failed'),
      )
      .finally(() => {
        running = null;
        if (again && !stopped) {
          again = false;
          tick();
        }
      });
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return {
    nudge: tick,
    // `npm run jobs -- run [kind]` (the staff path): time-based steps now, after the run in progress.
    // `bringForward` makes the waiting jobs due (the staff path does it in one transaction with its audit row).
    async runNow(kind, bringForward = (kinds) => makeJobsDue(db, kinds)) {
      if (kind && !Object.hasOwn(handlers, kind)) throw new UnknownJobKind(kind, Object.keys(handlers));
      while (running) await running;
      const kinds = [...new Set([...periodic.map((p) => p.kind), ...(kind ? [kind] : [])])];
      for (const p of periodic) await ensurePeriodicJob(db, p.kind, p.everyMs);
      const madeDue = await bringForward(kinds);
      const ran = await runDueJobs({ db, handlers, log, limit: RUN_NOW_LIMIT });
      return { kinds, madeDue, ran };
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}

/** Makes the waiting jobs of `kinds` due; answers how many (makeJobsDue, perhaps in a transaction with more). */
export type BringForward = (kinds: string[]) => Promise<number>;

export class UnknownJobKind extends Error {
  constructor(
    readonly kind: string,
    readonly known: string[],
  ) {
    super(`no handler for job kind ${kind}`);
  }
}

export interface RunNowResult {
  /** The kinds brought forward: every periodic one, and the one asked for. */
  kinds: string[];
  madeDue: number;
  ran: number;
}

/** The most jobs one `runNow` runs: enough for a shop's waiting work, bounded for a huge backlog. */
export const RUN_NOW_LIMIT = 1000;

/**
 * Makes the waiting jobs of `kinds` due now (time-based steps brought forward). A job another
 * process holds at this moment may then be claimed again before it finishes: handlers are
 * written to run twice safely, as after a crash. Returns how many were moved.
 */
export async function makeJobsDue(db: Database, kinds: readonly string[]): Promise<number> {
  if (kinds.length === 0) return 0;
  const rows = await queryRows<{ id: number }>(
    db,
    sql`update jobs set run_at = now() where done_at is null and attempts < ${MAX_ATTEMPTS} and run_at > now()
        and kind in (${sql.join(
          kinds.map((k) => sql`${k}`),
          sql`, `,
        )}) returning id`,
  );
  return rows.length;
}

/**
 * Keeps one undone `kind` job waiting, due `everyMs` after the last one finished. Two processes
 * checking at once may both add one; the job is then simply run twice, which a periodic job
 * must tolerate anyway.
 */
export async function ensurePeriodicJob(db: Database, kind: string, everyMs: number): Promise<void> {
  await db.execute(
    sql`insert into jobs (kind, payload, run_at)
        select ${kind}, '{}'::jsonb, coalesce((select max(done_at) from jobs where kind = ${kind}), now() - interval '1 second') + ${`${Math.round(everyMs / 1000)} seconds`}::interval
        where not exists (select 1 from jobs where kind = ${kind} and done_at is null and attempts < ${MAX_ATTEMPTS})`,
  );
}
