import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { customers } from '~/db/schema';
import { readSmsOutbox } from '~/integrations/sms/offline.server';
import { CatalogSectionResponse, type CatalogListItem } from '~/shared/contract';
import { getJson } from '~/tests/support/api';
import { login, MOBILE, setUpBrowserShop, StorefrontPage, type Shopper, type Viewport } from '~/tests/support/browser';

// Issue "favourites and views", as a shopper does it: a guest's heart opens the login modal; a
// customer's heart saves the product (the counts follow at once), /wishlist/ shows it and
// removes it; the product page shows 'Вы смотрели' after two products were visited.

const { shop, it } = setUpBrowserShop();

function poll<T>(fn: () => T | Promise<T>) {
  return expect.poll(fn, { timeout: 15_000, interval: 100 });
}

let listing: Promise<CatalogListItem[]> | undefined;
/** Cards of the catalogue's first page; each test takes products of its own. */
const cards = () =>
  (listing ??= getJson(shop.baseUrl, '/backend/catalog/all/', CatalogSectionResponse).then((l) => l.ITEMS));
let next = 0;
/** A product whose name no other card on the page has (colour variants share names). */
const takeProduct = async () => {
  const all = await cards();
  for (; next < all.length; next++) {
    const item = all[next] as CatalogListItem;
    if (all.filter((other) => other.NAME === item.NAME).length === 1) {
      next++;
      return item;
    }
  }
  throw new Error('the first catalogue page ran out of products');
};

let seq = 0;
const freshPhone = () => `7917${String(3_000_000 + ++seq * 7919).padStart(7, '0')}`;

class WishlistShop extends StorefrontPage {
  card(name: string): Locator {
    // The innermost article: a page can be an article too.
    return this.page
      .getByRole('article')
      .filter({ has: this.page.getByRole('heading', { name, exact: true }) })
      .last();
  }
  heart(scope: Locator | Page = this.page): Locator {
    return scope.getByRole('button', { name: /^(Добавить в избранное|Удалить из избранного)$/ }).first();
  }
  headerCount(): Locator {
    return this.header().getByRole('link', { name: /^Избранное: \d+$/ });
  }
  viewed(): Locator {
    return this.page.getByRole('region', { name: 'Вы смотрели' });
  }
}

async function customerPage(shopper: Shopper, viewport?: Viewport) {
  const page = await shopper.newPage(viewport);
  const { customerId } = await login(page.context(), shop, freshPhone());
  return { view: new WishlistShop(page), customerId };
}

const savedList = async (customerId: number, mode: 'wishlist' | 'watched' = 'wishlist') => {
  const [row] = await shop.database.db
    .select({ wishlist: customers.wishlist, watched: customers.watched })
    .from(customers)
    .where(eq(customers.id, customerId));
  return row?.[mode] ?? [];
};

/** Serious or critical accessibility faults axe finds on the page as it is. */
async function seriousFaults(page: Page): Promise<string[]> {
  await page.addScriptTag({
    content: fs.readFileSync(path.join(process.cwd(), 'node_modules/axe-core/axe.min.js'), 'utf8'),
  });
  return page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string | null }[] }> } }
    ).axe;
    const { violations } = await axe.run();
    return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
  });
}

