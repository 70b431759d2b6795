import { eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { promoCodes } from '~/db/schema';
import { DESKTOP, MOBILE, setUpBrowserShop, StorefrontPage } from '~/tests/support/browser';
import { admin, testClock } from '~/tests/support/admin';
import { samePageAt, seriousAxeFaults, shot, staffPage } from '~/tests/support/admin-browser';
import { offerPicker } from '~/tests/support/checkout';

// Promotions in the back office at 1280 px (issue #30): a manager makes a promo code on the
// «Промокоды» screen, and a guest applies it in the storefront's basket and sees the discount.
// The certificates and loyalty screens are opened too (and saved at 1280 and 390 with SHOTS_DIR).

const clock = testClock();
const { shop, it } = setUpBrowserShop({ clock: clock.now });
const freshOffer = offerPicker(shop);
const poll = expect.poll;

describe('promotions in the back office', () => {
  it('a manager makes a promo code; a guest applies it in the basket', async ({ shopper }) => {
    const { page, cookie } = await staffPage(shopper, shop, clock, { email: 'promo@vitrina.example', role: 'manager' });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const code = `OSEN${Date.now().toString(36).toUpperCase().slice(-5)}`;

    await page.goto('/admin/promo-codes/create');
    await page.getByText('Промокод не действует на вещи со скидкой').waitFor();
    await page.waitForLoadState('networkidle');
    await page.getByRole('textbox', { name: 'Код', exact: true }).fill(code.toLowerCase());
    await page.getByRole('spinbutton', { name: 'Скидка, %' }).fill('15');
    await page.getByRole('textbox', { name: 'Минимальная сумма заказа, ₽' }).fill('1 000');
    await page.getByRole('spinbutton', { name: 'Всего использований' }).fill('100');
    await shot(page, 'admin-promo-new-1280');
    await page.getByRole('button', { name: 'Сохранить' }).click();
    await page.waitForURL(new RegExp(`/admin/promo-codes/${code}$`));
    await page.getByRole('heading', { name: new RegExp(`^${code} — Действует`) }).waitFor();
    const [row] = await shop.database.db.select().from(promoCodes).where(eq(promoCodes.code, code));
    expect(row).toMatchObject({
      kind: 'percent',
      percent: 15,
      minBasketKopecks: 100_000,
      totalLimit: 100,
      excludeSale: true,
    });
    await shot(page, 'admin-promo-edit-1280');

    // The list finds it by part of the code, lower case.
    await page.goto(
      `/admin/promo-codes?filter=${encodeURIComponent(JSON.stringify({ q: code.slice(0, 6).toLowerCase() }))}`,
    );
    await page.getByRole('cell', { name: code }).waitFor();
    await shot(page, 'admin-promo-list-1280');

    // A guest applies it in the basket.
    const offer = await freshOffer({ min: 200_000, max: 3_000_000 });
    const guest = await shopper.newPage(DESKTOP);
    await guest.context().addCookies([{ name: 'cart', value: `${offer.id}:1`, url: shop.baseUrl }]);
    const store = new StorefrontPage(guest);
    await store.goto('/basket/');
    const main = guest.locator('main');
    await main.getByRole('textbox', { name: 'Промокод' }).fill(code.toLowerCase());
    await main.getByRole('button', { name: 'Применить' }).click();
    await poll(() => main.getByText(`Промокод ${code} применён`).isVisible()).toBe(true);
    const discount = Math.floor((offer.price * 15) / 100);
    const text = async () => ((await main.textContent()) ?? '').replace(/[\s\u00a0\u202f]+/g, ' ');
    const roubles = (k: number) =>
      `${(k / 100).toLocaleString('ru-RU', { minimumFractionDigits: k % 100 ? 2 : 0, maximumFractionDigits: 2 })}`.replace(
        /[\s\u00a0\u202f]+/g,
        ' ',
      );
    await poll(text).toContain(roubles(offer.price - discount));
    await shot(guest, 'basket-promo-1280');

    // The other screens open for the manager, at both widths, without errors.
    const issued = await admin(shop, '/certificates', {
      cookie,
      body: { kind: 'electronic', amount: '10 000', note: 'Компенсация за задержку', email: 'gift@example.ru' },
    });
    expect(issued.status, JSON.stringify(issued.body)).toBe(201);
    const faults: string[] = [];
    const check = async (p: typeof page, name: string) => {
      await shot(p, name);
      const wide = await p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      if (wide > 0) faults.push(`${name}: ${wide}px wider than the window`);
      for (const f of await seriousAxeFaults(p)) faults.push(`${name}: ${f}`);
    };
    for (const viewport of [DESKTOP, MOBILE]) {
      const p = viewport === DESKTOP ? page : await samePageAt(shopper, shop, cookie, viewport);
      p.on('pageerror', (e) => errors.push(e.message));
      await p.goto('/admin/certificates');
      await p.getByRole('cell', { name: issued.body.data.code_formatted }).first().waitFor();
      await check(p, `admin-certificates-list-${viewport.width}`);
      await p.goto(`/admin/certificates/${issued.body.data.id}/show`);
      await p.getByRole('heading', { name: 'Движения баланса' }).waitFor();
      await check(p, `admin-certificate-show-${viewport.width}`);
      await p.goto('/admin/certificates/create');
      await p.getByText(/Номиналы: 5[\s\u00a0]000/).waitFor();
      await check(p, `admin-certificate-new-${viewport.width}`);
      await p.goto('/admin/loyalty');
      await p.getByRole('cell', { name: '5% от оплаченной суммы', exact: true }).waitFor();
      await check(p, `admin-loyalty-${viewport.width}`);
      await p.goto('/admin/promo-codes');
      await p.getByRole('cell', { name: code }).waitFor();
      await check(p, `admin-promo-list-${viewport.width}`);
      await p.goto(`/admin/promo-codes/${code}`);
      await p.getByRole('heading', { name: new RegExp(`^${code}`) }).waitFor();
      await check(p, `admin-promo-edit-${viewport.width}`);
    }
    expect(faults).toEqual([]);
    expect(errors).toEqual([]);
  });
});
