import path from 'node:path';
import { describe, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { lastMailTo } from '~/integrations/mail/offline.server';
import { EMAIL_LOGIN_TAG } from '~/core/email-login';
import { TEST_ACCOUNT } from '~/db/seed/seed.server';
import { MOBILE, setUpBrowserShop, StorefrontPage, waitForHydration, type Shopper } from '~/tests/support/browser';

// Login by e-mail at /auth/email/, as a shopper does it: the test account's address, the code
// the offline mail outbox received, /personal/ after. An unknown address sees the very same
// code step (its letter says no account uses it). Roles and names only, no fixed waits.

const { shop, it } = setUpBrowserShop();

function poll<T>(fn: () => T | Promise<T>) {
  return expect.poll(fn, { timeout: 15_000, interval: 100 });
}

/** The newest letter of `tag` to the address, once it is in the outbox. */
async function letterTo(email: string, tag: string) {
  let text = '';
  await poll(async () => {
    text = (await lastMailTo(path.join(shop.dataDir, 'outbox'), email, tag))?.text ?? '';
    return text;
  }).not.toBe('');
  return text;
}

async function codeFor(email: string): Promise<string> {
  const code = /(\d{6})/.exec(await letterTo(email, EMAIL_LOGIN_TAG.code))?.[1] ?? '';
  expect(code).toMatch(/^\d{6}$/);
  return code;
}

class EmailLoginPage extends StorefrontPage {
  email() {
    // The footer's newsletter field has the same name: the form is the one in the page's main.
    return this.page.getByRole('main').getByRole('textbox', { name: 'Электронная почта' });
  }
  sendButton() {
    return this.page.getByRole('button', { name: 'Получить код' });
  }
  boxes() {
    return this.page.getByRole('group', { name: 'Код из письма' }).getByRole('textbox');
  }
  loginButton() {
    return this.page.getByRole('button', { name: 'Войти' });
  }
  async askForCode(email: string) {
    await this.email().fill(email);
    await this.sendButton().click();
    await poll(() => this.boxes().count()).toBe(6);
  }
}

async function openEmailLogin(shopper: Shopper, page?: Page): Promise<EmailLoginPage> {
  const view = new EmailLoginPage(page ?? (await shopper.newPage()));
  await view.goto('/auth/email/');
  return view;
}

describe('login by e-mail', () => {
  it('the test account types its address, gets the code by e-mail and lands on /personal/', async ({ shopper }) => {
    const view = await openEmailLogin(shopper);
    expect(await view.heading().textContent()).toBe('Вход по e-mail');
    // The button waits for something that looks like an address.
    await view.email().pressSequentially('test@vitrina');
    expect(await view.sendButton().isDisabled()).toBe(true);
    await view.email().pressSequentially('.example');
    await view.sendButton().click();
    await poll(() => view.boxes().count()).toBe(6);
    expect(await view.page.getByRole('main').textContent()).toContain(`Код отправлен на ${TEST_ACCOUNT.email}`);
    await poll(() => view.page.getByText(/^Получить новый код через: \d+ сек\.$/).isVisible()).toBe(true);
    expect(await view.page.getByText(/программы лояльности/).isVisible()).toBe(true);

    const code = await codeFor(TEST_ACCOUNT.email);
    await view.boxes().first().click();
    await view.page.keyboard.type(code.slice(0, 3));
    expect(await view.loginButton().isDisabled()).toBe(true);
    await view.page.keyboard.type(code.slice(3, 4));
    // SPEC §5: enabled from four digits.
    expect(await view.loginButton().isEnabled()).toBe(true);
    await view.page.keyboard.type(code.slice(4));
    await view.loginButton().click();

    await view.page.waitForURL('**/personal/');
    await poll(() => view.heading().textContent()).toBe('Личный кабинет');
    expect(await view.page.getByRole('main').textContent()).toContain('+7 (999)');
    const cookies = await view.page.context().cookies();
    expect(cookies.find((c) => c.name === 'token')?.httpOnly).toBe(true);
    expect(await view.page.evaluate(() => document.cookie)).not.toMatch(/(^|; )token=/);
  });

  it('an unknown address sees the same code step, also after a reload; its letter offers the phone login; a code is wrong', async ({
    shopper,
  }) => {
    const stranger = `stranger${Date.now()}@example.ru`;
    const view = await openEmailLogin(shopper);
    await view.askForCode(stranger);
    expect(await view.page.getByRole('main').textContent()).toContain(`Код отправлен на ${stranger}`);
    expect(await letterTo(stranger, EMAIL_LOGIN_TAG.noAccount)).toContain('/auth/');
    // A reload within 59 s shows the code step again, as the phone login does.
    await view.page.reload();
    await waitForHydration(view.page);
    await poll(() => view.boxes().count()).toBe(6);
    expect(await view.page.getByRole('main').textContent()).toContain(`Код отправлен на ${stranger}`);

    await view.boxes().first().click();
    await view.page.keyboard.type('123456');
    await view.loginButton().click();
    await poll(() => view.page.getByRole('alert').textContent()).toBe('Неверный код');

    // «Изменить адрес» goes back to the address, kept in the field.
    await view.page.getByRole('button', { name: 'Изменить адрес' }).click();
    await poll(() => view.email().inputValue()).toBe(stranger);
  });

  it('links the two logins both ways', async ({ shopper }) => {
    const { page, store } = await shopper.open('/auth/');
    await page.getByRole('link', { name: 'Войти по e-mail' }).click();
    await page.waitForURL('**/auth/email/');
    await poll(() => store.heading().textContent()).toBe('Вход по e-mail');
    await page.getByRole('link', { name: 'Войти по номеру телефона' }).click();
    await page.waitForURL('**/auth/');
    await poll(() => page.getByRole('textbox', { name: 'Номер телефона' }).isVisible()).toBe(true);
  });

  it('works on a phone screen with a long address', async ({ shopper }) => {
    const view = await openEmailLogin(shopper, await shopper.newPage(MOBILE));
    await view.askForCode(`a-very-long-address-for-a-narrow-screen.${Date.now()}@example.ru`);
    expect(await view.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);
  });
});
