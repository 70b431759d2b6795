import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { InstalmentDetails } from './InstalmentDetails';

const TODAY = new Date(2026, 10, 22, 12);
const NBSP = '\u00a0';

function render(priceKopecks: number, example = false): string {
  const html = renderToStaticMarkup(
    <MemoryRouter>
      <InstalmentDetails priceKopecks={priceKopecks} example={example} today={TODAY} />
    </MemoryRouter>,
  );
  return html.replace(/&nbsp;|&#160;/g, NBSP);
}

describe('InstalmentDetails', () => {
  it('lists four dated payments, the remainder on the first, and the total', () => {
    const html = render(1_234_567);
    expect(html).toContain(`3${NBSP}086,44${NBSP}₽`);
    expect(html.split(`3${NBSP}086,41${NBSP}₽`)).toHaveLength(4); // three equal payments
    expect(html).toContain(`12${NBSP}345,67${NBSP}₽`);
    for (const date of ['22 ноября 2026', '6 декабря 2026', '20 декабря 2026', '3 января 2027'])
      expect(html).toContain(date);
    expect(html).not.toContain('Это пример');
  });

  it('says an example price stands for the basket total', () => {
    expect(render(2_000_000, true)).toContain('итоговой суммы корзины');
  });

  it('says instalments are unavailable outside 500–40 000 RUB, with no schedule', () => {
    for (const price of [49_999, 4_000_001]) {
      const html = render(price);
      expect(html).toContain('оплата частями недоступна');
      expect(html).toContain(`от 500${NBSP}₽ до 40${NBSP}000${NBSP}₽`);
      expect(html).not.toContain('<table');
    }
    expect(render(Number.NaN)).toContain('Для этой суммы оплата частями недоступна');
  });

  it('names both providers with links to their pages and mentions the possible fee', () => {
    const html = render(2_000_000);
    expect(html).toContain('href="/dolyami/"');
    expect(html).toContain('href="/yandex-split/"');
    expect(html).toContain('Яндекс Сплит');
    expect(html).toContain('комиссию за услугу');
  });
});
