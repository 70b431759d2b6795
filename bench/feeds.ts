// Product feeds at catalogue scale (issue #32): the YML feed of about 100 000 offers (and the
// Google one), on PGlite and (with BENCH_DATABASE_URL, an admin URL) on PostgreSQL.
//   npm run bench:feeds [-- --products 26000] [-- --db pglite,postgres] [-- --requests 5] [-- --heap 96]
// The catalogue is seeded here (db/seed, as bench/catalog.ts does); the shop then runs in a child
// process of its own, so its memory is measured alone: resident set at rest (VmRSS) and its peak
// (VmHWM, from /proc) after the first request (which builds the feed) and after serving it again
// and again, plain, gzip and brotli, one at a time and eight at once. Prints figures; asserts nothing.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { loadEnv } from '~/server/env.server';
import { openDatabase } from '~/db/client.server';
import { seedDatabase } from '~/db/seed/seed.server';
import { buildServer } from '~/server/app.server';
import type { FeedChannel, StaffFeedsResponse } from '~/shared/contract';
import { openBenchDatabase, pct } from './support';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : (process.argv[i + 1] ?? fallback);
};

/** The staff token the bench's shop runs with (it reads the build reports through the staff API). */
const BENCH_STAFF_TOKEN = 'bench-feeds-staff-token-0123456789';

const MB = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

// ---------------------------------------------------------------------------------------------
// The child: the shop on the seeded database, its port on stdout.

async function child(): Promise<void> {
  const dataDir = arg('child', '');
  const databaseUrl = process.env.BENCH_CHILD_DATABASE_URL || undefined;
  const database = await openDatabase({ databaseUrl, pgliteDir: path.join(dataDir, 'pglite') });
  const env = loadEnv({
    NODE_ENV: 'production',
    LOG_LEVEL: 'error',
    DATA_DIR: dataDir,
    SEED_ON_START: 'false',
    PORT: '0',
    PUBLIC_SITE_URL: 'https://vitrina.example',
    STAFF_TOKEN: BENCH_STAFF_TOKEN,
  });
  const app = await buildServer({ env, database, build: null });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  console.log(JSON.stringify({ port: typeof addr === 'object' && addr ? addr.port : 0 }));
  process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

// ---------------------------------------------------------------------------------------------
// The parent: seed, start the child, measure.

/** VmRSS and VmHWM (the peak) of a process, in bytes. */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

interface Fetched {
  status: number;
  /** Time to the first byte of the body (or the headers of a bodiless answer), ms. */
  ttfb: number;
  total: number;
  bytes: number;
  headers: http.IncomingHttpHeaders;
}

/** One GET, the body counted and dropped as it arrives (the client keeps none of it). */
function get(base: string, urlPath: string, headers: Record<string, string> = {}): Promise<Fetched> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}${urlPath}`, { headers }, (res) => {
      let ttfb = performance.now() - t0;
      let first = true;
      let bytes = 0;
      res.on('data', (c: Buffer) => {
        if (first) ttfb = performance.now() - t0;
        first = false;
        bytes += c.length;
      });
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, ttfb, total: performance.now() - t0, bytes, headers: res.headers }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

async function startChild(
  dataDir: string,
  databaseUrl: string | undefined,
): Promise<{ proc: ChildProcess; base: string }> {
  // --heap <MB>: the shop's V8 old space capped (--max-old-space-size), to show the build's working set.
  const heap = arg('heap', '');
  const flags = heap ? [`--max-old-space-size=${heap}`] : [];
  const proc = spawn(
    process.execPath,
    [...flags, '--import', 'tsx', '--import', './server/production-env.ts', 'bench/feeds.ts', '--child', dataDir],
    {
      env: { ...process.env, BENCH_CHILD_DATABASE_URL: databaseUrl ?? '' },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const lines = readline.createInterface({ input: proc.stdout as NodeJS.ReadableStream });
  // The log shares stdout: the port is the line that says { "port": … } alone.
  const port = await new Promise<number>((resolve, reject) => {
    lines.on('line', (line) => {
      const m = /^\{"port":(\d+)\}$/.exec(line.trim());
      if (m) resolve(Number(m[1]));
    });
    proc.once('exit', (code) => reject(new Error(`the shop exited (${code})`)));
  });
  return { proc, base: `http://127.0.0.1:${port}` };
}

