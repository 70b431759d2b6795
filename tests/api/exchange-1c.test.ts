import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '~/db/client.server';
import {
  AdminExchangePasswordResponse,
  AdminExchangeResendResponse,
  AdminExchangeResponse,
  CheckoutOrderResponse,
} from '~/shared/contract';
import { setUpTestShop } from '~/tests/support/server';
import { eventually, expectContract, getJson, postForm } from '~/tests/support/api';
import { admin, createStaffByScript, enrol, staffSession, testClock } from '~/tests/support/admin';
import { courierForm } from '~/tests/support/checkout';
import { sessionToken } from '~/tests/support/session';
import { assertStockLedgerBalanced } from '~/tests/support/stock';
import {
  OneC,
  catalogXml,
  offersXml,
  ordersXml,
  windows1251,
  zipArchive,
  type TestOffer,
  type TestProduct,
} from '~/tests/support/one-c';

// The 1C exchange (issue #31) over HTTP with a fake 1C, on PGlite and (TEST_DATABASE_URL)
// PostgreSQL: checkauth with the exchange account only, init, files in pieces, import repeated
// while 'progress' (two items a step here), UTF-8 and windows-1251, full and changes-only
// packages, bad files refused whole, and the order export confirmed by mode=success.

const clock = testClock();
const shop = setUpTestShop({
  clock: clock.now,
  env: {
    EXCHANGE_IMPORT_STEP: '2',
    EXCHANGE_MAX_FILE_MB: '1',
    EXCHANGE_FILE_LIMIT: '4096',
    EXCHANGE_MAX_UNZIP_MB: '2',
  },
});
const db = () => shop.database.db;
const LOGIN = '1c@exchange.example';
const PASSWORD = 'exchange password 2026';
const endpoint = () => `${shop.baseUrl}/backend/1c/exchange`;
const oneC = () => new OneC(endpoint(), LOGIN, PASSWORD);

const G = { women: 'aaaa0001-0000-0000-0000-000000000001', coats: 'aaaa0001-0000-0000-0000-000000000002' };
const P = {
  coat: 'bbbb0001-0000-0000-0000-000000000001',
  dress: 'bbbb0001-0000-0000-0000-000000000002',
  scarf: 'bbbb0001-0000-0000-0000-000000000003',
};
const SIZE = { s44: 'cccc0001-0000-0000-0000-000000000044', s46: 'cccc0001-0000-0000-0000-000000000046' };
const GROUPS = [{ id: G.women, name: 'Женщинам 1С', children: [{ id: G.coats, name: 'Пальто 1С' }] }];
const PRODUCTS: TestProduct[] = [
  { id: P.coat, article: 'EX-COAT-1', name: 'Пальто «Обмен»', group: G.coats, color: 'Черный', description: 'Шерсть' },
  { id: P.dress, article: 'EX-DRESS-1', name: 'Платье «Обмен»', group: G.women },
  { id: P.scarf, article: 'EX-SCARF-1', name: 'Шарф «Обмен»', group: G.women },
];
const OFFERS: TestOffer[] = [
  {
    id: `${P.coat}#${SIZE.s44}`,
    size: '44',
    prices: { 'price-retail-0001': '32000.00', 'price-old-0002': '40000' },
    quantity: 3,
  },
  { id: `${P.coat}#${SIZE.s46}`, size: '46', prices: { 'price-retail-0001': '32000.00' }, quantity: '2.000' },
  { id: `${P.dress}#${SIZE.s44}`, size: '44', prices: { 'price-retail-0001': '9 900,50' }, quantity: 0 },
  { id: P.scarf, prices: { 'price-retail-0001': '2500', 'price-opt-0003': '1000' }, quantity: 7 },
];

interface ProductRow {
  id: number;
  name: string;
  article: string;
  active: boolean;
  price_kopecks: number;
  old_price_kopecks: number | null;
  section_id: number;
  color_name: string;
}
const productOf = async (externalId: string) =>
  (
    await queryRows<ProductRow>(
      db(),
      sql`select id, name, article, active, price_kopecks, old_price_kopecks, section_id, color_name from products where external_id = ${externalId}`,
    )
  )[0];
const offerOf = async (externalId: string) =>
  (
    await queryRows<{
      id: number;
      size: string;
      size_type: string;
      price_kopecks: number;
      old_price_kopecks: number | null;
      quantity: number;
    }>(
      db(),
      sql`select id, size, size_type, price_kopecks, old_price_kopecks, quantity from offers where external_id = ${externalId}`,
    )
  )[0];

beforeAll(async () => {
  const made = await createStaffByScript(shop, { email: LOGIN, role: 'exchange' });
  await enrol(shop, clock, { token: made.token, password: PASSWORD });
});

describe('checkauth and the session', () => {
  it('takes only the exchange account; that account opens nothing else', async () => {
    const c = oneC();
    const wrong = await c.checkauth('catalog', 'not the password');
    expect(wrong.kind).toBe('failure');
    expect(wrong.lines[0]).toMatch(/Неверный логин или пароль/);
    const noAuth = await c.call('type=catalog&mode=checkauth');
    expect([noAuth.status, noAuth.kind]).toEqual([401, 'failure']);

    // A back-office account with its right password is refused here.
    const other = await createStaffByScript(shop, { email: 'content@exchange.example', role: 'content' });
    await enrol(shop, clock, { token: other.token, password: PASSWORD });
    expect((await new OneC(endpoint(), 'content@exchange.example', PASSWORD).checkauth('catalog')).kind).toBe(
      'failure',
    );

    const ok = await c.checkauth('catalog');
    expect(ok.kind).toBe('success');
    expect(ok.lines[0]).toBe('vitrina_1c');
    expect(ok.lines[1]).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect((await c.init('catalog')).text).toBe('zip=yes\nfile_limit=4096');

    // The exchange account cannot log in to the back office.
    const login = await admin(shop, '/auth/login', { body: { email: LOGIN, password: PASSWORD } });
    expect(login.status).toBe(401);
  });

  it('refuses every other call without the cookie, and an unknown mode', async () => {
    const stranger = oneC();
    const init = await stranger.call('type=catalog&mode=init');
    expect([init.status, init.kind]).toEqual([401, 'failure']);
    const c = oneC();
    await c.checkauth('catalog');
    expect((await c.call('type=catalog&mode=nonsense')).text).toBe('failure\nРежим «nonsense» не поддерживается');
    expect((await c.call('type=catalog&mode=complete')).text).toBe('success');
  });

  it('answers at the legacy 1C-Bitrix path too', async () => {
    const c = new OneC(`${shop.baseUrl}/bitrix/admin/1c_exchange.php`, LOGIN, PASSWORD);
    expect((await c.checkauth('catalog')).kind).toBe('success');
    expect((await c.init('catalog')).fileLimit).toBe(4096);
  });
});

