// Screenshots of pages at phone (390) and desktop (1280) widths, for a look before calling
// work done: node --import tsx scripts/screenshots.ts OUT_DIR /path/ /other/path/ ...
// `--cookie name=value` (repeatable) sets a cookie first, e.g. a basket: --cookie cart=201:1,305:2
// `--login PHONE` logs the browser in as that customer (made when new) first.
// `--checkout` shoots the checkout (needs a basket cookie): the form with the Moscow courier, the
// pickup modal's list and map (Saint Petersburg), and the order-placed page after ordering.
// `--payment` shoots the card payment (needs --login and a basket cookie): /basket/pay/, the
// offline widget open, /basket/bad/ after a decline, and the paid order after paying.
// `--chat` shoots each path as it is on screen 25 s after load, when the stylist chat may have
// opened by itself (the page's clock is moved on, nothing waits 25 s): '…_chat.png' files.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { startTestShop } from '~/tests/support/server';
import { DESKTOP, launchBrowser, login, MOBILE, newShopperContext, StorefrontPage } from '~/tests/support/browser';

const args = process.argv.slice(2);
const cookies: { name: string; value: string }[] = [];
for (let i = args.indexOf('--cookie'); i !== -1; i = args.indexOf('--cookie')) {
  const [name = '', ...value] = (args[i + 1] ?? '').split('=');
  cookies.push({ name, value: encodeURIComponent(value.join('=')) });
  args.splice(i, 2);
}
let loginPhone: string | null = null;
const loginAt = args.indexOf('--login');
if (loginAt !== -1) loginPhone = args.splice(loginAt, 2)[1] ?? null;
const checkoutAt = args.indexOf('--checkout');
const checkout = checkoutAt !== -1;
if (checkout) args.splice(checkoutAt, 1);
const paymentAt = args.indexOf('--payment');
const payment = paymentAt !== -1;
if (payment) args.splice(paymentAt, 1);
const chatAt = args.indexOf('--chat');
const chat = chatAt !== -1;
if (chat) args.splice(chatAt, 1);
const [outDir = 'tmp/shots', ...paths] = args;
const targets =
  checkout || payment ? [] : paths.length ? paths : ['/', '/catalog/woman/denim/', '/about/', '/no-such-page/'];
const fullPage = process.env.FULL_PAGE !== '0';

fs.mkdirSync(outDir, { recursive: true });
const shop = await startTestShop({ withStorefront: true });
const browser = await launchBrowser();
try {
  for (const [label, viewport] of [
    ['mobile', MOBILE],
    ['desktop', DESKTOP],
  ] as const) {
    const context = await newShopperContext(browser, shop.baseUrl, viewport);
    await context.addCookies(cookies.map((c) => ({ ...c, url: shop.baseUrl })));
    // A customer of each width: the first one's order empties the basket the second one needs.
    if (loginPhone) await login(context, shop, `${loginPhone.slice(0, -1)}${label === 'mobile' ? 1 : 2}`);
    const page = await context.newPage();
    if (chat) await page.clock.install();
    if (checkout) await shootCheckout(page, label);
    if (payment) await shootPayment(page, label);
    for (const target of targets) {
      await new StorefrontPage(page).goto(target);
      // Rows drawn only near the screen (`content-visibility: auto`) would be blank in a
      // full-page picture: drawn all at once here, as they are while a shopper scrolls.
      if (fullPage) await page.addStyleTag({ content: '* { content-visibility: visible !important; }' });
      // Every lazy image loaded, so the picture is what a shopper sees after scrolling.
      await page.evaluate(async () => {
        for (const img of Array.from(document.images)) img.loading = 'eager';
        await Promise.all(
          Array.from(document.images).map((img) =>
            img.complete ? null : new Promise((r) => img.addEventListener('load', r, { once: true })),
          ),
        );
        // Decoded too: a photo of a row drawn only now would otherwise be captured blank.
        await Promise.all(Array.from(document.images).map((img) => img.decode().catch(() => {})));
      });
      if (chat) {
        await page.clock.runFor(26_000);
        await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
      }
      const file = path.join(outDir, `${label}${target.replace(/[^a-z0-9]+/gi, '_')}${chat ? '_chat' : ''}.png`);
      await page.screenshot({ path: file, fullPage: fullPage && !chat });
      console.log(file);
    }
    await context.close();
  }
} finally {
  await browser.close();
  await shop.close();
}

async function shot(page: Page, label: string, name: string, full = fullPage) {
  // Modals slide in: the picture is taken once they are in place.
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
  const file = path.join(outDir, `${label}_${name}.png`);
  await page.screenshot({ path: file, fullPage: full });
  console.log(file);
}

