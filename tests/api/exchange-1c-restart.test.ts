import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { loadEnv } from '~/server/env.server';
import { openDatabase, queryRows, type DatabaseHandle } from '~/db/client.server';
import { seedDatabase } from '~/db/seed/seed.server';
import { buildServer } from '~/server/app.server';
import { throwawayDatabase } from '~/tests/support/server';
import { createStaffByScript, enrol, testClock } from '~/tests/support/admin';
import { assertStockLedgerBalanced } from '~/tests/support/stock';
import { OneC, catalogXml, offersXml, type TestProduct } from '~/tests/support/one-c';

// The 1C exchange survives a restart (issue #31): an import answers progress, the shop is closed,
// a new one starts on the same database and DATA_DIR, and 1C's next mode=import calls (with the
// same session cookie) go on from the next step to success. PGlite on disk here, or a database of
// its own on the PostgreSQL server of TEST_DATABASE_URL.

const clock = testClock();
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-1c-restart-'));
const dataDir = path.join(root, 'data');
let databaseUrl: string | undefined;
let dropDatabase = async () => {};
let running: { app: FastifyInstance; database: DatabaseHandle; baseUrl: string } | null = null;

async function start(first: boolean) {
  const database = await openDatabase({ databaseUrl, pgliteDir: path.join(root, 'pglite'), poolSize: 4 });
  if (first) {
    await database.migrate();
    await seedDatabase(database.db, { products: 4 });
  }
  const env = loadEnv({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    SEED_ON_START: 'false',
    PUBLIC_SITE_URL: 'http://shop.test',
    EXCHANGE_IMPORT_STEP: '12', // three products a step (a product weighs four items)
  });
  const app = await buildServer({ env, database, build: null, clientDir: root, adminDir: null, clock: clock.now });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  running = { app, database, baseUrl: `http://127.0.0.1:${port}` };
  return running;
}

afterAll(async () => {
  await running?.app.close();
  await dropDatabase();
  fs.rmSync(root, { recursive: true, force: true });
});

describe('a restart in the middle of an import', () => {
  it('goes on from the next step on the new process and ends with success', async () => {
    const adminUrl = process.env.TEST_DATABASE_URL;
    if (adminUrl) ({ url: databaseUrl, drop: dropDatabase } = await throwawayDatabase(adminUrl, 'vitrina_restart'));
    const shop1 = await start(true);
    const login = '1c@restart.example';
    const password = 'exchange password 2026';
    const made = await createStaffByScript({ baseUrl: shop1.baseUrl, dataDir }, { email: login, role: 'exchange' });
    await enrol({ baseUrl: shop1.baseUrl, dataDir }, clock, { token: made.token, password });

    const products: TestProduct[] = Array.from({ length: 10 }, (_, i) => ({
      id: `eeee0000-0000-0000-0000-${String(i).padStart(12, '0')}`,
      article: `RS-${i}`,
      name: `Товар перезапуска ${i}`,
    }));
    const c1 = new OneC(`${shop1.baseUrl}/backend/1c/exchange`, login, password);
    await c1.checkauth('catalog');
    await c1.init('catalog');
    for (const a of await c1.sendFile('import.xml', Buffer.from(catalogXml({ products })), 4096))
      expect(a.text).toBe('success');
    // Read and split, then two steps of three products: progress each time.
    for (let i = 0; i < 3; i++)
      expect((await c1.call('type=catalog&mode=import&filename=import.xml')).kind).toBe('progress');
    const db1 = shop1.database.db;
    const [mid] = await queryRows<{ step: number; steps: number; status: string }>(
      db1,
      sql`select step, steps, status from exchange_imports where filename = 'import.xml'`,
    );
    expect(mid).toEqual({ step: 2, steps: 6, status: 'applying' });
    const [{ n: before }] = (await queryRows<{ n: number }>(
      db1,
      sql`select count(*)::int as n from products where external_id like 'eeee0000-%'`,
    )) as [{ n: number }];
    expect(before).toBe(6);

    // The shop stops; a new one starts on the same database and DATA_DIR.
    await shop1.app.close();
    running = null;
    const shop2 = await start(false);
    const c2 = new OneC(`${shop2.baseUrl}/backend/1c/exchange`, login, password);
    c2.cookie = c1.cookie;
    const rest = await c2.importUntilDone('import.xml');
    expect(rest.map((a) => a.kind)).toEqual(['progress', 'progress', 'progress', 'success']);
    expect(rest.at(-1)!.lines[0]).toMatch(/товаров создано: 10/);
    const rows = await queryRows<{ external_id: string }>(
      shop2.database.db,
      sql`select external_id from products where external_id like 'eeee0000-%' order by external_id`,
    );
    expect(rows.map((r) => r.external_id)).toEqual(products.map((p) => p.id));

    // And the offers of the same session, after the restart.
    const offers = offersXml({
      offers: products.map((p, i) => ({ id: p.id, prices: { 'price-retail-0001': '1000' }, quantity: i })),
    });
    for (const a of await c2.sendFile('offers.xml', Buffer.from(offers), 4096)) expect(a.text).toBe('success');
    expect((await c2.importUntilDone('offers.xml')).at(-1)!.kind).toBe('success');
    await assertStockLedgerBalanced(shop2.database.db);
  }, 180_000); // two shops started on a migrated PGlite on disk: about 50 s on a loaded machine
});
