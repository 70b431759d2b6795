// Cold start to the first rendered page, then home-page throughput at 32 connections beside
// the same server answering a static file of the same size. Prints a table; asserts nothing.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';

const PORT = Number(process.env.BENCH_PORT ?? 3917);
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 32;
const base = `http://127.0.0.1:${PORT}`;
const staticName = 'bench-static.html';
const staticFile = path.resolve('build/client', staticName);

function start(dataDir: string): { child: ChildProcess; spawnedAt: number } {
  const child = spawn(process.execPath, ['--import', 'tsx', '--import', './server/production-env.ts', 'server/main.ts'], {
    env: {
      ...process.env,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      DATABASE_URL: process.env.DATABASE_URL ?? '',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return { child, spawnedAt: performance.now() };
}

async function waitForPage(spawnedAt: number): Promise<number> {
  for (;;) {
    try {
      const res = await fetch(`${base}/`);
      if (res.status === 200) {
        await res.text();
        return performance.now() - spawnedAt;
      }
    } catch {
      // not listening yet
    }
    if (performance.now() - spawnedAt > 180_000) throw new Error('server did not start within 180 s');
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

async function load(url: string) {
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION });
  return { rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx };
}

async function main() {
  if (!fs.existsSync('build/server/index.js')) throw new Error('run `npm run build` first');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-bench-'));
  try {
    // 1. Cold start: empty data folder, so migrations and the seed run too.
    let run = start(dataDir);
    const cold = await waitForPage(run.spawnedAt);
    const html = await (await fetch(`${base}/`)).text();
    await stop(run.child);

    // 2. A static file the size of the home page, then a warm start (database already there).
    fs.writeFileSync(staticFile, html.padEnd(Buffer.byteLength(html), ' '));
    run = start(dataDir);
    const warm = await waitForPage(run.spawnedAt);
    await load(`${base}/`); // warm-up: JIT, caches
    const home = await load(`${base}/`);
    const file = await load(`${base}/${staticName}`);
    await stop(run.child);

    const rows: Array<[string, string]> = [
      ['cold start to first page (migrate + seed)', `${Math.round(cold)} ms`],
      ['warm start to first page', `${Math.round(warm)} ms`],
      ['home page size', `${Buffer.byteLength(html)} bytes`],
      [`home page (SSR), ${CONNECTIONS} connections`, `${home.rps} req/s, p50 ${home.p50} ms, p99 ${home.p99} ms, errors ${home.errors}`],
      [`static file, same size`, `${file.rps} req/s, p50 ${file.p50} ms, p99 ${file.p99} ms, errors ${file.errors}`],
      ['SSR / static ratio', `${(home.rps / file.rps).toFixed(3)}`],
    ];
    console.log(`\nVitrina bench (${os.cpus().length} cores, ${DURATION} s per load, ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`);
    for (const [k, v] of rows) console.log(`  ${k.padEnd(44)} ${v}`);
  } finally {
    fs.rmSync(staticFile, { force: true });
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