/** The checkout's states, as a shopper gets to them (roles and names, as the browser tests do). */
async function shootCheckout(page: Page, label: string) {
  const form = page.getByRole('region', { name: 'Оформление заказа' });
  await new StorefrontPage(page).goto('/basket/');
  await form.getByRole('textbox', { name: 'Имя', exact: true }).fill('Анна');
  await form.getByRole('textbox', { name: 'Фамилия', exact: true }).fill('Покупкина');
  await form.getByRole('textbox', { name: 'E-mail', exact: true }).fill('anna@example.ru');
  await form.getByRole('radio', { name: /^Курьером по Москве/ }).check();
  await form.getByRole('combobox', { name: 'Улица' }).pressSequentially('Тверская');
  await form.getByRole('listbox', { name: 'Подсказки адреса' }).getByRole('option').first().click();
  await form.getByRole('textbox', { name: 'Дом', exact: true }).fill('12');
  await form.getByRole('radio', { name: /^При получении/ }).check();
  await shot(page, label, 'basket_checkout_courier');
  // The form's own part of the page, as the shopper sees it on screen with the submit bar.
  await form.getByRole('textbox', { name: 'Имя', exact: true }).scrollIntoViewIfNeeded();
  await shot(page, label, 'basket_checkout_viewport', false);

  await form.getByRole('combobox', { name: 'Город' }).fill('Санкт');
  await form
    .getByRole('listbox', { name: 'Города' })
    .getByRole('option', { name: /^Санкт-Петербург/ })
    .click();
  await form.getByRole('radio', { name: /^Пункт выдачи СДЭК/ }).check();
  await form.getByRole('button', { name: 'Выбрать пункт выдачи' }).click();
  const dialog = page.getByRole('dialog', { name: 'Выберите пункт выдачи' });
  await dialog.getByRole('list', { name: 'Пункты выдачи' }).getByRole('button').first().waitFor();
  await shot(page, label, 'pickup_list', false);
  await dialog.getByRole('button', { name: 'На карте' }).click();
  await dialog.getByRole('region', { name: 'Карта пунктов выдачи' }).getByRole('button').first().waitFor();
  await page.waitForFunction(
    () => document.querySelector('[aria-label="Карта пунктов выдачи"]')?.getAttribute('aria-busy') !== 'true',
  );
  await shot(page, label, 'pickup_map', false);
  await dialog.getByRole('button', { name: 'Списком' }).click();
  await dialog.getByRole('list', { name: 'Пункты выдачи' }).getByRole('button').first().click();
  await dialog.getByRole('button', { name: 'Выбрать пункт выдачи' }).click();
  await dialog.waitFor({ state: 'detached' });
  await shot(page, label, 'basket_checkout_pickup');

  await form.getByRole('button', { name: 'Оформить заказ' }).click();
  // Saint Petersburg has card payment only: the order goes on to its payment.
  await page.waitForURL(/\/basket\/(submited-order|pay)\//);
  if (page.url().includes('/basket/pay/'))
    await page.goto(page.url().replace('/basket/pay/', '/basket/submited-order/'));
  await page.getByRole('heading', { name: 'Заказ оформлен' }).waitFor();
  await shot(page, label, 'order_placed');
}

/** The card payment as a shopper goes through it: pay page, the widget, a decline, the paid order. */
async function shootPayment(page: Page, label: string) {
  const form = page.getByRole('region', { name: 'Оформление заказа' });
  await new StorefrontPage(page).goto('/basket/');
  await form.getByRole('textbox', { name: 'Имя', exact: true }).fill('Анна');
  await form.getByRole('textbox', { name: 'Фамилия', exact: true }).fill('Покупкина');
  await form.getByRole('textbox', { name: 'E-mail', exact: true }).fill('anna@example.ru');
  await form.getByRole('radio', { name: /^Курьером по Москве/ }).check();
  // A suggestion chosen, as in the checkout's shots: an open suggestion list covers the form.
  await form.getByRole('combobox', { name: 'Улица' }).pressSequentially('Тверская');
  await form.getByRole('listbox', { name: 'Подсказки адреса' }).getByRole('option').first().click();
  await form.getByRole('textbox', { name: 'Дом', exact: true }).fill('12');
  await form.getByRole('radio', { name: /^Банковской картой онлайн/ }).check();
  await form.getByRole('button', { name: 'Оформить заказ' }).click();
  await page.waitForURL(/\/basket\/pay\/\?order=/);
  await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' });
  const orderId = new URL(page.url()).searchParams.get('order');
  await shot(page, label, 'basket_pay');
  const payButton = page.getByRole('main').getByRole('button', { name: 'Оплатить', exact: true });
  await payButton.click();
  const widget = page
    .getByRole('dialog', { name: 'Оплата картой' })
    .getByTitle('Оплата картой')
    .contentFrame()
    .locator('body');
  await widget.getByRole('button', { name: 'Отклонить' }).waitFor();
  await shot(page, label, 'basket_pay_widget', false);
  await widget.getByRole('button', { name: 'Отклонить' }).click();
  await page.waitForURL(/\/basket\/bad\//);
  await page.getByRole('heading', { name: 'Оплата не прошла' }).waitFor();
  await shot(page, label, 'basket_bad');
  // The order page of the unpaid order offers the payment.
  await new StorefrontPage(page).goto(`/basket/submited-order/?order=${orderId}`);
  await shot(page, label, 'order_awaiting_payment');
  await new StorefrontPage(page).goto(`/basket/pay/?order=${orderId}`);
  await payButton.click();
  await widget.getByRole('button', { name: 'Оплатить' }).click();
  await widget.getByRole('textbox', { name: 'Код из SMS' }).fill('1234');
  await shot(page, label, 'basket_pay_3ds', false);
  await widget
    .getByRole('button', { name: /Подтвердить|Оплатить|Продолжить/ })
    .first()
    .click();
  await page.waitForURL(/\/basket\/submited\/cloud-payments\//);
  await page.getByRole('heading', { name: 'Заказ оплачен' }).waitFor();
  await shot(page, label, 'basket_paid');
}
