import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '~/db/client.server';
import { setUpTestShop } from '~/tests/support/server';
import { createStaffByScript, enrol, testClock } from '~/tests/support/admin';
import { assertStockLedgerBalanced } from '~/tests/support/stock';
import { OneC, catalogXml, offersXml, type TestProduct } from '~/tests/support/one-c';

// A full package ends with one finishing step a range of its Ид (models/exchange-xml.server.ts
// writeIdRanges): here steps of 2 records, so ranges of 20 Ид. What a full package leaves out is
// deactivated or zeroed whichever range it falls in: before the first Ид, on a range's first Ид,
// between two, after the last; and nothing the package names is touched.

const clock = testClock();
const shop = setUpTestShop({ clock: clock.now, env: { EXCHANGE_IMPORT_STEP: '2' } });
const db = () => shop.database.db;
const LOGIN = '1c-ranges@exchange.example';
const PASSWORD = 'exchange ranges password 2026';
const RETAIL = 'price-retail-0001';

// 45 products whose Ид sort apart from the order they are sent in.
const productId = (i: number) =>
  `${((i * 7) % 45).toString(16).padStart(2, '0')}aa0000-0000-4000-8000-0000000000${String(i).padStart(2, '0')}`;
const PRODUCTS: TestProduct[] = Array.from({ length: 45 }, (_, i) => ({
  id: productId(i),
  article: `RANGE-${i}`,
  name: `Товар диапазонов ${i}`,
}));
const offerId = (p: string, size: number) => `${p}#cccc0000-0000-4000-8000-0000000000${size}`;
const OFFERS = PRODUCTS.flatMap((p) => [44, 46].map((size) => offerId(p.id, size)));

async function exchange(filename: string, xml: string) {
  const c = new OneC(`${shop.baseUrl}/backend/1c/exchange`, LOGIN, PASSWORD);
  expect((await c.checkauth('catalog')).kind).toBe('success');
  await c.init('catalog');
  const answers = await c.exchangeFile(filename, Buffer.from(xml), 64 * 1024);
  expect(answers.at(-1)!.kind, answers.at(-1)!.text).toBe('success');
  return answers.at(-1)!.lines[0] ?? '';
}

const quantities = async () =>
  new Map(
    (
      await queryRows<{ external_id: string; quantity: number }>(
        db(),
        sql`select external_id, quantity from offers where external_id like '%#cccc0000-%'`,
      )
    ).map((r) => [r.external_id, r.quantity]),
  );

beforeAll(async () => {
  const made = await createStaffByScript(shop, { email: LOGIN, role: 'exchange' });
  await enrol(shop, clock, { token: made.token, password: PASSWORD });
  await exchange('import.xml', catalogXml({ products: PRODUCTS }));
  await exchange(
    'offers.xml',
    offersXml({
      offers: OFFERS.map((id, i) => ({
        id,
        size: String(44 + 2 * (i % 2)),
        prices: { [RETAIL]: '1000' },
        quantity: 2,
      })),
    }),
  );
});

describe('a full package in ranges of its Ид', () => {
  it('zeroes the offers it leaves out in every range, and only those', async () => {
    const sorted = [...OFFERS].sort();
    // The first and last Ид in byte order, the first of the second and third ranges, one inside a range.
    const left = new Set([sorted[0]!, sorted[20]!, sorted[40]!, sorted[57]!, sorted.at(-1)!]);
    const lines = await exchange(
      'offers.xml',
      offersXml({ offers: OFFERS.filter((id) => !left.has(id)).map((id) => ({ id, quantity: 3 })) }),
    );
    expect(lines).toMatch(/предложений обнулено: 5/);
    const [imp] = await queryRows<{ steps: number }>(
      db(),
      sql`select steps from exchange_imports where filename = 'offers.xml' order by id desc limit 1`,
    );
    // 85 offers, 2 a step: 43 steps of records, then 5 ranges of 20 Ид.
    expect(imp!.steps).toBe(43 + 5);
    for (const [id, quantity] of await quantities()) expect(quantity, id).toBe(left.has(id) ? 0 : 3);
    await assertStockLedgerBalanced(db());
  });

  it('deactivates the products it leaves out in every range, and only those', async () => {
    const sorted = PRODUCTS.map((p) => p.id).sort();
    const left = new Set([sorted[0]!, sorted[20]!, sorted[33]!, sorted.at(-1)!]);
    const lines = await exchange('import.xml', catalogXml({ products: PRODUCTS.filter((p) => !left.has(p.id)) }));
    expect(lines).toMatch(/товаров снято с продажи: 4/);
    const rows = await queryRows<{ external_id: string; active: boolean }>(
      db(),
      sql`select external_id, active from products where article like 'RANGE-%'`,
    );
    expect(rows).toHaveLength(45);
    for (const r of rows) expect(r.active, r.external_id).toBe(!left.has(r.external_id));
  });
});