describe('mode=file', () => {
  it('refuses names that leave the exchange folder, and a file past the size limit', async () => {
    const c = oneC();
    await c.checkauth('catalog');
    await c.init('catalog');
    for (const name of [
      '../escape.xml',
      '/etc/passwd',
      'a/../../b.xml',
      'import_files\\x.jpg',
      'a//b.xml',
      './import.xml',
    ]) {
      const [answer] = await c.sendFile(name, Buffer.from('<x/>'), 100);
      // '..' and '/etc/passwd' never reach the exchange: the security filter refuses the address first (403).
      if (answer!.status === 403) expect(name).toMatch(/\.\.|etc\/passwd/);
      else expect(answer!.text, name).toMatch(/^failure\nНедопустимое имя файла/);
    }
    expect(fs.existsSync(path.join(shop.dataDir, 'escape.xml'))).toBe(false);
    expect((await c.sendFile('import_files/ab/photo.jpg', Buffer.from('jpeg'), 100))[0]!.text).toBe('success');
    const big = Buffer.alloc(700 * 1024, 0x20);
    const answers = await c.sendFile('big.xml', Buffer.concat([big, big]), 700 * 1024);
    expect(answers[0]!.text).toBe('success');
    expect(answers[1]!.kind).toBe('failure');
    expect(answers[1]!.lines[0]).toMatch(/больше допустимого/);
  });
});

describe('the catalogue exchange', () => {
  it('imports a full catalogue (UTF-8) sent in pieces, in steps answered progress until success', async () => {
    const c = oneC();
    await c.checkauth('catalog');
    await c.init('catalog');
    const answers = await c.exchangeFile('import.xml', Buffer.from(catalogXml({ groups: GROUPS, products: PRODUCTS })));
    // Read and split, groups (one step), products (one a step: a product weighs four items of a
    // step, PRODUCT_STEP_WEIGHT), the closing range, the typo index's step.
    expect(answers.map((a) => a.kind)).toEqual([
      'progress',
      'progress',
      'progress',
      'progress',
      'progress',
      'progress',
      'success',
    ]);
    expect(answers.at(-1)!.lines[0]).toMatch(/товаров создано: 3/);

    const sections = await queryRows<{ external_id: string; name: string; url: string; parent: string | null }>(
      db(),
      sql`select s.external_id, s.name, s.url, p.external_id as parent from sections s left join sections p on p.id = s.parent_id
          where s.external_id is not null order by s.id`,
    );
    expect(sections).toEqual([
      { external_id: G.women, name: 'Женщинам 1С', url: '/catalog/zhenshchinam-1s/', parent: null },
      { external_id: G.coats, name: 'Пальто 1С', url: '/catalog/zhenshchinam-1s/palto-1s/', parent: G.women },
    ]);
    const coat = await productOf(P.coat);
    expect(coat).toMatchObject({ name: 'Пальто «Обмен»', article: 'EX-COAT-1', color_name: 'Черный' });
    // No price yet: not on sale until offers.xml gives one.
    expect(coat!.active).toBe(false);
    const [coatsSection] = await queryRows<{ id: number }>(
      db(),
      sql`select id from sections where external_id = ${G.coats}`,
    );
    expect(coat!.section_id).toBe(coatsSection!.id);
  });

  it('imports offers (windows-1251): sizes, prices by price type, stock through the ledger with reason import', async () => {
    const c = oneC();
    await c.checkauth('catalog');
    await c.init('catalog');
    const answers = await c.exchangeFile(
      'offers.xml',
      windows1251(offersXml({ offers: OFFERS, encoding: 'windows-1251' })),
    );
    expect(answers.at(-1)!.kind).toBe('success');
    expect(answers.filter((a) => a.kind === 'progress').length).toBeGreaterThanOrEqual(3);

    expect(await offerOf(`${P.coat}#${SIZE.s44}`)).toMatchObject({
      size: '44',
      size_type: 'clothes',
      price_kopecks: 3_200_000,
      old_price_kopecks: 4_000_000,
      quantity: 3,
    });
    expect(await offerOf(`${P.coat}#${SIZE.s46}`)).toMatchObject({ price_kopecks: 3_200_000, quantity: 2 });
    expect(await offerOf(`${P.dress}#${SIZE.s44}`)).toMatchObject({ price_kopecks: 990_050, quantity: 0 });
    // No characteristic: one size; the wholesale price type is neither the sale nor the old price.
    expect(await offerOf(P.scarf)).toMatchObject({
      size: 'Единый',
      size_type: 'none',
      price_kopecks: 250_000,
      quantity: 7,
    });
    expect(await productOf(P.coat)).toMatchObject({
      active: true,
      price_kopecks: 3_200_000,
      old_price_kopecks: 4_000_000,
    });

    const moves = await queryRows<{ reason: string; delta: number; import_id: number | null; actor_kind: string }>(
      db(),
      sql`select m.reason, m.delta, m.import_id, m.actor_kind from stock_moves m join offers o on o.id = m.offer_id
          where o.external_id = ${`${P.coat}#${SIZE.s44}`} order by m.id`,
    );
    expect(moves).toHaveLength(1);
    expect(moves[0]).toMatchObject({ reason: 'import', delta: 3, actor_kind: 'staff' });
    const [imp] = await queryRows<{ filename: string; status: string; kind: string }>(
      db(),
      sql`select filename, status, kind from exchange_imports where id = ${moves[0]!.import_id}`,
    );
    expect(imp).toEqual({ filename: 'offers.xml', status: 'done', kind: 'offers' });
    await assertStockLedgerBalanced(db());
  });

  it('a changes-only package touches what it names; a full one deactivates what it leaves out, never deletes', async () => {
    const c = oneC();
    await c.checkauth('catalog');
    await c.init('catalog');
    const changed = catalogXml({
      products: [{ ...PRODUCTS[1]!, name: 'Платье «Обмен» новое' }],
      onlyChanges: true,
      encoding: 'windows-1251',
    });
    expect((await c.exchangeFile('import.xml', windows1251(changed))).at(-1)!.kind).toBe('success');
    expect((await productOf(P.dress))!.name).toBe('Платье «Обмен» новое');
    expect((await productOf(P.coat))!.active).toBe(true);
    expect((await productOf(P.scarf))!.active).toBe(true);

    // Stock only, changes only: one offer's quantity; the others keep theirs.
    await c.init('catalog');
    const stock = offersXml({ offers: [{ id: P.scarf, quantity: 4 }], onlyChanges: true });
    expect((await c.exchangeFile('offers.xml', Buffer.from(stock))).at(-1)!.kind).toBe('success');
    expect(await offerOf(P.scarf)).toMatchObject({ quantity: 4, price_kopecks: 250_000 });
    expect((await offerOf(`${P.coat}#${SIZE.s44}`))!.quantity).toBe(3);

    // A full package without the scarf: it stays in the database, off sale.
    const c2 = oneC();
    await c2.checkauth('catalog');
    await c2.init('catalog');
    const full = catalogXml({ groups: GROUPS, products: PRODUCTS.slice(0, 2) });
    const answers = await c2.exchangeFile('import.xml', Buffer.from(full));
    expect(answers.at(-1)!.lines[0]).toMatch(/товаров снято с продажи: 1/);
    expect(await productOf(P.scarf)).toMatchObject({ active: false });
    expect((await productOf(P.coat))!.active).toBe(true);
  });

  it('a lost mapping makes no duplicate: a product without a 1C id is matched by its article', async () => {
    const c = oneC();
    await c.checkauth('catalog');
    await c.init('catalog');
    const before = await productOf(P.dress);
    await shop.database.db.execute(sql`update products set external_id = null where id = ${before!.id}`);
    const answers = await c.exchangeFile(
      'import.xml',
      Buffer.from(catalogXml({ products: [PRODUCTS[1]!], onlyChanges: true })),
    );
    expect(answers.at(-1)!.kind).toBe('success');
    expect((await productOf(P.dress))!.id).toBe(before!.id);
    const [{ n }] = (await queryRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from products where lower(article) = 'ex-dress-1'`,
    )) as [{ n: number }];
    expect(n).toBe(1);
    const [imp] = await queryRows<{ warnings: string[] }>(
      db(),
      sql`select warnings from exchange_imports where filename = 'import.xml' order by id desc limit 1`,
    );
    expect(imp!.warnings.join(' ')).toMatch(/по артикулу EX-DRESS-1/);
  });
});

describe('bad files', () => {
  it('a truncated file answers failure with the reason and imports nothing; the next exchange works', async () => {
    const c = oneC();
    await c.checkauth('catalog');
    await c.init('catalog');
    const xml = offersXml({
      offers: [
        { id: `${P.coat}#${SIZE.s44}`, prices: { 'price-retail-0001': '1.00' }, quantity: 99 },
        { id: `${P.coat}#${SIZE.s46}`, prices: { 'price-retail-0001': '1.00' }, quantity: 99 },
        { id: P.scarf, prices: { 'price-retail-0001': '1.00' }, quantity: 99 },
      ],
    });
    const truncated = Buffer.from(xml).subarray(0, Buffer.from(xml).length - 200);
    const answers = await c.exchangeFile('offers.xml', truncated);
    expect(answers).toHaveLength(1);
    expect(answers[0]!.kind).toBe('failure');
    expect(answers[0]!.lines[0]).toMatch(/^offers\.xml: Ошибка XML: .*строка \d+/);
    // Asked again, the same answer; nothing of the file was written.
    expect((await c.importUntilDone('offers.xml'))[0]!.kind).toBe('failure');
    expect(await offerOf(`${P.coat}#${SIZE.s44}`)).toMatchObject({ price_kopecks: 3_200_000, quantity: 3 });

    // Malformed in the middle, an unknown price type, an offer of a product the shop does not know.
    const broken = xml.replace('<Количество>99</Количество>', '<Количество>99</Колич>');
    // The sale price type's declaration renamed: the offers name a type the package does not declare.
    const unknownType = xml.replace('price-retail-0001', 'price-nobody-knows');
    const unknownProduct = offersXml({
      offers: [
        { id: `${P.coat}#${SIZE.s44}`, prices: { 'price-retail-0001': '1.00' }, quantity: 99 },
        { id: 'dddd0000-0000-0000-0000-00000000dead#x', prices: { 'price-retail-0001': '1.00' }, quantity: 1 },
      ],
    });
    for (const [file, body, reason] of [
      ['offers.xml', broken, /Ошибка XML/],
      ['offers.xml', unknownType, /неизвестный тип цены price-retail-0001/],
      ['offers.xml', unknownProduct, /товаров, которых нет на сайте \(1\): dddd0000/],
    ] as const) {
      const session = oneC();
      await session.checkauth('catalog');
      await session.init('catalog');
      const [answer] = await session.exchangeFile(file, Buffer.from(body));
      expect(answer!.kind).toBe('failure');
      expect(answer!.lines[0]).toMatch(reason);
    }
    expect(await offerOf(`${P.coat}#${SIZE.s44}`)).toMatchObject({ price_kopecks: 3_200_000, quantity: 3 });

    const next = oneC();
    await next.checkauth('catalog');
    await next.init('catalog');
    const fine = offersXml({ offers: [{ id: `${P.coat}#${SIZE.s44}`, quantity: 5 }], onlyChanges: true });
    expect((await next.exchangeFile('offers.xml', Buffer.from(fine))).at(-1)!.kind).toBe('success');
    expect((await offerOf(`${P.coat}#${SIZE.s44}`))!.quantity).toBe(5);
    await assertStockLedgerBalanced(db());
  });
});