describe('favourites', () => {
  it('a guest pressing a heart gets the login form in a modal', async ({ shopper }) => {
    const product = await takeProduct();
    const { page } = await shopper.open('/catalog/');
    const view = new WishlistShop(page);
    const heart = view.heart(view.card(product.NAME));
    expect(await heart.getAttribute('aria-pressed')).toBe('false');
    await heart.click();
    const dialog = page.getByRole('dialog', { name: 'Вход' });
    await poll(() => dialog.isVisible()).toBe(true);
    expect(await dialog.getByRole('textbox', { name: 'Номер телефона' }).isVisible()).toBe(true);
    expect(await dialog.getByRole('button', { name: 'Получить смс код' }).isVisible()).toBe(true);
    // Nothing was saved, and the guest still has no wishlist tab.
    expect(await heart.getAttribute('aria-pressed')).toBe('false');
    await page.keyboard.press('Escape');
    await poll(() => dialog.count()).toBe(0);
  });

  it('logging in from that modal brings the shopper back to the page, logged in', async ({ shopper }) => {
    const product = await takeProduct();
    const { page } = await shopper.open(product.DETAIL_PAGE_URL);
    const view = new WishlistShop(page);
    await page.getByRole('main').getByRole('button', { name: 'Добавить в избранное', exact: true }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Вход' });
    await poll(() => dialog.isVisible()).toBe(true);
    const phone = freshPhone();
    await dialog.getByRole('textbox', { name: 'Номер телефона' }).pressSequentially(phone.slice(1));
    await dialog.getByRole('button', { name: 'Получить смс код' }).click();
    const boxes = page.getByRole('group', { name: 'Код из СМС' }).getByRole('textbox');
    await poll(() => boxes.count()).toBe(6);
    let code = '';
    await poll(async () => {
      const sms = (await readSmsOutbox(path.join(shop.dataDir, 'outbox'))).filter(
        (m) => m.phone === phone && m.tag === 'login-code',
      );
      code = /(\d{6})/.exec(sms.at(-1)?.text ?? '')?.[1] ?? '';
      return code;
    }).toMatch(/^\d{6}$/);
    await boxes.first().click();
    await page.keyboard.type(code);
    await page.getByRole('button', { name: 'Войти' }).click();
    await poll(() => view.header().getByRole('link', { name: 'Аккаунт' }).count()).toBe(1);
    expect(new URL(page.url()).pathname).toBe(product.DETAIL_PAGE_URL);
    // The heart that asked for the login is saved once it succeeds (issue #26 item 11).
    await poll(() => view.headerCount().getAttribute('aria-label')).toBe('Избранное: 1');
    await poll(() =>
      page.getByRole('main').getByRole('button', { name: 'Удалить из избранного', exact: true }).first().isVisible(),
    ).toBe(true);
  });

  it('a customer saves from the product page, the count follows, /wishlist/ shows it and removes it', async ({
    shopper,
  }) => {
    const product = await takeProduct();
    const { view, customerId } = await customerPage(shopper);
    await view.goto(product.DETAIL_PAGE_URL);
    const heart = view.page
      .getByRole('main')
      .getByRole('button', { name: 'Добавить в избранное', exact: true })
      .first();
    await heart.click();
    const saved = view.page
      .getByRole('main')
      .getByRole('button', { name: 'Удалить из избранного', exact: true })
      .first();
    await poll(() => saved.getAttribute('aria-pressed')).toBe('true');
    await poll(() => view.headerCount().getAttribute('aria-label')).toBe('Избранное: 1');
    await poll(() => savedList(customerId)).toEqual([product.ID]);

    await view.headerCount().click();
    await poll(() => view.page.url()).toMatch(/\/wishlist\/$/);
    await poll(() => view.heading().textContent()).toBe('Избранное');
    const card = view.card(product.NAME);
    await poll(() => card.isVisible()).toBe(true);
    expect(await card.getByRole('button', { name: `Добавить в корзину: ${product.NAME}` }).isVisible()).toBe(true);

    await view.page.getByRole('button', { name: `Удалить «${product.NAME}» из избранного` }).click();
    await poll(() => view.page.getByText('В избранном пока ничего нет').isVisible()).toBe(true);
    await poll(() => view.headerCount().getAttribute('aria-label')).toBe('Избранное: 0');
    await poll(() => savedList(customerId)).toEqual([]);
    expect(await view.page.getByRole('link', { name: 'Перейти в каталог' }).getAttribute('href')).toBe('/catalog/');

    // A reload reads the account: still empty.
    await view.goto('/wishlist/');
    expect(await view.page.getByText('В избранном пока ничего нет').isVisible()).toBe(true);
  });

  it('on a phone: hearts on cards by keyboard, the tab bar counts, and /wishlist/ lists the newest first', async ({
    shopper,
  }) => {
    const [first, second] = [await takeProduct(), await takeProduct()];
    const { view, customerId } = await customerPage(shopper, MOBILE);
    await view.goto('/catalog/');
    const tab = view.tabBar().getByRole('link', { name: /Избранное/ });
    expect(await tab.isVisible()).toBe(true);
    for (const product of [first, second]) {
      const heart = view.heart(view.card(product.NAME));
      await heart.focus();
      await view.page.keyboard.press('Enter');
      await poll(() => heart.getAttribute('aria-pressed')).toBe('true');
    }
    await poll(async () => (await tab.textContent())?.trim()).toBe('2Избранное');
    await poll(() => savedList(customerId)).toEqual([second.ID, first.ID]);

    await tab.click();
    await poll(() => view.page.url()).toMatch(/\/wishlist\/$/);
    const names = view.page.getByRole('main').getByRole('heading', { level: 3 });
    await poll(() => names.allTextContents()).toEqual([second.NAME, first.NAME]);
    // The card's own heart removes too.
    await view.heart(view.card(first.NAME)).click();
    await poll(() => names.allTextContents()).toEqual([second.NAME]);
    await poll(async () => (await tab.textContent())?.trim()).toBe('1Избранное');
    expect(await view.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);
    expect(await seriousFaults(view.page)).toEqual([]);
  });
});

describe('views', () => {
  it('a guest sees the products viewed before in "Вы смотрели", not the one on screen', async ({ shopper }) => {
    const [a, b] = [await takeProduct(), await takeProduct()];
    const page = await shopper.newPage();
    const view = new WishlistShop(page);
    await view.goto(a.DETAIL_PAGE_URL);
    // The first product viewed: nothing to show yet.
    await poll(async () => (await page.context().cookies()).find((c) => c.name === 'views')?.value).toBe(String(a.ID));
    expect(await view.viewed().count()).toBe(0);

    await view.goto(b.DETAIL_PAGE_URL);
    const row = view.viewed();
    await poll(() => row.isVisible()).toBe(true);
    expect(await row.getByRole('heading', { level: 3 }).allTextContents()).toEqual([a.NAME]);
    const cookie = (await page.context().cookies()).find((c) => c.name === 'views');
    expect(decodeURIComponent(cookie?.value ?? '')).toBe(`${b.ID},${a.ID}`);
    expect(cookie?.httpOnly).toBe(false);
    expect(await seriousFaults(page)).toEqual([]);
  });

  it("a customer's views are kept in the account", async ({ shopper }) => {
    const [a, b] = [await takeProduct(), await takeProduct()];
    const { view, customerId } = await customerPage(shopper);
    await view.goto(a.DETAIL_PAGE_URL);
    await poll(() => savedList(customerId, 'watched')).toEqual([a.ID]);
    await view.goto(b.DETAIL_PAGE_URL);
    await poll(() => savedList(customerId, 'watched')).toEqual([b.ID, a.ID]);
    await poll(() => view.viewed().getByRole('heading', { level: 3 }).allTextContents()).toEqual([a.NAME]);
  });
});
