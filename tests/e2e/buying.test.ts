import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { orderItems, orders, waitingList } from '~/db/schema';
import { CatalogSectionResponse, type ProductItem } from '~/shared/contract';
import { getJson } from '~/tests/support/api';
import { DESKTOP, MOBILE, setUpBrowserShop, type Shopper, type Viewport } from '~/tests/support/browser';
import { isPlain, productPicker, sizeLabel } from '~/tests/support/catalogue';
import { ProductPage } from '~/tests/support/pages';
import { GIFT_COVER_PHOTO } from '~/db/seed/seed.server';

// Issue "Basket, pre-orders, fast order and the waiting list", as a shopper does it: add from the
// product page and from a listing card, change size and quantity, a promo code, pre-order,
// order in one click and join a waiting list. Products with the right stock are found through
// the API; what the shop wrote is checked in its database.

const { shop, it } = setUpBrowserShop();

function poll<T>(fn: () => T | Promise<T>) {
  return expect.poll(fn, { timeout: 15_000, interval: 100 });
}

const onSale = (p: ProductItem) => p.PRICE.DISCOUNT_PRICE < p.PRICE.PRICE;

/** Products used by one test are not used by another (the shop and its stock are shared by the file). */
const picker = productPicker(shop);
const findProduct = picker.take;

class BuyingPage extends ProductPage {
  main(): Locator {
    return this.page.getByRole('main');
  }

  notice(): Locator {
    return this.page.getByRole('status').filter({ hasText: /в корзину$/ });
  }

  goToBasket(): Locator {
    return this.main().getByRole('link', { name: 'Перейти в корзину' });
  }

  fastOrderButton(): Locator {
    return this.main().getByRole('button', { name: 'Купить в один клик' });
  }

  dialog(name: string): Locator {
    return this.page.getByRole('dialog', { name });
  }

  /** The header's basket link carries the count in its name: 'Корзина: 2'. */
  async headerCount(): Promise<number> {
    const name = await this.page
      .getByRole('banner')
      .getByRole('link', { name: /^Корзина: \d+$/ })
      .getAttribute('aria-label');
    return Number(name?.replace(/\D/g, ''));
  }

  lines(list = 'Товары в корзине'): Locator {
    return this.main().getByRole('list', { name: list }).getByRole('listitem');
  }

  line(name: string, list = 'Товары в корзине'): Locator {
    return this.lines(list).filter({ has: this.page.getByRole('heading', { name, exact: true }) });
  }

  /** A row of the totals ('Итого', 'Скидка', ...) as roubles. */
  async total(label: string): Promise<number> {
    const text = await this.main()
      .getByRole('term')
      .filter({ hasText: new RegExp(`^${label}$`) })
      .locator('xpath=following-sibling::dd[1]')
      .textContent();
    return Number((text ?? '').replace(/[^\d,]/g, '').replace(',', '.'));
  }
}

async function open(shopper: Shopper, url: string, viewport: Viewport = DESKTOP): Promise<BuyingPage> {
  const view = new BuyingPage(await shopper.newPage(viewport));
  const res = await view.goto(url);
  expect(res?.status()).toBe(200);
  return view;
}

async function fillContact(dialog: Locator, name: string, phone: string) {
  await dialog.getByRole('textbox', { name: 'Имя' }).fill(name);
  const field = dialog.getByRole('textbox', { name: 'Телефон' });
  await field.fill('');
  await field.pressSequentially(phone);
}

/** A cookie's value as the shop meant it (the shop URL-encodes values: ',' may not stand in a cookie). */
async function cookie(page: Page, name: string): Promise<string | undefined> {
  const value = (await page.context().cookies()).find((c) => c.name === name)?.value;
  return value === undefined ? undefined : decodeURIComponent(value);
}

