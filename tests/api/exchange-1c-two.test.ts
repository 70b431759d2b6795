import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, queryRows, type DatabaseHandle } from '~/db/client.server';
import { staff } from '~/db/schema';
import { seedDatabase } from '~/db/seed/seed.server';
import { hashPassword } from '~/models/staff-secrets.server';
import { throwawayDatabase } from '~/tests/support/server';
import { assertStockLedgerBalanced } from '~/tests/support/stock';
import { CheckoutOrderResponse } from '~/shared/contract';
import { eventually, getJson, postForm } from '~/tests/support/api';
import { courierForm } from '~/tests/support/checkout';
import { sessionToken } from '~/tests/support/session';
import { OneC, catalogXml, offersXml, ordersXml, type TestProduct } from '~/tests/support/one-c';

// Two shop processes on one PostgreSQL (issue #31): 1C's calls go to one process and the next,
// in turn, and at the end to both at once; the exchange finishes as with one process, because
// its state is in the database and DATA_DIR, never in a process's memory. Each shop is a real
// process of its own (tests/support/shop-process.ts). PostgreSQL only (TEST_DATABASE_URL):
// PGlite is one process's database.

const adminUrl = process.env.TEST_DATABASE_URL;
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-1c-two-'));
const dataDir = path.join(root, 'data');
const children: ChildProcess[] = [];
let database: DatabaseHandle | null = null;
let drop = async () => {};

async function shopProcess(databaseUrl: string): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/support/shop-process.ts'], {
    env: { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const lines = readline.createInterface({ input: child.stdout! });
  for await (const line of lines) {
    const m = /^\{"port":(\d+)\}$/.exec(line.trim());
    if (m) return `http://127.0.0.1:${m[1]}/backend/1c/exchange`;
  }
  throw new Error(`shop process exited (${child.exitCode}) before listening`);
}

afterAll(async () => {
  await Promise.all(
    children.map(
      (c) =>
        new Promise<void>((resolve) => {
          if (c.exitCode !== null) return resolve();
          c.once('exit', () => resolve());
          c.kill('SIGTERM');
        }),
    ),
  );
  await database?.close();
  await drop();
  fs.rmSync(root, { recursive: true, force: true });
});

