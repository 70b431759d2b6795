// The back office's orders list at 100 000 orders (issue #29): two filters and a text search, p50
// and p95 of the model's list function (the query and its count, as GET /backend/admin/orders
// runs them), on PGlite and, with BENCH_DATABASE_URL or DATABASE_URL (an admin URL: a throwaway
// database is made on that server), on PostgreSQL. Goal: p95 ≤ 50 ms on PostgreSQL. Then the
// admin bundle's size if build/admin exists.
//   npm run bench:admin -- [--orders 100000] [--products 2000] [--runs 200] [--db pglite,postgres]
// Prints figures; asserts nothing.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { seedDatabase } from '~/db/seed/seed.server';
import { seedOrders } from '~/db/seed/orders.server';
import { listAdminOrders, type AdminOrderFilter } from '~/models/admin-orders.server';
import { openBenchDatabase, pct } from './support';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : (process.argv[i + 1] ?? fallback);
};
process.env.BENCH_DATABASE_URL ??= process.env.DATABASE_URL;
const ORDERS = Number(arg('orders', '100000'));
const PRODUCTS = Number(arg('products', '2000'));
const RUNS = Number(arg('runs', '200'));
const DBS = arg('db', process.env.BENCH_DATABASE_URL ? 'pglite,postgres' : 'pglite').split(',');

/** What staff type: surnames, names, phone fragments, e-mails. */
const SEARCHES = [
  'иванова',
  'смирнова',
  'анна',
  'мария поп',
  '7919',
  '912345',
  'client123',
  'client5000@',
  'орлова',
  'ксения',
];

async function main() {
  const lines: string[] = [];
  for (const kind of DBS) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-bench-admin-'));
    const { handle, drop } = await openBenchDatabase(kind, dataDir, 4);
    try {
      await handle.migrate();
      await seedDatabase(handle.db, { products: PRODUCTS });
      const t0 = performance.now();
      await seedOrders(handle.db, { orders: ORDERS });
      const seedS = ((performance.now() - t0) / 1000).toFixed(1);
      const run = (i: number, filter: AdminOrderFilter) => {
        const t = performance.now();
        return listAdminOrders({ db: handle.db, filter, sort: 'created_at', order: 'desc', offset: 0, limit: 25 }).then(
          (r) => ({
            ms: performance.now() - t,
            total: r.total,
            i,
          }),
        );
      };
      // Warm up, then measure: status + delivery + a text search, and status + a date range + a search.
      const monthAgo = new Date(Date.now() - 30 * 86_400_000);
      const cases: [string, (i: number) => AdminOrderFilter][] = [
        ['status + delivery + q', (i) => ({ status: 'received', delivery: '139', q: SEARCHES[i % SEARCHES.length] })],
        ['status + from + q', (i) => ({ status: 'new', from: monthAgo, q: SEARCHES[i % SEARCHES.length] })],
        ['q only (number)', (i) => ({ q: String(1 + ((i * 7919) % ORDERS)) })],
      ];
      for (const [name, filter] of cases) {
        for (let i = 0; i < 10; i++) await run(i, filter(i));
        const times: number[] = [];
        let found = 0;
        for (let i = 0; i < RUNS; i++) {
          const r = await run(i, filter(i));
          times.push(r.ms);
          found += r.total;
        }
        times.sort((a, b) => a - b);
        lines.push(
          `${kind.padEnd(8)} ${String(ORDERS)} orders (seeded in ${seedS} s) ${name.padEnd(22)} p50 ${pct(times, 50).toFixed(1)} ms  p95 ${pct(times, 95).toFixed(1)} ms  (avg total ${Math.round(found / RUNS)})`,
        );
        console.log(lines[lines.length - 1]);
      }
    } finally {
      await handle.close();
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
  const adminDir = path.resolve('build/admin');
  if (fs.existsSync(adminDir)) {
    let raw = 0;
    let gz = 0;
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (/\.(js|css)$/.test(e.name)) {
          const b = fs.readFileSync(p);
          raw += b.length;
          gz += zlib.gzipSync(b).length;
        }
      }
    };
    walk(adminDir);
    lines.push(
      `admin bundle (build/admin, js+css): ${(raw / 1024).toFixed(0)} KiB, gzip ${(gz / 1024).toFixed(0)} KiB`,
    );
  } else lines.push('admin bundle: build/admin not found (npm run build first)');
  console.log(`\n${lines.join('\n')}`);
}

await main();
