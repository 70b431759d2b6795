import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { openDatabase, type Database, type DatabaseHandle } from '~/db/client.server';
import { SYSTEM_ACTOR } from '~/core/stock-ledger';
import { moveStock } from '~/models/stock.server';

// What the bench scripts share: a database to measure on, thrown away afterwards.

export function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** PGlite in dataDir, or a fresh database on the PostgreSQL server of BENCH_DATABASE_URL (an admin URL). */
export async function openBenchDatabase(
  kind: string,
  dataDir: string,
  poolSize = 8,
): Promise<{ handle: DatabaseHandle; drop: () => Promise<void>; /** postgres: the database's URL. */ url?: string }> {
  if (kind === 'pglite')
    return { handle: await openDatabase({ pgliteDir: path.join(dataDir, 'pglite') }), drop: async () => {} };
  const admin = process.env.BENCH_DATABASE_URL;
  if (!admin) throw new Error('BENCH_DATABASE_URL is needed for postgres');
  const { default: pg } = await import('pg');
  const name = `vitrina_bench_${process.pid}_${Date.now().toString(36)}`;
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  await c.query(`drop database if exists ${name} with (force)`);
  await c.query(`create database ${name}`);
  await c.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    handle: await openDatabase({ databaseUrl: url.toString(), poolSize }),
    drop: async () => {
      const d = new pg.Client({ connectionString: admin });
      await d.connect();
      await d.query(`drop database if exists ${name} with (force)`);
      await d.end();
    },
  };
}

