import { describe, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { DESKTOP, MOBILE, setUpBrowserShop } from '~/tests/support/browser';
import { admin, testClock } from '~/tests/support/admin';
import { samePageAt, shot, staffPage } from '~/tests/support/admin-browser';

// The site's words in the back office at 1280 px (issue #30): a content editor changes an
// information page's text (the preview shows it as the storefront will) and makes and then edits
// a redirect; a guest reads the new text and follows the redirect (through the guest page cache,
// within its bound). SHOTS_DIR=… saves screenshots (also the screens at 390 px).

const clock = testClock();
const { shop, it } = setUpBrowserShop({ clock: clock.now });

const textOf = async (page: Page) =>
  ((await page.locator('main').first().textContent()) ?? '').replace(/[\s\u00a0\u202f]+/g, ' ');

describe('the site’s words in the back office', () => {
  it('an information page and a redirect edited by staff, seen by a guest', async ({ shopper }) => {
    const { page, cookie } = await staffPage(shopper, shop, clock, { email: 'vera@vitrina.example', role: 'content' });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const list = (await admin(shop, '/content?kind=page&q=warranty', { cookie })).body.data as {
      id: number;
      slug: string;
    }[];
    const warranty = list.find((p) => p.slug === 'warranty');
    expect(warranty).toBeTruthy();
    const stamp = Date.now().toString(36);
    const sentence = `Гарантия продлена до 60 дней ${stamp}.`;

    await page.goto('/admin/content');
    await page.getByRole('cell', { name: 'Гарантия', exact: true }).waitFor();
    await page.waitForLoadState('networkidle');
    await shot(page, 'admin-content-list-1280');
    await page.getByRole('cell', { name: 'Гарантия', exact: true }).click();
    await page.waitForURL(new RegExp(`/admin/content/${warranty?.id}$`));
    const body = page.getByRole('textbox', { name: 'Текст (Markdown)' });
    await body.waitFor();
    await page.waitForLoadState('networkidle');
    // The list's row shows first; the page's own record (with its text) replaces it.
    await expect.poll(() => body.inputValue()).toContain('##');
    const before = await body.inputValue();
    await body.fill(`${before}\n\n**${sentence}**`);
    // The preview: the storefront's rendering of the new text.
    await page
      .getByRole('region', { name: 'Предпросмотр страницы' })
      .locator('strong', { hasText: sentence })
      .waitFor();
    await shot(page, 'admin-content-edit-1280');
    await page.getByRole('button', { name: 'Сохранить' }).click();
    await page
      .getByText(/Элемент обновлен|обновл/i)
      .first()
      .waitFor();

    const guest = await shopper.newPage(DESKTOP);
    await guest.goto('/warranty/');
    await expect
      .poll(
        async () => {
          await guest.reload();
          return textOf(guest);
        },
        { timeout: 15_000 },
      )
      .toContain(sentence);

    // A redirect: made, then pointed elsewhere.
    const from = `/e2e-staroe-${stamp}/`;
    await page.goto('/admin/redirects/create');
    await page.getByRole('textbox', { name: 'Старый адрес' }).waitFor();
    await page.waitForLoadState('networkidle');
    await page.getByRole('textbox', { name: 'Старый адрес' }).fill(from);
    await page.getByRole('textbox', { name: 'Новый адрес' }).fill('/about/');
    await page.getByRole('button', { name: 'Сохранить' }).click();
    await page.waitForURL(/\/admin\/redirects$/);
    await page.getByRole('textbox', { name: 'Адрес', exact: true }).fill(from);
    const row = page.getByRole('cell', { name: from, exact: true });
    await row.waitFor();
    await shot(page, 'admin-redirects-list-1280');
    await row.click();
    const to = page.getByRole('textbox', { name: 'Новый адрес' });
    await to.waitFor();
    await page.waitForLoadState('networkidle');
    // A loop is refused with the server's words, nothing saved.
    await to.fill(from);
    await page.getByRole('button', { name: 'Сохранить' }).click();
    await page
      .getByText(/зациклится/)
      .first()
      .waitFor();
    await to.fill('/warranty/');
    await page.getByRole('button', { name: 'Сохранить' }).click();
    await page
      .getByText(/Элемент обновлен|обновл/i)
      .first()
      .waitFor();
    await shot(page, 'admin-redirect-edit-1280');

    await expect
      .poll(
        async () => {
          await guest.goto(from);
          return new URL(guest.url()).pathname;
        },
        { timeout: 15_000 },
      )
      .toBe('/warranty/');
    expect(await textOf(guest)).toContain(sentence);

    // The bulk import's dry run with a bad line (screenshots; the rules are the API test's).
    await page.goto('/admin/redirect-import');
    await page.getByRole('textbox', { name: 'Строки' }).waitFor();
    await page.waitForLoadState('networkidle');
    await page
      .getByRole('textbox', { name: 'Строки' })
      .fill(`/e2e-a-${stamp}/;/delivery/\n/about/;/x/\n/e2e-b-${stamp}/;https://t.me/vitrina_brand;302`);
    await page.getByRole('button', { name: 'Проверить' }).click();
    await page.getByText('Строка 2: Это адрес информационной страницы', { exact: false }).waitFor();
    expect(await page.getByRole('button', { name: 'Записать все' }).isDisabled()).toBe(true);
    await shot(page, 'admin-redirect-import-1280');

    if (process.env.SHOTS_DIR) {
      const phone = await samePageAt(shopper, shop, cookie, MOBILE);
      for (const [url, name] of [
        ['/admin/content', 'admin-content-list-390'],
        [`/admin/content/${warranty?.id}`, 'admin-content-edit-390'],
        ['/admin/page-meta', 'admin-page-meta-list-390'],
        [`/admin/page-meta/${encodeURIComponent('/about/')}`, 'admin-page-meta-edit-390'],
        ['/admin/redirects', 'admin-redirects-list-390'],
      ] as const) {
        await phone.goto(url);
        await phone.waitForLoadState('networkidle');
        await shot(phone, name);
      }
      for (const [url, name] of [
        ['/admin/page-meta', 'admin-page-meta-list-1280'],
        [`/admin/page-meta/${encodeURIComponent('/about/')}`, 'admin-page-meta-edit-1280'],
      ] as const) {
        await page.goto(url);
        await page.waitForLoadState('networkidle');
        await shot(page, name);
      }
    }
    expect(errors).toEqual([]);
  });
});
