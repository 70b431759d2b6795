// Checkout under load: order.php placements per second at 32 connections (logged-in customers,
// Moscow courier, pay on receipt: the whole path of a real checkout, server-side validation,
// delivery quote, the one order function, the order's jobs), and the p50/p95 of
// get_order_params.php for Moscow (three delivery methods, the city's pickup points), on
// PGlite and (with BENCH_DATABASE_URL, an admin URL) on PostgreSQL.
//   npm run bench:checkout -- [--products 20000] [--db pglite,postgres] [--seconds 10] [--pool 10]
// Prints figures; asserts nothing.
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
import { createSession, findOrCreateCustomerByPhone } from '~/models/auth.server';
import { signSessionToken } from '~/api/account/token.server';
import { resolveAuthSecret } from '~/server/secrets.server';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : (process.argv[i + 1] ?? fallback);
};
const PRODUCTS = Number(arg('products', '20000'));
const DBS = arg('db', process.env.BENCH_DATABASE_URL ? 'pglite,postgres' : 'pglite').split(',');
const SECONDS = Number(arg('seconds', '10'));
// The server's PostgreSQL pool (openDatabase's default: 10).
const POOL = Number(arg('pool', '10'));
const PARAMS_CALLS = 300;
const CUSTOMERS = 200;

async function main() {
  const results: string[] = [];
  for (const kind of DBS) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-bench-'));
    const { handle, drop } = await openBenchDatabase(kind, dataDir, POOL);
    try {
      await handle.migrate();
      await seedDatabase(handle.db, { products: PRODUCTS });
      const env = loadEnv({
        NODE_ENV: 'production',
        LOG_LEVEL: 'silent',
        DATA_DIR: dataDir,
        SEED_ON_START: 'false',
        PORT: '0',
      });
      const app = await buildServer({ env, database: { ...handle, close: async () => {} }, build: null });
      await app.listen({ port: 0, host: '127.0.0.1' });
      const addr = app.server.address();
      const api = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/backend`;
      const db = handle.db;

      // Non-outerwear offers spread over the catalogue, stocked so the orders never run out.
      const picked = await db
        .select({ id: offers.id })
        .from(offers)
        .innerJoin(products, eq(products.id, offers.productId))
        .where(
          sql`${products.active} and ${products.kind} not in ('warm-coat','coat','trench','puffer','fur-coat','denim-jacket','gift-card') and ${offers.id} % 13 = 0`,
        )
        .limit(400);
      const ids = picked.map((o) => o.id);
      await stockUp(db, ids);

      // Logged-in customers, as login leaves them: a session row and its signed token.
      const secret = resolveAuthSecret({ dataDir });
      const tokens: string[] = [];
      for (let i = 0; i < CUSTOMERS; i++) {
        const { id: customerId } = await findOrCreateCustomerByPhone({
          db,
          phone: `7916${String(i).padStart(7, '0')}`,
        });
        const session = await createSession({ db, customerId });
        tokens.push(await signSessionToken(secret, { sessionId: session.id, customerId }, session.expiresAt));
      }

      // get_order_params.php for Moscow with a 3-line basket, sequential calls.
      const times: number[] = [];
      for (let i = 0; i < PARAMS_CALLS + 20; i++) {
        const lines = Array.from({ length: 3 }, (_, k) => `${ids[(i * 3 + k) % ids.length]}:1`).join(',');
        const t = performance.now();
        const res = await fetch(
          `${api}/api/catalog/get_order_params.php?${new URLSearchParams({ city: 'Москва', ids: lines })}`,
        );
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`get_order_params: ${res.status}`);
        if (i >= 20) times.push(performance.now() - t);
      }
      times.sort((a, b) => a - b);

      // order.php: 32 connections, each request another customer, offer and idempotency key.
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
            method: 'POST',
            setupRequest: (req) => {
              n++;
              const body = new URLSearchParams({
                token: tokens[n % tokens.length] as string,
                ids: `${ids[n % ids.length]}:1,${ids[(n * 7) % ids.length]}:1`,
                firstname: 'Анна',
                lastname: 'Нагрузка',
                phone: `+7916${String(n % 10_000_000).padStart(7, '0')}`,
                email: `load${n}@example.com`,
                city: 'Москва',
                delivery_id: '1',
                street: 'ул Тверская',
                house: '12',
                payment_id: '1',
                deliverycost: '700',
                key: crypto.randomUUID(),
              }).toString();
              return {
                ...req,
                path: '/backend/api/catalog/order.php',
                headers: { 'content-type': 'application/x-www-form-urlencoded' },
                body,
              };
            },
          },
        ],
      });
      await stopProfile();
      const [after] = await db.select({ n: sql<number>`count(*)::int` }).from(orders);
      const placed = Number(after?.n ?? 0) - Number(before?.n ?? 0);
      const perOrder = cost.report(placed);
      const line = `${kind.padEnd(8)} ${PRODUCTS} products | get_order_params.php Moscow p50 ${pct(times, 50).toFixed(1)} p95 ${pct(times, 95).toFixed(1)} ms | checkout orders ${(placed / SECONDS).toFixed(0)}/s at 32 connections, pool ${POOL} (${placed} placed, p99 ${run.latency.p99} ms, ${run.non2xx} non-2xx, ${run.errors} errors; ${perOrder}; load ${(os.loadavg()[0] ?? 0).toFixed(1)})`;
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
    `\nVitrina checkout bench (${os.cpus().length} cores, ${PARAMS_CALLS} sequential get_order_params calls, ${SECONDS} s of orders)`,
  );
  for (const r of results) console.log(r);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
