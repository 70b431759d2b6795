import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '~/db/client.server';
import { readCatalogVersion } from '~/db/catalog-version.server';
import { CatalogueOptionsResponse, ProductOneResponse, type ProductDetail } from '~/shared/admin-catalogue-contract';
import { ImportApplyResponse, ImportCheckResponse, ProductBulkResponse } from '~/shared/admin-catalogue-bulk-contract';
import { ProductResponse } from '~/shared/contract';
import { CSV_HEADING } from '~/core/catalogue-csv';
import { csvLine } from '~/core/csv';
import { setUpTestShop } from '~/tests/support/server';
import { expectContract, getJson } from '~/tests/support/api';
import { admin, staffSession, testClock, type AnyBody } from '~/tests/support/admin';

// Bulk work on the catalogue (issue #30) over HTTP, on PGlite and (TEST_DATABASE_URL) PostgreSQL:
// the CSV export (BOM and ';' for Excel, or plain ','), the import's dry run (rows to create, to
// change with before and after, errors with their line in Russian; nothing written), its
// confirmation (all or none, once, refused when stale; quantities through the stock ledger with
// reason 'import'; an audit row per product), and the products list's bulk actions.

const clock = testClock();
const shop = setUpTestShop({ clock: clock.now });
const db = () => shop.database.db;

type Role = 'admin' | 'manager' | 'warehouse' | 'content';
const sessions: Partial<Record<Role, Awaited<ReturnType<typeof staffSession>>>> = {};
async function as(role: Role) {
  sessions[role] ??= await staffSession(shop, clock, { email: `${role}@csv.example`, role });
  return sessions[role];
}
async function call(role: Role, p: string, body?: unknown, key?: string) {
  const { cookie } = await as(role);
  return admin(shop, p, { cookie, ...(body !== undefined ? { body } : {}), ...(key ? { key } : {}) });
}

let section: { id: number; path: string; url: string } | null = null;
let other: { id: number; path: string } | null = null;
async function sections() {
  if (!section || !other) {
    const opts = expectContract(CatalogueOptionsResponse, (await call('content', '/catalogue/options')).body);
    const cats = opts.data.sections.filter((s) => s.kind === 'category' && s.path.includes(' / '));
    section = cats[0] ?? null;
    other = cats[1] ?? null;
  }
  if (!section || !other) throw new Error('the seed has no nested categories');
  return { section, other };
}

