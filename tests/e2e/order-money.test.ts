import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { bonusLots, customers, orderItems, orders, orderStatusHistory } from '~/db/schema';
import { DELIVERY_ID } from '~/shared/checkout-ids';
import { GIFT_COVER_OFFER_ID } from '~/core/basket';
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
import { issueCertificate } from '~/tests/support/checkout';

// Issue #26 as a customer sees it. Item 1: a certificate used on an order paid on receipt stays
// on the order: the checkout summary, the order page and the account's order page say what the
// courier takes, in the same rows (checkoutMoney and orderMoney, core/order-money.ts). Item 2:
// card, certificate and bonuses: the pay page's receipt lines are price × quantity and show the
// certificate's advance; the paid page says what the card paid. Item 8: the account's order page
// (/personal/orders/<id>/) with tracking, history, «Оплатить», «Оформить возврат», «Повторить
// заказ», for its owner only. At 390 and 1280 px, where the figures were seen.

const { shop, it } = setUpBrowserShop();
const db = () => shop.database.db;
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 20_000, interval: 100 });
const nb = (s: string | null) => (s ?? '').replace(/[\u00a0\s]+/g, ' ').trim();

let phones = 0;
const newPhone = () => `7995${String(process.pid % 1000).padStart(3, '0')}${String(++phones).padStart(4, '0')}`;
const picker = productPicker(shop);
async function freshOffer(): Promise<{ id: number; price: number; name: string }> {
  const { item, offer } = await picker.fresh(
    (p) =>
      p.PRICE.DISCOUNT_PRICE === p.PRICE.PRICE && p.PRICE.DISCOUNT_PRICE >= 15_000 && p.PRICE.DISCOUNT_PRICE <= 30_000,
  );
  return { id: offer.ID, price: Math.round(offer.PRICE * 100), name: item.NAME };
}
const rub = (kopecks: number) =>
  `${Math.floor(kopecks / 100)
    .toLocaleString('ru-RU')
    .replace(/\s/g, ' ')} ₽`;

/** Logged in with this basket (and promo), the checkout filled for the Moscow courier; `payment` chosen. */
async function checkout(
  shopper: Shopper,
  viewport: Viewport,
  offerId: number,
  payment: RegExp,
  { promo, bonuses = 0 }: { promo?: string; bonuses?: number } = {},
): Promise<{ page: Page; form: Locator; customerId: number }> {
  const page = await shopper.newPage(viewport);
  const cookies = [{ name: 'cart', value: encodeURIComponent(`${offerId}:1`), url: shop.baseUrl }];
  if (promo) cookies.push({ name: 'promo_code', value: promo, url: shop.baseUrl });
  await page.context().addCookies(cookies);
  const { customerId } = await login(page.context(), shop, newPhone());
  await db()
    .update(customers)
    .set({ cart: `${offerId}:1`, cartRev: sql`${customers.cartRev} + 1` })
    .where(eq(customers.id, customerId));
  if (bonuses) {
    const now = Date.now();
    await db()
      .insert(bonusLots)
      .values({
        customerId,
        kind: 'manual',
        lotKey: 'e2e',
        amountKopecks: bonuses,
        remainingKopecks: bonuses,
        availableFrom: new Date(now - 1000),
        expiresAt: new Date(now + 86_400_000 * 30),
      });
  }
  await page.goto(`${shop.baseUrl}/basket/`);
  await waitForHydration(page);
  const form = page.getByRole('region', { name: 'Оформление заказа' });
  await poll(() => form.isVisible()).toBe(true);
  await form.getByRole('textbox', { name: 'Имя', exact: true }).fill('Вера');
  await form.getByRole('textbox', { name: 'Фамилия', exact: true }).fill('Деньгова');
  await form.getByRole('textbox', { name: 'E-mail', exact: true }).fill('vera.money@example.ru');
  await form.getByRole('radio', { name: /^Курьером по Москве/ }).check();
  const street = form.getByRole('combobox', { name: 'Улица' });
  await street.fill('ул Тверская');
  await poll(() => form.getByRole('listbox', { name: 'Подсказки адреса' }).getByRole('option').count()).toBeGreaterThan(
    0,
  );
  await street.press('Escape');
  await poll(() => page.locator('.address-suggest__backdrop').isVisible()).toBe(false);
  await form.getByRole('textbox', { name: 'Дом', exact: true }).fill('12');
  await form.getByRole('radio', { name: payment }).check();
  return { page, form, customerId };
}

async function applyCertificate(form: Locator, code: string) {
  await form.getByRole('textbox', { name: 'Номер подарочного сертификата' }).fill(code);
  await form.getByRole('button', { name: 'Применить' }).click();
  await poll(() => form.getByText('Подарочными сертификатами').isVisible()).toBe(true);
}