describe('orders to 1C', () => {
  it('exports orders since the last confirmed export; an unconfirmed one is sent again; stock counts orders 1C has not got', async () => {
    const offer = (await offerOf(`${P.coat}#${SIZE.s44}`))!;
    const who = await sessionToken(shop, '79970001122');
    const placed = await getJson(`${shop.baseUrl}/backend`, '/api/catalog/order.php', CheckoutOrderResponse, {
      init: postForm(courierForm(who.token, `${offer.id}:2`)),
    });
    if (!placed.success) throw new Error(JSON.stringify(placed.data));
    expect((await offerOf(`${P.coat}#${SIZE.s44}`))!.quantity).toBe(3);

    // 1C has not got the order: its quantity (5) less the order's 2 units.
    const cat = oneC();
    await cat.checkauth('catalog');
    await cat.init('catalog');
    const stock = offersXml({ offers: [{ id: `${P.coat}#${SIZE.s44}`, quantity: 5 }], onlyChanges: true });
    expect((await cat.exchangeFile('offers.xml', Buffer.from(stock))).at(-1)!.kind).toBe('success');
    expect((await offerOf(`${P.coat}#${SIZE.s44}`))!.quantity).toBe(3);

    const sale = oneC();
    expect((await sale.checkauth('sale')).kind).toBe('success');
    expect((await sale.init('sale')).text).toBe('zip=yes\nfile_limit=4096\nversion=2.08');
    // An export ends a few seconds before now (an order still committing waits for the next one): 1C asks until it is there.
    const first = await eventually(async () => {
      const answer = await sale.call('type=sale&mode=query');
      return answer.text.includes(`<Номер>${placed.order_id}</Номер>`) && answer;
    }, 'the order in an export');
    expect(first.status).toBe(200);
    expect(first.text).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<КоммерческаяИнформация ВерсияСхемы="2.08"/);
    expect(first.text).toContain(`<Номер>${placed.order_id}</Номер>`);
    expect(first.text).toContain(`<Ид>${P.coat}#${SIZE.s44}</Ид>`);
    expect(first.text).toContain('<ХозОперация>Заказ товара</ХозОперация>');
    expect(first.text).toContain('<Роль>Покупатель</Роль>');
    expect(first.text).toContain('<Количество>2</Количество>');
    expect(first.text).toContain('<ЦенаЗаЕдиницу>32000.00</ЦенаЗаЕдиницу>');
    expect(first.text).toContain('<Значение>Услуга</Значение>');
    expect(first.text).toContain('<Наименование>Доставка курьером по Москве</Наименование>');
    expect(first.text).toContain('<Наименование>Статус заказа</Наименование><Значение>Принят</Значение>');
    expect(first.text).toContain('<Значение>+79161234567</Значение>');

    // Not confirmed: the next query sends it again.
    const again = await sale.call('type=sale&mode=query');
    expect(again.text).toContain(`<Номер>${placed.order_id}</Номер>`);
    expect((await sale.call('type=sale&mode=success')).text).toBe('success');

    const after = await sale.call('type=sale&mode=query');
    expect(after.text).not.toContain(`<Номер>${placed.order_id}</Номер>`);
    await sale.call('type=sale&mode=success');

    // 1C has the order now: its quantity is taken as it is.
    await cat.checkauth('catalog');
    await cat.init('catalog');
    const stock2 = offersXml({ offers: [{ id: `${P.coat}#${SIZE.s44}`, quantity: 3 }], onlyChanges: true });
    expect((await cat.exchangeFile('offers.xml', Buffer.from(stock2))).at(-1)!.kind).toBe('success');
    expect((await offerOf(`${P.coat}#${SIZE.s44}`))!.quantity).toBe(3);
    await assertStockLedgerBalanced(db());
  });

  it("the whole order exchange: query, success, then 1C's orders file applied through the status functions, audited, idempotent", async () => {
    const coat44 = `${P.coat}#${SIZE.s44}`;
    const coat46 = `${P.coat}#${SIZE.s46}`;
    const cat = oneC();
    await cat.checkauth('catalog');
    await cat.init('catalog');
    const stock = offersXml({
      offers: [
        { id: coat44, quantity: 10 },
        { id: coat46, quantity: 10 },
      ],
      onlyChanges: true,
    });
    expect((await cat.exchangeFile('offers.xml', Buffer.from(stock))).at(-1)!.kind).toBe('success');
    const o44 = (await offerOf(coat44))!;
    const o46 = (await offerOf(coat46))!;
    const place = async (phone: string, ids: string) => {
      const who = await sessionToken(shop, phone);
      const placed = await getJson(`${shop.baseUrl}/backend`, '/api/catalog/order.php', CheckoutOrderResponse, {
        init: postForm(courierForm(who.token, ids)),
      });
      if (!placed.success) throw new Error(JSON.stringify(placed.data));
      return placed.order_id;
    };
    const shipped = await place('79970002201', `${o44.id}:1`);
    const cancelled = await place('79970002202', `${o46.id}:2`);
    const fitted = await place('79970002203', `${o44.id}:1`);
    expect((await offerOf(coat46))!.quantity).toBe(8);

    // query → success: 1C has the orders.
    const sale = oneC();
    await sale.checkauth('sale');
    await sale.init('sale');
    await eventually(async () => {
      const answer = await sale.call('type=sale&mode=query');
      return [shipped, cancelled, fitted].every((id) => answer.text.includes(`<Номер>${id}</Номер>`));
    }, 'the orders in an export');
    expect((await sale.call('type=sale&mode=success')).text).toBe('success');

    // An order 1C got but did not confirm (its success lost): its units are held out of 1C's figure…
    const unconfirmed = await place('79970002204', `${o44.id}:2`);
    await eventually(async () => {
      const answer = await sale.call('type=sale&mode=query');
      return answer.text.includes(`<Номер>${unconfirmed}</Номер>`);
    }, 'the fourth order in an export');
    await cat.checkauth('catalog');
    await cat.init('catalog');
    const stock44 = Buffer.from(offersXml({ offers: [{ id: coat44, quantity: 6 }], onlyChanges: true }));
    await cat.exchangeFile('offers.xml', stock44);
    expect((await offerOf(coat44))!.quantity).toBe(4);

    // 1C's orders file: one shipped and paid with 1C's numbers and dates, one cancelled, one
    // «Выполнен» that the site refuses (a Moscow courier order is received through its fitting),
    // one the site has not got, and the unconfirmed one echoed as it is (1C has it now).
    const documents = [
      {
        id: shipped,
        number: 'УТ-000101',
        date: '2026-03-02',
        posted: true,
        shipmentNumber: 'РТУ-000055',
        shipmentDate: '2026-03-03T10:00:00',
        paymentNumber: 'ПКО-000077',
        paymentDate: '2026-03-04T11:30:00',
      },
      { id: cancelled, number: 'УТ-000102', cancelled: true, status: 'Отменен' },
      { id: fitted, number: 'УТ-000103', status: '[F] Выполнен' },
      { id: 999999, number: 'УТ-000104', status: 'Отгружен' },
      { id: unconfirmed, status: 'Принят' },
    ];
    const file = Buffer.from(ordersXml({ documents }));
    const sent = await sale.sendFile('orders-0001.xml', file, 700, 'sale');
    expect(sent.every((a) => a.text === 'success')).toBe(true);
    const answers = await sale.importUntilDone('orders-0001.xml', 20, 'sale');
    expect(answers[0]!.kind).toBe('progress');
    const done = answers.at(-1)!;
    expect(done.kind).toBe('success');
    expect(done.lines[0]).toContain('заказов изменено: 3');
    expect(done.lines[0]).toContain('документов не принято: 2');

    const orderRow = async (id: number) =>
      (
        await queryRows<{
          status: string;
          paid_at: string | null;
          paid_kopecks: number | null;
          exchange_1c: Record<string, unknown> | null;
          exchange_confirmed_at: string | null;
        }>(
          db(),
          sql`select status, paid_at, paid_kopecks, exchange_1c, exchange_confirmed_at from orders where id = ${id}`,
        )
      )[0]!;
    const a = await orderRow(shipped);
    expect(a.status).toBe('shipped');
    expect(new Date(a.paid_at!).toISOString()).toBe('2026-03-04T08:30:00.000Z');
    expect(a.paid_kopecks).toBeGreaterThan(0);
    expect(a.exchange_1c).toMatchObject({
      number: 'УТ-000101',
      posted: true,
      shipmentNumber: 'РТУ-000055',
      shipmentDate: '2026-03-03T10:00:00',
      paymentNumber: 'ПКО-000077',
    });
    // Walked one allowed step at a time, each a history row noting 1C's documents.
    const history = await queryRows<{ status: string; note: string | null }>(
      db(),
      sql`select status, note from order_status_history where order_id = ${shipped} order by id`,
    );
    expect(history.map((h) => h.status)).toEqual(['new', 'confirmed', 'assembling', 'shipped', 'shipped']);
    expect(history[3]!.note).toBe(
      'Из 1С: № УТ-000101 от 2026-03-02T12:00:00, отгрузка № РТУ-000055 от 2026-03-03T10:00:00',
    );
    // The cancel gave its stock back through the ledger, as a cancel in the back office does.
    expect((await orderRow(cancelled)).status).toBe('cancelled');
    expect((await offerOf(coat46))!.quantity).toBe(10);
    expect((await orderRow(fitted)).status).toBe('new');
    expect((await orderRow(unconfirmed)).exchange_confirmed_at).not.toBeNull();

    // Bad documents are named in the exchange log, each with its reason.
    const [log] = await queryRows<{ kind: string; warnings: string[]; counts: Record<string, number> }>(
      db(),
      sql`select kind, warnings, counts from exchange_imports where filename = 'orders-0001.xml' order by id desc limit 1`,
    );
    expect(log!.kind).toBe('orders');
    expect(log!.warnings).toEqual([
      `Документ ${fitted} (№ УТ-000103): Заказ с курьерской доставкой по Москве получают после примерки: запишите примерку`,
      'Документ 999999 (№ УТ-000104): заказа 999999 нет на сайте',
    ]);
    // Audited as the exchange account, before and after.
    const audits = await queryRows<{
      entity_id: string;
      actor_label: string;
      before: { status: string };
      after: { status: string };
    }>(
      db(),
      sql`select entity_id, actor_label, before, after from audit_events where action = 'exchange.order' order by id`,
    );
    expect(audits.map((e) => [e.entity_id, e.before.status, e.after.status])).toEqual([
      [String(shipped), 'new', 'shipped'],
      [String(cancelled), 'new', 'cancelled'],
      [String(unconfirmed), 'new', 'new'],
    ]);
    expect(audits[0]!.actor_label).toBe(`${LOGIN} (обмен с 1С)`);

    // …and with 1C holding it, its units are no longer taken from 1C's figure.
    await cat.checkauth('catalog');
    await cat.init('catalog');
    await cat.exchangeFile('offers.xml', stock44);
    expect((await offerOf(coat44))!.quantity).toBe(6);

    // The same documents again (in windows-1251, inside a <Контейнер>): nothing changes, nothing is audited twice.
    const again = oneC();
    await again.checkauth('sale');
    await again.init('sale');
    const twice = await again.exchangeFile(
      'orders-0002.xml',
      windows1251(ordersXml({ documents, container: true, encoding: 'windows-1251' })),
      700,
      'sale',
    );
    expect(twice.at(-1)!.kind).toBe('success');
    expect(twice.at(-1)!.lines[0]!.split(', ').sort()).toEqual([
      'документов не принято: 2',
      'заказов без изменений: 3',
    ]);
    const audited = await queryRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from audit_events where action = 'exchange.order'`,
    );
    expect(audited[0]!.n).toBe(3);
    expect(
      (
        await queryRows<{ n: number }>(
          db(),
          sql`select count(*)::int as n from order_status_history where order_id = ${shipped}`,
        )
      )[0]!.n,
    ).toBe(5);
    expect((await offerOf(coat46))!.quantity).toBe(10);
    await assertStockLedgerBalanced(db());

    // A broken orders file, or a catalogue sent as orders: failure with the reason; nothing applied.
    const bad = oneC();
    await bad.checkauth('sale');
    await bad.init('sale');
    const truncated = await bad.exchangeFile(
      'orders-bad.xml',
      Buffer.from(ordersXml({ documents }).slice(0, 300)),
      700,
      'sale',
    );
    expect(truncated.at(-1)!.kind).toBe('failure');
    expect(truncated.at(-1)!.lines[0]).toMatch(/^orders-bad\.xml: Ошибка XML: .*строка \d+/);
    const wrong = await bad.exchangeFile('import.xml', Buffer.from(catalogXml({ products: [] })), 700, 'sale');
    expect(wrong.at(-1)!.lines[0]).toMatch(/ждут файл документов заказов/);
  });
});

describe('zip archives (init answers zip=yes)', () => {
  it('unpacks the archive on the first mode=import (progress), then imports its files', async () => {
    const c = oneC();
    await c.checkauth('catalog');
    expect((await c.init('catalog')).zip).toBe('yes');
    const archive = zipArchive([
      {
        name: 'import.xml',
        data: catalogXml({ products: [{ ...PRODUCTS[1]!, name: 'Платье «Архив»' }], onlyChanges: true }),
      },
      {
        name: 'offers.xml',
        data: windows1251(
          offersXml({
            offers: [{ id: `${P.dress}#${SIZE.s44}`, quantity: 6 }],
            onlyChanges: true,
            encoding: 'windows-1251',
          }),
        ),
      },
      { name: 'import_files/ab/readme.txt', data: 'x' },
    ]);
    for (const a of await c.sendFile('import_0.zip', archive, 4096)) expect(a.text).toBe('success');
    const answers = await c.importUntilDone('import.xml');
    expect(answers[0]!.text).toBe('progress\nАрхив import_0.zip распакован: файлов 3');
    expect(answers.at(-1)!.kind).toBe('success');
    expect((await productOf(P.dress))!.name).toBe('Платье «Архив»');
    expect((await c.importUntilDone('offers.xml')).at(-1)!.kind).toBe('success');
    expect((await offerOf(`${P.dress}#${SIZE.s44}`))!.quantity).toBe(6);
    const [log] = await queryRows<{ kind: string; status: string; counts: Record<string, number> }>(
      db(),
      sql`select kind, status, counts from exchange_imports where filename = 'import_0.zip' order by id desc limit 1`,
    );
    expect(log).toEqual({ kind: 'zip', status: 'done', counts: { files: 3 } });
    await assertStockLedgerBalanced(db());
  });

  it('refuses zip slip, absolute paths, symlinks, a zip bomb, lying sizes and a damaged archive; nothing is unpacked', async () => {
    const fine = {
      name: 'import.xml',
      data: catalogXml({ products: [{ ...PRODUCTS[1]!, name: 'Взлом' }], onlyChanges: true }),
    };
    const cases: [string, Buffer, RegExp][] = [
      [
        'slip',
        zipArchive([fine, { name: '../../escape.xml', data: '<x/>' }]),
        /недопустимый путь «\.\.\/\.\.\/escape\.xml»/,
      ],
      ['absolute', zipArchive([fine, { name: '/tmp/abs.xml', data: '<x/>' }]), /недопустимый путь «\/tmp\/abs\.xml»/],
      ['drive', zipArchive([fine, { name: 'C:/win.xml', data: '<x/>' }]), /недопустимый путь/],
      ['backslash', zipArchive([fine, { name: '..\\win.xml', data: '<x/>' }]), /недопустимый путь/],
      [
        'symlink',
        zipArchive([fine, { name: 'import_files/link', data: '/etc/passwd', symlink: true }]),
        /символическая ссылка/,
      ],
      ['bomb', zipArchive([fine, { name: 'zeros.xml', data: Buffer.alloc(3 * 1024 * 1024) }]), /больше чем в 2 МБ/],
      [
        'lying',
        zipArchive([fine, { name: 'small.xml', data: Buffer.alloc(100_000), claimedSize: 10 }]),
        /архив bad\.zip/,
      ],
      ['damaged', Buffer.from('PK\u0003\u0004 not really a zip archive'), /повреждён или не zip/],
    ];
    for (const [label, archive, reason] of cases) {
      const c = oneC();
      await c.checkauth('catalog');
      await c.init('catalog');
      expect(
        (await c.sendFile('bad.zip', archive, 4096)).every((a) => a.text === 'success'),
        label,
      ).toBe(true);
      const [answer] = await c.importUntilDone('import.xml');
      expect(answer!.kind, label).toBe('failure');
      expect(answer!.lines[0], label).toMatch(/^Архив не принят: /);
      expect(answer!.lines[0], label).toMatch(reason);
      // Asked again: the same refusal; the folder holds nothing of the archive.
      expect((await c.importUntilDone('import.xml'))[0]!.kind, label).toBe('failure');
      const [row] = await queryRows<{ id: number }>(db(), sql`select max(id)::int as id from exchange_sessions`);
      const dir = path.join(shop.dataDir, 'exchange', String(row!.id));
      expect(fs.readdirSync(dir), label).toEqual(['bad.zip.refused']);
    }
    expect(fs.existsSync(path.join(shop.dataDir, 'exchange', 'escape.xml'))).toBe(false);
    expect(fs.existsSync(path.join(shop.dataDir, 'escape.xml'))).toBe(false);
    expect((await productOf(P.dress))!.name).toBe('Платье «Архив»');
    const [{ n }] = (await queryRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from exchange_imports where filename = 'bad.zip' and kind = 'zip' and status = 'failed'`,
    )) as [{ n: number }];
    expect(n).toBe(cases.length);

    // The next exchange (a new init) works.
    const c = oneC();
    await c.checkauth('catalog');
    await c.init('catalog');
    await c.sendFile('good.zip', zipArchive([fine]), 4096);
    expect((await c.importUntilDone('import.xml')).at(-1)!.kind).toBe('success');
    expect((await productOf(P.dress))!.name).toBe('Взлом');
  });
});

describe('prices.xml and rests.xml (CommerceML 2.08+: prices and stock in files of their own)', () => {
  it('prices set prices only, rests set stock only (summed over warehouses), a full rests package zeroes the rest', async () => {
    const coat44 = `${P.coat}#${SIZE.s44}`;
    const coat46 = `${P.coat}#${SIZE.s46}`;
    const before44 = (await offerOf(coat44))!;
    const c = oneC();
    await c.checkauth('catalog');
    await c.init('catalog');
    const prices = offersXml({
      offers: [
        { id: coat44, prices: { 'price-retail-0001': '31000', 'price-old-0002': '39000' } },
        { id: coat46, prices: { 'price-retail-0001': '30000.00' } },
      ],
      encoding: 'windows-1251',
    });
    const answers = await c.exchangeFile('prices_1.xml', windows1251(prices));
    expect(answers.at(-1)!.kind).toBe('success');
    expect(answers.at(-1)!.lines[0]).toMatch(/предложений обновлено: 2/);
    expect(await offerOf(coat44)).toMatchObject({
      price_kopecks: 3_100_000,
      old_price_kopecks: 3_900_000,
      quantity: before44.quantity,
    });
    expect(await offerOf(coat46)).toMatchObject({ price_kopecks: 3_000_000, old_price_kopecks: null });
    // The product's price is its cheapest offer's; a full prices package leaves other offers' stock alone.
    expect((await productOf(P.coat))!.price_kopecks).toBe(3_000_000);
    expect((await offerOf(P.scarf))!.quantity).toBe(4);

    const rests = offersXml({
      offers: [
        { id: coat44, rests: [2, 5] },
        { id: coat46, rests: [1] },
      ],
      onlyChanges: true,
    });
    expect((await c.exchangeFile('rests_1.xml', Buffer.from(rests))).at(-1)!.kind).toBe('success');
    expect(await offerOf(coat44)).toMatchObject({ quantity: 7, price_kopecks: 3_100_000 });
    expect((await offerOf(coat46))!.quantity).toBe(1);
    expect((await offerOf(P.scarf))!.quantity).toBe(4);

    // Full: what it leaves out goes to zero (through the ledger).
    const full = offersXml({ offers: [{ id: coat44, rests: [3] }], priceTypes: [] });
    const done = await c.exchangeFile('rests_2.xml', Buffer.from(full));
    expect(done.at(-1)!.lines[0]).toMatch(/предложений обнулено: 3/);
    expect((await offerOf(coat44))!.quantity).toBe(3);
    expect((await offerOf(coat46))!.quantity).toBe(0);
    expect((await offerOf(P.scarf))!.quantity).toBe(0);
    expect((await offerOf(`${P.dress}#${SIZE.s44}`))!.quantity).toBe(0);
    const [move] = await queryRows<{ reason: string; delta: number }>(
      db(),
      sql`select m.reason, m.delta from stock_moves m join offers o on o.id = m.offer_id
          where o.external_id = ${coat46} order by m.id desc limit 1`,
    );
    expect(move).toEqual({ reason: 'import', delta: -1 });
    await assertStockLedgerBalanced(db());
  });

  it('an offer the shop does not have is refused before anything is written', async () => {
    const c = oneC();
    await c.checkauth('catalog');
    await c.init('catalog');
    const coat44 = `${P.coat}#${SIZE.s44}`;
    const rests = offersXml({
      offers: [
        { id: coat44, rests: [50] },
        { id: `${P.coat}#no-such-size`, rests: [1] },
      ],
      onlyChanges: true,
    });
    const [answer] = await c.exchangeFile('rests.xml', Buffer.from(rests));
    expect(answer!.kind).toBe('failure');
    expect(answer!.lines[0]).toMatch(/Предложения, которых нет на сайте \(1\): .*no-such-size/);
    expect((await offerOf(coat44))!.quantity).toBe(3);
    const prices = offersXml({ offers: [{ id: coat44, prices: { 'price-nobody': '1' } }], onlyChanges: true });
    const [bad] = await c.exchangeFile('prices.xml', Buffer.from(prices));
    expect(bad!.lines[0]).toMatch(/неизвестный тип цены price-nobody/);
    expect((await offerOf(coat44))!.price_kopecks).toBe(3_100_000);
  });
});

