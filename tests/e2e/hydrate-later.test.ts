import { describe, expect } from 'vitest';
import type { Locator } from 'playwright-core';
import { MOBILE, collectErrors, setUpBrowserShop } from '~/tests/support/browser';

// Parts below the first screen (the footer, the home page's later rows, a listing's later cards,
// the product page's reviews) hydrate only when they near the screen or the shopper first does
// something (app/lib/hydrate-later.tsx, issue #33). Until then React leaves the server's HTML as
// it is; an update around them must never drop it.

const { it } = setUpBrowserShop();

/** Whether React has hydrated the element (it keeps its fiber on each element it owns). */
function hydrated(element: Locator): Promise<boolean> {
  return element.evaluate((el) => Object.keys(el).some((key) => key.startsWith('__reactFiber$')));
}

describe('parts hydrated later', () => {
  it('the footer and the home rows below the screen wait until scrolled to', async ({ shopper }) => {
    const page = await shopper.newPage(MOBILE);
    const errors = collectErrors(page);
    await page.goto('/');
    await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' });
    // The first screen is React's at once, the rest not yet.
    expect(await hydrated(page.locator('.home-hero'))).toBe(true);
    const footer = page.locator('footer.footer');
    const sale = page.locator('[aria-labelledby="home-sale"]');
    expect(await hydrated(footer)).toBe(false);
    expect(await hydrated(sale)).toBe(false);

    await page.evaluate(() => document.querySelector('[aria-labelledby="home-sale"]')?.scrollIntoView());
    await expect.poll(() => hydrated(sale)).toBe(true);
    await page.evaluate(() => document.querySelector('footer.footer')?.scrollIntoView());
    await expect.poll(() => hydrated(footer)).toBe(true);
    expect(errors).toEqual([]);
  });

  it('a first tap on a part not hydrated yet does what it says', async ({ shopper }) => {
    const page = await shopper.newPage(MOBILE);
    await page.goto('/');
    await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' });
    const footer = page.locator('footer.footer');
    expect(await hydrated(footer)).toBe(false);
    // Scrolled to and tapped at once: hydrated by the tap itself, whose handler then runs.
    await footer.getByRole('button', { name: 'Таблица размеров' }).click();
    await expect.poll(() => page.getByRole('dialog', { name: 'Таблица размеров' }).isVisible()).toBe(true);
  });

  it('a modal opened before the parts hydrate leaves their server HTML in place', async ({ shopper }) => {
    const page = await shopper.newPage(MOBILE);
    const errors = collectErrors(page);
    await page.goto('/');
    await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' });
    const footer = await page.locator('footer.footer').elementHandle();
    const row = await page.locator('[aria-labelledby="home-blog"]').elementHandle();
    if (!footer || !row) throw new Error('no footer or blog row on the home page');
    await page.getByRole('banner').getByRole('button', { name: 'Меню' }).click();
    await expect.poll(() => page.getByRole('dialog', { name: 'Меню' }).isVisible()).toBe(true);
    // The same elements as the server sent (React did not drop them and render new ones), filled.
    await expect.poll(() => footer.evaluate((el) => el.isConnected && el.textContent?.includes('Рассылка'))).toBe(true);
    expect(await row.evaluate((el) => el.isConnected && el.querySelectorAll('.blog-card').length > 0)).toBe(true);
    await page.keyboard.press('Escape');
    // Hydrated since the first interaction, the footer's own controls work.
    await expect
      .poll(() =>
        page.locator('footer.footer').evaluate((el) => Object.keys(el).some((k) => k.startsWith('__reactFiber$'))),
      )
      .toBe(true);
    expect(errors).toEqual([]);
  });

  it("a listing's later cards hydrate as they near the screen; a product page's reviews too", async ({ shopper }) => {
    const page = await shopper.newPage(MOBILE);
    const errors = collectErrors(page);
    await page.goto('/catalog/woman/');
    await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' });
    const cards = page.locator('.listing__grid > .card');
    expect(await cards.count()).toBeGreaterThan(12);
    expect(await hydrated(cards.first())).toBe(true);
    const last = cards.last();
    expect(await hydrated(last)).toBe(false);
    await last.evaluate((el) => el.scrollIntoView());
    await expect.poll(() => hydrated(last)).toBe(true);

    const href = await cards.first().locator('.card__name a').getAttribute('href');
    if (!href) throw new Error('no product on the listing');
    const product = await shopper.newPage(MOBILE);
    await product.goto(href);
    await product.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' });
    const reviews = product.locator('#reviews');
    expect(await hydrated(product.locator('.product__info'))).toBe(true);
    expect(await hydrated(reviews)).toBe(false);
    await reviews.evaluate((el) => el.scrollIntoView());
    await expect.poll(() => hydrated(reviews)).toBe(true);
    expect(errors).toEqual([]);
  });
});
