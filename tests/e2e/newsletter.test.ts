import path from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { newsletterSubscriptions } from '~/db/schema';
import { lastMailTo } from '~/integrations/mail/offline.server';
import { DESKTOP, MOBILE, setUpBrowserShop } from '~/tests/support/browser';

// SPEC §4 Newsletter form in the footer, as a shopper uses it: idle, loading (the button busy),
// success (the form gives way to the server's message) and error (the server's text above the
// field, the form and what was typed stay). What the shop wrote is checked in its database and
// its mail outbox.

const { shop, it } = setUpBrowserShop();

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
  it('subscribes: loading while the server answers, then its message in place of the form, and one letter', async ({ shopper }) => {
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

    await poll(() => nl.status.textContent()).toBe('Спасибо! Вы подписались на рассылку Vitrina.');
    expect(await nl.form.count()).toBe(0);
    // The keyboard stays where it was: the message took the focus of the vanished button.
    expect(await nl.status.evaluate((el) => el === document.activeElement)).toBe(true);

    const rows = await shop.database.db.select().from(newsletterSubscriptions).where(eq(newsletterSubscriptions.email, 'olga.footer@example.com'));
    expect(rows).toHaveLength(1);
    const letter = await lastMailTo(path.join(shop.dataDir, 'outbox'), 'olga.footer@example.com');
    expect(letter?.subject).toBe('Вы подписались на рассылку Vitrina');
  });

  it('on a phone, shows the server’s error above the field and keeps the form until the address is right', async ({ shopper }) => {
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
    await poll(() => nl.status.textContent()).toBe('Спасибо! Вы подписались на рассылку Vitrina.');
    expect(await nl.error.count()).toBe(0);
  });

  it('shows the server’s message for an address already subscribed, and a general error when the server fails', async ({ shopper }) => {
    const subscribed = await fetch(`${shop.baseUrl}/backend/api/personal/subscribe_form.php`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=masha%40example.com',
    });
    expect(await subscribed.json()).toEqual({ message: 'Спасибо! Вы подписались на рассылку Vitrina.' });

    const { page } = await shopper.open('/about/', MOBILE);
    const nl = newsletter(page);
    await page.route('**/api/personal/subscribe_form.php', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"x"}' }), {
      times: 1,
    });
    await nl.email.fill('Masha@example.com');
    await nl.submit.click();
    await poll(() => nl.error.textContent()).toBe('Произошла ошибка на сервере. Пожалуйста, попробуйте позже.');

    await nl.submit.click();
    await poll(() => nl.status.textContent()).toBe('Этот адрес уже подписан на рассылку');
  });
});
