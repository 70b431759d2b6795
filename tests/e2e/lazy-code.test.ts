import { describe, expect } from 'vitest';
import type { Page, Route } from 'playwright-core';
import { setUpBrowserShop } from '~/tests/support/browser';

// Code a page loads only when it needs it (issue #13): the catalogue's two pages, the header's
// search suggestions, the footer's newsletter form.

const { shop, it } = setUpBrowserShop();

/** The script files the page asked for, by name without hash ('ProductPage', 'shell'). */
function scriptNames(page: Page): string[] {
  const names: string[] = [];
  page.on('request', (request) => {
    const file = /\/assets\/([\w.]+?)-[\w-]{8}\.js$/.exec(new URL(request.url()).pathname)?.[1];
    if (file && request.resourceType() === 'script') names.push(file);
  });
  return names;
}

/** Holds back the requests for the script named `name` until `release()`. */
async function holdScript(
  page: Page,
  name: string,
): Promise<{ requested: () => boolean; release: () => Promise<void> }> {
  const held: Route[] = [];
  let released = false;
  await page.route(new RegExp(`/assets/${name}-[\\w-]{8}\\.js$`), (route) =>
    released ? route.continue() : void held.push(route),
  );
  return {
    requested: () => held.length > 0,
    release: async () => {
      released = true;
      await Promise.all(held.map((route) => route.continue()));
    },
  };
}

describe('the catalogue route', () => {
  it('a listing does not download the product page, nor a product page the listing', async ({ shopper }) => {
    const listing = await shopper.newPage();
    const listingScripts = scriptNames(listing);
    await listing.goto('/catalog/');
    await listing.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' });
    expect(listingScripts).toContain('CategoryPage');
    expect(listingScripts).not.toContain('ProductPage');

    const href = await listing.locator('.card a[href^="/catalog/"]').first().getAttribute('href');
    if (!href) throw new Error('no product on the listing');
    const product = await shopper.newPage();
    const productScripts = scriptNames(product);
    await product.goto(href);
    await product.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' });
    expect(productScripts).toContain('ProductPage');
    expect(productScripts).not.toContain('CategoryPage');
    // Asked for with the route's own scripts, after the first paint, not after the route's chunk ran.
    const html = await (await fetch(`${shop.baseUrl}${href}`)).text();
    expect(/"\/assets\/ProductPage-[\w-]{8}\.js"/.test(html.slice(0, html.indexOf('</head>')))).toBe(true);

    // A client-side navigation to the other kind of page loads its code then.
    await product.getByRole('navigation', { name: 'Хлебные крошки' }).getByRole('link').last().click();
    await product.waitForURL((url) => url.pathname !== href);
    await expect.poll(() => productScripts.includes('CategoryPage')).toBe(true);
    await expect.poll(() => product.locator('.card').count()).toBeGreaterThan(0);
  });
});

describe('header search before its code is in', () => {
  it('keeps the text typed, the caret and the focus, then suggests', async ({ shopper }) => {
    const page = await shopper.newPage();
    const scripts = scriptNames(page);
    const searchCode = await holdScript(page, 'SearchBox');
    await page.goto('/about/');
    await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' });
    expect(scripts).not.toContain('SearchBox');

    const field = page.getByRole('banner').getByRole('combobox', { name: 'Поиск по каталогу' });
    await field.click();
    await expect.poll(() => searchCode.requested()).toBe(true);
    await page.keyboard.type('пль');
    await searchCode.release();
    // Typed on once the code is in: nothing lost, the same field, still focused.
    await expect.poll(() => scripts.includes('SearchBox')).toBe(true);
    await page.keyboard.type('то');
    await expect.poll(() => field.inputValue()).toBe('пльто');
    await expect.poll(() => field.evaluate((el) => el === document.activeElement)).toBe(true);
    await expect.poll(() => field.getAttribute('aria-expanded')).toBe('true');
    expect(await page.getByRole('listbox', { name: 'Подсказки поиска' }).getByRole('option').count()).toBeGreaterThan(
      1,
    );
  });

  it('sends a query entered before the code is in as a client-side navigation', async ({ shopper }) => {
    const page = await shopper.newPage();
    const searchCode = await holdScript(page, 'SearchBox');
    await page.goto('/about/');
    await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' });
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
    const field = page.getByRole('banner').getByRole('combobox', { name: 'Поиск по каталогу' });
    await field.click();
    await page.keyboard.type('пальто');
    await page.keyboard.press('Enter');
    await searchCode.release();
    await page.waitForURL(/\/search\/\?q=/);
    expect(new URL(page.url()).searchParams.get('q')).toBe('пальто');
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
  });
});

describe('newsletter form before its code is in', () => {
  it('keeps the address typed and the focus', async ({ shopper }) => {
    const page = await shopper.newPage();
    const scripts = scriptNames(page);
    const formCode = await holdScript(page, 'NewsletterForm');
    await page.goto('/about/');
    await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' });
    expect(scripts).not.toContain('NewsletterForm');
    const form = page.getByRole('form', { name: 'Подписка на рассылку' });
    const email = form.getByRole('textbox', { name: 'Электронная почта' });
    await email.click();
    await expect.poll(() => formCode.requested()).toBe(true);
    await page.keyboard.type('ivan@exa');
    const standIn = await email.elementHandle();
    await formCode.release();
    // The real form has taken over (the stand-in's field is gone) before the rest is typed.
    await expect.poll(() => standIn?.evaluate((el) => el.isConnected)).toBe(false);
    await page.keyboard.type('mple.com');
    await expect.poll(() => email.inputValue()).toBe('ivan@example.com');
    await expect.poll(() => email.evaluate((el) => el === document.activeElement)).toBe(true);
  });
});
