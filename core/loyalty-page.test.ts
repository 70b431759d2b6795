import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOYALTY, loyaltyParams } from './loyalty';

// content/pages/loyalty.md and LOYALTY (the one place the code reads the programme from) say the
// same: each parameter in the page's own words, and the page's example adds up.
const page = fs.readFileSync(path.join(__dirname, '..', 'content', 'pages', 'loyalty.md'), 'utf8');

describe('the loyalty page and the code agree', () => {
  it.each(loyaltyParams().map((p) => [p.key, p.page] as const))('%s: the page says «%s»', (_key, words) => {
    expect(page).toContain(words);
  });

  it('every parameter of LOYALTY is shown to staff', () => {
    expect(
      loyaltyParams()
        .map((p) => p.key)
        .sort(),
    ).toEqual(Object.keys(LOYALTY).sort());
  });

  it("the page's example (a coat of 40 000 ₽ gives 2 000 bonuses) is accrualPercent of it", () => {
    expect(page).toContain('пальто стоимостью 40 000 ₽ вы получите 2 000 бонусов');
    expect((40_000 * LOYALTY.accrualPercent) / 100).toBe(2_000);
  });

  it('the lead says the same percentage and birthday gift', () => {
    expect(page).toContain(`Возвращаем ${LOYALTY.accrualPercent}% от каждой покупки`);
    expect(page).toContain(
      `дарим ${(LOYALTY.birthdayKopecks / 100).toLocaleString('ru-RU').replace(/\s/g, ' ')} бонусов`,
    );
  });
});
