import sharp from 'sharp';
import { describe, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { SectionOneResponse } from '~/shared/admin-catalogue-contract';
import { DESKTOP, setUpBrowserShop } from '~/tests/support/browser';
import { expectContract } from '~/tests/support/api';
import { admin, testClock } from '~/tests/support/admin';
import { shot, staffPage } from '~/tests/support/admin-browser';

// The catalogue in the back office at 1280 px (issue #30): a content editor makes a product with
// two sizes and a photo, shows it, and a guest finds it in its category; the editor changes its
// price and the guest's page shows the new one (through the guest page cache, within its bound).
// The section it goes in is made over HTTP, so the guest's listing holds this product alone.
// SHOTS_DIR=… saves screenshots.

const clock = testClock();
const { shop, it } = setUpBrowserShop({ clock: clock.now });

/** The page's text with every kind of space as one plain space. */
const textOf = async (page: Page) =>
  ((await page.locator('main').first().textContent()) ?? '').replace(/[\s\u00a0\u202f]+/g, ' ');

async function pick(page: Page, label: string, option: string | RegExp) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option }).first().click();
  await expect.poll(() => page.getByRole('listbox').count()).toBe(0);
}

describe('the catalogue in the back office', () => {
  it('a product made with two sizes and a photo, shown, found by a guest; a new price reaches the guest', async ({
    shopper,
  }) => {
    const { page, cookie } = await staffPage(shopper, shop, clock, { email: 'olga@vitrina.example', role: 'content' });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const calls: string[] = [];
    page.on('response', (r) => {
      if (r.request().method() !== 'GET' && r.url().includes('/backend/admin/'))
        calls.push(`${r.request().method()} ${r.url()} ${r.status()} ${r.request().postData()?.slice(0, 300) ?? ''}`);
    });

    // A section of its own (its parent: the women's top section), so the guest's listing is short.
    const sections = (await admin(shop, '/sections?limit=100', { cookie })).body.data as { id: number; code: string }[];
    const woman = sections.find((s) => s.code === 'woman');
    const code = `kapsula-${Date.now().toString(36)}`;
    const made = await admin(shop, '/sections', {
      cookie,
      body: { name: 'Капсула осени', code, parent_id: woman?.id ?? null },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const section = expectContract(SectionOneResponse, made.body).data;

    await page.goto('/admin/products/create');
    await page.getByText('Новый товар скрыт').waitFor();
    await page.waitForLoadState('networkidle');
    await page.getByRole('textbox', { name: 'Название', exact: true }).fill('Платье Листопад');
    await page.getByRole('textbox', { name: 'Артикул', exact: true }).fill(`VT-E2E-${code.slice(-6).toUpperCase()}`);
    await page.getByRole('textbox', { name: 'Цена, ₽', exact: true }).fill('12 990');
    await pick(page, 'Раздел (адрес товара)', /Капсула осени/);
    await pick(page, 'Вид изделия', 'Платье');
    await pick(page, 'Цвет из палитры', 'Бежевый');
    await shot(page, 'admin-catalogue-new-1280');
    await page.getByRole('button', { name: 'Сохранить' }).click();
    await page.waitForURL(/\/admin\/products\/\d+$/);
    const productId = Number(/\/products\/(\d+)$/.exec(page.url())?.[1]);
    await page.getByRole('heading', { name: 'Размеры' }).waitFor();

    for (const size of ['44', '46']) {
      await page.getByRole('textbox', { name: 'Размер', exact: true }).fill(size);
      await page.getByRole('button', { name: 'Добавить размер' }).click();
      await page.getByRole('cell', { name: new RegExp(`^${size} \\(`) }).waitFor();
    }

    const jpeg = await sharp({ create: { width: 900, height: 1200, channels: 3, background: '#d9c4a6' } })
      .jpeg()
      .toBuffer();
    await page
      .getByLabel('Фотографии товара')
      .setInputFiles({ name: 'front.jpg', mimeType: 'image/jpeg', buffer: jpeg });
    await page.getByRole('img', { name: 'Фото 1' }).waitFor();

    await page.getByRole('button', { name: 'Показать в магазине' }).click();
    await page.getByText('Показан в магазине', { exact: true }).waitFor();
    await shot(page, 'admin-catalogue-product-1280');

    const detail = (await admin(shop, `/products/${productId}`, { cookie })).body.data as { url: string };
    // A guest (no cookie) finds it in its category, then opens it.
    const guest = await shopper.newPage(DESKTOP);
    await guest.goto(section.url);
    await expect
      .poll(
        async () => {
          // A reload asks the server again (guest pages may be kept by the browser for 60 s: max-age).
          await guest.reload();
          return guest.getByRole('link', { name: /Платье Листопад/ }).count();
        },
        { timeout: 15_000 },
      )
      .toBeGreaterThan(0);
    await guest.goto(detail.url);
    expect(await textOf(guest)).toContain('12 990 ₽');

    // The editor changes the price; the guest's page shows the new one.
    await page.getByRole('textbox', { name: 'Цена, ₽', exact: true }).fill('10 490');
    await page.getByRole('button', { name: 'Сохранить' }).click();
    await page
      .getByText(/Элемент обновлен|Сохранено|обновл/i)
      .first()
      .waitFor();
    await expect
      .poll(
        async () => {
          await guest.reload();
          return textOf(guest);
        },
        { timeout: 15_000, message: calls.join('\n') },
      )
      .toContain('10 490 ₽');
    expect(errors).toEqual([]);
  });
});