describe('product page to basket', () => {
  it('adds a size, says so, leads to the basket; there the size, quantity and removal work', async ({ shopper }) => {
    const item = await findProduct(
      (p) => isPlain(p) && !onSale(p) && p.OFFERS.filter((o) => o.AVAILABLE === 'Y' && o.QUANTITY >= 2).length >= 2,
      'product with two sizes of 2+ in stock',
    );
    const [first, second] = item.OFFERS.filter((o) => o.AVAILABLE === 'Y' && o.QUANTITY >= 2);
    const view = await open(shopper, item.DETAIL_PAGE_URL);
    await view.size(sizeLabel(first)).check();
    await view.buyButton().click();
    await poll(() => view.notice().textContent()).toBe('Модель добавлена в корзину');
    await poll(() => view.goToBasket().isVisible()).toBe(true);
    expect(await view.headerCount()).toBe(1);
    expect(await cookie(view.page, 'cart')).toBe(`${first?.ID}:1`);
    // The notice clears by itself (SPEC §9: one second).
    await poll(() => view.notice().count()).toBe(0);

    await view.goToBasket().click();
    await view.page.waitForURL('**/basket/');
    const line = view.line(item.NAME);
    await poll(() => line.count()).toBe(1);
    expect(await view.total('Итого')).toBe(first?.PRICE);

    // Two of them: the price doubles, the header counts two.
    await line.getByRole('combobox', { name: `Количество: ${item.NAME}` }).selectOption('2');
    await poll(() => view.total('Итого')).toBe((first?.PRICE ?? 0) * 2);
    expect(await view.headerCount()).toBe(2);
    expect(await cookie(view.page, 'cart')).toBe(`${first?.ID}:2`);

    // Another size replaces the offer in the same line.
    await line.getByRole('combobox', { name: `Размер: ${item.NAME}` }).selectOption(String(second?.ID));
    await poll(() => cookie(view.page, 'cart')).toBe(`${second?.ID}:2`);
    await poll(() => line.getByRole('combobox', { name: `Размер: ${item.NAME}` }).inputValue()).toBe(
      String(second?.ID),
    );

    await line.getByRole('button', { name: `Удалить: ${item.NAME}, размер ${sizeLabel(second)}` }).click();
    await poll(() => view.main().getByText('Корзина пуста').isVisible()).toBe(true);
    expect(await view.headerCount()).toBe(0);
    await view.main().getByRole('link', { name: 'Перейти в каталог' }).click();
    await view.page.waitForURL('**/catalog/**');
  });

  it('applies a promo code, shows why another does not apply, and clears the basket', async ({ shopper }) => {
    const item = await findProduct(
      (p) => isPlain(p) && !onSale(p) && p.PRICE.DISCOUNT_PRICE >= 1000 && p.OFFERS.some((o) => o.AVAILABLE === 'Y'),
      'full-price product in stock',
    );
    const offer = item.OFFERS.find((o) => o.AVAILABLE === 'Y');
    const page = await shopper.newPage();
    await page.context().addCookies([{ name: 'cart', value: `${offer?.ID}:1`, url: shop.baseUrl }]);
    const view = new BuyingPage(page);
    await view.goto('/basket/');
    const price = offer?.PRICE ?? 0;
    await poll(() => view.total('Итого')).toBe(price);

    const field = view.main().getByRole('textbox', { name: 'Промокод' });
    await field.fill('oldcode');
    await view.main().getByRole('button', { name: 'Применить' }).click();
    await poll(() => view.main().getByText('Срок действия промокода истёк').isVisible()).toBe(true);
    expect(await view.total('Итого')).toBe(price);

    await field.fill('VITRINA10');
    await view.main().getByRole('button', { name: 'Применить' }).click();
    await poll(() => view.main().getByText('Промокод VITRINA10 применён').isVisible()).toBe(true);
    // 10 % in whole kopecks: the discount and the total add up to the price.
    const discount = Math.round(price * 10) / 100;
    expect(await view.total('Скидка')).toBe(discount);
    expect(await view.total('Итого')).toBe(Math.round((price - discount) * 100) / 100);
    expect(await cookie(page, 'promo_code')).toBe('VITRINA10');

    await view.main().getByRole('button', { name: 'Очистить корзину' }).click();
    await poll(() => view.main().getByText('Корзина пуста').isVisible()).toBe(true);
    expect(await cookie(page, 'cart')).toBeFalsy();
    expect(await cookie(page, 'promo_code')).toBeFalsy();
  });

  it('puts the gift cover beside a coat, one per coat, and never counts it', async ({ shopper }) => {
    const coat = await findProduct(
      (p) => /пальто/i.test(p.NAME) && p.OFFERS.some((o) => o.AVAILABLE === 'Y' && o.QUANTITY >= 2),
      'coat with 2+ in stock',
    );
    const offer = coat.OFFERS.find((o) => o.AVAILABLE === 'Y' && o.QUANTITY >= 2);
    const view = await open(shopper, coat.DETAIL_PAGE_URL);
    await view.size(sizeLabel(offer)).check();
    await view.buyButton().click();
    await view.goToBasket().click();
    await view.page.waitForURL('**/basket/');
    const gift = view.line('Чехол для одежды');
    await poll(() => gift.textContent()).toContain('1 шт.');
    await view
      .line(coat.NAME)
      .getByRole('combobox', { name: `Количество: ${coat.NAME}` })
      .selectOption('2');
    await poll(() => gift.textContent()).toContain('2 шт.');
    expect(await view.headerCount()).toBe(2);
    expect(await view.total('Итого')).toBe((offer?.PRICE ?? 0) * 2);
  });
});