let made = 0;
const article = () => `CSV-${Date.now().toString(36)}-${++made}`.toUpperCase();
/** A shown product with sizes 44 and 46 at 5 000 ₽, no stock. */
async function product(): Promise<ProductDetail> {
  const { section } = await sections();
  const r = await call('content', '/products', {
    name: `Юбка Пересвет ${made + 1}`,
    article: article(),
    section_id: section.id,
    color_name: 'Синий',
    color_hex: '#1a2b6d',
    kind: 'skirt',
    price: '5 000',
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  const id = (r.body as AnyBody).data.id as number;
  for (const size of ['44', '46'])
    expect((await call('content', `/products/${id}/offers`, { size_type: 'clothes', size })).status).toBe(200);
  const shown = await call('content', `/products/${id}/activate`, {});
  expect(shown.status, JSON.stringify(shown.body)).toBe(200);
  return expectContract(ProductOneResponse, shown.body).data;
}

const HEAD = csvLine(CSV_HEADING);
const row = (cells: Record<string, string | number>) =>
  csvLine(
    [
      'Артикул',
      'Название',
      'Раздел',
      'Вид',
      'Цвет',
      'Размер',
      'Тип размера',
      'Штрихкод',
      'Цена, ₽',
      'Старая цена, ₽',
      'Остаток',
      'Показан',
    ].map((h) => cells[h] ?? ''),
  );
async function check(role: Role, csv: string, key?: string) {
  const r = await call(role, '/products/import/check', { csv, file_name: 'товары.csv' }, key);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return expectContract(ImportCheckResponse, r.body).data;
}
const offerOf = (p: ProductDetail, size: string) => p.offers.find((o) => o.size === size)!;
const productById = async (id: number) =>
  expectContract(ProductOneResponse, (await call('content', `/products/${id}`)).body).data;
const auditRows = (type: string, id: number | string) =>
  queryRows<{ action: string; before: AnyBody; after: AnyBody; reason: string | null }>(
    db(),
    sql`select action, before, after, reason from audit_events where entity_type = ${type} and entity_id = ${String(id)} order by id`,
  );

describe('the catalogue as CSV', () => {
  it('exports every product, one row per size: BOM and ; for Excel, or plain , on request; audited; needs a session', async () => {
    const p = await product();
    expect((await admin(shop, '/products/export.csv')).status).toBe(401);
    const { cookie } = await as('warehouse');
    const res = await fetch(`${shop.baseUrl}/backend/admin/products/export.csv`, {
      headers: { cookie, origin: shop.baseUrl },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="products-\d{4}-\d{2}-\d{2}\.csv"$/);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes);
    const lines = text.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toBe(CSV_HEADING.join(';'));
    const mine = lines.filter((l) => l.startsWith(`${p.article};`));
    expect(mine).toHaveLength(2);
    expect(mine[0]).toBe(`${p.article};${p.name};${(await sections()).section.path};Юбка;Синий;44;одежда;;5000;;0;да`);
    // Many products (the seed's and this file's), read in keyset batches of 500: each once.
    const articles = lines
      .slice(1)
      .filter(Boolean)
      .map((l) => l.split(';')[0] as string);
    const [{ n }] = (await queryRows<{ n: number }>(
      db(),
      sql`select (select count(*) from offers)::int + (select count(*) from products p where not exists (select 1 from offers o where o.product_id = p.id))::int as n`,
    )) as [{ n: number }];
    expect(articles.length).toBe(n);

    const plain = await fetch(`${shop.baseUrl}/backend/admin/products/export.csv?format=plain`, {
      headers: { cookie, origin: shop.baseUrl },
    });
    const plainText = await plain.text();
    expect(plainText.charCodeAt(0)).not.toBe(0xfeff);
    expect(`${plainText.split('\r\n')[0]}\r\n`).toBe(csvLine(CSV_HEADING, ','));
    expect(plainText).toContain(`${p.article},${p.name},`);

    const bad = await call('content', '/products/export.csv?format=xls');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/^Неверный запрос/);
    const audit = await queryRows<{ action: string; after: AnyBody }>(
      db(),
      sql`select action, after from audit_events where action = 'product.export' order by id`,
    );
    expect(audit.map((a) => a.after.format)).toEqual(['excel', 'plain']);
  });

  it('dry run: rows to create, rows to change with before and after, errors with their line; nothing written until confirmed', async () => {
    const p = await product();
    const { section } = await sections();
    const fresh = article();
    const versionBefore = await readCatalogVersion(db());
    const csv =
      '\uFEFF' +
      HEAD +
      row({
        Артикул: p.article,
        Название: p.name,
        Размер: '44',
        'Цена, ₽': '4 500',
        'Старая цена, ₽': '5000',
        Остаток: 7,
        Показан: 'да',
      }) +
      row({ Артикул: p.article, Размер: '46', 'Цена, ₽': '5000', Остаток: 0 }) +
      row({ Артикул: p.article, Размер: '48', 'Тип размера': 'одежда', 'Цена, ₽': '5000', Остаток: 2 }) +
      row({
        Артикул: fresh,
        Название: 'Блуза Зарница',
        Раздел: section.path,
        Вид: 'Блузка',
        Цвет: 'Белый',
        Размер: '42',
        'Цена, ₽': '3 990,50',
        Остаток: 3,
        Показан: 'да',
      }) +
      row({ Артикул: p.article, Размер: '50', 'Цена, ₽': 'дорого' });
    const dry = await check('admin', csv);
    expect(dry.separator).toBe(';');
    expect(dry.summary.rows).toBe(5);
    expect(dry.summary.errors).toEqual([
      { line: 6, error: 'Строка 6: цена «дорого»: рубли числом, до двух знаков после запятой' },
    ]);
    // A file with errors is shown, never applied.
    const refused = await call('admin', `/products/import/${dry.id}/apply`, {});
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe('В файле есть ошибки: исправьте их и загрузите файл снова');

    // Fixed: the same file without the bad row.
    const fixed = await check('admin', csv.replace(/\r\n[^\r\n]*дорого[^\r\n]*\r\n$/, '\r\n'));
    expect(fixed.summary.errors).toEqual([]);
    expect(fixed.summary.error_rows).toBe(0);
    expect(fixed.summary.unchanged).toBe(1); // size 46: same price, quantity 0
    expect(fixed.summary.creates).toEqual([
      {
        line: 4,
        article: p.article,
        size: '48',
        name: '',
        price_kopecks: 500_000,
        old_price_kopecks: null,
        quantity: 2,
      },
      {
        line: 5,
        article: fresh,
        size: '42',
        name: 'Блуза Зарница',
        price_kopecks: 399_050,
        old_price_kopecks: null,
        quantity: 3,
      },
    ]);
    expect(fixed.summary.changes).toEqual([
      {
        line: 2,
        article: p.article,
        size: '44',
        before: { price_kopecks: 500_000, old_price_kopecks: null, quantity: 0 },
        after: { price_kopecks: 450_000, old_price_kopecks: 500_000, quantity: 7 },
      },
    ]);
    // Nothing written by either dry run.
    expect(offerOf(await productById(p.id), '44')).toMatchObject({ price_kopecks: 500_000, quantity: 0 });
    expect((await productById(p.id)).offers.map((o) => o.size)).toEqual(['44', '46']);
    expect(await readCatalogVersion(db())).toBe(versionBefore);

    const key = `apply-${fixed.id}-once`;
    const applied = await call('admin', `/products/import/${fixed.id}/apply`, {}, key);
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect(expectContract(ImportApplyResponse, applied.body).data).toEqual({
      id: fixed.id,
      created: 1,
      changed: 1,
      stock_moves: 3,
    });
    const after = await productById(p.id);
    expect(offerOf(after, '44')).toMatchObject({ price_kopecks: 450_000, old_price_kopecks: 500_000, quantity: 7 });
    expect(offerOf(after, '48')).toMatchObject({ price_kopecks: 500_000, quantity: 2 });
    expect(after.price_kopecks).toBe(450_000);
    expect(await readCatalogVersion(db())).toBeGreaterThan(versionBefore);
    // Quantities only through the ledger: reason 'import', by this staff member, the file named.
    const moves = await queryRows<{
      reason: string;
      delta: number;
      quantity_after: number;
      actor_kind: string;
      actor_id: number;
      note: string;
    }>(
      db(),
      sql`select reason, delta, quantity_after, actor_kind, actor_id, note from stock_moves m join offers o on o.id = m.offer_id where o.product_id = ${p.id} order by m.id`,
    );
    const adminId = (await as('admin')).id;
    expect(moves).toEqual([
      expect.objectContaining({
        reason: 'import',
        delta: 7,
        quantity_after: 7,
        actor_kind: 'staff',
        actor_id: adminId,
      }),
      expect.objectContaining({
        reason: 'import',
        delta: 2,
        quantity_after: 2,
        actor_kind: 'staff',
        actor_id: adminId,
      }),
    ]);
    expect(moves[0]?.note).toBe(`Файл товаров №${fixed.id} (товары.csv)`);
    // The new product: hidden only if the file said so; shown here, with its size and stock.
    const [created] = await queryRows<{ id: number; active: boolean; price_kopecks: number; section_id: number }>(
      db(),
      sql`select id, active, price_kopecks, section_id from products where article = ${fresh}`,
    );
    expect(created).toMatchObject({ active: true, price_kopecks: 399_050, section_id: section.id });
    // One audit row per product, before and after.
    const audit = await auditRows('product', p.id);
    expect(audit.at(-1)).toMatchObject({
      action: 'product.import',
      before: {
        price_kopecks: 500_000,
        old_price_kopecks: null,
        sizes: { '44': { price_kopecks: 500_000, old_price_kopecks: null, quantity: 0 } },
      },
      after: {
        price_kopecks: 450_000,
        old_price_kopecks: 500_000,
        sizes: { '44': { quantity: 7 }, '48': { new: true, quantity: 2 } },
      },
      reason: `Файл товаров №${fixed.id} (товары.csv)`,
    });
    expect((await auditRows('product', created!.id)).map((a) => a.action)).toEqual(['product.import']);
    // The guest sees the new price at once on this process.
    const guest = await getJson(shop.baseUrl, `/backend${after.url}`, ProductResponse);
    expect(guest.ITEM.OFFERS.find((o) => o.ID === offerOf(after, '44').id)?.PRICE).toBe(4500);

    // Confirmed twice: the same key answers the first answer; another key is refused; applied once.
    const again = await call('admin', `/products/import/${fixed.id}/apply`, {}, key);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const twice = await call('admin', `/products/import/${fixed.id}/apply`, {});
    expect(twice.status).toBe(409);
    expect(twice.body.error).toBe('Этот файл уже загружен: изменения применены один раз');
    expect(offerOf(await productById(p.id), '44').quantity).toBe(7);
    expect((await auditRows('catalogue_import', fixed.id)).map((a) => a.action)).toEqual([
      'catalogue.import_check',
      'catalogue.import',
    ]);
  });

  it('refuses a dry run made stale by another change, writing nothing; plain "," files are read too', async () => {
    const p = await product();
    const csv =
      csvLine(CSV_HEADING, ',') + `${p.article},,,,,44,,,"4990,50",,,\n` + `${p.article},,,,,46,,,4990.5,,,\n`;
    const dry = await check('content', csv);
    expect(dry.separator).toBe(',');
    expect(dry.summary.errors).toEqual([]);
    expect(dry.summary.changes.map((c) => [c.line, c.size, c.after])).toEqual([
      [2, '44', { price_kopecks: 499_050, old_price_kopecks: null }],
      [3, '46', { price_kopecks: 499_050, old_price_kopecks: null }],
    ]);
    // Another staff member changes the product meanwhile.
    const patch = await admin(shop, `/products/${p.id}`, {
      cookie: (await as('admin')).cookie,
      method: 'PATCH',
      body: { name: 'Юбка Другая' },
    });
    expect(patch.status).toBe(200);
    const stale = await call('content', `/products/import/${dry.id}/apply`, {});
    expect(stale.status).toBe(409);
    expect(stale.body.error).toMatch(/^Товары из файла изменились после проверки/);
    expect(offerOf(await productById(p.id), '44').price_kopecks).toBe(500_000);
    // A dry run of someone else is not theirs to confirm.
    expect((await call('admin', `/products/import/${dry.id}/apply`, {})).status).toBe(404);
  });

  it('names every bad row in Russian; a role without stock:adjust may not change quantities; roles and body checked', async () => {
    const p = await product();
    const csv =
      HEAD +
      row({ Артикул: p.article, Размер: '44', 'Цена, ₽': '5000', Остаток: 3 }) +
      row({ Артикул: p.article, Размер: '46', 'Цена, ₽': '5000', 'Старая цена, ₽': '4000' }) +
      row({ Артикул: p.article, Размер: '46', 'Цена, ₽': '5000' }) +
      row({ Артикул: '', Размер: '44', 'Цена, ₽': '5000' }) +
      row({ Артикул: 'NEW-ONE', Размер: '44', 'Цена, ₽': '5000' }) +
      row({
        Артикул: p.article + 'X',
        Название: 'Новое',
        Раздел: 'Нет такого',
        Вид: 'Юбка',
        Размер: '44',
        'Цена, ₽': '5000',
        Остаток: '-1',
        Показан: 'может',
      });
    const dry = await check('content', csv);
    expect(dry.summary.errors.map((e) => e.error)).toEqual([
      'Строка 2: остатки меняет склад: у вашей роли нет права менять остатки',
      'Строка 3: старая цена должна быть больше цены',
      'Строка 4: размер 46 уже есть в строке 3',
      'Строка 5: не указан артикул',
      'Строка 6: товара с артикулом NEW-ONE нет: для нового укажите название',
      'Строка 6: для нового товара укажите раздел',
      'Строка 6: для нового товара укажите вид изделия',
      'Строка 7: «может» в столбце «Показан»: напишите «да» или «нет»',
      'Строка 7: остаток «-1»: целое число от 0 до 1 000 000',
      'Строка 7: раздела «Нет такого» нет: напишите его как в выгрузке',
    ]);
    expect(dry.summary.error_rows).toBe(6);
    const noHeading = await check('content', 'Артикул;Имя\nA;B\n');
    expect(noHeading.summary.errors).toEqual([
      {
        line: 1,
        error: 'Строка 1: в заголовке нет столбцов «Размер», «Цена, ₽». Выгрузите товары и правьте этот файл',
      },
    ]);
    for (const role of ['manager', 'warehouse'] as const)
      expect((await call(role, '/products/import/check', { csv: HEAD })).status).toBe(403);
    const empty = await call('content', '/products/import/check', { csv: '' });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toBe('Неверный запрос: «csv»: Файл пуст');
  });
});

describe('bulk actions of the products list', () => {
  it('a sale by percent: whole roubles, the old price set, once however often it is clicked; audited per product', async () => {
    const a = await product();
    const b = await product();
    await admin(shop, `/products/${b.id}/offers/${offerOf(b, '46').id}`, {
      cookie: (await as('content')).cookie,
      method: 'PATCH',
      body: { price: '5 990' },
    });
    const r = await call('content', '/products/bulk', { action: 'sale', ids: [a.id, b.id], percent: 33 });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(expectContract(ProductBulkResponse, r.body).data).toEqual({ changed: [a.id, b.id], skipped: [] });
    const after = await productById(b.id);
    expect(after).toMatchObject({ price_kopecks: 335_000, old_price_kopecks: 500_000 }); // 3 350 ₽
    expect(offerOf(after, '44')).toMatchObject({ price_kopecks: 335_000, old_price_kopecks: 500_000 });
    expect(offerOf(after, '46')).toMatchObject({ price_kopecks: 401_300, old_price_kopecks: 599_000 }); // 5 990 × 0.67 = 4 013,30 → 4 013
    // The guest sees it.
    const guest = await getJson(shop.baseUrl, `/backend${after.url}`, ProductResponse);
    expect(guest.ITEM.OFFERS.find((o) => o.ID === offerOf(after, '44').id)?.PRICE).toBe(3350);
    // Again, with another key: counted from the old price, so nothing changes.
    const again = await call('content', '/products/bulk', { action: 'sale', ids: [a.id, b.id], percent: 33 });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('Ничего не изменилось: эта скидка уже стоит');
    const audit = await auditRows('product', a.id);
    expect(audit.filter((x) => x.action === 'product.sale')).toEqual([
      {
        action: 'product.sale',
        before: { price_kopecks: 500_000, old_price_kopecks: null },
        after: expect.objectContaining({ price_kopecks: 335_000, old_price_kopecks: 500_000, percent: 33 }),
        reason: 'Скидка 33 %',
      },
    ]);
    const bad = await call('content', '/products/bulk', { action: 'sale', ids: [a.id], percent: 95 });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('Неверный запрос: «percent»: Скидка: от 1 до 90 %');
  });

  it('hide, show and add to a section: products already so are skipped; warehouse may not; unknown ids 404', async () => {
    const a = await product();
    const b = await product();
    const { other } = await sections();
    const hide = await call('content', '/products/bulk', { action: 'deactivate', ids: [a.id, b.id] });
    expect(hide.body.data).toEqual({ changed: [a.id, b.id], skipped: [] });
    const hideAgain = await call('content', '/products/bulk', { action: 'deactivate', ids: [a.id, b.id] });
    expect(hideAgain.status).toBe(409);
    expect(hideAgain.body.error).toBe('Ничего не изменилось: уже скрыт');
    const show = await call('content', '/products/bulk', { action: 'activate', ids: [a.id] });
    expect(show.body.data).toEqual({ changed: [a.id], skipped: [] });
    expect((await productById(a.id)).active).toBe(true);
    expect((await productById(b.id)).active).toBe(false);
    const add = await call('content', '/products/bulk', {
      action: 'add_section',
      ids: [a.id, b.id],
      section_id: other.id,
    });
    expect(add.status, JSON.stringify(add.body)).toBe(200);
    expect((await productById(a.id)).section_ids).toContain(other.id);
    const addAgain = await call('content', '/products/bulk', {
      action: 'add_section',
      ids: [a.id],
      section_id: other.id,
    });
    expect(addAgain.status).toBe(409);
    expect((await auditRows('product', b.id)).map((x) => x.action)).toEqual([
      'product.create',
      'product.activate',
      'product.deactivate',
      'product.add_section',
    ]);
    expect((await call('warehouse', '/products/bulk', { action: 'activate', ids: [a.id] })).status).toBe(403);
    const missing = await call('content', '/products/bulk', { action: 'activate', ids: [a.id, 2_000_000_000] });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('Товар №2000000000 не найден');
    const none = await call('content', '/products/bulk', { action: 'activate', ids: [] });
    expect(none.status).toBe(400);
    expect(none.body.error).toBe('Неверный запрос: «ids»: Выберите товары');
  });
});
