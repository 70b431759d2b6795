import { describe, expect } from 'vitest';
import { CSV_HEADING } from '~/core/catalogue-csv';
import { CSV_BOM, csvLine } from '~/core/csv';
import { MOBILE, setUpBrowserShop } from '~/tests/support/browser';
import { admin, testClock } from '~/tests/support/admin';
import { samePageAt, shot, staffPage } from '~/tests/support/admin-browser';

// Bulk work in «Товары» at 1280 px (issue #30): an editor loads a CSV with one bad row, sees the
// dry run (what changes from what to what, the bad row's line and why) with «Применить» off,
// chooses the fixed file, applies it, and the prices and stock change; then puts two products on
// sale from the list's selection. SHOTS_DIR=… saves screenshots (also the dialog at 390 px).

const clock = testClock();
const { shop, it } = setUpBrowserShop({ clock: clock.now });

describe('products in a spreadsheet', () => {
  it('a file with a bad row: the dry run names it; the fixed file is applied; a sale from the selection', async ({
    shopper,
  }) => {
    const { page, cookie } = await staffPage(shopper, shop, clock, { email: 'csv@vitrina.example', role: 'admin' });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));

    // Two products made over HTTP, each with sizes 44 and 46 at 5 000 ₽.
    const opts = (await admin(shop, '/catalogue/options', { cookie })).body.data as {
      sections: { id: number; kind: string; path: string }[];
    };
    const section = opts.sections.find((s) => s.kind === 'category' && s.path.includes(' / '));
    const stamp = Date.now().toString(36).toUpperCase();
    const made: { id: number; article: string }[] = [];
    for (const n of [1, 2]) {
      const article = `CSV-E2E-${stamp}-${n}`;
      const r = await admin(shop, '/products', {
        cookie,
        body: {
          name: `Платье Сумерки ${n}`,
          article,
          section_id: section?.id,
          color_name: 'Серый',
          color_hex: '#777777',
          kind: 'dress',
          price: '5000',
        },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      for (const size of ['44', '46'])
        await admin(shop, `/products/${r.body.data.id}/offers`, { cookie, body: { size_type: 'clothes', size } });
      await admin(shop, `/products/${r.body.data.id}/activate`, { cookie, body: {} });
      made.push({ id: r.body.data.id as number, article });
    }
    const [one, two] = made as [{ id: number; article: string }, { id: number; article: string }];
    const file = (rows: string[][]) =>
      Buffer.from(CSV_BOM + csvLine(CSV_HEADING) + rows.map((r) => csvLine(r)).join(''), 'utf8');
    const row = (article: string, size: string, price: string, quantity: string) => [
      article,
      '',
      '',
      '',
      '',
      size,
      'одежда',
      '',
      price,
      '',
      quantity,
      '',
    ];

    await page.goto('/admin/products');
    await page.waitForLoadState('networkidle');
    await page.getByRole('button', { name: 'Загрузить CSV' }).click();
    const dialog = page.getByRole('dialog', { name: 'Загрузка товаров из CSV' });
    await dialog.waitFor();
    await page.getByLabel('Файл CSV').setInputFiles({
      name: 'цены.csv',
      mimeType: 'text/csv',
      buffer: file([row(one.article, '44', '4 500', '6'), row(one.article, '46', 'дорого', '2')]),
    });
    await dialog.getByText('Строка 3: цена «дорого»: рубли числом, до двух знаков после запятой').waitFor();
    await dialog.getByText(/с ошибками 1: исправьте файл/).waitFor();
    expect(await dialog.getByRole('button', { name: 'Применить' }).isDisabled()).toBe(true);
    await shot(page, 'admin-csv-dry-run-error-1280');

    await page.getByLabel('Файл CSV').setInputFiles({
      name: 'цены.csv',
      mimeType: 'text/csv',
      buffer: file([row(one.article, '44', '4 500', '6'), row(one.article, '46', '4 990', '2')]),
    });
    await dialog.getByRole('heading', { name: 'Изменится (2)' }).waitFor();
    expect(await dialog.getByText(/Строка \d+:/).count()).toBe(0);
    const changes = dialog.getByRole('table', { name: 'Изменится' });
    await expect.poll(() => changes.textContent()).toMatch(/цена: 5\s000\s₽ → 4\s500\s₽.*остаток: 0 → 6/);
    await shot(page, 'admin-csv-dry-run-1280');
    const narrow = await samePageAt(shopper, shop, cookie, MOBILE);
    await narrow.goto('/admin/products');
    await narrow.waitForLoadState('networkidle');
    await shot(narrow, 'admin-csv-list-390');
    await narrow.getByRole('button', { name: 'Загрузить CSV' }).click();
    await narrow.getByLabel('Файл CSV').setInputFiles({
      name: 'цены.csv',
      mimeType: 'text/csv',
      buffer: file([row(one.article, '44', '4 500', '6'), row(one.article, '46', 'дорого', '2')]),
    });
    await narrow.getByText(/Строка 3: цена/).waitFor();
    await shot(narrow, 'admin-csv-dry-run-390');
    await narrow.close();

    await dialog.getByRole('button', { name: 'Применить' }).click();
    await page.getByText(/Файл загружен: новых товаров 0, изменено 1/).waitFor();
    await dialog.waitFor({ state: 'detached' });
    const after = (await admin(shop, `/products/${one.id}`, { cookie })).body.data as {
      offers: { size: string; price_kopecks: number; quantity: number }[];
    };
    expect(after.offers.map((o) => [o.size, o.price_kopecks, o.quantity])).toEqual([
      ['44', 450_000, 6],
      ['46', 499_000, 2],
    ]);

    // A sale of 30 % on both, from the list's selection.
    await page.getByRole('textbox', { name: 'Название или артикул' }).fill(`CSV-E2E-${stamp}`);
    await expect.poll(() => page.locator('tbody tr').count()).toBe(2);
    await page
      .getByRole('checkbox', { name: /Выбрать все|Select all/i })
      .first()
      .check();
    await page.getByRole('button', { name: 'Скидка…' }).click();
    await page.getByRole('textbox', { name: 'Скидка, %' }).fill('30');
    await shot(page, 'admin-csv-sale-1280');
    await page.getByRole('dialog').getByRole('button', { name: 'Применить' }).click();
    await page.getByText('Изменено товаров: 2').waitFor();
    const saleTwo = (await admin(shop, `/products/${two.id}`, { cookie })).body.data as {
      price_kopecks: number;
      old_price_kopecks: number;
    };
    expect([saleTwo.price_kopecks, saleTwo.old_price_kopecks]).toEqual([350_000, 500_000]);
    await expect.poll(() => page.locator('tbody').textContent()).toMatch(/3\s500\s₽/);
    await shot(page, 'admin-csv-list-1280');
    expect(errors).toEqual([]);
  });
});
