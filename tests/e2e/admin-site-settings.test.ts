import { describe, expect } from 'vitest';
import { DESKTOP, MOBILE, setUpBrowserShop } from '~/tests/support/browser';
import { testClock } from '~/tests/support/admin';
import { samePageAt, shot, staffPage } from '~/tests/support/admin-browser';

// «Тексты сайта» at 1280 px (issue #30 "The site's words"): a content editor switches the top
// banner on (an empty text is refused in Russian before anything is sent), changes a shop's hours
// and saves; a guest sees the banner and the hours through the guest page cache, within its
// bound. SHOTS_DIR=… saves screenshots (also the screen and the guest's page at 390 px).

const clock = testClock();
const { shop, it } = setUpBrowserShop({ clock: clock.now });

describe('the site’s texts in the back office', () => {
  it('a banner and a shop’s hours edited by staff, seen by a guest', async ({ shopper }) => {
    const { page, cookie } = await staffPage(shopper, shop, clock, { email: 'texts@vitrina.example', role: 'content' });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const stamp = Date.now().toString(36);
    const text = `Бесплатная доставка от 10 000 ₽ ${stamp}`;

    await page.goto('/admin/site-settings');
    const bannerText = page.getByRole('textbox', { name: 'Текст баннера' });
    await bannerText.waitFor();
    await page.waitForLoadState('networkidle');
    for (const group of ['Верхний баннер', 'Главная', 'Магазины', 'Чат стилиста'])
      await page.getByText(group, { exact: true }).first().waitFor();
    await expect
      .poll(() => page.getByRole('textbox', { name: 'Заголовок главной' }).inputValue())
      .toBe('Новая коллекция');

    // On with no text: refused in Russian, nothing sent.
    await page.getByLabel('Показывать баннер над шапкой').check();
    await page.getByRole('button', { name: 'Сохранить' }).click();
    await page.getByText('Укажите текст баннера или выключите его').first().waitFor();

    await bannerText.fill(text);
    await page.getByRole('textbox', { name: 'Ссылка баннера' }).fill('/delivery/');
    await page.getByRole('textbox', { name: 'Часы работы' }).first().fill('Ежедневно 10:00–23:00');
    await shot(page, 'admin-site-settings-1280');
    await page.getByRole('button', { name: 'Сохранить' }).click();
    await page
      .getByText(/Элемент обновлен|обновл/i)
      .first()
      .waitFor();
    // Its history, after a reload.
    await page.reload();
    await page.getByText(/Тексты сайта изменены/).waitFor();

    const guest = await shopper.newPage(DESKTOP);
    await guest.goto('/');
    await expect
      .poll(
        async () => {
          await guest.reload();
          return (
            (await guest
              .locator('.top-banner')
              .textContent()
              .catch(() => null)) ?? ''
          );
        },
        { timeout: 15_000 },
      )
      .toBe(text);
    await guest.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
    expect(await guest.locator('.top-banner a').getAttribute('href')).toBe('/delivery/');
    expect(await guest.locator('.home-shops').textContent()).toContain('Ежедневно 10:00–23:00');
    await shot(guest, 'guest-home-banner-1280');

    const narrow = await samePageAt(shopper, shop, cookie, MOBILE);
    await narrow.goto('/admin/site-settings');
    await narrow.getByRole('textbox', { name: 'Текст баннера' }).waitFor();
    await narrow.waitForLoadState('networkidle');
    await shot(narrow, 'admin-site-settings-390');
    const guestNarrow = await shopper.newPage(MOBILE);
    await guestNarrow.goto('/');
    await guestNarrow.locator('.top-banner').waitFor();
    await shot(guestNarrow, 'guest-home-banner-390');
    expect(errors).toEqual([]);
  });
});
