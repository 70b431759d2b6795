import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { birthdayWindow, LOYALTY, loyaltyParams } from './loyalty';

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

  it('the birthday bonuses last as many days as the page says: 7 before, the birthday, 7 after', () => {
    const days = 2 * LOYALTY.birthdayDaysAround + 1;
    expect(page).toContain(`Они действуют ${days} дней — за ${LOYALTY.birthdayDaysAround} дней до`);
    const w = birthdayWindow('1990-12-01', new Date('2026-11-28T12:00:00Z'));
    expect((w.to.getTime() - w.from.getTime()) / 86_400_000).toBe(days);
  });
});
