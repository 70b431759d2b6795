// Buying under load: fast orders per second at 32 connections, and the p95 of get_cart.php for
// a 10-line basket, on PGlite and (with BENCH_DATABASE_URL, an admin URL) on PostgreSQL.
//   npm run bench:orders -- [--products 100000] [--db pglite,postgres] [--seconds 10] [--offers 400] [--pool 10]
// --offers: how many offers the fast orders spread over (a few: a sale's popular sizes, every
// order waiting on the row locks of the one before).
// Prints figures; asserts nothing. Every order goes through the one order function (stock
// taken by conditional update, idempotency key recorded), as a shopper's would.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { eq, sql } from 'drizzle-orm';
import { loadEnv } from '~/server/env.server';
import { openBenchDatabase, pct, cpuProfile, orderCost, stockUp } from './support';
import { seedDatabase } from '~/db/seed/seed.server';
import { offers, orders, products } from '~/db/schema';
import { buildServer } from '~/server/app.server';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : (process.argv[i + 1] ?? fallback);
};
const PRODUCTS = Number(arg('products', '100000'));
const DBS = arg('db', process.env.BENCH_DATABASE_URL ? 'pglite,postgres' : 'pglite').split(',');
const SECONDS = Number(arg('seconds', '10'));
// The server's PostgreSQL pool (openDatabase's default: 10).
const POOL = Number(arg('pool', '10'));
const OFFERS = Number(arg('offers', '400'));
const CART_CALLS = 300;

async function main() {
  const results: string[] = [];
  for (const kind of DBS) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-bench-'));
    const { handle, drop } = await openBenchDatabase(kind, dataDir, POOL);
    try {
      await handle.migrate();
      const t0 = performance.now();
      await seedDatabase(handle.db, { products: PRODUCTS });
      const seedS = ((performance.now() - t0) / 1000).toFixed(1);
      // One address places every order here: the caps on anonymous fast orders are lifted.
      const env = loadEnv({
        NODE_ENV: 'production',
        LOG_LEVEL: 'silent',
        DATA_DIR: dataDir,
        SEED_ON_START: 'false',
        PORT: '0',
        FAST_ORDERS_PER_IP_HOUR: '1000000',
        FAST_ORDERS_PER_PHONE_DAY: '1000000',
        FAST_ORDERS_PER_OFFER_IP_DAY: '1000000',
      });
      const app = await buildServer({ env, database: { ...handle, close: async () => {} }, build: null });
      await app.listen({ port: 0, host: '127.0.0.1' });
      const addr = app.server.address();
      const api = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/backend`;
      const db = handle.db;

      // Offers spread over the catalogue, stocked so the orders never run out.
      const picked = await db
        .select({ id: offers.id })
        .from(offers)
        .innerJoin(products, eq(products.id, offers.productId))
        .where(sql`${products.active} and ${offers.id} % 97 = 0`)
        .limit(OFFERS);
      const ids = picked.map((o) => o.id);
      await stockUp(db, ids);

      // get_cart.php with 10 lines, sequential calls.
      const times: number[] = [];
      for (let i = 0; i < CART_CALLS + 20; i++) {
        const lines = Array.from({ length: 10 }, (_, k) => `${ids[(i * 10 + k) % ids.length]}:${1 + (k % 3)}`).join(
          ',',
        );
        const t = performance.now();
        const res = await fetch(`${api}/api/personal/get_cart.php`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ ids: lines, promo_code: 'VITRINA10' }),
        });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`get_cart: ${res.status}`);
        if (i >= 20) times.push(performance.now() - t);
      }
      times.sort((a, b) => a - b);

      // Fast orders: 32 connections, every request its own offer pick, phone and idempotency key.
      const [before] = await db.select({ n: sql<number>`count(*)::int` }).from(orders);
      let n = 0;
      const cost = await orderCost(kind);
      const stopProfile = await cpuProfile();
      const run = await autocannon({
        url: api,
        connections: 32,
        duration: SECONDS,
        requests: [
          {
            method: 'GET',
            setupRequest: (req) => {
              n++;
              const q = new URLSearchParams({
                id: String(ids[n % ids.length]),
                name: 'Нагрузка',
                phone: `+7999${String(n % 10_000_000).padStart(7, '0')}`,
                key: crypto.randomUUID(),
                recaptcha_token: 'offline-ok',
              });
              return { ...req, path: `/backend/api/catalog/fastorder.php?${q}` };
            },
          },
        ],
      });
      await stopProfile();
      const [after] = await db.select({ n: sql<number>`count(*)::int` }).from(orders);
      const placed = Number(after?.n ?? 0) - Number(before?.n ?? 0);
      const perOrder = cost.report(placed);
      const line = `${kind.padEnd(8)} ${PRODUCTS} products (seed ${seedS} s) | get_cart.php 10 lines p50 ${pct(times, 50).toFixed(1)} p95 ${pct(times, 95).toFixed(1)} ms | fast orders ${(placed / SECONDS).toFixed(0)}/s at 32 connections over ${ids.length} offers, pool ${POOL} (${placed} placed, p99 ${run.latency.p99} ms, ${run.non2xx} non-2xx, ${run.errors} errors; ${perOrder}; load ${(os.loadavg()[0] ?? 0).toFixed(1)})`;
      console.log(line);
      results.push(line);
      await app.close();
    } finally {
      await handle.close();
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
  console.log(
    `\nVitrina orders bench (${os.cpus().length} cores, ${CART_CALLS} sequential get_cart calls, ${SECONDS} s of fast orders)`,
  );
  for (const r of results) console.log(r);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
