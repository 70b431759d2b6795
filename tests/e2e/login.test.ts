import path from 'node:path';
import { describe, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { readSmsOutbox } from '~/integrations/sms/offline.server';
import {
  DESKTOP,
  login,
  MOBILE,
  setUpBrowserShop,
  StorefrontPage,
  waitForHydration,
  type Shopper,
} from '~/tests/support/browser';
import { productPicker } from '~/tests/support/catalogue';

// Issue "login and account", as a shopper does it: log in by phone with the code the offline
// SMS outbox received, the code step surviving a reload, wrong codes, logging out here and on
// every device. Roles and names only, no fixed waits.

const { shop, it } = setUpBrowserShop();

function poll<T>(fn: () => T | Promise<T>) {
  return expect.poll(fn, { timeout: 15_000, interval: 100 });
}

let seq = 0;
/** A phone of its own for each test: the send limits count per phone. */
const freshPhone = () => `7916${String(5_000_000 + ++seq * 7919).padStart(7, '0')}`;

async function codeFor(phone: string): Promise<string> {
  let code = '';
  await poll(async () => {
    const sms = (await readSmsOutbox(path.join(shop.dataDir, 'outbox'))).filter(
      (m) => m.phone === phone && m.tag === 'login-code',
    );
    code = /(\d{6})/.exec(sms.at(-1)?.text ?? '')?.[1] ?? '';
    return code;
  }).toMatch(/^\d{6}$/);
  return code;
}

class LoginPage extends StorefrontPage {
  phone() {
    return this.page.getByRole('textbox', { name: 'Номер телефона' });
  }
  sendButton() {
    return this.page.getByRole('button', { name: 'Получить смс код' });
  }
  boxes() {
    return this.page.getByRole('group', { name: 'Код из СМС' }).getByRole('textbox');
  }
  loginButton() {
    return this.page.getByRole('button', { name: 'Войти' });
  }
  async askForCode(phone: string) {
    await this.phone().pressSequentially(phone.slice(1));
    await this.sendButton().click();
    await poll(() => this.boxes().count()).toBe(6);
  }
}

async function openLogin(shopper: Shopper, page?: Page): Promise<LoginPage> {
  const view = new LoginPage(page ?? (await shopper.newPage()));
  await view.goto('/auth/');
  return view;
}

describe('login by phone', () => {
  it('sends a code, logs in with it, keeps the token from scripts, and logs out', async ({ shopper }) => {
    const phone = freshPhone();
    const view = await openLogin(shopper);
    // SPEC §5: the button waits for the whole mask.
    await view.phone().pressSequentially(phone.slice(1, 8));
    expect(await view.sendButton().isDisabled()).toBe(true);
    await view.phone().pressSequentially(phone.slice(8));
    expect(await view.phone().inputValue()).toBe(
      `+7 (${phone.slice(1, 4)}) ${phone.slice(4, 7)}-${phone.slice(7, 9)}-${phone.slice(9)}`,
    );
    await view.sendButton().click();
    await poll(() => view.boxes().count()).toBe(6);
    await poll(() => view.page.getByText(/^Получить новый код через: \d+ сек\.$/).isVisible()).toBe(true);
    expect(await view.page.getByText(/программы лояльности/).isVisible()).toBe(true);

    const code = await codeFor(phone);
    await view.boxes().first().click();
    await view.page.keyboard.type(code.slice(0, 3));
    expect(await view.loginButton().isDisabled()).toBe(true);
    await view.page.keyboard.type(code.slice(3, 4));
    // SPEC §5: enabled from four digits.
    expect(await view.loginButton().isEnabled()).toBe(true);
    await view.page.keyboard.type(code.slice(4));
    expect(await view.boxes().evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value).join(''))).toBe(code);
    await view.loginButton().click();

    await view.page.waitForURL('**/personal/');
    await poll(() => view.page.getByRole('heading', { level: 1 }).textContent()).toBe('Личный кабинет');
    expect(await view.page.getByRole('main').textContent()).toContain(`+7 (${phone.slice(1, 4)})`);
    const cookies = await view.page.context().cookies();
    expect(cookies.find((c) => c.name === 'token')?.httpOnly).toBe(true);
    expect(await view.page.evaluate(() => document.cookie)).not.toMatch(/(^|; )token=/);
    await poll(() => view.page.getByRole('banner').getByRole('link', { name: 'Аккаунт' }).count()).toBeGreaterThan(0);

    await view.page.getByRole('main').getByRole('button', { name: 'Выйти', exact: true }).click();
    await view.page.waitForURL('**/auth/');
    expect((await view.page.context().cookies()).find((c) => c.name === 'token')).toBeUndefined();
    await view.page.goto('/personal/');
    expect(new URL(view.page.url()).pathname).toBe('/auth/');
  });

  it('says a wrong code is wrong, above the boxes, and fills all boxes from a paste', async ({ shopper }) => {
    const phone = freshPhone();
    const view = await openLogin(shopper);
    await view.askForCode(phone);
    const code = await codeFor(phone);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    await view.boxes().first().click();
    await view.page.keyboard.type(wrong);
    await view.loginButton().click();
    await poll(() => view.page.getByRole('alert').textContent()).toBe('Неверный код');

    // Paste into the third box: a whole code fills every box.
    await view
      .boxes()
      .nth(2)
      .evaluate((el, text) => {
        const data = new DataTransfer();
        data.setData('text', text);
        el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
      }, code);
    await poll(() => view.boxes().evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value).join(''))).toBe(
      code,
    );
    // Backspace in an empty box goes back.
    await view.boxes().last().click();
    await view.page.keyboard.press('Backspace');
    await view.page.keyboard.press('Backspace');
    expect(await view.boxes().evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value).join(''))).toBe(
      code.slice(0, 4),
    );
  });

  it('shows the code step again after a reload within 59 seconds', async ({ shopper }) => {
    const phone = freshPhone();
    const view = await openLogin(shopper);
    await view.askForCode(phone);
    await view.page.reload();
    // A button works once the page is hydrated; a click before that is lost (CI's failure).
    await waitForHydration(view.page);
    await poll(() => view.boxes().count()).toBe(6);
    expect(await view.page.getByRole('main').textContent()).toContain(`+7 (${phone.slice(1, 4)})`);
    // «Изменить номер» goes back to the phone.
    await view.page.getByRole('button', { name: 'Изменить номер' }).click();
    await poll(() => view.phone().isVisible()).toBe(true);
  });

  for (const viewport of [MOBILE, DESKTOP])
    it(`reloads the code step without a hydration error and empties the boxes after a wrong code, at ${viewport.width} px (issue #26)`, async ({
      shopper,
    }) => {
      const page = await shopper.newPage(viewport);
      const errors: string[] = [];
      page.on('pageerror', (err) => errors.push(err.message));
      page.on('console', (msg) => {
        if (msg.type() === 'error') errors.push(msg.text());
      });
      // The browser's clock 1.5 s ahead of the server's: the countdown may not read the browser's clock at hydration.
      await page.clock.install({ time: Date.now() + 1_500 });
      const phone = freshPhone();
      const view = await openLogin(shopper, page);
      await view.askForCode(phone);
      await page.reload();
      await waitForHydration(page);
      await poll(() => view.boxes().count()).toBe(6);
      expect(errors.filter((e) => /hydrat|did ?n[o']t match/i.test(e))).toEqual([]);
      const seconds = Number(/через: (\d+) сек/.exec((await page.getByRole('main').textContent()) ?? '')?.[1]);
      expect(seconds).toBeGreaterThan(45);
      expect(seconds).toBeLessThanOrEqual(59);

      const code = await codeFor(phone);
      const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
      await view.boxes().first().click();
      await page.keyboard.type(wrong);
      await view.loginButton().click();
      await poll(() => page.getByRole('alert').textContent()).toBe('Неверный код');
      await poll(() => view.boxes().evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value).join(''))).toBe(
        '',
      );
      expect(
        await view
          .boxes()
          .first()
          .evaluate((el) => el === document.activeElement),
      ).toBe(true);
      // The right code typed at once logs in.
      await page.keyboard.type(code);
      await view.loginButton().click();
      await page.waitForURL('**/personal/');
    });

  for (const viewport of [MOBILE, DESKTOP])
    it(`at login keeps what the guest viewed and adds the favourite whose heart asked for it, at ${viewport.width} px (issue #26)`, async ({
      shopper,
    }) => {
      const picker = productPicker(shop);
      const seen = await picker.take(() => true, 'a product to look at');
      const liked = await picker.take(() => true, 'a product to like');
      const page = await shopper.newPage(viewport);
      const store = new StorefrontPage(page);
      // As a guest: one product looked at, then another, whose heart asks for a login.
      await store.goto(seen.DETAIL_PAGE_URL);
      await poll(async () => (await page.context().cookies()).find((c) => c.name === 'views')?.value ?? '').toContain(
        String(seen.ID),
      );
      await store.goto(liked.DETAIL_PAGE_URL);
      const heart = page.getByRole('main').getByRole('button', { name: 'Добавить в избранное' }).first();
      await heart.click();
      const dialog = page.getByRole('dialog', { name: 'Вход' });
      const phone = freshPhone();
      await dialog.getByRole('textbox', { name: 'Номер телефона' }).pressSequentially(phone.slice(1));
      await dialog.getByRole('button', { name: 'Получить смс код' }).click();
      await dialog.getByRole('group', { name: 'Код из СМС' }).getByRole('textbox').first().click();
      await page.keyboard.type(await codeFor(phone));
      await dialog.getByRole('button', { name: 'Войти', exact: true }).click();

      // Back on the product, logged in: its heart is pressed, and the guest's view is kept.
      await poll(async () => (await page.context().cookies()).find((c) => c.name === 'logged_in')?.value).toBe('1');
      await poll(() => new URL(page.url()).pathname).toBe(liked.DETAIL_PAGE_URL);
      await poll(() =>
        page
          .getByRole('main')
          .getByRole('button', { name: 'Удалить из избранного' })
          .first()
          .getAttribute('aria-pressed'),
      ).toBe('true');
      const viewed = page.getByRole('region', { name: 'Вы смотрели' });
      await poll(() => viewed.getByRole('link', { name: seen.NAME }).count()).toBeGreaterThan(0);
      // The account has them: the favourites page lists the liked product.
      await store.goto('/wishlist/');
      await poll(() => page.getByRole('main').getByRole('link', { name: liked.NAME }).count()).toBeGreaterThan(0);
    });

  it('works on a phone screen', async ({ shopper }) => {
    const phone = freshPhone();
    const view = await openLogin(shopper, await shopper.newPage(MOBILE));
    await view.askForCode(phone);
    expect(await view.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);
    await view.boxes().first().click();
    await view.page.keyboard.type(await codeFor(phone));
    await view.loginButton().click();
    await view.page.waitForURL('**/personal/');
  });
});

