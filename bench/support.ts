import { execFile, spawnSync } from 'node:child_process';
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

/**
 * What one order cost, as bench:orders and bench:checkout print it: this process's CPU (the
 * server and autocannon) since `cpuBefore`, and on PostgreSQL the statements sent since
 * `statementsBefore` (less the count query that read `placed`), each per order placed.
 */
export function perOrderCost(placed: number, cpuBefore: NodeJS.CpuUsage, statements: number | null): string {
  const cpu = process.cpuUsage(cpuBefore);
  const orders = Math.max(1, placed);
  const perStatement = statements === null ? '' : `, ${((statements - 1) / orders).toFixed(1)} statements`;
  return `${((cpu.user + cpu.system) / 1000 / orders).toFixed(2)} ms CPU${perStatement} an order`;
}