async function measure(kind: string, products: number, requests: number): Promise<string[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-bench-feeds-'));
  const { handle, drop, url } = await openBenchDatabase(kind, dataDir);
  const out: string[] = [];
  let proc: ChildProcess | null = null;
  try {
    await handle.migrate();
    const t0 = performance.now();
    await seedDatabase(handle.db, { products });
    const seedS = ((performance.now() - t0) / 1000).toFixed(1);
    await handle.close();

    const started = await startChild(dataDir, url);
    proc = started.proc;
    const base = started.base;
    const pid = proc.pid as number;
    const atRest = memoryOf(pid);
    const report = async (channel: FeedChannel) => {
      const res = await fetch(`${base}/backend/staff/feeds/`, {
        headers: { authorization: `Bearer ${BENCH_STAFF_TOKEN}` },
      });
      if (res.status !== 200) throw new Error(`staff feeds: ${res.status} ${await res.text()}`);
      const body = (await res.json()) as StaffFeedsResponse;
      const r = body.feeds.find((f) => f.channel === channel)?.last_build;
      if (!r) throw new Error(`${channel}: no build report`);
      return r;
    };

    out.push(
      `${kind}: ${products} products seeded in ${seedS} s; the shop at rest: RSS ${MB(atRest.rss)} (peak ${MB(atRest.peak)})`,
    );
    for (const [channel, urlPath] of [
      ['yandex', '/feeds/yandex.yml'],
      ['google', '/feeds/google.xml'],
    ] as const) {
      const before = memoryOf(pid);
      const cold = await get(base, urlPath, { 'accept-encoding': 'identity' });
      if (cold.status !== 200) throw new Error(`${urlPath}: ${cold.status}`);
      const afterBuild = memoryOf(pid);
      const r = await report(channel);
      out.push(
        `  ${channel}: ${r.offers} offers of ${r.products} products (${r.left_out_total} left out: ${JSON.stringify(r.left_out_counts)})` +
          `\n    build ${(r.duration_ms / 1000).toFixed(2)} s (first request: ${(cold.ttfb / 1000).toFixed(2)} s to the first byte, ${(cold.total / 1000).toFixed(2)} s whole)` +
          `; ${MB(r.bytes)} plain, ${MB(r.gzip_bytes)} gzip, ${MB(r.br_bytes)} brotli` +
          `\n    RSS before ${MB(before.rss)}, after ${MB(afterBuild.rss)}; peak while building and serving ${MB(afterBuild.peak)} (+${MB(afterBuild.peak - before.rss)})`,
      );

      const etag = String(cold.headers.etag);
      for (const encoding of ['identity', 'gzip', 'br']) {
        const times: number[] = [];
        const ttfbs: number[] = [];
        let bytes = 0;
        for (let i = 0; i < requests; i++) {
          const f = await get(base, urlPath, { 'accept-encoding': encoding });
          if (f.status !== 200) throw new Error(`${urlPath} ${encoding}: ${f.status}`);
          times.push(f.total);
          ttfbs.push(f.ttfb);
          bytes = f.bytes;
        }
        times.sort((a, b) => a - b);
        ttfbs.sort((a, b) => a - b);
        out.push(
          `    serve ${encoding.padEnd(8)} ${MB(bytes).padStart(9)}: median ${pct(times, 50).toFixed(0)} ms whole, ${pct(ttfbs, 50).toFixed(1)} ms to the first byte (${requests} requests one at a time)`,
        );
      }
      const t = performance.now();
      const parallel = await Promise.all(
        Array.from({ length: 8 }, () => get(base, urlPath, { 'accept-encoding': 'identity' })),
      );
      const wall = performance.now() - t;
      const sent = parallel.reduce((a, f) => a + f.bytes, 0);
      const conditional: number[] = [];
      for (let i = 0; i < 50; i++) {
        const f = await get(base, urlPath, { 'accept-encoding': 'identity', 'if-none-match': etag });
        if (f.status !== 304) throw new Error(`${urlPath}: ${f.status} to its ETag`);
        conditional.push(f.total);
      }
      conditional.sort((a, b) => a - b);
      const afterServing = memoryOf(pid);
      out.push(
        `    8 plain at once: ${(wall / 1000).toFixed(2)} s for ${MB(sent)} (${MB(sent / (wall / 1000))}/s); 304 to the ETag: median ${pct(conditional, 50).toFixed(1)} ms` +
          `\n    RSS after serving ${MB(afterServing.rss)}; peak so far ${MB(afterServing.peak)}`,
      );
    }
  } finally {
    if (proc) {
      proc.kill('SIGTERM');
      await new Promise((r) => proc?.once('exit', r));
    }
    await drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return out;
}

async function main(): Promise<void> {
  if (process.argv.includes('--child')) return child();
  const products = Number(arg('products', '26000'));
  const requests = Number(arg('requests', '5'));
  const kinds = arg('db', process.env.BENCH_DATABASE_URL ? 'pglite,postgres' : 'pglite').split(',');
  const lines: string[] = [];
  for (const kind of kinds) {
    const result = await measure(kind, products, requests);
    for (const l of result) console.log(l);
    lines.push(...result);
  }
  const heap = arg('heap', '');
  console.log(
    `\nVitrina feeds bench (${os.cpus().length} cores, Node ${process.version}; the shop in a child process${heap ? ` with --max-old-space-size=${heap}` : ''}, memory from /proc/<pid>/status)`,
  );
  for (const l of lines) console.log(l);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
