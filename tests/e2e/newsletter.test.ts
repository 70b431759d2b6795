import path from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { newsletterSubscriptions } from '~/db/schema';
import { lastMailTo } from '~/integrations/mail/offline.server';
import { NEWSLETTER_CONFIRM_TAG, NEWSLETTER_WELCOME_TAG } from '~/core/newsletter';
import { DESKTOP, MOBILE, setUpBrowserShop } from '~/tests/support/browser';

// SPEC §4 Newsletter form in the footer, as a shopper uses it: idle, loading (the button busy),
// success (the form gives way to the server's message) and error (the server's text above the
// field, the form and what was typed stay). What the shop wrote is checked in its database and
// its mail outbox. Issue #26: double opt-in through the letter's link, and unsubscribing from
// the welcome letter's link, by its page and by a mail client's one-click POST.

const { shop, it } = setUpBrowserShop();

const CHECK_MAIL = 'Почти готово! Мы отправили письмо на ваш адрес — подтвердите подписку по ссылке в нём.';

async function statusOf(email: string) {
  const rows = await shop.database.db
    .select()
    .from(newsletterSubscriptions)
    .where(eq(newsletterSubscriptions.email, email));
  return rows[0]?.status;
}

/** The link to the shop's `page` in the newest letter of `tag` to `to`, as a path. */
async function linkIn(to: string, tag: string, page: 'confirm' | 'unsubscribe'): Promise<string> {
  const letter = await lastMailTo(path.join(shop.dataDir, 'outbox'), to, tag);
  const match = new RegExp(`http://shop\\.test(/newsletter/${page}/\\?token=[A-Za-z0-9_-]+)`).exec(letter?.text ?? '');
  expect(match, letter?.text).not.toBeNull();
  return match![1]!;
}

function poll<T>(fn: () => T | Promise<T>) {
  return expect.poll(fn, { timeout: 15_000, interval: 100 });
}

function newsletter(page: Page) {
  const footer = page.getByRole('contentinfo');
  const form = footer.getByRole('form', { name: 'Подписка на рассылку' });
  return {
    footer,
    form,
    email: form.getByRole('textbox', { name: 'Электронная почта' }),
    submit: form.getByRole('button', { name: 'Подписаться' }),
    error: form.getByRole('alert'),
    status: footer.getByRole('status'),
  };
}

/** Holds the page's subscription calls until `release()`: the loading state stays on screen meanwhile. */
async function holdSubscriptions(page: Page) {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  let seen = 0;
  await page.route('**/api/personal/subscribe_form.php', async (route) => {
    seen++;
    await held;
    await route.continue();
  });
  return { release, seen: () => seen };
}