describe('the gift cover has its own picture (issue #26)', () => {
  for (const viewport of [MOBILE, DESKTOP])
    it(`shows a garment cover, not a handbag, beside a coat at ${viewport.width} px`, async ({ shopper }) => {
      const coat = await findProduct(
        (p) => /пальто/i.test(p.NAME) && p.OFFERS.some((o) => o.AVAILABLE === 'Y'),
        'coat in stock',
      );
      const offer = coat.OFFERS.find((o) => o.AVAILABLE === 'Y');
      const page = await shopper.newPage(viewport);
      await page.context().addCookies([{ name: 'cart', value: `${offer?.ID}:1`, url: shop.baseUrl }]);
      const view = new BuyingPage(page);
      await view.goto('/basket/');
      const picture = view.line('Чехол для одежды').locator('img').first();
      await poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
      expect(await picture.evaluate((img: HTMLImageElement) => img.currentSrc)).toContain(GIFT_COVER_PHOTO);
      expect(await picture.isVisible()).toBe(true);
    });
});

describe('pre-order, one click, waiting list', () => {
  it('pre-orders a size that is out of stock: the modal, the notice, its own section of the basket', async ({
    shopper,
  }) => {
    const item = await findProduct(
      (p) => p.OFFERS.some((o) => o.AVAILABLE === 'N' && o.IS_PREORDER === 'Y'),
      'pre-orderable size',
    );
    const offer = item.OFFERS.find((o) => o.AVAILABLE === 'N' && o.IS_PREORDER === 'Y');
    const view = await open(shopper, item.DETAIL_PAGE_URL);
    await view.size(sizeLabel(offer)).check();
    await poll(() => view.buyButton().textContent()).toBe('Оформить предзаказ');
    await view.buyButton().click();
    const dialog = view.dialog('Предзаказ товара');
    await poll(() => dialog.isVisible()).toBe(true);
    await dialog.getByRole('button', { name: 'Подтвердить предзаказ' }).click();
    await poll(() => view.notice().textContent()).toBe('Предзаказ добавлен в корзину');
    await poll(() => dialog.count()).toBe(0);
    await poll(() => view.goToBasket().isVisible()).toBe(true);

    await view.goToBasket().click();
    await view.page.waitForURL('**/basket/');
    await poll(() => view.line(item.NAME, 'Предзаказ').count()).toBe(1);
    expect(await view.lines().count()).toBe(0);
    expect(await cookie(view.page, 'cart')).toBeFalsy();
    expect((await cookie(view.page, 'preorders')) ?? '').toContain(`"${offer?.ID}"`);
  });

  it('orders one size in one click: the phone is flagged until it is right, then the order is written once', async ({
    shopper,
  }) => {
    const item = await findProduct(
      (p) => isPlain(p) && p.OFFERS.some((o) => o.AVAILABLE === 'Y' && o.QUANTITY >= 2),
      'product in stock',
    );
    const offer = item.OFFERS.find((o) => o.AVAILABLE === 'Y' && o.QUANTITY >= 2);
    const view = await open(shopper, item.DETAIL_PAGE_URL);
    await view.size(sizeLabel(offer)).check();
    await view.fastOrderButton().click();
    const dialog = view.dialog('Купить в один клик');
    await poll(() => dialog.isVisible()).toBe(true);

    await fillContact(dialog, 'Мария', '999');
    await dialog.getByRole('button', { name: 'Оформить заказ' }).click();
    await poll(() => dialog.getByRole('alert').textContent()).toBeTruthy();
    await poll(() => dialog.getByText('*Ошибка').isVisible()).toBe(true);
    expect(
      await shop.database.db
        .select()
        .from(orderItems)
        .where(eq(orderItems.offerId, offer?.ID ?? 0)),
    ).toEqual([]);

    await fillContact(dialog, 'Мария', '9995551234');
    await dialog.getByRole('button', { name: 'Оформить заказ' }).click();
    await view.page.waitForURL(/\/basket\/submited\/\?order=\d+$/);
    await poll(() => view.page.getByRole('heading', { level: 1 }).textContent()).toBe('Заказ оформлен');
    const orderId = Number(new URL(view.page.url()).searchParams.get('order'));
    expect(await view.main().getByText(`Номер заказа: №${orderId}`).isVisible()).toBe(true);

    const [order] = await shop.database.db.select().from(orders).where(eq(orders.id, orderId));
    expect(order).toMatchObject({ phone: '79995551234', kind: 'fast' });
    const items = await shop.database.db.select().from(orderItems).where(eq(orderItems.orderId, orderId));
    expect(items.map((i) => [i.offerId, i.quantity])).toEqual([[offer?.ID, 1]]);
  });

  it('joins the waiting list for a sold-out size, thanks, and closes on «Хорошо»', async ({ shopper }) => {
    const item = await findProduct(
      (p) => p.OFFERS.some((o) => o.AVAILABLE === 'N' && o.IS_PREORDER === 'N'),
      'size neither in stock nor pre-orderable',
    );
    const offer = item.OFFERS.find((o) => o.AVAILABLE === 'N' && o.IS_PREORDER === 'N');
    const view = await open(shopper, item.DETAIL_PAGE_URL);
    await view.size(sizeLabel(offer)).check();
    await view.main().getByRole('button', { name: 'Сообщить о поступлении' }).click();
    const dialog = view.dialog('Сообщить о поступлении');
    await poll(() => dialog.isVisible()).toBe(true);
    await fillContact(dialog, 'Ольга', '9995554321');
    await dialog.getByRole('button', { name: 'Сообщить о поступлении' }).click();
    await poll(() => dialog.getByText('Товар добавлен в список ожидания').isVisible()).toBe(true);
    await dialog.getByRole('button', { name: 'Хорошо' }).click();
    await poll(() => dialog.count()).toBe(0);

    const rows = await shop.database.db
      .select()
      .from(waitingList)
      .where(eq(waitingList.offerId, offer?.ID ?? 0));
    expect(rows.map((r) => r.phone)).toEqual(['79995554321']);
  });
});

