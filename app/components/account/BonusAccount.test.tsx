import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { createRoutesStub } from 'react-router';
import type { BonusesResponse } from '~/shared/contract';
import { BonusAccount } from './BonusAccount';

// The account's «Бонусы» section as the server renders it (inside a router: its birthday form
// posts through a fetcher).

function render(bonuses: BonusesResponse | null): string {
  const Stub = createRoutesStub([{ path: '/personal/', Component: () => <BonusAccount bonuses={bonuses} /> }]);
  return renderToStaticMarkup(<Stub initialEntries={['/personal/']} />);
}

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&[a-z]+;|&#\d+;/g, ' ')
    .replace(/[\s\u00a0]+/g, ' ');

const empty: BonusesResponse = { balance: 0, birthday: null, history: [], pending: [] };

describe('BonusAccount', () => {
  it('shows the balance in big type, a link to the programme, the birthday form with a label and the empty history', () => {
    const html = render({ ...empty, balance: 2500 });
    expect(html).toContain('aria-labelledby="account-bonuses"');
    expect(html).toMatch(/class="bonus-account__amount">2\u00a0500 бонусов</);
    expect(html).toContain('href="/loyalty/"');
    expect(html).toMatch(
      /<label[^>]*for="([^"]+)"[^>]*>Дата рождения<\/label><input id="\1"[^>]*type="date"[^>]*name="birthday"/,
    );
    expect(html).toContain('name="intent" value="birthday"');
    expect(text(html)).toContain('Дату можно указать только один раз');
    expect(text(html)).toContain('Пока пусто');
  });

  it('shows a set birthday read-only, with why it cannot change', () => {
    const html = render({ ...empty, birthday: '1990-03-14' });
    expect(html).not.toContain('type="date"');
    expect(text(html)).toContain('Дата рождения 14 марта 1990');
    expect(text(html)).toContain('изменить её нельзя');
  });

  it('lists the history with signed amounts and expiry, and the bonuses to come', () => {
    const html = render({
      balance: 500,
      birthday: null,
      history: [
        { date: '24 ноября 2026', kind: 'expire', text: 'Сгорели', amount: -300, expires: null },
        {
          date: '10 ноября 2026',
          kind: 'credit',
          text: 'Начислено за заказ №12',
          amount: 500,
          expires: '10 ноября 2027',
        },
      ],
      pending: [{ order_id: 15, amount: 1200, date: '8 декабря 2026' }],
    });
    const t = text(html);
    expect(t).toContain('24 ноября 2026 Сгорели \u2212300 бонусов');
    expect(t).toContain('Начислено за заказ №12 действуют по 10 ноября 2027 +500 бонусов');
    expect(t).toContain('+1 200 бонусов за заказ №15 придут 8 декабря 2026');
    expect(html).toContain('bonus-history__amount--minus');
  });

  it('says so when the bonuses could not be loaded', () => {
    expect(render(null)).toContain('role="alert"');
  });
});
