import { describe, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { DESKTOP, MOBILE, setUpBrowserShop, type Viewport } from '~/tests/support/browser';

// The home page's rows below the first screen, and the footer, are drawn only as they near the
// viewport (CSS content-visibility: auto). Until then each holds a guessed height; a position
// Back restores passes through the rows above it, so the guesses must stay the real heights.

const { it } = setUpBrowserShop();

/** The blocks the home page draws late, each as [name, guessed height, real height once drawn]. */
async function guessesAndHeights(page: Page): Promise<[string, number, number][]> {
  return page.evaluate(async () => {
    const blocks = [...document.querySelectorAll<HTMLElement>('.home-section, .footer')].filter((el) => getComputedStyle(el).contentVisibility === 'auto');
    const rows: [string, number, number][] = [];
    for (const el of blocks) {
      // The guess as written, before the row is drawn and `auto` remembers its real size.
      const guess = Number(/(\d+(?:\.\d+)?)px/.exec(getComputedStyle(el).containIntrinsicHeight)?.[1] ?? NaN);
      el.scrollIntoView();
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      rows.push([el.getAttribute('aria-labelledby') ?? el.className, guess, el.getBoundingClientRect().height]);
    }
    return rows;
  });
}

describe('home page rows drawn as they near the screen', () => {
  for (const [name, viewport] of [
    ['a phone', MOBILE],
    ['a desktop', DESKTOP],
  ] as [string, Viewport][]) {
    it(`guess each row's real height on ${name}`, async ({ shopper }) => {
      const { page } = await shopper.open('/', viewport);
      const rows = await guessesAndHeights(page);
      // The two product rows and the category tiles, the blog, the shops and the footer.
      expect(rows.map(([row]) => row)).toEqual(['home-new', 'home-categories', 'home-sale', 'home-blog', 'home-shops', 'footer']);
      for (const [row, guess, real] of rows) {
        expect({ row, off: Math.abs(guess - real) / real < 0.15 }).toEqual({ row, off: true });
      }
    });
  }

  // Retried: in about one run in ten here Back restores 2 031 px instead of 2 205 (the card then
  // sits 174 px lower), although the product page was on screen and the home page's layout is the
  // same. 2 031 is what a document about 2 875 px tall allows, as if the position were set against
  // a shorter page; delaying the product page's code or the home page's data did not bring it
  // about, so the cause is still open (README, "Known issues"). A wrong restore every time still fails.
  it('Back from a product lands on the card the shopper left', { retry: 2 }, async ({ shopper }) => {
    const { page } = await shopper.open('/', MOBILE);
    const card = page.locator('[aria-labelledby="home-sale"] .card__name a').first();
    await card.scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollBy(0, 120));
    const top = await card.evaluate((el) => el.getBoundingClientRect().top);
    const href = await card.getAttribute('href');
    const name = (await card.textContent())?.trim();
    if (!href || !name) throw new Error('no card in the sale row');
    await card.click();
    await page.waitForURL((url) => url.pathname === href);
    // The product page itself: the home page has an h1 of its own while the product's code loads.
    await expect.poll(() => page.locator('h1').first().textContent()).toBe(name);

    await page.goBack();
    await page.waitForURL((url) => url.pathname === '/');
    const back = page.locator(`[aria-labelledby="home-sale"] .card__name a[href="${href}"]`);
    // Within a line of text of where it was (the guesses above it are a few per cent off).
    await expect.poll(() => back.evaluate((el, was) => Math.abs(el.getBoundingClientRect().top - was), top), { timeout: 10_000 }).toBeLessThanOrEqual(40);
  });
});
