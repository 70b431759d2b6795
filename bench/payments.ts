// Card payment under load: verified Pay notifications per second at 32 connections on PGlite and
// (with BENCH_DATABASE_URL, an admin URL) PostgreSQL. Orders awaiting payment are made first;
// each request is CloudPayments' Pay for another order, a form body signed with the API secret
// here, so the server does the whole path: HMAC over the raw body, the event stored once, the
// order locked and marked paid by its conditional update, its history and jobs written.
//   npm run bench:payments -- [--orders 30000] [--db pglite,postgres] [--seconds 10]
// Prints figures; asserts nothing.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { loadEnv } from '~/server/env.server';
import { openBenchDatabase } from './support';
import { seedDatabase } from '~/db/seed/seed.server';
import { orders, paymentEvents } from '~/db/schema';
import { buildServer } from '~/server/app.server';
import { findOrCreateCustomerByPhone } from '~/models/auth.server';
import { formatAmount, signBody } from '~/integrations/cloudpayments/index.server';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : (process.argv[i + 1] ?? fallback);
};
const ORDERS = Number(arg('orders', '30000'));
const DBS = arg('db', process.env.BENCH_DATABASE_URL ? 'pglite,postgres' : 'pglite').split(',');
const SECONDS = Number(arg('seconds', '10'));
const SECRET = 'bench-cloudpayments-secret';
const TOTAL_KOPECKS = 12_900_00;

async function main() {
  const results: string[] = [];
  for (const kind of DBS) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-bench-'));
    const { handle, drop } = await openBenchDatabase(kind, dataDir, 10);
    try {
      await handle.migrate();
      await seedDatabase(handle.db, { products: 200 });
      const env = loadEnv({
        NODE_ENV: 'production',
        LOG_LEVEL: 'silent',
        DATA_DIR: dataDir,
        SEED_ON_START: 'false',
        PORT: '0',
        CLOUDPAYMENTS_API_SECRET: SECRET,
      });
      const app = await buildServer({ env, database: { ...handle, close: async () => {} }, build: null });
      await app.listen({ port: 0, host: '127.0.0.1' });
      const addr = app.server.address();
      const api = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/backend`;
      const db = handle.db;

      // Card orders awaiting payment, written in batches (the stock they hold does not matter here).
      const { id: customerId } = await findOrCreateCustomerByPhone({ db, phone: '79160000001' });
      const payUntil = new Date(Date.now() + 3_600_000);
      const ids: number[] = [];
      for (let i = 0; i < ORDERS; i += 1000) {
        const rows = await db
          .insert(orders)
          .values(
            Array.from({ length: Math.min(1000, ORDERS - i) }, () => ({
              customerId,
              kind: 'checkout' as const,
              status: 'awaiting_payment',
              phone: '79160000001',
              customerName: 'Анна Нагрузка',
              itemsTotalKopecks: TOTAL_KOPECKS,
              totalKopecks: TOTAL_KOPECKS,
              paymentId: '9',
              email: 'load@example.com',
              deliveryId: '1',
              payUntil,
            })),
          )
          .returning({ id: orders.id });
        ids.push(...rows.map((r) => r.id));
      }

      let n = 0;
      const run = await autocannon({
        url: api,
        connections: 32,
        duration: SECONDS,
        requests: [
          {
            method: 'POST',
            setupRequest: (req) => {
              const orderId = ids[n % ids.length] as number;
              n++;
              const body = new URLSearchParams({
                TransactionId: String(1_000_000_000 + n),
                Amount: formatAmount(TOTAL_KOPECKS),
                Currency: 'RUB',
                DateTime: new Date().toISOString().slice(0, 19).replace('T', ' '),
                CardFirstSix: '424242',
                CardLastFour: '4242',
                TestMode: '1',
                Status: 'Completed',
                OperationType: 'Payment',
                InvoiceId: String(orderId),
                AccountId: String(customerId),
                Email: 'load@example.com',
                Data: '{}',
              }).toString();
              return {
                ...req,
                path: '/backend/api/cloudpayments/pay/',
                headers: {
                  'content-type': 'application/x-www-form-urlencoded',
                  'content-hmac': signBody(SECRET, body),
                },
                body,
              };
            },
          },
        ],
      });
      const [paid] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(orders)
        .where(sql`${orders.paidAt} is not null`);
      const [events] = await db.select({ n: sql<number>`count(*)::int` }).from(paymentEvents);
      const paidCount = Number(paid?.n ?? 0);
      const wrapped = n > ids.length ? ` (${n - ids.length} repeats of paid orders)` : '';
      const line = `${kind.padEnd(8)} verified Pay ${(run.requests.total / SECONDS).toFixed(0)}/s at 32 connections: ${paidCount} orders paid, ${Number(events?.n ?? 0)} events${wrapped}, p50 ${run.latency.p50} ms, p99 ${run.latency.p99} ms, ${run.non2xx} non-2xx, ${run.errors} errors`;
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
    `\nVitrina payments bench (${os.cpus().length} cores, ${ORDERS} orders awaiting payment, ${SECONDS} s of Pay notifications)`,
  );
  for (const r of results) console.log(r);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