export interface LoadResult {
  /** Responses received in the whole load. */
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

/**
 * The load generator for page throughput: wrk (Debian's `wrk`, one thread) when it is installed,
 * else autocannon. autocannon is JavaScript and needs a whole core of its own to parse 30 KB
 * answers at a few thousand a second: on a 2-core machine it, not the server, sets the latency
 * of a cheap request (measured: a cache hit's p99 35 ms with autocannon at 40 % of the server's
 * core, 9 ms with wrk at 100 %). BENCH_LOAD=autocannon forces autocannon.
 */
export const loadTool: 'wrk' | 'autocannon' =
  process.env.BENCH_LOAD === 'autocannon' ? 'autocannon' : spawnSync('wrk', ['-v']).error ? 'autocannon' : 'wrk';

/** `connections` GET connections to url for `seconds`; latency percentiles in ms. */
export async function httpLoad(
  url: string,
  connections: number,
  seconds: number,
  headers: Record<string, string> = {},
): Promise<LoadResult> {
  if (loadTool === 'autocannon') {
    const r = await autocannon({ url, connections, duration: seconds, headers });
    return {
      requests: r.requests.total,
      rps: Math.round(r.requests.average),
      p50: r.latency.p50,
      p99: r.latency.p99,
      errors: r.errors + r.non2xx,
    };
  }
  const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency'];
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}: ${v}`);
  const out = await new Promise<string>((resolve, reject) => {
    execFile('wrk', [...args, url], { maxBuffer: 1 << 20 }, (err, stdout) => (err ? reject(err) : resolve(stdout)));
  });
  return parseWrk(out);
}

/** The figures of wrk's --latency report. */
export function parseWrk(out: string): LoadResult {
  const ms = (v: string, unit: string) => Number(v) * ({ us: 0.001, ms: 1, s: 1000, m: 60_000 }[unit] ?? NaN);
  const pctl = (p: string) => {
    const m = new RegExp(`^\\s*${p}%\\s+([\\d.]+)(us|ms|s|m)\\s*$`, 'm').exec(out);
    return m?.[1] && m[2] ? Math.round(ms(m[1], m[2]) * 10) / 10 : NaN;
  };
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(out)?.[1];
  const requests = Number(/^\s*(\d+) requests in /m.exec(out)?.[1] ?? NaN);
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const socketErrors = socket ? socket.slice(1).reduce((a, b) => a + Number(b), 0) : 0;
  return { requests, rps: Math.round(Number(rps)), p50: pctl('50'), p99: pctl('99'), errors: non2xx + socketErrors };
}

/**
 * Counts the statements node-postgres sends from now on (each one round trip; BEGIN and COMMIT
 * included), for a bench's "statements per order". PostgreSQL only: PGlite has no wire.
 */
export async function statementCounter(): Promise<() => number> {
  const { default: pg } = await import('pg');
  const proto = pg.Client.prototype as unknown as {
    query: (...args: unknown[]) => unknown;
    statementsSent?: { n: number };
  };
  if (!proto.statementsSent) {
    const sent = { n: 0 };
    const query = proto.query;
    proto.query = function (this: unknown, ...args: unknown[]) {
      sent.n++;
      return query.apply(this, args);
    };
    proto.statementsSent = sent;
  }
  const sent = proto.statementsSent;
  return () => sent.n;
}

/** Gives the offers so much stock the measured orders never run out: a count through the stock ledger, as staff would. */
export async function stockUp(db: Database, offerIds: readonly number[], quantity = 1_000_000): Promise<void> {
  await db.transaction(async (tx) =>
    moveStock(tx as unknown as Database, {
      lines: offerIds.map((offerId) => ({ offerId, setTo: quantity })),
      reason: 'count',
      actor: SYSTEM_ACTOR,
      note: 'benchmark',
    }),
  );
}

/** CPU ticks (user + system) of each process named `postgres` on this machine, by pid (Linux /proc). */
function postgresTicks(): Map<number, number> {
  const ticks = new Map<number, number>();
  let pids: string[] = [];
  try {
    pids = fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return ticks;
  }
  for (const pid of pids) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      if (stat.slice(stat.indexOf('(') + 1, close) !== 'postgres') continue;
      // Fields after the command: state is the 3rd field of the line, utime the 14th, stime the 15th.
      const fields = stat.slice(close + 2).split(' ');
      ticks.set(Number(pid), Number(fields[11]) + Number(fields[12]));
    } catch {
      // The process ended meanwhile.
    }
  }
  return ticks;
}

/** The machine's CPU time, busy and total, in ticks (/proc/stat's first line). */
function machineTicks(): { busy: number; total: number } {
  try {
    const [, ...values] = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
    const n = values.map(Number);
    const total = n.reduce((a, b) => a + b, 0);
    // idle and iowait
    return { busy: total - (n[3] ?? 0) - (n[4] ?? 0), total };
  } catch {
    return { busy: 0, total: 0 };
  }
}

const TICK_MS = 10; // USER_HZ is 100 on Linux

/**
 * What one order cost, as bench:orders and bench:checkout print it, measured from `orderCost()`
 * to `report(placed)`: this process's CPU (the server and autocannon); on PostgreSQL the
 * statements node-postgres sent (less the count query that read `placed`) and, when the server
 * runs on this machine, the CPU of its processes (every process named postgres: backends that
 * ended during the run are not counted; another session's queries would be); and how busy the
 * machine's cores were. Each per order placed.
 */
export async function orderCost(kind: string): Promise<{ report: (placed: number) => string }> {
  const statements = kind === 'postgres' ? await statementCounter() : null;
  const statementsBefore = statements?.() ?? 0;
  const pgBefore = kind === 'postgres' ? postgresTicks() : null;
  const machineBefore = machineTicks();
  const cpuBefore = process.cpuUsage();
  return {
    report(placed) {
      const cpu = process.cpuUsage(cpuBefore);
      const machine = machineTicks();
      const orders = Math.max(1, placed);
      const parts = [`${((cpu.user + cpu.system) / 1000 / orders).toFixed(2)} ms node CPU`];
      if (pgBefore) {
        let ticks = 0;
        for (const [pid, t] of postgresTicks()) ticks += t - (pgBefore.get(pid) ?? 0);
        if (ticks > 0) parts.push(`${((ticks * TICK_MS) / orders).toFixed(2)} ms PostgreSQL CPU`);
      }
      if (statements) parts.push(`${((statements() - statementsBefore - 1) / orders).toFixed(1)} statements`);
      const total = machine.total - machineBefore.total;
      const busy = total > 0 ? `; cores ${Math.round((100 * (machine.busy - machineBefore.busy)) / total)} % busy` : '';
      return `${parts.join(', ')} an order${busy}`;
    },
  };
}

/**
 * BENCH_CPU_PROFILE=file.cpuprofile: a V8 CPU profile of this process (the server and the load
 * generator) from this call to the returned stop, for Chrome DevTools or `speedscope`. Without it,
 * nothing.
 */
export async function cpuProfile(): Promise<() => Promise<void>> {
  const file = process.env.BENCH_CPU_PROFILE;
  if (!file) return async () => {};
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return async () => {
    const { profile } = await session.post('Profiler.stop');
    fs.writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
  };
}
