import { describe, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { DESKTOP, MOBILE, setUpBrowserShop, type Shopper, type Viewport } from '~/tests/support/browser';

// Issue #26 item 18: on a cold load the page may paint before the brand fonts are in (and with
// font-display: optional keep the system font for that visit). The fallback faces carry metric
// overrides (app/styles/fonts.css), so text set in them takes the room the brand font takes:
// measured here with the font files answered and with them refused.

const { it } = setUpBrowserShop();

/** Each text's width on one line and its height, in the page's own fonts. */
async function measure(page: Page): Promise<{ heading: number; headingHeight: number; text: number }> {
  return page.evaluate(() => {
    const oneLine = (el: Element) => {
      const copy = el.cloneNode(true) as HTMLElement;
      Object.assign(copy.style, { position: 'absolute', whiteSpace: 'nowrap', width: 'auto', maxWidth: 'none', left: '0', top: '0' });
      el.parentElement!.append(copy);
      const width = copy.getBoundingClientRect().width;
      copy.remove();
      return width;
    };
    const h1 = document.querySelector('main h1')!;
    const p = document.querySelector('main p')!;
    return { heading: oneLine(h1), headingHeight: h1.getBoundingClientRect().height, text: oneLine(p) };
  });
}

async function open(shopper: Shopper, viewport: Viewport, fonts: boolean) {
  const page = await shopper.newPage(viewport);
  if (!fonts) await page.route(/\.woff2(\?|$)/, (route) => route.abort());
  await page.goto('/about/');
  await page.evaluate(() => document.fonts.ready);
  const used = await page.evaluate(() => [...document.fonts].filter((f) => f.status === 'loaded').map((f) => f.family.replace(/"/g, '')));
  return { page, used };
}

describe('fallback fonts', () => {
  for (const viewport of [MOBILE, DESKTOP]) {
    it(`at ${viewport.width} px take the brand fonts' room: a heading's and a paragraph's widths differ by under 3%`, async ({ shopper }) => {
      const branded = await open(shopper, viewport, true);
      expect(branded.used).toEqual(expect.arrayContaining(['Cormorant Garamond', 'Manrope Variable']));
      const fallback = await open(shopper, viewport, false);
      expect(fallback.used).not.toContain('Cormorant Garamond');
      // The metric-matched faces are what the page is set in meanwhile.
      expect(fallback.used).toEqual(expect.arrayContaining(['Cormorant Garamond Fallback', 'Manrope Variable Fallback']));

      const [a, b] = [await measure(branded.page), await measure(fallback.page)];
      expect(Math.abs(b.heading / a.heading - 1)).toBeLessThan(0.03);
      expect(Math.abs(b.text / a.text - 1)).toBeLessThan(0.03);
      // The same number of lines, the same line boxes.
      expect(Math.abs(b.headingHeight - a.headingHeight)).toBeLessThanOrEqual(1);
    });
  }
});
