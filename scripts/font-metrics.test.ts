import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FALLBACK_FACES, fontFaceCss } from '~/app/fonts/font-files';
import { LIBERATION_DIR, measureFallbackFaces } from './font-metrics';

// The fallback faces' overrides (issue #26) are what the font files measure: a change of the
// brand's files or of the shop's texts shows here (run scripts/font-metrics.ts, then
// scripts/subset-fonts.ts). The Liberation fonts (Debian's fonts-liberation) are on this machine.
describe('fallback font metrics', () => {
  it('are measured from the files: size-adjust from the average width of the shop’s letters, line metrics from the brand font', async () => {
    expect(fs.existsSync(path.join(LIBERATION_DIR, 'LiberationSans-Regular.ttf'))).toBe(true);
    expect(await measureFallbackFaces()).toEqual(FALLBACK_FACES);
  }, 60_000);

  it('each brand family has a fallback face with all four overrides in app/styles/fonts.css, listed next in its stack', () => {
    const css = fontFaceCss();
    for (const family of ['Manrope Variable Fallback', 'Cormorant Garamond Fallback']) {
      const rules = css.split('@font-face').filter((r) => r.includes(`font-family: '${family}'`));
      expect(rules.length).toBeGreaterThan(0);
      for (const rule of rules) {
        for (const descriptor of ['size-adjust', 'ascent-override', 'descent-override', 'line-gap-override'])
          expect(rule).toMatch(new RegExp(`${descriptor}: \\d+(\\.\\d+)?%;`));
        expect(rule).toMatch(/src: local\('/);
      }
    }
    const app = fs.readFileSync(path.resolve(import.meta.dirname, '../app/styles/app.css'), 'utf8');
    expect(app).toContain("--font: 'Manrope Variable', 'Manrope Variable Fallback',");
    expect(app).toContain("--font-display: 'Cormorant Garamond', 'Cormorant Garamond Fallback',");
  });
});
