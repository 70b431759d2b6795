import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { bonusLots, customers, giftCertificates, offers, orders, products } from '~/db/schema';
import { formatCertificateCode } from '~/core/gift-certificates';
import { readMailOutbox } from '~/integrations/mail/offline.server';
import {
  DESKTOP,
  login,
  MOBILE,
  setUpBrowserShop,
  waitForHydration,
  type Shopper,
  type Viewport,
} from '~/tests/support/browser';
import { productPicker } from '~/tests/support/catalogue';

// Issue #12, as a customer does it: buy an electronic gift certificate by card, get its number
// by e-mail, and pay part of a second order with it; spend bonuses at checkout. The card is paid
// through the offline CloudPayments stand-in, which notifies the shop like CloudPayments.

const { shop, it } = setUpBrowserShop();
const db = () => shop.database.db;

function poll<T>(fn: () => T | Promise<T>) {
  return expect.poll(fn, { timeout: 20_000, interval: 100 });
}

let phones = 0;
const newPhone = () => `7997${String(process.pid % 1000).padStart(3, '0')}${String(++phones).padStart(4, '0')}`;

const picker = productPicker(shop);
/** A full-price offer of 10 000 ₽ or more, not a coat nor a gift certificate; its price in kopecks. */
async function freshOffer(): Promise<{ id: number; price: number }> {
  const { offer } = await picker.fresh(
    (p) => p.PRICE.DISCOUNT_PRICE === p.PRICE.PRICE && p.PRICE.DISCOUNT_PRICE >= 10_000,
  );
  return { id: offer.ID, price: Math.round(offer.PRICE * 100) };
}

async function orderRow(id: number) {
  const [row] = await db().select().from(orders).where(eq(orders.id, id));
  return row;
}

/** Logs in with this basket and fills the checkout for the Moscow courier and card online; returns the form. */
async function checkout(
  shopper: Shopper,
  cart: string,
  viewport: Viewport = DESKTOP,
  phone = newPhone(),
  beforeVisit?: (customerId: number) => Promise<void>,
): Promise<{ page: Page; form: Locator; customerId: number }> {
  const page = await shopper.newPage(viewport);
  await page.context().addCookies([{ name: 'cart', value: encodeURIComponent(cart), url: shop.baseUrl }]);
  const { customerId } = await login(page.context(), shop, phone);
  await beforeVisit?.(customerId);
  await page.goto(`${shop.baseUrl}/basket/`);
  // Typed before React takes the page over, a controlled field would lose its text.
  await waitForHydration(page);
  const form = page.getByRole('region', { name: 'Оформление заказа' });
  await poll(() => form.isVisible()).toBe(true);
  await form.getByRole('textbox', { name: 'Имя', exact: true }).fill('Вера');
  await form.getByRole('textbox', { name: 'Фамилия', exact: true }).fill('Подаркова');
  await form.getByRole('textbox', { name: 'E-mail', exact: true }).fill('vera.gift@example.ru');
  if ((await form.getByRole('radio', { name: /^На электронную почту/ }).count()) > 0) {
    // Electronic certificates only: nothing to carry, no address.
    await form.getByRole('radio', { name: /^На электронную почту/ }).check();
  } else {
    await form.getByRole('radio', { name: /^Курьером по Москве/ }).check();
    const street = form.getByRole('combobox', { name: 'Улица' });
    await street.fill('ул Тверская');
    // The street's suggestions open a moment after typing (debounced): closed as a shopper would.
    await poll(() =>
      form.getByRole('listbox', { name: 'Подсказки адреса' }).getByRole('option').count(),
    ).toBeGreaterThan(0);
    await street.press('Escape');
    await poll(() => page.locator('.address-suggest__backdrop').isVisible()).toBe(false);
    await form.getByRole('textbox', { name: 'Дом', exact: true }).fill('12');
  }
  await form.getByRole('radio', { name: /^Банковской картой онлайн/ }).check();
  return { page, form, customerId };
}

/** Places the order and pays the rest on /basket/pay/ with the stand-in; returns the order id. */
async function placeAndPay(page: Page, form: Locator): Promise<number> {
  await form.getByRole('button', { name: 'Оформить заказ' }).click();
  await page.waitForURL(/\/basket\/pay\/\?order=\d+$/, { timeout: 15_000 });
  const orderId = Number(new URL(page.url()).searchParams.get('order'));
  await page.getByRole('main').getByRole('button', { name: 'Оплатить', exact: true }).click();
  const widget = page
    .getByRole('dialog', { name: 'Оплата картой' })
    .getByTitle('Оплата картой')
    .contentFrame()
    .locator('body');
  await widget.getByRole('button', { name: 'Оплатить' }).click();
  await widget.getByRole('textbox', { name: 'Код из SMS' }).fill('1234');
  await widget
    .getByRole('button', { name: /Подтвердить|Оплатить|Продолжить/ })
    .first()
    .click();
  await page.waitForURL(`**/basket/submited/cloud-payments/?order=${orderId}`, { timeout: 15_000 });
  await poll(async () => (await orderRow(orderId))?.status).toBe('new');
  return orderId;
}

