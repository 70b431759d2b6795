// Start times: a fresh embedded database (migrate + seed) to /healthz and the first rendered page,
// then restarts on that database (the median of BENCH_RESTARTS, default 3) the same way; then
// guest-page throughput at 32 connections: the home,
// a category and a product page from the guest page cache (X-Cache: HIT) beside the same server
// answering a static file of the same size, and the same pages with the cache off
// (PAGE_CACHE=off, every request rendered). Prints a table; asserts nothing.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { serveEntryPoint, serveNodeArgs } from '~/server/serve-command';
import { DEMO_DATABASE_DIR } from '~/server/demo-database';
import { httpLoad, loadTool } from './support';

const PORT = Number(process.env.BENCH_PORT ?? 3917);
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 32;
const base = `http://127.0.0.1:${PORT}`;
const staticPath = (page: string) => `bench-static-${page}.html`;
// The server measured: this checkout, or another built one (an older commit's clone, for a
// before-and-after on the same machine). Its build/client takes the static files.
const APP_DIR = path.resolve(process.env.BENCH_APP_DIR ?? '.');

function start(dataDir: string, extraEnv: Record<string, string> = {}): { child: ChildProcess; spawnedAt: number } {
  const child = spawn(process.execPath, serveNodeArgs(APP_DIR), {
    env: {
      ...process.env,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      // The bench measures the demo shop (offline payment stand-ins), as `npm start` runs it.
      ALLOW_OFFLINE_PAYMENTS: 'true',
      DATABASE_URL: process.env.DATABASE_URL ?? '',
      ...extraEnv,
    },
    cwd: APP_DIR,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return { child, spawnedAt: performance.now() };
}

/** ms from the spawn to the first 200 from `url` (polled every 10 ms). */
async function waitFor(url: string, spawnedAt: number): Promise<number> {
  for (;;) {
    try {
      const res = await fetch(`${base}${url}`);
      const body = await res.text();
      if (res.status === 200 && (url !== '/healthz' || JSON.parse(body).status === 'ok'))
        return performance.now() - spawnedAt;
    } catch {
      // not listening yet
    }
    if (performance.now() - spawnedAt > 180_000) throw new Error('server did not start within 180 s');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Time to /healthz ok, then to the home page rendered. */
async function timeStart(spawnedAt: number): Promise<{ health: number; page: number }> {
  const health = await waitFor('/healthz', spawnedAt);
  return { health, page: await waitFor('/', spawnedAt) };
}

const RESTARTS = Math.max(1, Number(process.env.BENCH_RESTARTS ?? 3));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

const BR = { 'accept-encoding': 'br' };

async function load(url: string, duration = DURATION, headers: Record<string, string> = {}) {
  return httpLoad(url, CONNECTIONS, duration, headers);
}

type Load = Awaited<ReturnType<typeof load>>;

/** The server process's CPU time so far (user + system), in ms, from /proc (Linux). */
function processCpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  // utime and stime are fields 14 and 15 of stat, in clock ticks (100 per second on Linux).
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const CPU_REQUESTS = Number(process.env.BENCH_CPU_REQUESTS ?? 300);

/** ms of the server's CPU per request, over CPU_REQUESTS sequential requests (one at a time). */
async function cpuPerRequest(pid: number, url: string): Promise<number> {
  const before = processCpuMs(pid);
  for (let i = 0; i < CPU_REQUESTS; i++)
    await (await fetch(url, { headers: { 'accept-encoding': 'identity' } })).arrayBuffer();
  return (processCpuMs(pid) - before) / CPU_REQUESTS;
}
const show = (l: Load) => `${l.rps} req/s, p50 ${l.p50} ms, p99 ${l.p99} ms${l.errors ? `, errors ${l.errors}` : ''}`;

/** Bytes of the document's serialized loader data (the turbo-stream in window.__reactRouterContext). */
function loaderDataBytes(html: string): number {
  let total = 0;
  for (const m of html.matchAll(/<script[^>]*>([\s\S]*?)<\/script>/g)) {
    const body = m[1] ?? '';
    if (body.includes('__reactRouterContext') || body.includes('streamController')) total += Buffer.byteLength(body);
  }
  return total;
}

async function main() {
  for (const file of ['build/server/index.js', path.relative(APP_DIR, serveEntryPoint(APP_DIR))])
    if (!fs.existsSync(path.join(APP_DIR, file))) throw new Error(`${file} is missing: run \`npm run build\` first`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-bench-'));
  const written: string[] = [];
  const loadAtStart = loadAverage();
  try {
    // 1. Cold start: empty data folder, so migrations and the seed run too.
    let run = start(dataDir);
    const cold = await timeStart(run.spawnedAt);
    const listing = (await (await fetch(`${base}/backend/catalog/all/`)).json()) as {
      ITEMS: Array<{ DETAIL_PAGE_URL: string }>;
    };
    const productUrl = listing.ITEMS[0]?.DETAIL_PAGE_URL;
    if (!productUrl) throw new Error('no product in the catalogue');
    const pages: Array<{ name: string; url: string; bytes: number; br: number; data: number }> = [];
    for (const [name, url] of [
      ['home', '/'],
      ['category', '/catalog/woman/'],
      ['product', productUrl],
    ] as const) {
      const html = await (await fetch(`${base}${url}`)).text();
      // 2. A static file the size of each page, served by the same server, with the brotli
      // sibling `npm run build` would write for it.
      const file = path.join(APP_DIR, 'build/client', staticPath(name));
      fs.writeFileSync(file, html);
      fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(html));
      written.push(file, `${file}.br`);
      pages.push({
        name,
        url,
        bytes: Buffer.byteLength(html),
        br: zlib.brotliCompressSync(html).length,
        data: loaderDataBytes(html),
      });
    }
    await stop(run.child);

    // 3. Restarts on the database the first start made (the last one stays up), then, with the
    // cache on, each page's hits beside its static file.
    const restarts: Array<{ health: number; page: number }> = [];
    for (let i = 0; i < RESTARTS; i++) {
      if (i > 0) await stop(run.child);
      run = start(dataDir);
      restarts.push(await timeStart(run.spawnedAt));
    }
    const loadAfterStarts = loadAverage();
    const hits = new Map<string, { hit: Load; file: Load; hitBr: Load; fileBr: Load; xCache: string | null }>();
    for (const page of pages) {
      // Warm-up: JIT and the cache entries of both encodings.
      await load(`${base}${page.url}`, 3);
      await load(`${base}${page.url}`, 1, BR);
      // The same key autocannon uses: no compression.
      const xCache = (await fetch(`${base}${page.url}`, { headers: { 'accept-encoding': 'identity' } })).headers.get(
        'x-cache',
      );
      const hit = await load(`${base}${page.url}`);
      const file = await load(`${base}/${staticPath(page.name)}`);
      const hitBr = await load(`${base}${page.url}`, DURATION, BR);
      const fileBr = await load(`${base}/${staticPath(page.name)}`, DURATION, BR);
      hits.set(page.name, { hit, file, hitBr, fileBr, xCache });
    }
    await stop(run.child);

    // 4. The same pages with the cache off: every request rendered.
    run = start(dataDir, { PAGE_CACHE: 'off' });
    await waitFor(`/`, run.spawnedAt);
    const rendered = new Map<string, Load>();
    const cpu = new Map<string, number>();
    const loadedCpu = new Map<string, number>();
    for (const page of pages) {
      await load(`${base}${page.url}`, 3);
      const pid = run.child.pid ?? 0;
      const cpuBefore = processCpuMs(pid);
      const off = await load(`${base}${page.url}`);
      loadedCpu.set(page.name, (processCpuMs(pid) - cpuBefore) / off.requests);
      rendered.set(page.name, off);
      cpu.set(page.name, await cpuPerRequest(pid, `${base}${page.url}`));
    }
    await stop(run.child);

    const ms = (values: number[]) =>
      `${Math.round(median(values))} ms${values.length > 1 ? ` (${values.map(Math.round).join(', ')})` : ''}`;
    // A checkout that builds the demo database starts a new embedded one from it (server/demo-database.ts).
    const fresh = process.env.DATABASE_URL
      ? 'migrate + seed'
      : fs.existsSync(path.join(APP_DIR, DEMO_DATABASE_DIR, 'PG_VERSION'))
        ? `copy of ${DEMO_DATABASE_DIR}`
        : 'initdb + migrate + seed';
    const rows: Array<[string, string]> = [
      [`fresh start to /healthz ok (${fresh})`, `${Math.round(cold.health)} ms`],
      [`fresh start to first page (${fresh})`, `${Math.round(cold.page)} ms`],
      [`restart to /healthz ok (median of ${RESTARTS})`, ms(restarts.map((r) => r.health))],
      [`restart to first page (median of ${RESTARTS})`, ms(restarts.map((r) => r.page))],
    ];
    for (const page of pages) {
      const h = hits.get(page.name);
      const off = rendered.get(page.name);
      if (!h || !off) continue;
      rows.push(
        [`${page.name} ${page.url}`, `${page.bytes} bytes (loader data ${page.data}, brotli 11 ${page.br})`],
        [`  cache hit (X-Cache: ${h.xCache ?? 'none'})`, show(h.hit)],
        ['  static file, same size', show(h.file)],
        ['  hit / static ratio', (h.hit.rps / h.file.rps).toFixed(3)],
        ['  cache hit, Accept-Encoding: br (brotli 5)', show(h.hitBr)],
        ['  static file .br (brotli 11)', show(h.fileBr)],
        ['  br hit / br static ratio', (h.hitBr.rps / h.fileBr.rps).toFixed(3)],
        ['  cache off (rendered every time)', show(off)],
        [`  cache off, CPU per request (${CPU_REQUESTS} sequential)`, `${(cpu.get(page.name) ?? NaN).toFixed(2)} ms`],
        [
          `  cache off, CPU per request (under the ${CONNECTIONS}-connection load)`,
          `${(loadedCpu.get(page.name) ?? NaN).toFixed(2)} ms`,
        ],
      );
    }
    console.log(
      `\nVitrina bench (${os.cpus().length} cores, ${DURATION} s per load, ${CONNECTIONS} connections from ${loadTool === 'wrk' ? 'wrk (one thread)' : 'autocannon'}, no Accept-Encoding unless shown, ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}, ${APP_DIR})`,
    );
    console.log(`  server started as: node ${serveNodeArgs(APP_DIR).join(' ')} (Node ${process.version})`);
    console.log(`  load average (1, 5, 15 min): ${loadAtStart} at the start, ${loadAfterStarts} after the starts`);
    for (const [k, v] of rows) console.log(`  ${k.padEnd(60)} ${v}`);
  } finally {
    for (const file of written) fs.rmSync(file, { force: true });
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
