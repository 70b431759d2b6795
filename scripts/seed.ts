// npm run seed [-- --products 100000] [--orders 100000]: migrates and seeds the configured database
// (--orders: past orders for the back office, db/seed/orders.server.ts).
import { loadEnv } from '~/server/env.server';
import { openDatabase } from '~/db/client.server';
import { seedDatabase } from '~/db/seed/seed.server';
import { seedOrders } from '~/db/seed/orders.server';
import path from 'node:path';

const args = process.argv.slice(2);
const at = args.indexOf('--products');
const products = at === -1 ? undefined : Number(args[at + 1]);
if (products !== undefined && (!Number.isInteger(products) || products < 1 || products > 1_000_000)) {
  console.error('--products takes a whole number from 1 to 1000000');
  process.exit(2);
}
const atOrders = args.indexOf('--orders');
const orderCount = atOrders === -1 ? undefined : Number(args[atOrders + 1]);
if (orderCount !== undefined && (!Number.isInteger(orderCount) || orderCount < 1 || orderCount > 10_000_000)) {
  console.error('--orders takes a whole number from 1 to 10000000');
  process.exit(2);
}
const env = loadEnv();
const database = await openDatabase({ databaseUrl: env.DATABASE_URL, pgliteDir: path.join(env.dataDir, 'pglite') });
try {
  await database.migrate();
  const result = await seedDatabase(database.db, { products, log: (m) => console.log(m) });
  console.log(
    result.skipped ? `seed: already done (${result.products} products)` : `seed: done (${result.products} products)`,
  );
  if (orderCount !== undefined) {
    const t0 = performance.now();
    const made = await seedOrders(database.db, { orders: orderCount, log: (m) => console.log(m) });
    console.log(
      `seed: ${made} orders added (${orderCount} wanted) in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
  }
} finally {
  await database.close();
}
