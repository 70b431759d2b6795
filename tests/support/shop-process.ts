import { loadEnv } from '~/server/env.server';
import { openDatabase } from '~/db/client.server';
import { buildServer } from '~/server/app.server';

// One shop as a process of its own (node --import tsx tests/support/shop-process.ts), for tests of
// several processes on one PostgreSQL (tests/api/exchange-1c-two.test.ts): no build needed, the
// API only. The environment names the database (DATABASE_URL) and DATA_DIR; the database is
// migrated and seeded by the test. Prints {"port": N} once it listens; SIGTERM closes it.

const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, poolSize: 4 });
const env = loadEnv({
  NODE_ENV: 'test',
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
  DATA_DIR: process.env.DATA_DIR,
  DATABASE_URL: process.env.DATABASE_URL,
  SEED_ON_START: 'false',
  PUBLIC_SITE_URL: 'http://shop.test',
  EXCHANGE_IMPORT_STEP: process.env.EXCHANGE_IMPORT_STEP ?? '3',
  EXCHANGE_FILE_LIMIT: process.env.EXCHANGE_FILE_LIMIT ?? '4096',
});
const app = await buildServer({ env, database, build: null, clientDir: process.cwd(), adminDir: null });
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
process.stdout.write(`${JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 })}\n`);
process.once('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
});
