import path from 'node:path';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '~/db/client.server';
import { waitingList } from '~/db/schema';
import { readSmsOutbox } from '~/integrations/sms/offline.server';
import { setUpTestShop } from '~/tests/support/server';
import { eventually } from '~/tests/support/api';
import { createStaffByScript, enrol, testClock } from '~/tests/support/admin';
import { assertStockLedgerBalanced } from '~/tests/support/stock';
import { OneC, catalogXml, offersXml, type TestProduct } from '~/tests/support/one-c';

// The 1C import writes a step's records in a few statements (issue #31, bench:1c): these are the
// cases where one step holds what used to be written one record after the other. Steps of 50
// records here, so each file's products or offers are one step: the same Ид twice, two new
// products wanting one address, a lost mapping matched by article, a product moving section, a
// deactivated product coming back, a stock package where most quantities did not change.

const clock = testClock();
const shop = setUpTestShop({ clock: clock.now, env: { EXCHANGE_IMPORT_STEP: '50' } });
const db = () => shop.database.db;
const LOGIN = '1c-batch@exchange.example';
const PASSWORD = 'exchange batch password 2026';
const RETAIL = 'price-retail-0001';

const G = { one: 'eeee0001-0000-0000-0000-000000000001', two: 'eeee0001-0000-0000-0000-000000000002' };
const P = {
  jacket: 'ffff0001-0000-0000-0000-000000000001',
  blouseA: 'ffff0001-0000-0000-0000-000000000002',
  blouseB: 'ffff0001-0000-0000-0000-000000000003',
  matched: 'ffff0001-0000-0000-0000-000000000004',
  sameArticle: 'ffff0001-0000-0000-0000-000000000005',
  skirt: 'ffff0001-0000-0000-0000-000000000006',
};
const GROUPS = [
  { id: G.one, name: 'Пакетная группа один' },
  { id: G.two, name: 'Пакетная группа два' },
];
const sizeId = (p: string, size: number) => `${p}#dddd0001-0000-0000-0000-0000000000${size}`;

async function exchange(filename: string, xml: string) {
  const c = new OneC(`${shop.baseUrl}/backend/1c/exchange`, LOGIN, PASSWORD);
  expect((await c.checkauth('catalog')).kind).toBe('success');
  await c.init('catalog');
  return c.exchangeFile(filename, Buffer.from(xml), 64 * 1024);
}

const productOf = async (externalId: string) =>
  (
    await queryRows<{ id: number; name: string; slug: string; active: boolean; section_id: number; article: string }>(
      db(),
      sql`select id, name, slug, active, section_id, article from products where external_id = ${externalId}`,
    )
  )[0];
const sectionOf = async (externalId: string) =>
  (await queryRows<{ id: number }>(db(), sql`select id from sections where external_id = ${externalId}`))[0]!.id;
const offerOf = async (externalId: string) =>
  (
    await queryRows<{ id: number; price_kopecks: number; quantity: number }>(
      db(),
      sql`select id, price_kopecks, quantity from offers where external_id = ${externalId}`,
    )
  )[0]!;
const lastImport = async (filename: string) =>
  (
    await queryRows<{ id: number; warnings: string[]; counts: Record<string, number> }>(
      db(),
      sql`select id, warnings, counts from exchange_imports where filename = ${filename} order by id desc limit 1`,
    )
  )[0]!;

let site: { id: number; article: string; name: string };

beforeAll(async () => {
  const made = await createStaffByScript(shop, { email: LOGIN, role: 'exchange' });
  await enrol(shop, clock, { token: made.token, password: PASSWORD });
  const [found] = await queryRows<{ id: number; article: string; name: string }>(
    db(),
    sql`select id, article, name from products p where external_id is null and article <> '' and active
          and not exists (select 1 from products q where q.id <> p.id and lower(q.article) = lower(p.article))
        order by id limit 1`,
  );
  site = found!;
});