describe('listings and phones', () => {
  it('adds from a listing card without leaving the grid', async ({ shopper }) => {
    const list = await getJson(shop.baseUrl, '/backend/catalog/woman/denim/', CatalogSectionResponse);
    const denim = new Set(list.ITEMS.map((c) => c.ID));
    const card = await findProduct(
      (p) => denim.has(p.ID) && p.OFFERS.some((o) => o.AVAILABLE === 'Y'),
      'denim product in stock',
    );
    const offer = card.OFFERS.find((o) => o.AVAILABLE === 'Y');
    const view = await open(shopper, '/catalog/woman/denim/');
    await view
      .main()
      .getByRole('button', { name: `Добавить в корзину: ${card.NAME}` })
      .click();
    const dialog = view.dialog('Выберите размер');
    await poll(() => dialog.getByRole('radiogroup', { name: 'Размер' }).isVisible()).toBe(true);
    await dialog.getByRole('radio', { name: sizeLabel(offer), exact: false }).check();
    await dialog.getByRole('button', { name: 'Добавить в корзину' }).click();
    await poll(() => view.notice().textContent()).toBe('Модель добавлена в корзину');
    await poll(() => dialog.getByRole('link', { name: 'Перейти в корзину' }).isVisible()).toBe(true);
    expect(await view.headerCount()).toBe(1);
    expect(new URL(view.page.url()).pathname).toBe('/catalog/woman/denim/');
  });

  it('on a phone, the basket works from the tab bar and has no serious accessibility faults', async ({ shopper }) => {
    const item = await findProduct((p) => isPlain(p) && p.OFFERS.some((o) => o.AVAILABLE === 'Y'), 'product in stock');
    const offer = item.OFFERS.find((o) => o.AVAILABLE === 'Y');
    const page = await shopper.newPage(MOBILE);
    await page.context().addCookies([{ name: 'cart', value: `${offer?.ID}:1`, url: shop.baseUrl }]);
    const view = new BuyingPage(page);
    await view.goto('/');
    const tab = view.tabBar().getByRole('link', { name: /Корзина/ });
    await poll(() => tab.textContent()).toBe('1Корзина');
    await tab.click();
    await page.waitForURL('**/basket/');
    await poll(() => view.line(item.NAME).isVisible()).toBe(true);
    // Nothing wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);

    await page.addScriptTag({
      content: fs.readFileSync(path.join(process.cwd(), 'node_modules/axe-core/axe.min.js'), 'utf8'),
    });
    const serious = await page.evaluate(async () => {
      const axe = (
        window as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string | null }[] }> } }
      ).axe;
      const { violations } = await axe.run();
      return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
    });
    expect(serious).toEqual([]);
  });

  it('renders the basket from its cookies before any script runs', async ({ shopper }) => {
    const item = await findProduct((p) => isPlain(p) && p.OFFERS.some((o) => o.AVAILABLE === 'Y'), 'product in stock');
    const offer = item.OFFERS.find((o) => o.AVAILABLE === 'Y');
    const page = await shopper.newPage();
    await page.context().addCookies([{ name: 'cart', value: `${offer?.ID}:1`, url: shop.baseUrl }]);
    await page.route('**/*.js', (route) => route.abort());
    await page.goto('/basket/');
    expect(await page.getByRole('main').getByRole('heading', { name: item.NAME }).isVisible()).toBe(true);
  });
});