describe("the customer's basket", () => {
  it('joins the guest basket at login and shows it in another browser of the same customer', async ({ shopper }) => {
    const { item, offerId } = await productPicker(shop).fresh();
    const offer = { id: offerId, name: item.NAME };
    const phone = freshPhone();
    const view = await openLogin(shopper);
    await view.page.context().addCookies([{ name: 'cart', value: `${offer.id}:2`, url: shop.baseUrl }]);
    await view.askForCode(phone);
    await view.boxes().first().click();
    await view.page.keyboard.type(await codeFor(phone));
    await view.loginButton().click();
    await view.page.waitForURL('**/personal/');

    // Another browser: logged in as the same customer, with nothing in its cookies.
    const there = await shopper.newPage();
    await login(there.context(), shop, phone);
    await new StorefrontPage(there).goto('/basket/');
    const line = there
      .getByRole('main')
      .getByRole('list', { name: 'Товары в корзине' })
      .getByRole('heading', { name: offer.name });
    await poll(() => line.isVisible()).toBe(true);
    expect(
      await there
        .getByRole('main')
        .getByRole('combobox', { name: `Количество: ${offer.name}` })
        .inputValue(),
    ).toBe('2');
    // Its cookies now hold the basket too (the header counts it).
    await poll(async () => (await there.context().cookies()).find((c) => c.name === 'cart')?.value).toBe(
      encodeURIComponent(`${offer.id}:2`),
    );
  });
});

describe('sessions in the browser', () => {
  it('a forged token opens nothing', async ({ shopper }) => {
    const page = await shopper.newPage();
    await page.context().addCookies([
      { name: 'token', value: 'eyJhbGciOiJIUzI1NiJ9.eyJzaWQiOiJ4Iiwic3ViIjoiMSJ9.forged', url: shop.baseUrl },
      { name: 'logged_in', value: '1', url: shop.baseUrl },
    ]);
    await page.goto('/personal/');
    expect(new URL(page.url()).pathname).toBe('/auth/');
  });

  it('«Выйти на всех устройствах» ends the session in the other browser too', async ({ shopper }) => {
    const phone = freshPhone();
    const here = await shopper.newPage();
    const there = await shopper.newPage();
    await login(here.context(), shop, phone);
    await login(there.context(), shop, phone);
    await new StorefrontPage(there).goto('/personal/');
    expect(new URL(there.url()).pathname).toBe('/personal/');

    await new StorefrontPage(here).goto('/personal/');
    await here.getByRole('button', { name: 'Выйти на всех устройствах' }).click();
    await here.waitForURL('**/auth/');
    await there.reload();
    expect(new URL(there.url()).pathname).toBe('/auth/');
  });
});