describe('gift certificates and bonuses', () => {
  it('buys an electronic certificate by card, gets its number by e-mail, and pays part of the next order with it', async ({
    shopper,
  }) => {
    const [certOffer] = await db()
      .select({ id: offers.id })
      .from(offers)
      .innerJoin(products, eq(products.id, offers.productId))
      .where(and(eq(products.certificate, 'electronic'), eq(products.priceKopecks, 500_000)))
      .limit(1);
    if (!certOffer) throw new Error('no 5 000 ₽ electronic certificate in the seed');
    const phone = newPhone();
    const first = await checkout(shopper, `${certOffer.id}:1`, DESKTOP, phone);
    // By e-mail, the only way for it; paid online only: no «при получении».
    expect(await first.form.getByRole('radio', { name: /^Курьером по Москве/ }).count()).toBe(0);
    expect(await first.form.getByRole('radio', { name: /при получении/i }).count()).toBe(0);
    await first.page.screenshot({ path: path.join(shop.dataDir, 'checkout-e-certificate-1280.png'), fullPage: true });
    const bought = await placeAndPay(first.page, first.form);

    await poll(
      async () => (await db().select().from(giftCertificates).where(eq(giftCertificates.orderId, bought))).length,
    ).toBe(1);
    const [row] = await db().select().from(giftCertificates).where(eq(giftCertificates.orderId, bought));
    if (!row) throw new Error('no certificate issued');
    expect(row).toMatchObject({ kind: 'electronic', nominalKopecks: 500_000, balanceKopecks: 500_000 });
    const pretty = formatCertificateCode(row.code);
    await poll(async () =>
      (await readMailOutbox(path.join(shop.dataDir, 'outbox'))).some(
        (m) => m.to.includes('vera.gift@example.ru') && m.html?.includes(pretty),
      ),
    ).toBe(true);

    // The next order: the number typed at checkout takes 5 000 ₽ off; the card pays the rest.
    const offer = await freshOffer();
    // The same customer on a phone: the basket lives on the server once logged in.
    const next = await checkout(shopper, `${offer.id}:1`, MOBILE, phone, async (customerId) => {
      await db()
        .update(customers)
        .set({ cart: `${offer.id}:1`, cartRev: sql`${customers.cartRev} + 1` })
        .where(eq(customers.id, customerId));
    });
    await next.form.getByRole('textbox', { name: 'Номер подарочного сертификата' }).fill(pretty);
    await next.form.getByRole('button', { name: 'Применить' }).click();
    await poll(() => next.form.getByText(/На сертификате 5\s000\s₽/).isVisible()).toBe(true);
    await poll(() => next.form.getByText('Подарочными сертификатами').isVisible()).toBe(true);
    await next.page.screenshot({ path: path.join(shop.dataDir, 'checkout-certificate-390.png'), fullPage: true });
    const paid = await placeAndPay(next.page, next.form);
    const order = await orderRow(paid);
    expect(order).toMatchObject({ certificateKopecks: 500_000, paidKopecks: offer.price + 70_000 - 500_000 });
    const [after] = await db()
      .select({ b: giftCertificates.balanceKopecks })
      .from(giftCertificates)
      .where(eq(giftCertificates.id, row.id));
    expect(after?.b).toBe(0);
  });

  it('spends bonuses at checkout: up to 20 % of the order, shown in the summary and taken off the card payment', async ({
    shopper,
  }) => {
    const offer = await freshOffer();
    const now = Date.now();
    // 1 500 bonuses on the account before the basket opens (the page reads them as it loads).
    const { page, form } = await checkout(shopper, `${offer.id}:1`, DESKTOP, newPhone(), async (customerId) => {
      await db()
        .insert(bonusLots)
        .values({
          customerId,
          kind: 'manual',
          lotKey: 'e2e',
          amountKopecks: 150_000,
          remainingKopecks: 150_000,
          availableFrom: new Date(now - 1000),
          expiresAt: new Date(now + 86_400_000 * 30),
        });
    });
    await poll(() => form.getByText(/У вас 1\s500 бонусов/).isVisible()).toBe(true);
    await form.getByRole('button', { name: 'Списать 1500' }).click();
    await poll(() => form.getByText('Бонусами').isVisible()).toBe(true);
    await page.screenshot({ path: path.join(shop.dataDir, 'checkout-bonuses-1280.png'), fullPage: true });
    const orderId = await placeAndPay(page, form);
    expect(await orderRow(orderId)).toMatchObject({
      bonusKopecks: 150_000,
      paidKopecks: offer.price - 150_000 + 70_000,
    });
  });

  it('shows the bonuses in the account and takes the birthday once', async ({ shopper }) => {
    const page = await shopper.newPage(MOBILE);
    const { customerId } = await login(page.context(), shop, newPhone());
    const now = Date.now();
    await db()
      .insert(bonusLots)
      .values({
        customerId,
        kind: 'manual',
        lotKey: 'e2e-account',
        amountKopecks: 150_000,
        remainingKopecks: 150_000,
        availableFrom: new Date(now - 1000),
        expiresAt: new Date(now + 86_400_000 * 30),
      });
    await page.goto(`${shop.baseUrl}/personal/`);
    await waitForHydration(page);
    const section = page.getByRole('region', { name: 'Бонусы' });
    await poll(() => section.isVisible()).toBe(true);
    expect(await section.textContent()).toMatch(/1\s500/);
    await section.getByLabel('Дата рождения').fill('1990-03-14');
    await section.getByRole('button', { name: 'Сохранить дату' }).click();
    await poll(() => section.getByText('14 марта 1990').isVisible()).toBe(true);
    expect(await section.getByRole('button', { name: 'Сохранить дату' }).count()).toBe(0);
    const [row] = await db()
      .select({ birthday: customers.birthday })
      .from(customers)
      .where(eq(customers.id, customerId));
    expect(row?.birthday).toBe('1990-03-14');
    await section.screenshot({ path: path.join(shop.dataDir, 'account-bonuses-390.png') });
  });
});