describe('pictures (import_files/)', () => {
  const picture = (colour: string, format: 'png' | 'jpeg') => {
    const image = sharp({ create: { width: 300, height: 400, channels: 3, background: colour } });
    return (format === 'png' ? image.png() : image.jpeg()).toBuffer();
  };
  const photosOf = async (externalId: string) =>
    queryRows<{ path: string; position: number; width: number; height: number; source_hash: string | null }>(
      db(),
      sql`select pp.path, pp.position, pp.width, pp.height, pp.source_hash from product_photos pp
          join products p on p.id = pp.product_id where p.external_id = ${externalId} order by pp.position`,
    );
  const mediaFiles = () => {
    const dir = path.join(shop.dataDir, 'media', 'products', '1c');
    return fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
  };
  const send = async (files: [string, Buffer][], products: TestProduct[]) => {
    const c = oneC();
    await c.checkauth('catalog');
    await c.init('catalog');
    for (const [name, body] of files)
      for (const a of await c.sendFile(name, body, 4096)) expect(a.text).toBe('success');
    // 1C asks to import each picture too: answered success, nothing done.
    expect((await c.importUntilDone(files[0]![0])).map((a) => a.text)).toEqual(['success']);
    return c.exchangeFile('import.xml', Buffer.from(catalogXml({ products, onlyChanges: true })));
  };

  it('attaches real images at new random paths, refuses what is not an image, and does not process an unchanged picture again', async () => {
    const red = await picture('#ff0000', 'png');
    const blue = await picture('#0000ff', 'jpeg');
    const coat = { ...PRODUCTS[0]!, pictures: ['import_files/ab/coat1.png', 'import_files/cd/coat2.jpg'] };
    const dress = { ...PRODUCTS[1]!, pictures: ['import_files/ef/fake.jpg', 'import_files/ef/missing.jpg'] };
    const files: [string, Buffer][] = [
      ['import_files/ab/coat1.png', red],
      ['import_files/cd/coat2.jpg', blue],
      ['import_files/ef/fake.jpg', Buffer.from('<?php echo "not a picture"; ?>')],
    ];
    const first = await send(files, [coat, dress]);
    expect(first.at(-1)!.kind).toBe('success');
    expect(first.at(-1)!.lines[0]).toMatch(/картинок обработано: 2/);
    const photos = await photosOf(P.coat);
    expect(photos.map((p) => p.position)).toEqual([1, 2]);
    for (const p of photos) {
      expect(p.path).toMatch(/^products\/1c\/[0-9a-f]{24}\.jpg$/);
      expect(p).toMatchObject({ width: 300, height: 400 });
      const meta = await sharp(path.join(shop.dataDir, 'media', p.path)).metadata();
      expect(meta.format).toBe('jpeg');
    }
    expect(await photosOf(P.dress)).toEqual([]);
    const [imp] = await queryRows<{ warnings: string[] }>(
      db(),
      sql`select warnings from exchange_imports where filename = 'import.xml' order by id desc limit 1`,
    );
    expect(imp!.warnings.join('\n')).toMatch(/fake\.jpg не картинка/);
    expect(imp!.warnings.join('\n')).toMatch(/missing\.jpg не получена/);
    const filesAfterFirst = mediaFiles();
    expect(filesAfterFirst).toHaveLength(2);

    // The same pictures again: nothing processed, same paths, no new files.
    const again = await send(files.slice(0, 2), [coat]);
    expect(again.at(-1)!.lines[0]).toMatch(/картинок без изменений: 2/);
    expect(again.at(-1)!.lines[0]).not.toMatch(/картинок обработано/);
    expect(await photosOf(P.coat)).toEqual(photos);
    expect(mediaFiles()).toEqual(filesAfterFirst);

    // The first picture changed under the same name: a new path for it; the old file keeps its content.
    const green = await picture('#00ff00', 'png');
    const oldBytes = fs.readFileSync(path.join(shop.dataDir, 'media', photos[0]!.path));
    const changed = await send(
      [
        ['import_files/ab/coat1.png', green],
        ['import_files/cd/coat2.jpg', blue],
      ],
      [coat],
    );
    expect(changed.at(-1)!.lines[0]).toMatch(/картинок обработано: 1/);
    const now = await photosOf(P.coat);
    expect(now[0]!.path).not.toBe(photos[0]!.path);
    expect(now[1]!.path).toBe(photos[1]!.path);
    expect(fs.readFileSync(path.join(shop.dataDir, 'media', photos[0]!.path)).equals(oldBytes)).toBe(true);
    expect(mediaFiles()).toHaveLength(3);
  });
});

