import { describe, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { FONT_FILES, unicodeRange } from '~/app/fonts/font-files';
import { DESKTOP, MOBILE, setUpBrowserShop, type Shopper, type Viewport } from '~/tests/support/browser';

// Issue #26 item 18: on a cold load the page may paint before the brand fonts are in (and with
// font-display: optional keep the system font for that visit). The fallback faces carry metric
// overrides (app/styles/fonts.css), so text set in them takes the room the brand font takes:
// measured here with the font files answered and with them refused.

const { it } = setUpBrowserShop();

type Widths = Record<'brand' | 'fallback' | 'system', number>;

/** The brand files as the page may use them: asset address (by the file's name), family, weight and range. */
const FACES = FONT_FILES.map((f) => ({
  stem: f.name.replace(/\.woff2$/, ''),
  family: f.family,
  weight: f.weight,
  unicodeRange: unicodeRange(f.codePoints),
}));

/**
 * The page's headings and first paragraph set on one line in the brand family alone, in its
 * fallback face alone and in the system fonts the stack had before the fallback faces: widths in
 * CSS pixels. The brand files are added again as faces of their own that wait for their file
 * (font-display: optional lets the browser give up on a face for the whole page when its file is
 * late, as on a cold load).
 */
async function widths(page: Page): Promise<{ heading: Widths; text: Widths }> {
  return page.evaluate(async (faces) => {
    const urls = performance.getEntriesByType('resource').map((e) => e.name);
    await Promise.all(
      faces.map(async (face) => {
        const url = urls.find((u) => new URL(u).pathname.startsWith(`/assets/${face.stem}-`));
        if (!url) throw new Error(`${face.stem} not requested`);
        const added = new FontFace(`Test ${face.family}`, `url(${url})`, {
          weight: face.weight,
          unicodeRange: face.unicodeRange,
          display: 'block',
        });
        document.fonts.add(added);
        await added.load();
      }),
    );
    // All the page's headings on one line: one short heading says more about its letters than the face.
    const h1 = document.querySelector('main h1')!.cloneNode() as HTMLElement;
    h1.textContent = [...document.querySelectorAll('main h1, main h2')].map((h) => h.textContent).join(' ');
    document.querySelector('main h1')!.after(h1);
    const p = document.querySelector('main p')!;
    const oneLine = (el: Element, family: string) => {
      const copy = el.cloneNode(true) as HTMLElement;
      Object.assign(copy.style, {
        position: 'absolute',
        whiteSpace: 'nowrap',
        width: 'auto',
        maxWidth: 'none',
        left: '0',
        top: '0',
        fontFamily: family,
      });
      el.parentElement!.append(copy);
      const width = copy.getBoundingClientRect().width;
      copy.remove();
      return width;
    };
    const result = {
      heading: {
        brand: oneLine(h1, "'Test Cormorant Garamond', serif"),
        fallback: oneLine(h1, "'Cormorant Garamond Fallback', serif"),
        system: oneLine(h1, "Georgia, 'Times New Roman', serif"),
      },
      text: {
        brand: oneLine(p, "'Test Manrope Variable', sans-serif"),
        fallback: oneLine(p, "'Manrope Variable Fallback', sans-serif"),
        system: oneLine(p, "'Helvetica Neue', Arial, sans-serif"),
      },
    };
    h1.remove();
    return result;
  }, FACES);
}

/** A page of /about/, its font files answered or refused; the faces that loaded. */
async function open(shopper: Shopper, viewport: Viewport, fonts: boolean) {
  const page = await shopper.newPage(viewport);
  if (!fonts) await page.route(/\.woff2(\?|$)/, (route) => route.abort());
  await page.goto('/about/');
  await page.evaluate(() => document.fonts.ready);
  const used = await page.evaluate(() =>
    [...document.fonts].filter((f) => f.status === 'loaded').map((f) => f.family.replace(/"/g, '')),
  );
  return { page, used };
}

describe('fallback fonts', () => {
  for (const viewport of [MOBILE, DESKTOP]) {
    it(`at ${viewport.width} px are what a page without the brand fonts is set in, and take their room: widths differ by under 2%`, async ({
      shopper,
    }) => {
      const fallback = await open(shopper, viewport, false);
      expect(fallback.used).not.toContain('Cormorant Garamond');
      expect(fallback.used).toEqual(
        expect.arrayContaining(['Cormorant Garamond Fallback', 'Manrope Variable Fallback']),
      );

      const branded = await open(shopper, viewport, true);
      const { heading, text } = await widths(branded.page);
      // The brand face is really in use: the system serif sets the heading wider.
      expect(Math.abs(heading.system / heading.brand - 1)).toBeGreaterThan(0.02);
      expect(Math.abs(heading.fallback / heading.brand - 1)).toBeLessThan(0.02);
      expect(Math.abs(text.fallback / text.brand - 1)).toBeLessThan(0.02);
    });
  }
});
