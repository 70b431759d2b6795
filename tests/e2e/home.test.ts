import { describe, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { DESKTOP, MOBILE, setUpBrowserShop, type Viewport } from '~/tests/support/browser';

// The home page's rows below the first screen, and the footer, are drawn only as they near the
// viewport (CSS content-visibility: auto). Until then each holds a guessed height; a position
// a reload restores passes through the rows above it, so the guesses must stay the real heights.

const { it } = setUpBrowserShop();

/** The blocks the home page draws late, each as [name, guessed height, real height once drawn]. */
async function guessesAndHeights(page: Page): Promise<[string, number, number][]> {
  return page.evaluate(async () => {
    const blocks = [...document.querySelectorAll<HTMLElement>('.home-section, .footer')].filter(
      (el) => getComputedStyle(el).contentVisibility === 'auto',
    );
    const rows: [string, number, number][] = [];
    for (const el of blocks) {
      // The height the row holds until drawn: the guess as written (before the row is drawn and
      // `auto` remembers its real size) is its content box, the padding and border come on top.
      const style = getComputedStyle(el);
      const edges = ['paddingTop', 'paddingBottom', 'borderTopWidth', 'borderBottomWidth'] as const;
      const guess = edges.reduce(
        (sum, edge) => sum + parseFloat(style[edge]),
        Number(/(\d+(?:\.\d+)?)px/.exec(style.containIntrinsicHeight)?.[1] ?? NaN),
      );
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
      expect(rows.map(([row]) => row)).toEqual([
        'home-new',
        'home-categories',
        'home-sale',
        'home-blog',
        'home-shops',
        'footer',
      ]);
      for (const [row, guess, real] of rows) {
        expect({ row, guess, off: Math.abs(guess - real) / real < 0.05 }).toEqual({ row, guess, off: true });
      }
    });
  }

  // Back mounts new rows, which would hold their guessed heights until drawn: the restored
  // position would then be applied to a different layout, and the browser's scroll anchoring
  // moved the page by the guesses' error in about one run in ten (174 px on a phone). The page
  // draws every row before the restore, so the card is where it was from the first frame on.
  it('Back from a product lands on the card the shopper left, from the first frame', async ({ shopper }) => {
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

    // Where the card is on every frame from Back on, for a second after the home page shows.
    const selector = `[aria-labelledby="home-sale"] .card__name a[href="${href}"]`;
    const frames = page.evaluate(
      (sel) =>
        new Promise<number[]>((resolve) => {
          const tops: number[] = [];
          let left = 600;
          const frame = () => {
            const el = document.querySelector(sel);
            if (el) tops.push(Math.round(el.getBoundingClientRect().top));
            if (tops.length < 60 && --left > 0) requestAnimationFrame(frame);
            else resolve(tops);
          };
          requestAnimationFrame(frame);
        }),
      selector,
    );
    await page.goBack();
    await page.waitForURL((url) => url.pathname === '/');
    const tops = await frames;
    expect(tops).toHaveLength(60);
    expect(tops.map((t) => Math.abs(t - top) <= 2)).toEqual(tops.map(() => true));
  });
});