describe('the Exchange screen (back office, admin only) and the audit log', () => {
  it('an import writes one audit event a step with its counts', async () => {
    const events = await queryRows<{
      entity_id: string;
      actor_label: string;
      after: { counts: Record<string, number>; file: string };
    }>(db(), sql`select entity_id, actor_label, after from audit_events where action = 'exchange.import' order by id`);
    expect(events.length).toBeGreaterThan(10);
    expect(events[0]!.actor_label).toBe(`${LOGIN} (обмен с 1С)`);
    // Per import: as many events as its steps, and their counts add up to the import's.
    const imports = await queryRows<{ id: number; steps: number; counts: Record<string, number> }>(
      db(),
      sql`select id, steps, counts from exchange_imports where status = 'done' and kind <> 'zip'`,
    );
    for (const imp of imports) {
      const own = events.filter((e) => e.entity_id === String(imp.id));
      expect(own, `import ${imp.id}`).toHaveLength(imp.steps);
      const sum: Record<string, number> = {};
      for (const e of own) for (const [k, n] of Object.entries(e.after.counts)) sum[k] = (sum[k] ?? 0) + n;
      expect(sum, `import ${imp.id}`).toEqual(
        Object.fromEntries(Object.entries(imp.counts).filter(([, n]) => n !== 0)),
      );
    }
  });

  it('shows the sessions, saves the settings (audited) and re-sends orders (audited, idempotent); other roles are refused', async () => {
    const manager = await staffSession(shop, clock, { email: 'manager@exchange.example', role: 'manager' });
    expect((await admin(shop, '/exchange', { cookie: manager.cookie })).status).toBe(403);
    expect((await admin(shop, '/exchange/resend-orders', { cookie: manager.cookie, body: {} })).status).toBe(403);
    const boss = await staffSession(shop, clock, { email: 'admin@exchange.example', role: 'admin' });
    const log = expectContract(
      AdminExchangeResponse,
      (await admin(shop, '/exchange', { cookie: boss.cookie })).body,
    ).data;
    expect(log.endpoint).toMatch(/\/backend\/1c\/exchange$/);
    const files = log.sessions.flatMap((s) => s.files);
    expect(
      files.some((f) => f.filename === 'offers.xml' && f.status === 'done' && (f.counts.offers_created ?? 0) > 0),
    ).toBe(true);
    // Errors name the element that failed.
    expect(files.some((f) => f.status === 'failed' && /Предложение .*неизвестный тип цены/.test(f.error ?? ''))).toBe(
      true,
    );
    expect(files.some((f) => f.kind === 'zip' && /символическая ссылка/.test(f.error ?? ''))).toBe(true);
    expect(log.sessions.some((s) => s.type === 'sale' && s.exports.some((e) => e.confirmed_at !== null))).toBe(true);

    // Settings: 1C no longer owns names; a renamed product keeps the site's name.
    const settings = { ...log.settings, owns: { ...log.settings.owns, name: false }, colorProperty: 'Цвет' };
    const saved = await admin(shop, '/exchange/settings', { cookie: boss.cookie, body: settings });
    expect(saved.status).toBe(200);
    expect(expectContract(AdminExchangeResponse, saved.body).data.settings.owns.name).toBe(false);
    const c = oneC();
    await c.checkauth('catalog');
    await c.init('catalog');
    const before = (await productOf(P.scarf))!.name;
    await c.exchangeFile(
      'import.xml',
      Buffer.from(catalogXml({ products: [{ ...PRODUCTS[2]!, name: 'Другое имя' }], onlyChanges: true })),
    );
    expect((await productOf(P.scarf))!.name).toBe(before);
    const [audit] = await queryRows<{ before: { owns: { name: boolean } }; after: { owns: { name: boolean } } }>(
      db(),
      sql`select before, after from audit_events where action = 'exchange.settings' order by id desc limit 1`,
    );
    expect([audit!.before.owns.name, audit!.after.owns.name]).toEqual([true, false]);
    await admin(shop, '/exchange/settings', { cookie: boss.cookie, body: log.settings });

    // Re-send: the confirmed exports are set aside; the next query sends the order again until 1C confirms it.
    const sale = oneC();
    await sale.checkauth('sale');
    await sale.init('sale');
    const [order] = await queryRows<{ id: number }>(
      db(),
      sql`select id from orders where exchange_confirmed_at is not null order by id limit 1`,
    );
    expect((await sale.call('type=sale&mode=query')).text).not.toContain(`<Номер>${order!.id}</Номер>`);
    const key = crypto.randomUUID();
    const first = expectContract(
      AdminExchangeResendResponse,
      (await admin(shop, '/exchange/resend-orders', { cookie: boss.cookie, body: {}, key })).body,
    ).data;
    expect(first.exports).toBeGreaterThan(0);
    expect(first.orders).toBeGreaterThan(0);
    // The same key: the first answer; a new key: nothing left to set aside.
    expect((await admin(shop, '/exchange/resend-orders', { cookie: boss.cookie, body: {}, key })).body).toEqual({
      data: first,
    });
    const second = expectContract(
      AdminExchangeResendResponse,
      (await admin(shop, '/exchange/resend-orders', { cookie: boss.cookie, body: {} })).body,
    ).data;
    expect([second.exports, second.orders]).toEqual([0, 0]);
    const resends = await queryRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from audit_events where action = 'exchange.resend_orders'`,
    );
    expect(resends[0]!.n).toBe(2);
    expect((await sale.call('type=sale&mode=query')).text).toContain(`<Номер>${order!.id}</Номер>`);
    expect((await sale.call('type=sale&mode=success')).text).toBe('success');
    expect((await sale.call('type=sale&mode=query')).text).not.toContain(`<Номер>${order!.id}</Номер>`);
  });

  it("shows the exchange account's login and sets a new password, shown once; the old one and its sessions stop working", async () => {
    const boss = await staffSession(shop, clock, { email: 'admin2@exchange.example', role: 'admin' });
    const manager = await staffSession(shop, clock, { email: 'manager2@exchange.example', role: 'manager' });
    const log = expectContract(
      AdminExchangeResponse,
      (await admin(shop, '/exchange', { cookie: boss.cookie })).body,
    ).data;
    expect(log.account).toMatchObject({ login: LOGIN, password_set: true, disabled: false });
    expect(JSON.stringify(log)).not.toMatch(/password_hash|argon2/);
    expect((await admin(shop, '/exchange/password', { cookie: manager.cookie, body: {} })).status).toBe(403);

    const open = oneC();
    expect((await open.checkauth('catalog')).kind).toBe('success');
    clock.advance(1000);
    const key = crypto.randomUUID();
    const set = await admin(shop, '/exchange/password', { cookie: boss.cookie, body: {}, key });
    expect(set.status).toBe(200);
    const shown = expectContract(AdminExchangePasswordResponse, set.body).data;
    expect(shown).toMatchObject({ login: LOGIN, created: false });
    expect(shown.password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    // A repeat of the same click answers the same (the key), and does not change it again.
    expect((await admin(shop, '/exchange/password', { cookie: boss.cookie, body: {}, key })).body).toEqual(set.body);

    // The old password and the session it opened no longer work; the new one does.
    expect((await open.call('type=catalog&mode=init')).status).toBe(401);
    expect((await oneC().checkauth('catalog')).kind).toBe('failure');
    const fresh = new OneC(endpoint(), LOGIN, shown.password);
    expect((await fresh.checkauth('catalog')).kind).toBe('success');
    expect((await fresh.init('catalog')).zip).toBe('yes');

    // Audited without the password.
    const audits = await queryRows<{ entity_id: string; before: unknown; after: { login: string } }>(
      db(),
      sql`select entity_id, before, after from audit_events where action = 'exchange.password'`,
    );
    expect(audits).toHaveLength(1);
    expect(audits[0]!.after.login).toBe(LOGIN);
    expect(JSON.stringify(audits)).not.toContain(shown.password);
    const after = expectContract(
      AdminExchangeResponse,
      (await admin(shop, '/exchange', { cookie: boss.cookie })).body,
    ).data;
    expect(after.account!.password_changed_at).not.toBeNull();
  });
});
