import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startTestShop, type TestShop } from '~/tests/support/server';
import { DESKTOP, launchBrowser, MOBILE, newShopperContext, setTokenCookie, StorefrontPage } from '~/tests/support/browser';

let shop: TestShop;
let browser: Browser;

beforeAll(async () => {
  shop = await startTestShop({ withStorefront: true });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

async function open(path: string, viewport = DESKTOP) {
  const context = await newShopperContext(browser, shop.baseUrl, viewport);
  const page = await context.newPage();
  const store = new StorefrontPage(page);
  const response = await store.goto(path);
  return { context, page, store, response };
}

describe('desktop header', () => {
  it('opens the mega menu from the API sections and navigates without a reload', async () => {
    const { page, context } = await open('/');
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
    const toggle = page.getByRole('button', { name: 'Каталог' });
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('false');
    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('true');
    const link = page.getByRole('navigation', { name: 'Каталог товаров' }).getByRole('link', { name: 'Утеплённые пальто' });
    await link.click();
    await page.waitForURL('**/catalog/woman/uteplyennye_palto/');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Утеплённые пальто');
    // Same document: the marker survived, so this was a client-side navigation.
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await context.close();
  });

  it('lists both shops under Контакты and submits search only when not empty', async () => {
    const { page, context } = await open('/about/');
    await page.getByRole('link', { name: 'Контакты' }).first().hover();
    const shops = page.getByRole('group', { name: 'Наши магазины' });
    await expect.poll(() => shops.isVisible()).toBe(true);
    const text = await shops.textContent();
    expect(text).toContain('Москва');
    expect(text).toContain('Санкт-Петербург');
    expect(text).toContain('11:00–22:00');

    const search = page.getByRole('combobox', { name: 'Поиск по каталогу' }).first();
    await search.fill('   ');
    await search.press('Enter');
    expect(new URL(page.url()).pathname).toBe('/about/');
    await search.fill('пальто');
    await search.press('Enter');
    await page.waitForURL(/\/search\/\?q=/);
    expect(new URL(page.url()).searchParams.get('q')).toBe('пальто');
    await context.close();
  });
});

describe('mobile shell', () => {
  it('shows the tab bar for a guest: catalogue, basket, Вход, no wishlist', async () => {
    const { store, context } = await open('/', MOBILE);
    const bar = store.tabBar();
    await expect.poll(() => bar.isVisible()).toBe(true);
    const names = await bar.getByRole('link').allTextContents();
    expect(names.map((n) => n.trim())).toEqual(['Каталог', 'Корзина', 'Вход']);
    await context.close();
  });

  it('shows Аккаунт and the wishlist with its count when logged in', async () => {
    const context = await newShopperContext(browser, shop.baseUrl, MOBILE);
    await setTokenCookie(context, shop.baseUrl);
    await context.addCookies([
      { name: 'favourites', value: '3,5,8', url: shop.baseUrl },
      { name: 'cart', value: '10:2,11:1', url: shop.baseUrl },
    ]);
    const page = await context.newPage();
    await new StorefrontPage(page).goto('/');
    const bar = page.getByRole('navigation', { name: 'Быстрые ссылки' });
    await expect.poll(async () => (await bar.getByRole('link').allTextContents()).map((t) => t.trim())).toEqual(['Каталог', '3Корзина', '3Избранное', 'Аккаунт']);
    await context.close();
  });

  it('opens the burger menu and closes it on route change', async () => {
    const { page, context } = await open('/', MOBILE);
    await page.getByRole('button', { name: 'Меню' }).click();
    const dialog = page.getByRole('dialog', { name: 'Меню' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await dialog.getByRole('link', { name: 'Блог' }).click();
    await page.waitForURL('**/blog/');
    await expect.poll(() => dialog.count()).toBe(0);
    await context.close();
  });
});

describe('404, guards and redirects in the browser', () => {
  it('shows the 404 page with status 404 and goes home from it', async () => {
    const { page, response, context } = await open('/no/such/page/');
    expect(response?.status()).toBe(404);
    expect(await page.title()).toBe('Page Not Found: /no/such/page/');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Ошибка 404');
    await page.getByRole('main').getByRole('link', { name: 'На главную', exact: true }).click();
    await page.waitForURL(shop.baseUrl + '/');
    await context.close();
  });

  it('sends a guest from /personal/ and /wishlist/ to /auth/', async () => {
    for (const path of ['/personal/', '/wishlist/']) {
      const { page, context } = await open(path);
      expect(new URL(page.url()).pathname).toBe('/auth/');
      await context.close();
    }
  });

  it('lets a shopper with a token into /personal/', async () => {
    const context = await newShopperContext(browser, shop.baseUrl);
    await setTokenCookie(context, shop.baseUrl);
    const page = await context.newPage();
    await page.goto('/personal/');
    expect(new URL(page.url()).pathname).toBe('/personal/');
    await context.close();
  });

  it('follows capitals, missing slash and stored redirects to the right page', async () => {
    const { page, context } = await open('/Catalog/Woman/Denim?sort=new');
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe('/catalog/woman/denim/?sort=new');
    await page.goto('/sale/');
    expect(new URL(page.url()).pathname).toBe('/catalog/promo/');
    await page.goto('/products/knitwear/');
    expect(new URL(page.url()).pathname).toBe('/catalog/woman/trikotazh/');
    await context.close();
  });

  it('scrolls to the top on a new route', async () => {
    const { page, context } = await open('/catalog/');
    await page.evaluate(() => window.scrollTo(0, 1500));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    await page.getByRole('contentinfo').getByRole('link', { name: 'Доставка и оплата' }).click();
    await page.waitForURL('**/delivery/');
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await context.close();
  });
});

describe('first paint before scripts', () => {
  it('paints the page, then loads its scripts and hydrates', async () => {
    const { page, context } = await open('/catalog/woman/uteplyennye_palto/', MOBILE);
    // Hydrated: the burger menu (a React handler) opens the menu.
    await page.getByRole('button', { name: 'Меню' }).click();
    await expect.poll(() => page.getByRole('dialog').isVisible()).toBe(true);
    const timing = await page.evaluate(() => {
      const paint = performance.getEntriesByType('paint').find((e) => e.name === 'first-contentful-paint')?.startTime ?? Number.NaN;
      const scripts = performance
        .getEntriesByType('resource')
        .filter((e) => /\/assets\/.+\.js$/.test(e.name))
        .map((e) => e.startTime);
      return { paint, scripts };
    });
    expect(timing.scripts.length).toBeGreaterThanOrEqual(3);
    // No script was even requested before the first content was painted.
    expect(Math.min(...timing.scripts)).toBeGreaterThanOrEqual(timing.paint);
    await context.close();
  });
});
