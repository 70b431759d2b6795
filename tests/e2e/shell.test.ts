import { describe, expect } from 'vitest';
import { login, MOBILE, recordNavigations, StorefrontPage, setUpBrowserShop } from '~/tests/support/browser';

const { shop, it } = setUpBrowserShop();

describe('desktop header', () => {
  it('opens the mega menu from the API sections and navigates without a reload', async ({ shopper }) => {
    const { page } = await shopper.open('/');
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
    const toggle = page.getByRole('button', { name: 'Каталог' });
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('false');
    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('true');
    const link = page
      .getByRole('navigation', { name: 'Каталог товаров' })
      .getByRole('link', { name: 'Утеплённые пальто' });
    await link.click();
    await page.waitForURL('**/catalog/woman/uteplyennye_palto/');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Утеплённые пальто');
    // Same document: the marker survived, so this was a client-side navigation.
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
  });

  it('lists both shops under Контакты and submits search only when not empty', async ({ shopper }) => {
    const { page } = await shopper.open('/about/');
    await page.getByRole('link', { name: 'Контакты' }).first().hover();
    const shops = page.getByRole('group', { name: 'Наши магазины' });
    await expect.poll(() => shops.isVisible()).toBe(true);
    const text = await shops.textContent();
    expect(text).toContain('Москва');
    expect(text).toContain('Санкт-Петербург');
    expect(text).toContain('11:00–22:00');

    const search = page.getByRole('banner').getByRole('combobox', { name: 'Поиск по каталогу' });
    const searches = await recordNavigations(page, '/search');
    const historyLength = await page.evaluate(() => history.length);
    await search.fill('   ');
    await search.press('Enter');
    // A submit that navigates has sent its route request by the time the key press is handled.
    expect(await searches.entries()).toEqual([]);
    // Then a real query: the one navigation of the two submits (a blank one would have left its
    // own request and history entry, or made this one interrupt it).
    await search.fill('пальто');
    await search.press('Enter');
    await page.waitForURL(/\/search\/\?q=/);
    expect(new URL(page.url()).searchParams.get('q')).toBe('пальто');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Поиск: пальто');
    const steps = await searches.entries();
    if (steps === 'reloaded') throw new Error('the search page was loaded in full, not navigated to');
    expect(steps.filter((s) => s.startsWith('push ') || s.startsWith('replace '))).toEqual(['push /search/?q=пальто']);
    expect(steps.filter((s) => !s.includes('q=пальто') && !s.startsWith('fetch /__manifest?'))).toEqual([]);
    expect(steps.filter((s) => s.startsWith('fetch /__manifest?')).length).toBeLessThanOrEqual(1);
    expect(await page.evaluate(() => history.length)).toBe(historyLength + 1);
    await page.goBack();
    await page.waitForURL('**/about/');
  });
});