describe('a step of products written at once', () => {
  it('the same Ид twice, two new products of one address, an article match and a second product of that article', async () => {
    const products: TestProduct[] = [
      { id: P.jacket, article: 'BATCH-JACKET', name: 'Жакет «Пакет»', group: G.one, color: 'Синий' },
      { id: P.blouseA, article: '', name: 'Блуза «Пакет»', group: G.one },
      { id: P.blouseB, article: '', name: 'Блуза «Пакет»', group: G.two },
      { id: P.matched, article: site.article, name: 'Товар сайта из 1С', group: G.two },
      { id: P.sameArticle, article: site.article, name: 'Второй товар того же артикула', group: G.two },
      { id: P.skirt, article: 'BATCH-SKIRT', name: 'Юбка «Пакет»', group: G.one },
      // Later in the same step: the second one is what stays.
      { id: P.jacket, article: 'BATCH-JACKET', name: 'Жакет «Пакет» новый', group: G.two, color: 'Красный' },
    ];
    const answers = await exchange('import.xml', catalogXml({ groups: GROUPS, products }));
    // Read and split, the groups' step, the products' step (one), the closing range, the typo index.
    expect(answers.map((a) => a.kind)).toEqual(['progress', 'progress', 'progress', 'progress', 'success']);
    expect(answers.at(-1)!.lines[0]).toMatch(/товаров создано: 5(,|$)/);
    expect(answers.at(-1)!.lines[0]).toMatch(/товаров обновлено: 2(,|$)/);

    const jackets = await queryRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from products where article = 'BATCH-JACKET'`,
    );
    expect(jackets[0]!.n).toBe(1);
    const jacket = await queryRows<{ name: string; color_name: string; section_id: number }>(
      db(),
      sql`select name, color_name, section_id from products where external_id = ${P.jacket}`,
    );
    expect(jacket[0]).toEqual({
      name: 'Жакет «Пакет» новый',
      color_name: 'Красный',
      section_id: await sectionOf(G.two),
    });

    // One name, one address each: the first gets it, the second the next free one.
    const a = (await productOf(P.blouseA))!;
    const b = (await productOf(P.blouseB))!;
    expect(b.slug).toBe(`${a.slug}-2`);
    expect(a.active).toBe(false);

    // The site's product of that article is the first 1C product's; the second is a product of its own.
    const matched = (await productOf(P.matched))!;
    expect(matched).toMatchObject({ id: site.id, name: 'Товар сайта из 1С', active: true });
    const second = (await productOf(P.sameArticle))!;
    expect(second.id).not.toBe(site.id);
    expect(second.article).toBe(site.article);
    const imp = await lastImport('import.xml');
    expect(imp.warnings.filter((w) => w.includes('по артикулу'))).toEqual([
      `Товар ${P.matched} сопоставлен с товаром сайта ${site.id} по артикулу ${site.article}`,
    ]);
  });

  it('the same offer twice in one step: the later price and quantity win, one ledger move', async () => {
    const offers = [
      { id: sizeId(P.jacket, 42), size: '42', prices: { [RETAIL]: '1000' }, quantity: 2 },
      { id: sizeId(P.jacket, 44), size: '44', prices: { [RETAIL]: '1100' }, quantity: 0 },
      { id: sizeId(P.skirt, 42), size: '42', prices: { [RETAIL]: '900' }, quantity: 4 },
      { id: sizeId(P.matched, 62), size: '62', prices: { [RETAIL]: '800' }, quantity: 1 },
      { id: sizeId(P.blouseA, 42), size: '42', prices: { [RETAIL]: '700' }, quantity: 1 },
      { id: sizeId(P.jacket, 42), size: '42', prices: { [RETAIL]: '1200' }, quantity: 5 },
    ];
    const answers = await exchange('offers.xml', offersXml({ offers }));
    expect(answers.map((x) => x.kind)).toEqual(['progress', 'progress', 'success']);
    expect(answers.at(-1)!.lines[0]).toMatch(/предложений создано: 5, предложений обновлено: 1/);
    const jacket42 = await offerOf(sizeId(P.jacket, 42));
    expect(jacket42).toMatchObject({ price_kopecks: 120_000, quantity: 5 });
    const moves = await queryRows<{ delta: number; reason: string }>(
      db(),
      sql`select delta, reason from stock_moves where offer_id = ${jacket42.id} order by id`,
    );
    expect(moves).toEqual([{ delta: 5, reason: 'import' }]);
    // A quantity that stays 0 is no move.
    const jacket44 = await offerOf(sizeId(P.jacket, 44));
    expect((await queryRows(db(), sql`select id from stock_moves where offer_id = ${jacket44.id}`)).length).toBe(0);
    // The jacket's price is its cheapest offer's.
    const [price] = await queryRows<{ price_kopecks: number; active: boolean }>(
      db(),
      sql`select price_kopecks, active from products where external_id = ${P.jacket}`,
    );
    expect(price).toEqual({ price_kopecks: 110_000, active: true });
    await assertStockLedgerBalanced(db());
  });
});

describe('a later exchange of the same products', () => {
  it('a full package deactivates what it leaves out; one step moves a product to another section and brings one back', async () => {
    const base: TestProduct[] = [
      { id: P.jacket, article: 'BATCH-JACKET', name: 'Жакет «Пакет» новый', group: G.two, color: 'Красный' },
      { id: P.matched, article: site.article, name: 'Товар сайта из 1С', group: G.two },
      { id: P.skirt, article: 'BATCH-SKIRT', name: 'Юбка «Пакет»', group: G.one },
    ];
    const full = await exchange('import.xml', catalogXml({ groups: GROUPS, products: base.slice(0, 2) }));
    expect(full.at(-1)!.kind).toBe('success');
    expect((await productOf(P.skirt))!.active).toBe(false);

    // Changes only: the skirt is back (it has a price: on sale again) and moves to group two; the jacket moves to group one.
    const changes = await exchange(
      'import.xml',
      catalogXml({
        products: [
          { ...base[2]!, group: G.two },
          { ...base[0]!, group: G.one },
        ],
        onlyChanges: true,
      }),
    );
    expect(changes.at(-1)!.kind).toBe('success');
    expect(await productOf(P.skirt)).toMatchObject({ active: true, section_id: await sectionOf(G.two) });
    expect(await productOf(P.jacket)).toMatchObject({ active: true, section_id: await sectionOf(G.one) });
  });

  it('where 1C does not own names, a step keeps the site names and still writes what it owns', async () => {
    await db().execute(
      sql`insert into app_state (key, value) values ('exchange_settings', ${JSON.stringify({ owns: { name: false, description: true, prices: true } })}::jsonb)
          on conflict (key) do update set value = excluded.value`,
    );
    try {
      const answers = await exchange(
        'import.xml',
        catalogXml({
          products: [
            {
              id: P.skirt,
              article: 'BATCH-SKIRT',
              name: 'Юбка из 1С переименована',
              group: G.two,
              description: 'Шерсть',
            },
          ],
          onlyChanges: true,
        }),
      );
      expect(answers.at(-1)!.kind).toBe('success');
      const [skirt] = await queryRows<{ name: string; description: string }>(
        db(),
        sql`select name, description from products where external_id = ${P.skirt}`,
      );
      expect(skirt).toEqual({ name: 'Юбка «Пакет»', description: 'Шерсть' });
    } finally {
      await db().execute(sql`delete from app_state where key = 'exchange_settings'`);
    }
  });

  it('a stock package: only changed quantities are written, each one move with the import; the waiting list is told', async () => {
    const jacket44 = await offerOf(sizeId(P.jacket, 44));
    expect(jacket44.quantity).toBe(0);
    await db().insert(waitingList).values({ offerId: jacket44.id, phone: '79990003344', name: 'Ольга' });
    const movesBefore = await queryRows<{ n: number }>(db(), sql`select count(*)::int as n from stock_moves`);

    const stock = offersXml({
      offers: [
        { id: sizeId(P.jacket, 42), quantity: 5 },
        { id: sizeId(P.jacket, 44), quantity: 3 },
        { id: sizeId(P.skirt, 42), quantity: 4 },
        { id: sizeId(P.matched, 62), quantity: 0 },
        { id: sizeId(P.blouseA, 42), quantity: 1 },
      ],
      onlyChanges: true,
    });
    const answers = await exchange('offers.xml', stock);
    expect(answers.at(-1)!.lines[0]).toMatch(/остатков изменено: 2/);
    const imp = await lastImport('offers.xml');
    const moves = await queryRows<{ offer_id: number; delta: number; quantity_after: number }>(
      db(),
      sql`select offer_id, delta, quantity_after from stock_moves where id > 0 and import_id = ${imp.id} order by offer_id`,
    );
    const matched62 = await offerOf(sizeId(P.matched, 62));
    expect(moves).toEqual(
      [
        { offer_id: jacket44.id, delta: 3, quantity_after: 3 },
        { offer_id: matched62.id, delta: -1, quantity_after: 0 },
      ].sort((x, y) => x.offer_id - y.offer_id),
    );
    const movesAfter = await queryRows<{ n: number }>(db(), sql`select count(*)::int as n from stock_moves`);
    expect(movesAfter[0]!.n - movesBefore[0]!.n).toBe(2);
    await eventually(
      async () =>
        (await readSmsOutbox(path.join(shop.dataDir, 'outbox'))).find(
          (m) => m.tag === 'back-in-stock' && m.phone.endsWith('9990003344'),
        ) ?? null,
      'the back-in-stock SMS',
    );
    await assertStockLedgerBalanced(db());
  });

  it('rests.xml naming one offer twice in a step: the later quantity wins', async () => {
    const rests = offersXml({
      offers: [
        { id: sizeId(P.skirt, 42), rests: [9] },
        { id: sizeId(P.jacket, 42), rests: [1] },
        { id: sizeId(P.skirt, 42), rests: [2, 4] },
      ],
      onlyChanges: true,
    });
    const answers = await exchange('rests.xml', rests);
    expect(answers.at(-1)!.kind).toBe('success');
    expect((await offerOf(sizeId(P.skirt, 42))).quantity).toBe(6);
    expect((await offerOf(sizeId(P.jacket, 42))).quantity).toBe(1);
    await assertStockLedgerBalanced(db());
  });
});