describe('newsletter form', () => {
  it('subscribes: loading while the server answers, then its message in place of the form, and one letter', async ({
    shopper,
  }) => {
    const { page } = await shopper.open('/about/', DESKTOP);
    const nl = newsletter(page);
    await nl.email.fill('Olga.Footer@Example.com');
    const hold = await holdSubscriptions(page);
    await nl.submit.click();

    await poll(hold.seen).toBe(1);
    expect(await nl.submit.getAttribute('aria-busy')).toBe('true');
    expect(await nl.submit.isDisabled()).toBe(true);
    expect(await nl.form.getAttribute('aria-busy')).toBe('true');
    hold.release();

    await poll(() => nl.status.textContent()).toBe(CHECK_MAIL);
    expect(await nl.form.count()).toBe(0);
    // The keyboard stays where it was: the message took the focus of the vanished button.
    expect(await nl.status.evaluate((el) => el === document.activeElement)).toBe(true);

    const rows = await shop.database.db
      .select()
      .from(newsletterSubscriptions)
      .where(eq(newsletterSubscriptions.email, 'olga.footer@example.com'));
    expect(rows).toHaveLength(1);
    // Double opt-in: nothing but the letter with the link until it is confirmed.
    expect(rows[0]?.status).toBe('pending');
    const letter = await lastMailTo(path.join(shop.dataDir, 'outbox'), 'olga.footer@example.com');
    expect(letter?.subject).toBe('Подтвердите подписку на рассылку Vitrina');
  });

  it('on a phone, shows the server’s error above the field and keeps the form until the address is right', async ({
    shopper,
  }) => {
    const { page } = await shopper.open('/about/', MOBILE);
    const nl = newsletter(page);
    // No check in the browser (SPEC §5): the server is asked and answers.
    await nl.email.fill('ivan@');
    await nl.submit.click();
    await poll(() => nl.error.textContent()).toBe('Проверьте адрес электронной почты');
    expect(await nl.email.inputValue()).toBe('ivan@');
    expect(await nl.submit.isEnabled()).toBe(true);
    const [alertBox, fieldBox] = await Promise.all([nl.error.boundingBox(), nl.email.boundingBox()]);
    expect(alertBox && fieldBox && alertBox.y + alertBox.height <= fieldBox.y).toBe(true);
    // The form fits the phone's width.
    const submitBox = await nl.submit.boundingBox();
    expect(submitBox && submitBox.x + submitBox.width <= MOBILE.width).toBe(true);

    await nl.email.fill('ivan@example.com');
    await nl.submit.click();
    await poll(() => nl.status.textContent()).toBe(CHECK_MAIL);
    expect(await nl.error.count()).toBe(0);
  });

  it('shows the server’s message for an address already subscribed, and a general error when the server fails', async ({
    shopper,
  }) => {
    const subscribed = await fetch(`${shop.baseUrl}/backend/api/personal/subscribe_form.php`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=masha%40example.com',
    });
    expect(await subscribed.json()).toEqual({ message: CHECK_MAIL });
    await fetch(`${shop.baseUrl}/backend/api/newsletter/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `token=${new URL(`http://x${await linkIn('masha@example.com', NEWSLETTER_CONFIRM_TAG, 'confirm')}`).searchParams.get('token')}`,
    });

    const { page } = await shopper.open('/about/', MOBILE);
    const nl = newsletter(page);
    await page.route(
      '**/api/personal/subscribe_form.php',
      (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"x"}' }),
      {
        times: 1,
      },
    );
    await nl.email.fill('Masha@example.com');
    await nl.submit.click();
    await poll(() => nl.error.textContent()).toBe('Произошла ошибка на сервере. Пожалуйста, попробуйте позже.');

    await nl.submit.click();
    await poll(() => nl.status.textContent()).toBe('Этот адрес уже подписан на рассылку');
  });

  for (const viewport of [MOBILE, DESKTOP]) {
    it(`at ${viewport.width} px: the letter's link confirms only by its button, the welcome letter's link unsubscribes`, async ({
      shopper,
    }) => {
      const email = `nina${viewport.width}@example.com`;
      const { page } = await shopper.open('/about/', viewport);
      const nl = newsletter(page);
      await nl.email.fill(email);
      await nl.submit.click();
      await poll(() => nl.status.textContent()).toBe(CHECK_MAIL);

      // Opening the link (as a mail scanner would) changes nothing; the button confirms.
      await page.goto(await linkIn(email, NEWSLETTER_CONFIRM_TAG, 'confirm'));
      await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Подписка на рассылку');
      expect(await page.getByText(`на адрес ni***@example.com`).count()).toBe(1);
      expect(await statusOf(email)).toBe('pending');
      const confirm = page.getByRole('button', { name: 'Подтвердить подписку' });
      const box = await confirm.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= viewport.width).toBe(true);
      await confirm.click();
      await poll(() => page.getByRole('main').getByRole('status').textContent()).toBe(
        'Спасибо! Вы подписались на рассылку Vitrina.',
      );
      expect(await statusOf(email)).toBe('confirmed');

      await page.goto(await linkIn(email, NEWSLETTER_WELCOME_TAG, 'unsubscribe'));
      await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Отписка от рассылки');
      expect(await statusOf(email)).toBe('confirmed');
      await page.getByRole('button', { name: 'Отписаться' }).click();
      await poll(() => page.getByRole('main').getByRole('status').textContent()).toBe(
        'Вы отписались от рассылки Vitrina. Писем с новостями больше не будет.',
      );
      expect(await statusOf(email)).toBe('unsubscribed');
    });
  }

  it('unsubscribes by a mail client’s one-click POST to the List-Unsubscribe address: no login, no cookie, no form token', async () => {
    const email = 'oneclick@example.com';
    const post = (url: string, body: string, type: string) =>
      fetch(url, { method: 'POST', redirect: 'manual', headers: { 'content-type': type }, body });
    await post(
      `${shop.baseUrl}/backend/api/personal/subscribe_form.php`,
      `email=${email}`,
      'application/x-www-form-urlencoded',
    );
    const confirmPath = await linkIn(email, NEWSLETTER_CONFIRM_TAG, 'confirm');
    expect((await post(`${shop.baseUrl}${confirmPath}`, '', 'application/x-www-form-urlencoded')).status).toBe(200);
    expect(await statusOf(email)).toBe('confirmed');

    const welcome = await lastMailTo(path.join(shop.dataDir, 'outbox'), email, NEWSLETTER_WELCOME_TAG);
    expect(welcome?.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    const target = /^<http:\/\/shop\.test(\/newsletter\/unsubscribe\/\?token=[A-Za-z0-9_-]+)>$/.exec(
      welcome?.headers['list-unsubscribe'] ?? '',
    )?.[1];
    expect(target).toBeTruthy();
    // A GET (a link scanner) leaves the subscription alone.
    expect((await fetch(`${shop.baseUrl}${target}`, { redirect: 'manual' })).status).toBe(200);
    expect(await statusOf(email)).toBe('confirmed');
    // RFC 8058 §3.1: the body is "List-Unsubscribe=One-Click", form-encoded or multipart.
    const boundary = 'x-boundary';
    const res = await post(
      `${shop.baseUrl}${target}`,
      `--${boundary}\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--${boundary}--\r\n`,
      `multipart/form-data; boundary=${boundary}`,
    );
    expect(res.status).toBe(200);
    expect(await statusOf(email)).toBe('unsubscribed');
    expect(
      (await post(`${shop.baseUrl}${target}`, 'List-Unsubscribe=One-Click', 'application/x-www-form-urlencoded'))
        .status,
    ).toBe(200);
    expect(await statusOf(email)).toBe('unsubscribed');
  });
});
