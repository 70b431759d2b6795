import { describe, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { DESKTOP, login, MOBILE, setUpBrowserShop, waitForHydration, type Viewport } from '~/tests/support/browser';
import { productPicker } from '~/tests/support/catalogue';

// Issue #26 item 17: the pickup map's tiles come from the configured provider
// (PUBLIC_MAP_TILE_URL and its credit), never from the OpenStreetMap project's servers, whose
// policy does not cover a shop's traffic. The tile server here is a made-up host the browser
// is answered for.

const TILE_URL = 'https://tiles.vitrina-test.example/{z}/{x}/{y}.png';
const CREDIT = 'Тестовые тайлы';
const { shop, it } = setUpBrowserShop({
  env: {
    PUBLIC_MAP_TILE_URL: TILE_URL,
    PUBLIC_MAP_TILE_ATTRIBUTION: `&copy; <a href="https://example.com/">${CREDIT}</a>`,
  },
});

function poll<T>(fn: () => T | Promise<T>) {
  return expect.poll(fn, { timeout: 15_000, interval: 100 });
}

const picker = productPicker(shop);
let phones = 0;
const newPhone = () => `7998${String(process.pid % 1000).padStart(3, '0')}${String(++phones).padStart(4, '0')}`;

// A 1×1 transparent PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** Every tile-like request the page makes, and answers for the configured host. */
async function watchTiles(page: Page): Promise<string[]> {
  const seen: string[] = [];
  await page.route(/tile|\.png/, async (route) => {
    const url = route.request().url();
    if (/openstreetmap|vitrina-test\.example/.test(url)) seen.push(url);
    if (url.startsWith('https://tiles.vitrina-test.example/'))
      await route.fulfill({ status: 200, contentType: 'image/png', body: PNG });
    else await route.fallback();
  });
  return seen;
}

describe('pickup map tiles', () => {
  for (const viewport of [MOBILE, DESKTOP] satisfies Viewport[]) {
    it(`at ${viewport.width} px come from PUBLIC_MAP_TILE_URL, with its credit`, async ({ shopper }) => {
      const { offerId } = await picker.fresh();
      const page = await shopper.newPage(viewport);
      await page.context().addCookies([{ name: 'cart', value: encodeURIComponent(`${offerId}:1`), url: shop.baseUrl }]);
      await login(page.context(), shop, newPhone());
      const tiles = await watchTiles(page);
      await page.goto('/basket/');
      // Typing before hydration reaches no handler: no suggestions would ever come (CI's failure).
      await waitForHydration(page);
      const form = page.getByRole('region', { name: 'Оформление заказа' });
      await poll(() => form.isVisible()).toBe(true);
      const city = form.getByRole('combobox', { name: 'Город' });
      await city.fill('Санкт-Пет');
      await form
        .getByRole('listbox', { name: 'Города' })
        .getByRole('option', { name: /^Санкт-Петербург/ })
        .click();
      await form.getByRole('radio', { name: /^Пункт выдачи СДЭК/ }).check();
      await form.getByRole('button', { name: 'Выбрать пункт выдачи' }).click();
      const dialog = page.getByRole('dialog', { name: 'Выберите пункт выдачи' });
      await poll(() => dialog.isVisible()).toBe(true);
      await dialog.getByRole('button', { name: 'На карте' }).click();
      const map = dialog.getByRole('region', { name: 'Карта пунктов выдачи' });
      await poll(() => map.getByRole('button', { name: /Санкт-Петербург|ул|пр/ }).count()).toBeGreaterThan(0);

      await poll(() => tiles.length).toBeGreaterThan(0);
      expect(tiles.filter((url) => url.includes('openstreetmap'))).toEqual([]);
      expect(tiles.every((url) => /^https:\/\/tiles\.vitrina-test\.example\/\d+\/\d+\/\d+\.png$/.test(url))).toBe(true);
      await poll(() => dialog.locator('.leaflet-control-attribution').textContent()).toContain(CREDIT);
      // The tiles are drawn where the map is: inside the modal, on screen.
      const box = await map.boundingBox();
      expect(box && box.width > 200 && box.x + box.width <= viewport.width + 1).toBe(true);
    });
  }
});