describe.skipIf(!adminUrl)('two shop processes on one PostgreSQL', () => {
  it('1C calls them in turn (and both at once): catalogue, offers and orders finish as with one', async () => {
    const made = await throwawayDatabase(adminUrl!, 'vitrina_1c_two');
    drop = made.drop;
    database = await openDatabase({ databaseUrl: made.url, poolSize: 2 });
    await database.migrate();
    await seedDatabase(database.db, { products: 4 });
    const db = database.db;
    const login = '1c@two.example';
    const password = 'exchange password 2026';
    await db
      .insert(staff)
      .values({ email: login, name: 'Обмен', role: 'exchange', passwordHash: await hashPassword(password) });

    const [a, b] = await Promise.all([shopProcess(made.url), shopProcess(made.url)]);
    let turn = 0;
    const served: string[] = [];
    const c = new OneC(
      () => {
        const url = turn++ % 2 === 0 ? a : b;
        served.push(url);
        return url;
      },
      login,
      password,
    );
    expect((await c.checkauth('catalog')).kind).toBe('success');
    expect((await c.init('catalog')).fileLimit).toBe(4096);

    const products: TestProduct[] = Array.from({ length: 14 }, (_, i) => ({
      id: `ffff0000-0000-0000-0000-${String(i).padStart(12, '0')}`,
      article: `TWO-${i}`,
      name: `Товар двух процессов ${i}`,
    }));
    // The file in pieces, appended by one process and the other.
    const catalog = Buffer.from(catalogXml({ products }));
    for (const answer of await c.sendFile('import.xml', catalog, 1000)) expect(answer.text).toBe('success');
    const imported = await c.importUntilDone('import.xml');
    expect(imported.at(-1)!.lines[0]).toMatch(/товаров создано: 14/);

    // Offers: both processes asked at once for each step; each step is applied once.
    const offers = offersXml({
      offers: products.map((p, i) => ({ id: p.id, prices: { 'price-retail-0001': '1500' }, quantity: i + 1 })),
    });
    for (const answer of await c.sendFile('offers.xml', Buffer.from(offers), 1000)) expect(answer.text).toBe('success');
    const cookie = c.cookie!;
    const onA = new OneC(a, login, password);
    const onB = new OneC(b, login, password);
    onA.cookie = cookie;
    onB.cookie = cookie;
    let last = '';
    for (let i = 0; i < 40 && last !== 'success'; i++) {
      const both = await Promise.all([
        onA.call('type=catalog&mode=import&filename=offers.xml'),
        onB.call('type=catalog&mode=import&filename=offers.xml'),
      ]);
      for (const answer of both) expect(answer.kind, answer.text).not.toBe('failure');
      if (both.some((x) => x.kind === 'success')) last = 'success';
    }
    expect(last).toBe('success');
    const [stock] = await queryRows<{ n: number; units: number }>(
      db,
      sql`select count(*)::int as n, sum(quantity)::int as units from offers where external_id like 'ffff0000-%'`,
    );
    expect(stock).toEqual({ n: 14, units: (14 * 15) / 2 });
    // One import of the file (both first calls at once made one), every step applied once.
    const imports = await queryRows<{ step: number; steps: number; created: number }>(
      db,
      sql`select step, steps, (counts->>'offers_created')::int as created from exchange_imports where filename = 'offers.xml'`,
    );
    expect(imports).toHaveLength(1);
    const imp = imports[0]!;
    expect(imp).toEqual({ step: imp.steps, steps: imp.steps, created: 14 });
    const [events] = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from audit_events where action = 'exchange.import'
          and entity_id = (select id::text from exchange_imports where filename = 'offers.xml')`,
    );
    expect(events!.n).toBe(imp.steps);
    await assertStockLedgerBalanced(db);

    // The order exchange in turn too: query on one, success on the other, 1C's file and its import.
    const [offer] = await queryRows<{ id: number }>(
      db,
      sql`select id from offers where external_id = ${products[5]!.id}`,
    );
    const who = await sessionToken(
      { database: database, dataDir } as Parameters<typeof sessionToken>[0],
      '79970003300',
    );
    const placed = await getJson(a.replace('/1c/exchange', ''), '/api/catalog/order.php', CheckoutOrderResponse, {
      init: postForm(courierForm(who.token, `${offer!.id}:1`)),
    });
    if (!placed.success) throw new Error(JSON.stringify(placed.data));
    const order = { id: placed.order_id };
    const sale = new OneC(() => (turn++ % 2 === 0 ? a : b), login, password);
    expect((await sale.checkauth('sale')).kind).toBe('success');
    await sale.init('sale');
    // An export ends a few seconds before now: 1C asks until the order is in it.
    await eventually(
      async () => (await sale.call('type=sale&mode=query')).text.includes(`<Номер>${order.id}</Номер>`),
      'the order in an export',
    );
    expect((await sale.call('type=sale&mode=success')).text).toBe('success');
    {
      const file = Buffer.from(ordersXml({ documents: [{ id: order.id, number: 'УТ-2', status: 'Подтвержден' }] }));
      for (const answer of await sale.sendFile('orders.xml', file, 500, 'sale')) expect(answer.text).toBe('success');
      expect((await sale.importUntilDone('orders.xml', 20, 'sale')).at(-1)!.kind).toBe('success');
      const [row] = await queryRows<{ status: string; number: string }>(
        db,
        sql`select status, exchange_1c->>'number' as number from orders where id = ${order.id}`,
      );
      expect(row).toEqual({ status: 'confirmed', number: 'УТ-2' });
    }
    // Both processes answered.
    expect(new Set(served).size).toBe(2);
  });
});
