import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import type { ServerBuild } from 'react-router';
import { loadEnv } from '~/server/env.server';
import { openDatabase, type DatabaseHandle } from '~/db/client.server';
import { seedDatabase } from '~/db/seed/seed.server';
import { buildServer } from '~/server/app.server';
import { TEMPLATE_ENV, TEMPLATE_PRODUCTS } from './seeded-template';
import { assertStockLedgerBalanced } from './stock';

export interface TestShop {
  baseUrl: string;
  /** DATA_DIR of this shop: outboxes (outbox/sms.jsonl), the staff token, media. */
  dataDir: string;
  app: FastifyInstance;
  database: DatabaseHandle;
  close(): Promise<void>;
}

/**
 * A whole shop on a random port: in-memory PGlite, or a fresh database on the PostgreSQL
 * server named by TEST_DATABASE_URL (dropped afterwards), migrated and seeded.
 */
export interface TestShopOptions {
  /** Serve the built storefront too (browser and page tests; needs `npm run build`). */
  withStorefront?: boolean;
  products?: number;
  port?: number;
  /** More environment for this shop (e.g. CDEK_OFFLINE_FAIL_CITIES). */
  env?: Record<string, string>;
  /** The back office's clock (staff session timeouts, TOTP steps, login caps): a test moves it. */
  clock?: () => Date;
  /** The clock of the anonymous rate windows (suggestions per minute, newsletter per hour): a test holds it inside one window. */
  rateClock?: () => Date;
}

/** Files run side by side: two copies of one template at the same moment can meet "source database is being accessed by other users" (55006); wait and try again. */
async function createDatabase(admin: { query(sql: string): Promise<unknown> }, sql: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await admin.query(sql);
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== '55006' || attempt >= 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
    }
  }
}

/**
 * Every test shop draws the same seeded photos, and resizing them is most of a browser test's
 * CPU (measured: browsing's file 63 s of CPU with its own cache, 37 s with a warm shared one):
 * the resized variants (keyed by an immutable media path, written atomically) are kept in
 * one directory for the whole run. Uploaded photos get fresh random paths, so nothing a file
 * writes can be served to another as a stale image.
 */
function shareImageCache(dataDir: string): void {
  const shared = path.join(os.tmpdir(), `vitrina-test-image-cache-${process.getuid?.() ?? 0}`);
  fs.mkdirSync(shared, { recursive: true });
  fs.mkdirSync(path.join(dataDir, 'cache'), { recursive: true });
  fs.symlinkSync(shared, path.join(dataDir, 'cache', 'img'), 'dir');
}

/** A new database on the server of `adminUrl` (a copy of `template` if given), and how to drop it. */
export async function throwawayDatabase(
  adminUrl: string,
  prefix: string,
  template?: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const { default: pg } = await import('pg');
  const name = `${prefix}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await createDatabase(admin, template ? `create database ${name} template ${template}` : `create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

export async function startTestShop(options: TestShopOptions = {}): Promise<TestShop> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  const fromTemplate = (options.products ?? TEMPLATE_PRODUCTS) === TEMPLATE_PRODUCTS;
  let databaseUrl: string | undefined;
  let dropDatabase = async () => {};
  if (adminUrl) {
    // The run's seeded template (tests/support/seeded-template.ts) when this shop wants its seed.
    const template = fromTemplate ? process.env[TEMPLATE_ENV.postgres] : undefined;
    ({ url: databaseUrl, drop: dropDatabase } = await throwawayDatabase(adminUrl, 'vitrina_test', template));
  }

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-test-'));
  // Browser tests only: the API's image tests count cache misses of their own.
  if (options.withStorefront) shareImageCache(dataDir);
  const env = loadEnv({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    SEED_ON_START: 'false',
    // A fixed port makes canonical links real (Lighthouse checks them); otherwise a fake origin.
    PUBLIC_SITE_URL: options.port ? `http://127.0.0.1:${options.port}` : 'http://shop.test',
    ...options.env,
  });
  const dumpFile = fromTemplate && !databaseUrl ? process.env[TEMPLATE_ENV.pglite] : undefined;
  const pgliteLoadDataDir = dumpFile ? new Blob([fs.readFileSync(dumpFile)]) : undefined;
  const database = await openDatabase({ databaseUrl, pgliteDir: 'memory://', poolSize: 4, pgliteLoadDataDir });
  const seeded = fromTemplate && (databaseUrl ? Boolean(process.env[TEMPLATE_ENV.postgres]) : Boolean(dumpFile));
  if (!seeded) {
    await database.migrate();
    await seedDatabase(database.db, { products: options.products ?? TEMPLATE_PRODUCTS });
  }

  let build: ServerBuild | null = null;
  if (options.withStorefront) {
    const file = path.resolve('build/server/index.js');
    if (!fs.existsSync(file)) throw new Error('Storefront not built: run `npm run build` before browser tests');
    build = (await import(pathToFileURL(file).href)) as ServerBuild;
  }
  const app = await buildServer({
    env,
    database,
    build,
    clientDir: path.resolve('build/client'),
    adminDir: options.withStorefront ? path.resolve('build/admin') : null,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.rateClock ? { rateClock: options.rateClock } : {}),
  });
  await app.listen({ port: options.port ?? 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    dataDir,
    app,
    database,
    async close() {
      try {
        // Whatever the file did, every offer's quantity is still the sum of its stock moves.
        await assertStockLedgerBalanced(database.db, "the test shop's stock ledger");
      } finally {
        // The file's tests are over, so no connection has anything left to finish. A browser's
        // spare connection that never sent a request counts as busy until its headers time out
        // (a minute), and `forceCloseConnections: 'idle'` leaves it: closes of 70 s were seen.
        const sweep = setInterval(() => app.server.closeAllConnections(), 50);
        try {
          await app.close();
        } finally {
          clearInterval(sweep);
        }
        await dropDatabase();
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}

/**
 * The shop a test file runs against: started before its tests, closed after them (also when
 * they fail). The handle reads through to the running shop, so it can be taken at module level.
 */
export function setUpTestShop(options: TestShopOptions = {}): Omit<TestShop, 'close'> {
  let running: TestShop | undefined;
  beforeAll(async () => {
    running = await startTestShop(options);
  });
  afterAll(async () => {
    await running?.close();
    running = undefined;
  });
  const current = (): TestShop => {
    if (!running) throw new Error('The test shop is not running: use it inside tests and hooks');
    return running;
  };
  return {
    get baseUrl() {
      return current().baseUrl;
    },
    get app() {
      return current().app;
    },
    get dataDir() {
      return current().dataDir;
    },
    get database() {
      return current().database;
    },
  };
}
