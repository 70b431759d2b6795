import { describe, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { collectErrors, setUpBrowserShop, waitForHydration } from '~/tests/support/browser';

// The shell's, the filters' and the cards' plain links (app/lib/app-link.tsx) navigate on the
// client like React Router's <Link>s: no new document, scroll kept where a filter asks for it,
// and a modified click left to the browser.

const { it } = setUpBrowserShop();

/** Marks the current document; `sameDocument()` is then true until a full page load. */
async function markDocument(page: Page): Promise<() => Promise<boolean>> {
  await page.evaluate(() => ((window as unknown as { __vitrinaDoc: number }).__vitrinaDoc = 1));
  return () => page.evaluate(() => (window as unknown as { __vitrinaDoc?: number }).__vitrinaDoc === 1);
}

describe('plain links of the shop', () => {
  it('a card name, a footer link and the mega menu navigate without a new document', async ({ shopper }) => {
    const { page } = await shopper.open('/catalog/woman/');
    const sameDocument = await markDocument(page);

    const name = page.locator('.card__name a').first();
    const href = await name.getAttribute('href');
    if (!href) throw new Error('no card on the listing');
    await name.click();
    await page.waitForURL((url) => url.pathname === href);
    await expect.poll(() => page.locator('h1').first().textContent()).not.toBe('');
    expect(await sameDocument()).toBe(true);

    await page.locator('footer').getByRole('link', { name: 'Доставка' }).first().click();
    await page.waitForURL((url) => url.pathname === '/delivery/');
    expect(await sameDocument()).toBe(true);

    await page.getByRole('button', { name: 'Каталог' }).click();
    const top = page.locator('.mega a.mega__top').first();
    const topHref = await top.getAttribute('href');
    await top.click();
    await page.waitForURL((url) => url.pathname === topHref);
    expect(await sameDocument()).toBe(true);
    // The mega menu closes with the navigation.
    await expect.poll(() => page.locator('.mega').isHidden()).toBe(true);

    // Back goes back in the same document, as after a <Link>.
    await page.goBack();
    await page.waitForURL((url) => url.pathname === '/delivery/');
    expect(await sameDocument()).toBe(true);
  });

  it('a filter value keeps the scroll position and replaces nothing it should not', async ({ shopper }) => {
    const { page } = await shopper.open('/catalog/woman/', { width: 1280, height: 700 });
    const sameDocument = await markDocument(page);
    const value = page.locator('a.facet__value--size').first();
    await value.scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollBy(0, 40));
    const before = await page.evaluate(() => window.scrollY);
    expect(before).toBeGreaterThan(0);
    const href = await value.getAttribute('href');
    await value.click();
    await page.waitForURL((url) => url.pathname + url.search === href);
    await expect.poll(() => page.locator('a.facet__value--size.is-checked').count()).toBe(1);
    expect(await sameDocument()).toBe(true);
    expect(await page.evaluate(() => window.scrollY)).toBe(before);
    await page.goBack();
    await page.waitForURL((url) => url.pathname === '/catalog/woman/' && url.search === '');
  });

  it('a click with Ctrl or on a new-tab link is left to the browser', async ({ shopper }) => {
    const { page } = await shopper.open('/catalog/woman/');
    const sameDocument = await markDocument(page);
    const link = page.locator('footer').getByRole('link', { name: 'Доставка' }).first();
    const opened = page.context().waitForEvent('page');
    await link.click({ modifiers: ['Control'] });
    const tab = await opened;
    await tab.waitForLoadState('domcontentloaded');
    expect(new URL(tab.url()).pathname).toBe('/delivery/');
    expect(new URL(page.url()).pathname).toBe('/catalog/woman/');
    expect(await sameDocument()).toBe(true);
  });

  it("pointing at a card fetches its page's data and the product page's code before the click", async ({ shopper }) => {
    const { page } = await shopper.open('/catalog/woman/');
    const asked: string[] = [];
    page.on('request', (request) => asked.push(new URL(request.url()).pathname));
    const media = page.locator('a.card__media').first();
    const href = await media.getAttribute('href');
    if (!href) throw new Error('no card on the listing');
    const slug = href.split('/').filter(Boolean).pop() ?? '';
    expect(asked.some((p) => /\/assets\/ProductPage-/.test(p))).toBe(false);
    await media.hover();
    await expect.poll(() => asked.some((p) => /\/assets\/ProductPage-[\w-]{8}\.js$/.test(p))).toBe(true);
    await expect.poll(() => asked.some((p) => p.endsWith('.data') && p.includes(slug))).toBe(true);
    // The click then shows the product page in the same document.
    const sameDocument = await markDocument(page);
    await media.click();
    await page.waitForURL((url) => url.pathname === href);
    await expect.poll(() => page.locator('.product, [data-product-id], h1').first().isVisible()).toBe(true);
    expect(await sameDocument()).toBe(true);
  });

  it('a card past the first row, written by the server from kept markup, works once hydrated', async ({ shopper }) => {
    // The server renders lazy cards once and reuses their HTML (app/lib/kept-markup.tsx); the
    // browser must take them over like any other: the quick add, the heart and the link.
    const { page } = await shopper.open('/catalog/woman/');
    const errors = collectErrors(page);
    await page.reload();
    await waitForHydration(page);
    const card = page.locator('article.card').nth(9);
    expect(await card.locator('img').first().getAttribute('loading')).toBe('lazy');
    await card.scrollIntoViewIfNeeded();
    await card.getByRole('button', { name: /^Добавить в корзину: / }).click();
    const sizes = page.getByRole('dialog', { name: 'Выберите размер' });
    await expect.poll(() => sizes.isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => sizes.count()).toBe(0);
    await card.getByRole('button', { name: 'Добавить в избранное' }).click();
    const login = page.getByRole('dialog', { name: 'Вход' });
    await expect.poll(() => login.isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => login.count()).toBe(0);
    const sameDocument = await markDocument(page);
    const name = card.locator('.card__name a');
    const href = await name.getAttribute('href');
    await name.click();
    await page.waitForURL((url) => url.pathname === href);
    expect(await sameDocument()).toBe(true);
    expect(errors).toEqual([]);
  });

  it("hydrates the server's plain links where the browser adds intent handlers, with no error", async ({ shopper }) => {
    // Cards, section tiles and blog cards are AppLinks in the server's HTML and IntentLinks (the
    // same <a> with intent handlers) in the browser: a mismatch would be reported as a recoverable error.
    const { page } = await shopper.open('/delivery/');
    const errors = collectErrors(page);
    for (const path of ['/', '/catalog/woman/', '/blog/']) {
      await page.goto(path);
      await waitForHydration(page);
      expect(await page.locator('a.card__media, a.section-tile, a.blog-card__media').count(), path).toBeGreaterThan(0);
    }
    await page.goto('/catalog/woman/');
    const product = await page.locator('a.card__media').first().getAttribute('href');
    await page.goto(product ?? '/');
    await waitForHydration(page);
    expect(errors).toEqual([]);
  });
});