/** The money rows of a page, as «label value» lines. */
async function moneyRows(page: Page): Promise<string[]> {
  const rows = page.locator('main [data-money]');
  await poll(() => rows.count()).toBeGreaterThan(0);
  return (await rows.allInnerTexts()).map(nb);
}

/** The page's money rows once they read `expected` (after a client-side navigation the route's stylesheet, which lays label and value apart, can land a moment after the rows). */
async function expectMoneyRows(page: Page, expected: string[]): Promise<void> {
  await poll(() => moneyRows(page)).toEqual(expected);
}

/** The checkout summary's money rows, as «label value» lines. */
async function summaryRows(form: Locator): Promise<string[]> {
  return (await form.locator('.order-summary [data-money]').allInnerTexts()).map(nb);
}

// SHOTS_DIR keeps them for a look (they go with the shop's data directory otherwise).
const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(process.env.SHOTS_DIR ?? shop.dataDir, `${name}.png`), fullPage: true });

describe('one breakdown of an order’s money (issue #26)', () => {
  for (const viewport of [MOBILE, DESKTOP]) {
    it(`item 1 at ${viewport.width}: a certificate on a pay-on-receipt order stays on the order`, async ({
      shopper,
    }) => {
      const offer = await freshOffer();
      const code = (await issueCertificate(shop, 500_000)).formatted;
      const { page, form } = await checkout(shopper, viewport, offer.id, /^При получении/, { promo: 'VITRINA10' });
      await applyCertificate(form, code);
      const promo = Math.round(offer.price / 10);
      const due = offer.price - promo + 70_000 - 500_000;
      await poll(async () => nb(await form.locator('.basket-totals__row--total').innerText())).toBe(
        `К оплате при получении ${rub(due)}`,
      );
      const expected = [
        `Товары ${rub(offer.price)}`,
        `Скидка по промокоду −${rub(promo)}`,
        'Доставка 700 ₽',
        `Итого ${rub(offer.price - promo + 70_000)}`,
        'Подарочными сертификатами −5 000 ₽',
        `К оплате при получении ${rub(due)}`,
      ];
      // The checkout summary is the order's breakdown before it exists: the same rows.
      expect(await summaryRows(form)).toEqual(expected);
      await shot(page, `checkout-certificate-receipt-${viewport.width}`);
      await form.getByRole('button', { name: 'Оформить заказ' }).click();
      await page.waitForURL(/\/basket\/submited-order\/\?order=\d+$/, { timeout: 15_000 });
      const orderId = Number(new URL(page.url()).searchParams.get('order'));
      await expectMoneyRows(page, expected);
      await shot(page, `order-placed-certificate-receipt-${viewport.width}`);
      // The account's card and the order's own page say the same.
      await page.goto(`${shop.baseUrl}/personal/`);
      const card = page.getByRole('article', { name: `Заказ № ${orderId}` });
      expect((await card.locator('[data-money]').allInnerTexts()).map(nb)).toEqual(expected);
      await card.getByRole('link', { name: 'Подробнее о заказе' }).click();
      await page.waitForURL(`**/personal/orders/${orderId}/`);
      await expectMoneyRows(page, expected);
      await shot(page, `personal-order-${viewport.width}`);
    });

    it(`item 2 at ${viewport.width}: card with a certificate and bonuses: the receipt's lines are price × quantity, the card pays the rest`, async ({
      shopper,
    }) => {
      const offer = await freshOffer();
      const code = (await issueCertificate(shop, 500_000)).formatted;
      const { page, form } = await checkout(shopper, viewport, offer.id, /^Банковской картой онлайн/, {
        bonuses: 200_000,
      });
      await poll(() => form.getByRole('button', { name: 'Списать 2000' }).isVisible()).toBe(true);
      await form.getByRole('button', { name: 'Списать 2000' }).click();
      await poll(() => form.getByText('Бонусами').isVisible()).toBe(true);
      await applyCertificate(form, code);
      const total = offer.price - 200_000 + 70_000;
      const due = total - 500_000;
      // The summary: the rows the order will have, and what the card will be charged.
      await poll(() => summaryRows(form)).toEqual([
        `Товары ${rub(offer.price)}`,
        'Бонусами −2 000 ₽',
        'Доставка 700 ₽',
        `Итого ${rub(total)}`,
        'Подарочными сертификатами −5 000 ₽',
        `К оплате ${rub(due)}`,
      ]);
      await form.locator('.order-summary').scrollIntoViewIfNeeded();
      await shot(page, `checkout-certificate-bonuses-${viewport.width}`);
      await form.getByRole('button', { name: 'Оформить заказ' }).click();
      await page.waitForURL(/\/basket\/pay\/\?order=\d+$/, { timeout: 15_000 });
      const orderId = Number(new URL(page.url()).searchParams.get('order'));
      // The pay page may still be rendering its receipt when the address changes.
      await poll(() => page.locator('.pay__receipt .pay__line').count()).toBeGreaterThan(0);
      const lines = (await page.locator('.pay__receipt .pay__line').allInnerTexts()).map(nb);
      expect(lines).toEqual([
        expect.stringMatching(new RegExp(`1 шт × ${rub(offer.price - 200_000)} ${rub(offer.price - 200_000)}$`)),
        'Доставка 1 шт × 700 ₽ 700 ₽',
        `Итого ${rub(total)}`,
        'Подарочными сертификатами (зачёт аванса) −5 000 ₽',
        `Картой ${rub(due)}`,
      ]);
      await shot(page, `pay-certificate-bonuses-${viewport.width}`);
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
      await poll(async () => nb(await page.getByText(/^Оплата .* прошла\./).innerText())).toContain(
        `Оплата ${rub(due)} прошла.`,
      );
      const [row] = await db().select({ paid: orders.paidKopecks }).from(orders).where(eq(orders.id, orderId));
      expect(row?.paid).toBe(due);
      expect((await moneyRows(page)).slice(-4)).toEqual([
        'Доставка 700 ₽',
        `Итого ${rub(total)}`,
        'Подарочными сертификатами −5 000 ₽',
        `Оплачено онлайн ${rub(due)}`,
      ]);
      await shot(page, `paid-certificate-bonuses-${viewport.width}`);
    });
  }

  it('item 8: the account’s order page: tracking, history, pay, return, repeat; the owner’s only', async ({
    shopper,
  }) => {
    const offer = await freshOffer();
    const page = await shopper.newPage(MOBILE);
    const { customerId } = await login(page.context(), shop, newPhone());
    const place = async (values: Partial<typeof orders.$inferInsert>) => {
      const [o] = await db()
        .insert(orders)
        .values({
          customerId,
          status: 'new',
          phone: '79990000000',
          customerName: 'Вера',
          itemsTotalKopecks: offer.price,
          totalKopecks: offer.price + 50_000,
          deliveryCostKopecks: 50_000,
          paymentId: '9',
          deliveryId: DELIVERY_ID.cdekDoor,
          deliveryCity: 'Казань',
          deliveryAddress: 'Казань, ул Баумана, д. 1',
          ...values,
        })
        .returning({ id: orders.id });
      const id = (o as { id: number }).id;
      await db().insert(orderItems).values({
        orderId: id,
        offerId: offer.id,
        title: offer.name,
        size: 'M',
        color: '',
        priceKopecks: offer.price,
        quantity: 1,
      });
      return id;
    };
    const shipped = await place({
      status: 'shipped',
      trackNumber: '1234567890',
      paidAt: new Date(),
      paidKopecks: offer.price + 50_000,
    });
    await db()
      .insert(orderStatusHistory)
      .values([
        { orderId: shipped, status: 'new', note: 'Оплачен картой' },
        { orderId: shipped, status: 'shipped', note: 'Заказ зарегистрирован в СДЭК, трек-номер 1234567890' },
      ]);
    await page.goto(`${shop.baseUrl}/personal/orders/${shipped}/`);
    await waitForHydration(page);
    const main = page.getByRole('main');
    await poll(() => main.getByRole('heading', { name: `Заказ № ${shipped}` }).isVisible()).toBe(true);
    expect(await main.getByRole('link', { name: 'Отследить посылку' }).getAttribute('href')).toBe(
      'https://www.cdek.ru/ru/tracking/?order_id=1234567890',
    );
    expect(nb(await main.getByRole('region', { name: 'История заказа' }).innerText())).toContain(
      'Заказ зарегистрирован в СДЭК, трек-номер 1234567890',
    );
    expect(await main.getByRole('link', { name: 'Оплатить' }).count()).toBe(0);
    expect(await main.getByText('Оформить возврат').count()).toBe(0);
    expect((await moneyRows(page)).at(-1)).toBe(`Оплачено онлайн ${rub(offer.price + 50_000)}`);
    await shot(page, 'personal-order-shipped-390');
    await page.setViewportSize(DESKTOP);
    await shot(page, 'personal-order-shipped-1280');

    // «Повторить заказ» puts its lines into the basket.
    await main.getByRole('button', { name: 'Повторить заказ' }).click();
    await page.waitForURL('**/basket/');
    await poll(() => page.getByRole('main').getByText(offer.name).first().isVisible()).toBe(true);

    // Item 4 of the review: a coat with its gift cover and a pre-order come back too, the pre-order as one.
    const coat = await picker.take(
      (p) => /пальто/i.test(p.NAME) && p.OFFERS.some((o) => o.AVAILABLE === 'Y' && o.QUANTITY >= 2),
      'coat in stock',
    );
    const coatOffer = coat.OFFERS.find((o) => o.AVAILABLE === 'Y' && o.QUANTITY >= 2)!;
    const pre = await picker.take(
      (p) => !/пальто/i.test(p.NAME) && p.OFFERS.some((o) => o.AVAILABLE === 'N' && o.IS_PREORDER === 'Y'),
      'pre-orderable size',
    );
    const preOffer = pre.OFFERS.find((o) => o.AVAILABLE === 'N' && o.IS_PREORDER === 'Y')!;
    const repeated = await place({
      status: 'repeated',
      deliveredAt: new Date(),
      paidAt: new Date(),
      paidKopecks: offer.price + 50_000,
    });
    await db()
      .insert(orderItems)
      .values([
        {
          orderId: repeated,
          offerId: coatOffer.ID,
          title: coat.NAME,
          size: 'M',
          color: '',
          priceKopecks: Math.round(coatOffer.PRICE * 100),
          quantity: 1,
        },
        {
          orderId: repeated,
          offerId: GIFT_COVER_OFFER_ID,
          title: 'Чехол для одежды',
          size: '',
          color: '',
          priceKopecks: 0,
          quantity: 1,
          isGift: true,
        },
        {
          orderId: repeated,
          offerId: preOffer.ID,
          title: pre.NAME,
          size: 'M',
          color: '',
          priceKopecks: Math.round(preOffer.PRICE * 100),
          quantity: 1,
          isPreorder: true,
        },
      ]);
    await page.goto(`${shop.baseUrl}/personal/orders/${repeated}/`);
    await waitForHydration(page);
    await page.getByRole('main').getByRole('button', { name: 'Повторить заказ' }).click();
    await page.waitForURL('**/basket/');
    const basketLine = (name: string, list: string) =>
      page
        .getByRole('main')
        .getByRole('list', { name: list })
        .getByRole('listitem')
        .filter({ has: page.getByRole('heading', { name, exact: true }) });
    await poll(() => basketLine(coat.NAME, 'Товары в корзине').count()).toBe(1);
    await poll(() => basketLine('Чехол для одежды', 'Товары в корзине').count()).toBe(1);
    await poll(() => basketLine(pre.NAME, 'Предзаказ').count()).toBe(1);
    await shot(page, 'repeat-order-basket-1280');

    // Awaiting payment: «Оплатить» goes to the pay page.
    const unpaid = await place({ status: 'awaiting_payment', payUntil: new Date(Date.now() + 3_600_000) });
    await page.goto(`${shop.baseUrl}/personal/orders/${unpaid}/`);
    expect(await page.getByRole('main').getByRole('link', { name: 'Оплатить' }).getAttribute('href')).toBe(
      `/basket/pay/?order=${unpaid}`,
    );

    // Received within the return period: «Оформить возврат».
    const received = await place({
      status: 'received',
      deliveredAt: new Date(),
      paidAt: new Date(),
      paidKopecks: offer.price + 50_000,
    });
    await page.goto(`${shop.baseUrl}/personal/orders/${received}/`);
    await waitForHydration(page);
    await page.getByText('Оформить возврат').click();
    const returnForm = page.getByRole('form', { name: `Возврат по заказу № ${received}` });
    await returnForm.getByRole('combobox').selectOption('1');
    await returnForm.getByRole('textbox').first().fill('Не подошёл размер');
    await returnForm.getByRole('button').click();
    // Nothing is left to return: the form goes, its answer stays.
    await poll(() => main.getByRole('status').filter({ hasText: 'Заявка на возврат' }).isVisible()).toBe(true);
    expect(nb(await main.getByRole('status').filter({ hasText: 'Заявка на возврат' }).innerText())).toMatch(
      /^Заявка на возврат № \d+ принята/,
    );
    expect(await page.getByText('Оформить возврат').count()).toBe(0);

    // Another customer, and a guest, never see it.
    const other = await shopper.newPage(DESKTOP);
    await login(other.context(), shop, newPhone());
    const foreign = await other.goto(`${shop.baseUrl}/personal/orders/${shipped}/`);
    expect(foreign?.status()).toBe(404);
    expect(await other.getByRole('heading', { name: 'Заказ не найден' }).isVisible()).toBe(true);
    expect(await other.getByText('1234567890').count()).toBe(0);
    const guest = await shopper.newPage(DESKTOP);
    await guest.goto(`${shop.baseUrl}/personal/orders/${shipped}/`);
    expect(new URL(guest.url()).pathname).toBe('/auth/');
  });
});