describe('mobile shell', () => {
  it('shows the tab bar for a guest: catalogue, basket, Вход, no wishlist', async ({ shopper }) => {
    const { store } = await shopper.open('/', MOBILE);
    const bar = store.tabBar();
    await expect.poll(() => bar.isVisible()).toBe(true);
    const names = await bar.getByRole('link').allTextContents();
    expect(names.map((n) => n.trim())).toEqual(['Каталог', 'Корзина', 'Вход']);
  });

  it('shows Аккаунт and the wishlist with its count when logged in', async ({ shopper }) => {
    const page = await shopper.newPage(MOBILE);
    await login(page.context(), shop);
    await page.context().addCookies([
      { name: 'favourites', value: '3,5,8', url: shop.baseUrl },
      { name: 'cart', value: '10:2,11:1', url: shop.baseUrl },
    ]);
    await new StorefrontPage(page).goto('/');
    const bar = new StorefrontPage(page).tabBar();
    await expect
      .poll(async () => (await bar.getByRole('link').allTextContents()).map((t) => t.trim()))
      .toEqual(['Каталог', '3Корзина', '3Избранное', 'Аккаунт']);
  });

  it('opens the burger menu and closes it on route change', async ({ shopper }) => {
    const { page } = await shopper.open('/', MOBILE);
    await page.getByRole('button', { name: 'Меню' }).click();
    const dialog = page.getByRole('dialog', { name: 'Меню' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await dialog.getByRole('link', { name: 'Блог' }).click();
    await page.waitForURL('**/blog/');
    await expect.poll(() => dialog.count()).toBe(0);
  });
});

describe('404, guards and redirects in the browser', () => {
  it('shows the 404 page with status 404 and goes home from it', async ({ shopper }) => {
    const { page, response } = await shopper.open('/no/such/page/');
    expect(response?.status()).toBe(404);
    expect(await page.title()).toBe('Page Not Found: /no/such/page/');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Ошибка 404');
    await page.getByRole('main').getByRole('link', { name: 'На главную', exact: true }).click();
    await page.waitForURL(shop.baseUrl + '/');
  });

  it('sends a guest from /personal/ and /wishlist/ to /auth/', async ({ shopper }) => {
    for (const path of ['/personal/', '/wishlist/']) {
      const { page } = await shopper.open(path);
      expect(new URL(page.url()).pathname).toBe('/auth/');
    }
  });

  it('lets a logged-in shopper into /personal/', async ({ shopper }) => {
    const page = await shopper.newPage();
    await login(page.context(), shop);
    await new StorefrontPage(page).goto('/personal/');
    expect(new URL(page.url()).pathname).toBe('/personal/');
  });

  it('follows capitals, missing slash and stored redirects to the right page', async ({ shopper }) => {
    const { page } = await shopper.open('/Catalog/Woman/Denim?sort=new');
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe('/catalog/woman/denim/?sort=new');
    await page.goto('/sale/');
    expect(new URL(page.url()).pathname).toBe('/catalog/promo/');
    await page.goto('/products/knitwear/');
    expect(new URL(page.url()).pathname).toBe('/catalog/woman/trikotazh/');
  });

  it('scrolls to the top on a new route', async ({ shopper }) => {
    const { page } = await shopper.open('/catalog/');
    await page.evaluate(() => window.scrollTo(0, 1500));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    await page.getByRole('contentinfo').getByRole('link', { name: 'Доставка и оплата' }).click();
    await page.waitForURL('**/delivery/');
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  });
});

describe('first paint before scripts', () => {
  it('paints the page, then loads its scripts and hydrates', async ({ shopper }) => {
    const { page } = await shopper.open('/catalog/woman/uteplyennye_palto/', MOBILE);
    // Hydrated: the burger menu (a React handler) opens the menu.
    await page.getByRole('button', { name: 'Меню' }).click();
    await expect.poll(() => page.getByRole('dialog').isVisible()).toBe(true);
    const timing = await page.evaluate(() => {
      const paint =
        performance.getEntriesByType('paint').find((e) => e.name === 'first-contentful-paint')?.startTime ?? Number.NaN;
      const scripts = performance
        .getEntriesByType('resource')
        .filter((e) => /\/assets\/.+\.js$/.test(e.name))
        .map((e) => e.startTime);
      return { paint, scripts };
    });
    expect(timing.scripts.length).toBeGreaterThanOrEqual(3);
    // No script was even requested before the first content was painted.
    expect(Math.min(...timing.scripts)).toBeGreaterThanOrEqual(timing.paint);
  });
});

describe('the basket and account pages’ own stylesheet', () => {
  it('is loaded before a client-side navigation shows the basket, and kept', async ({ shopper }) => {
    const { page } = await shopper.open('/', MOBILE);
    // Watches for the basket page's element: its padding when React inserts it, before any paint.
    await page.evaluate(() => {
      const w = window as unknown as { marker: number; basketPadding?: string };
      w.marker = 1;
      new MutationObserver((_, observer) => {
        const basket = document.querySelector('.basket');
        if (!basket) return;
        w.basketPadding = getComputedStyle(basket).paddingTop;
        observer.disconnect();
      }).observe(document.body, { childList: true, subtree: true });
    });
    await page.getByRole('navigation', { name: 'Быстрые ссылки' }).getByRole('link', { name: 'Корзина' }).click();
    await page.waitForURL('**/basket/');
    // The basket itself, not the home page's heading still on screen while the navigation ends.
    await page.locator('.basket').first().waitFor();
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { basketPadding?: string }).basketPadding))
      .not.toBeUndefined();
    const seen = await page.evaluate(() => {
      const w = window as unknown as { marker?: number; basketPadding?: string };
      return { marker: w.marker, basketPadding: w.basketPadding };
    });
    // A client-side navigation (same document), and orders.css applied from the first frame.
    expect(seen.marker).toBe(1);
    expect(seen.basketPadding).toBe('24px');
    expect(await page.locator('link[rel="stylesheet"][href*="/assets/orders-"]').count()).toBe(1);
  });
});
