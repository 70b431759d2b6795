import { eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import type { Locator } from 'playwright-core';
import { orders } from '~/db/schema';
import { DESKTOP, login, setUpBrowserShop, StorefrontPage, type Shopper } from '~/tests/support/browser';
import { productPicker } from '~/tests/support/catalogue';

// Issue #12 "Instalments (Dolyami, Yandex Split)", as a customer pays in parts: checkout shows
// the two services with the 4 dated payments for this basket → order → /basket/pay/ sends the
// shopper to the provider (the offline stand-in's page the shop serves, which calls the shop back
// as Dolyami or Yandex would) → the paid order; a decline → /basket/bad/ → pay by card instead.

const { shop, it } = setUpBrowserShop();

function poll<T>(fn: () => T | Promise<T>) {
  return expect.poll(fn, { timeout: 15_000, interval: 100 });
}

const picker = productPicker(shop);
/** An offer priced so the order (with the courier's 700 ₽) stays within 500–40 000 ₽, not a coat nor a gift certificate. */
const freshOffer = async () => (await picker.fresh((p) => p.PRICE.DISCOUNT_PRICE <= 39_000)).offerId;

let phones = 0;
const newPhone = () => `7996${String(process.pid % 1000).padStart(3, '0')}${String(++phones).padStart(4, '0')}`;

async function orderRow(orderId: number) {
  const [row] = await shop.database.db.select().from(orders).where(eq(orders.id, orderId));
  return row;
}

/** A logged-in customer at checkout with the Moscow courier, choosing `method` ('Долями' or 'Яндекс Сплит'); on the provider's page. */
async function orderInParts(shopper: Shopper, method: 'Долями' | 'Яндекс Сплит') {
  const offerId = await freshOffer();
  const page = await shopper.newPage(DESKTOP);
  await page.context().addCookies([{ name: 'cart', value: encodeURIComponent(`${offerId}:1`), url: shop.baseUrl }]);
  await login(page.context(), shop, newPhone());
  const view = new StorefrontPage(page);
  await view.goto('/basket/');
  const form = page.getByRole('region', { name: 'Оформление заказа' });
  await poll(() => form.isVisible()).toBe(true);
  await form.getByRole('textbox', { name: 'Имя', exact: true }).fill('Анна');
  await form.getByRole('textbox', { name: 'Фамилия', exact: true }).fill('Частями');
  await form.getByRole('textbox', { name: 'E-mail', exact: true }).fill('anna.parts@example.ru');
  await form.getByRole('radio', { name: /^Курьером по Москве/ }).check();
  const street = form.getByRole('combobox', { name: 'Улица' });
  await street.fill('ул Тверская');
  // The street's suggestions open a moment after typing (debounced): closed as a shopper would.
  const options = form.getByRole('listbox', { name: 'Подсказки адреса' }).getByRole('option');
  await poll(() => options.count()).toBeGreaterThan(0);
  await street.press('Escape');
  await poll(() => page.locator('.address-suggest__backdrop').isVisible()).toBe(false);
  await form.getByRole('textbox', { name: 'Дом', exact: true }).fill('12');
  const radio = form.getByRole('radio', { name: new RegExp(`^${method}`) });
  // The 4 dated payments of this basket, the first today.
  const card: Locator = form.locator(`.method-card[data-payment-id="${method === 'Долями' ? '10' : '11'}"]`);
  await poll(() => card.textContent()).toMatch(/сегодня — [\d\s\u00a0,]+₽;.+;.+;.+₽/);
  await radio.check();
  await poll(() => form.getByText(/перейдёте на страницу сервиса/).isVisible()).toBe(true);
  // The instalment details modal shows the schedule for this basket.
  await card.getByRole('button', { name: 'График платежей' }).click();
  const modal = page.getByRole('dialog', { name: 'Оплата частями' });
  await poll(() => modal.isVisible()).toBe(true);
  expect(await modal.getByRole('row').count()).toBeGreaterThanOrEqual(5);
  await page.keyboard.press('Escape');
  await poll(() => modal.isVisible()).toBe(false);
  await poll(() => page.locator('.address-suggest__backdrop').isVisible()).toBe(false);
  await form.getByRole('button', { name: 'Оформить заказ' }).click();
  // /basket/pay/ sends the shopper on to the provider's page.
  await page.waitForURL(/\/api\/(dolyami|yandex-split)\/offline\/pay\//, { timeout: 15_000 });
  await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(method);
  expect(await page.getByRole('table', { name: 'График платежей' }).getByRole('row').count()).toBe(5);
  const orderId = Number(
    /^(\d+)-/.exec(
      new URL(page.url()).searchParams.get('id') ?? new URL(page.url()).searchParams.get('order') ?? '',
    )?.[1],
  );
  expect((await orderRow(orderId))?.status).toBe('awaiting_payment');
  return { page, orderId };
}

describe('pay in parts', () => {
  it('pays with Dolyami: the schedule at checkout → the provider page → approve → the paid order', async ({
    shopper,
  }) => {
    const { page, orderId } = await orderInParts(shopper, 'Долями');
    await page.getByRole('button', { name: 'Одобрить' }).click();
    await page.waitForURL(`**/basket/submited/cloud-payments/?order=${orderId}`, { timeout: 15_000 });
    const row = await orderRow(orderId);
    expect(row?.status).toBe('new');
    expect(row?.paymentId).toBe('10');
    expect(row?.paidKopecks).toBe(row?.totalKopecks);
  });

  it('Yandex Split declined → /basket/bad/ → pays by card instead', async ({ shopper }) => {
    const { page, orderId } = await orderInParts(shopper, 'Яндекс Сплит');
    await page.getByRole('button', { name: 'Отклонить' }).click();
    await page.waitForURL(`**/basket/bad/?order=${orderId}`, { timeout: 15_000 });
    await poll(() => page.getByText(/не одобрил оплату частями/).isVisible()).toBe(true);
    expect((await orderRow(orderId))?.status).toBe('awaiting_payment');
    await page.getByRole('button', { name: 'Оплатить картой онлайн' }).click();
    await page.waitForURL(`**/basket/pay/?order=${orderId}`, { timeout: 15_000 });
    expect((await orderRow(orderId))?.paymentId).toBe('9');
    await page.getByRole('main').getByRole('button', { name: 'Оплатить', exact: true }).click();
    const widget = page
      .getByRole('dialog', { name: 'Оплата картой' })
      .getByTitle('Оплата картой')
      .contentFrame()
      .locator('body');
    await widget.getByRole('button', { name: 'Оплатить' }).click();
    await widget.getByRole('textbox', { name: 'Код из SMS' }).fill('1234');
    await widget.getByRole('button', { name: 'Подтвердить' }).click();
    await page.waitForURL(`**/basket/submited/cloud-payments/?order=${orderId}`, { timeout: 15_000 });
    const row = await orderRow(orderId);
    expect(row?.status).toBe('new');
    expect(row?.paymentId).toBe('9');
  });
});
