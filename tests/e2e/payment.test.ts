import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { orders } from '~/db/schema';
import {
  DESKTOP,
  login,
  MOBILE,
  setUpBrowserShop,
  StorefrontPage,
  type Shopper,
  type Viewport,
} from '~/tests/support/browser';
import { productPicker } from '~/tests/support/catalogue';

// Issue #12 "Card payment (CloudPayments)", as a customer pays: checkout with card online
// (payment id 9) → /basket/pay/ → the widget (the offline stand-in the shop serves, which sends
// the signed notifications to the shop like CloudPayments) → the paid order's page; a decline
// → /basket/bad/ → another try; the widget's script failing to load (SPEC §8: logged, nothing
// happens); the bare pages of SPEC §2; the phone layout with axe. Each test is its own customer.

const { shop, it } = setUpBrowserShop();

function poll<T>(fn: () => T | Promise<T>) {
  return expect.poll(fn, { timeout: 15_000, interval: 100 });
}

const picker = productPicker(shop);
/** An offer no other test of the file uses, not a coat nor a gift certificate, with 3+ in stock. */
const freshOffer = async () => (await picker.fresh()).offerId;

let phones = 0;
const newPhone = () => `7998${String(process.pid % 1000).padStart(3, '0')}${String(++phones).padStart(4, '0')}`;

/** The pay page and what follows it, by roles and names. */
class PaymentPage extends StorefrontPage {
  main(): Locator {
    return this.page.getByRole('main');
  }

  payButton(): Locator {
    return this.main().getByRole('button', { name: 'Оплатить', exact: true });
  }

  /** The widget's dialog (the offline stand-in draws it over the page, its payment page in a frame). */
  widgetDialog(): Locator {
    return this.page.getByRole('dialog', { name: 'Оплата картой' });
  }

  /** The payment page inside the widget. */
  widget(): Locator {
    return this.widgetDialog().getByTitle('Оплата картой').contentFrame().locator('body');
  }
}

/** A logged-in customer who ordered one item by card online with the Moscow courier; on /basket/pay/. */
async function orderByCard(
  shopper: Shopper,
  viewport: Viewport = DESKTOP,
): Promise<{ view: PaymentPage; orderId: number; customerId: number }> {
  const offerId = await freshOffer();
  const page = await shopper.newPage(viewport);
  await page.context().addCookies([{ name: 'cart', value: encodeURIComponent(`${offerId}:1`), url: shop.baseUrl }]);
  const { customerId } = await login(page.context(), shop, newPhone());
  const view = new PaymentPage(page);
  await view.goto('/basket/');
  const form = page.getByRole('region', { name: 'Оформление заказа' });
  await poll(() => form.isVisible()).toBe(true);
  await form.getByRole('textbox', { name: 'Имя', exact: true }).fill('Анна');
  await form.getByRole('textbox', { name: 'Фамилия', exact: true }).fill('Покупкина');
  await form.getByRole('textbox', { name: 'E-mail', exact: true }).fill('anna.pay@example.ru');
  await form.getByRole('radio', { name: /^Курьером по Москве/ }).check();
  const street = form.getByRole('combobox', { name: 'Улица' });
  await street.fill('ул Тверская');
  // The street's suggestions open a moment after typing (debounced) over the form: closed as a
  // shopper would, or their backdrop takes the clicks that follow.
  await poll(() => form.getByRole('listbox', { name: 'Подсказки адреса' }).getByRole('option').count()).toBeGreaterThan(
    0,
  );
  await street.press('Escape');
  await poll(() => page.locator('.address-suggest__backdrop').isVisible()).toBe(false);
  await form.getByRole('textbox', { name: 'Дом', exact: true }).fill('12');
  await form.getByRole('radio', { name: /^Банковской картой онлайн/ }).check();
  await poll(() => form.getByText(/откроется страница оплаты/).isVisible()).toBe(true);
  await form.getByRole('button', { name: 'Оформить заказ' }).click();
  await page.waitForURL(/\/basket\/pay\/\?order=\d+$/, { timeout: 15_000 });
  await poll(() => view.heading().textContent()).toBe('Оплата заказа');
  const orderId = Number(new URL(page.url()).searchParams.get('order'));
  return { view, orderId, customerId };
}

async function orderRow(orderId: number) {
  const [row] = await shop.database.db.select().from(orders).where(eq(orders.id, orderId));
  return row;
}

async function cookie(page: Page, name: string): Promise<string | undefined> {
  return (await page.context().cookies()).find((c) => c.name === name)?.value;
}

async function seriousAxeFaults(page: Page): Promise<string[]> {
  await page.addScriptTag({
    content: fs.readFileSync(path.join(process.cwd(), 'node_modules/axe-core/axe.min.js'), 'utf8'),
  });
  return page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string | null }[] }> } }
    ).axe;
    const { violations } = await axe.run();
    return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
  });
}

/** In the stand-in's page: pay, pass 3-D Secure with `code`. */
async function payInStandIn(view: PaymentPage, code = '1234') {
  const widget = view.widget();
  await widget.getByRole('button', { name: 'Оплатить' }).click();
  await widget.getByRole('textbox', { name: 'Код из SMS' }).fill(code);
  await widget
    .getByRole('button', { name: /Подтвердить|Оплатить|Продолжить/ })
    .first()
    .click();
}

describe('card payment (payment id 9)', () => {
  it('pays by card: checkout → /basket/pay/ → the widget with 3-D Secure → the paid order', async ({ shopper }) => {
    const { view, orderId, customerId } = await orderByCard(shopper);
    const main = view.main();
    // What is paid for: the number, the amount, the receipt and where it goes.
    expect(await main.getByText(`Заказ №${orderId}`).isVisible()).toBe(true);
    expect(await main.getByText('anna.pay@example.ru').isVisible()).toBe(true);
    expect(await main.getByRole('heading', { name: 'Чек' }).isVisible()).toBe(true);
    expect(await main.getByRole('listitem').count()).toBeGreaterThan(0);
    // The order is placed and waits; the basket cookie is gone (the order holds the stock).
    expect((await orderRow(orderId))?.status).toBe('awaiting_payment');
    expect((await orderRow(orderId))?.customerId).toBe(customerId);
    expect(await cookie(view.page, 'cart')).toBeUndefined();

    await view.payButton().click();
    await payInStandIn(view);

    await view.page.waitForURL(`**/basket/submited/cloud-payments/?order=${orderId}`, { timeout: 15_000 });
    await poll(() => view.heading().textContent()).toBe('Заказ оплачен');
    expect(await main.getByText('Оплачен', { exact: true }).isVisible()).toBe(true);
    expect(await main.getByText(`Номер заказа: №${orderId}`).isVisible()).toBe(true);
    // Paid on the server, verified: not because the browser said so.
    await poll(async () => (await orderRow(orderId))?.status).toBe('new');
    // The checkout goal, once, when paid.
    expect(
      await view.page.evaluate(() => (window.__vitrinaGoals ?? []).filter((g) => g.goal === 'checkout').length),
    ).toBe(1);
    // Paid: the pay page now sends to the paid order, and so does SPEC's /basket/submited/.
    for (const from of [`/basket/pay/?order=${orderId}`, `/basket/submited/?order=${orderId}`]) {
      await view.goto(from);
      expect(new URL(view.page.url()).pathname).toBe('/basket/submited/cloud-payments/');
    }
  });

  it('a decline goes to /basket/bad/; «Попробовать ещё раз» pays', async ({ shopper }) => {
    const { view, orderId } = await orderByCard(shopper);
    await view.payButton().click();
    await view.widget().getByRole('button', { name: 'Отклонить' }).click();

    await view.page.waitForURL(/\/basket\/bad\/\?order=\d+/, { timeout: 15_000 });
    expect(new URL(view.page.url()).searchParams.get('order')).toBe(String(orderId));
    await poll(() => view.heading().textContent()).toBe('Оплата не прошла');
    expect(await view.main().getByRole('heading', { name: 'Выбрать другой способ' }).isVisible()).toBe(true);
    expect((await orderRow(orderId))?.status).toBe('awaiting_payment');

    await view.main().getByRole('link', { name: 'Попробовать ещё раз' }).click();
    await view.page.waitForURL(`**/basket/pay/?order=${orderId}`);
    await poll(() => view.payButton().isVisible()).toBe(true);
    await view.payButton().click();
    await payInStandIn(view);
    await view.page.waitForURL(`**/basket/submited/cloud-payments/?order=${orderId}`, { timeout: 15_000 });
    await poll(() => view.heading().textContent()).toBe('Заказ оплачен');
    await poll(async () => (await orderRow(orderId))?.status).toBe('new');
  });

  it('closing the widget keeps the shopper on the pay page with the order waiting', async ({ shopper }) => {
    const { view, orderId } = await orderByCard(shopper);
    await view.payButton().click();
    await poll(() => view.widget().getByRole('button', { name: 'Отклонить' }).isVisible()).toBe(true);
    await view.widgetDialog().getByRole('button', { name: 'Закрыть оплату' }).click();
    await poll(() => view.main().getByRole('status').textContent()).toMatch(/Форма оплаты закрыта/);
    expect(await view.widgetDialog().count()).toBe(0);
    expect(new URL(view.page.url()).pathname).toBe('/basket/pay/');
    expect(await view.payButton().isEnabled()).toBe(true);
    expect((await orderRow(orderId))?.status).toBe('awaiting_payment');
  });

  it('the widget’s script failing to load: logged, nothing breaks, the notice shows and the button stays', async ({
    shopper,
  }) => {
    const { view, orderId } = await orderByCard(shopper);
    const errors: string[] = [];
    view.page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    await view.page.route(/widget\.js|cloudpayments\.js/, (route) => route.abort());
    // A fresh page, so the script is asked for again (and fails).
    await view.goto(`/basket/pay/?order=${orderId}`);
    await view.payButton().click();
    await poll(() => view.main().getByRole('status').textContent()).toMatch(/Не удалось загрузить форму оплаты/);
    expect(errors.some((e) => /payment widget script failed to load/.test(e))).toBe(true);
    expect(new URL(view.page.url()).pathname).toBe('/basket/pay/');
    expect(await view.payButton().isEnabled()).toBe(true);
    expect((await orderRow(orderId))?.status).toBe('awaiting_payment');
  });

  it('on a phone (390 px): fits the width, no serious accessibility faults on the pay page and the failure page', async ({
    shopper,
  }) => {
    const { view, orderId } = await orderByCard(shopper, MOBILE);
    const page = view.page;
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);
    const box = await view.payButton().boundingBox();
    expect(box?.width ?? 0).toBeGreaterThan(MOBILE.width / 2);
    expect(await seriousAxeFaults(page)).toEqual([]);
    await view.goto(`/basket/bad/?order=${orderId}&reason=${encodeURIComponent('Недостаточно средств на карте')}`);
    expect(await view.main().getByText('Недостаточно средств на карте').isVisible()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);
    expect(await seriousAxeFaults(page)).toEqual([]);
  });

  for (const viewport of [MOBILE, DESKTOP]) {
    it(`at ${viewport.width} px the failure page keeps its links apart from the buttons above them`, async ({
      shopper,
    }) => {
      const { view, orderId } = await orderByCard(shopper, viewport);
      await view.goto(`/basket/bad/?order=${orderId}`);
      const other = view.main().getByRole('region', { name: 'Выбрать другой способ' });
      const buttons = other.getByRole('button');
      await poll(() => buttons.count()).toBeGreaterThan(0);
      const bottom = Math.max(
        ...(await buttons.evaluateAll((els) => els.map((el) => el.getBoundingClientRect().bottom))),
      );
      const top = Math.min(
        ...(await other.getByRole('link').evaluateAll((els) => els.map((el) => el.getBoundingClientRect().top))),
      );
      expect(top - bottom).toBeGreaterThanOrEqual(16);
    });
  }

  it('the order page of an unpaid card order offers «Оплатить заказ»', async ({ shopper }) => {
    const { view, orderId } = await orderByCard(shopper);
    await view.goto(`/basket/submited-order/?order=${orderId}`);
    await view.main().getByRole('link', { name: 'Оплатить заказ' }).click();
    await view.page.waitForURL(`**/basket/pay/?order=${orderId}`);
    await poll(() => view.payButton().isVisible()).toBe(true);
    // The same payment for a frame: no shop header or footer on screen.
    await view.goto(`/basket/pay/frame/?order=${orderId}`);
    expect(await view.payButton().isVisible()).toBe(true);
    expect(await view.page.getByRole('banner').isVisible()).toBe(false);
    expect(await view.page.getByRole('contentinfo').isVisible()).toBe(false);
  });

  it('an order whose time to pay ran out says so and offers the catalogue', async ({ shopper }) => {
    const { view, orderId } = await orderByCard(shopper);
    // What the release of unpaid orders leaves (its own tests are the API's).
    await shop.database.db.update(orders).set({ status: 'cancelled' }).where(eq(orders.id, orderId));
    await view.goto(`/basket/pay/?order=${orderId}`);
    await poll(() =>
      view
        .main()
        .getByText(/Время на оплату истекло/)
        .isVisible(),
    ).toBe(true);
    expect(await view.payButton().count()).toBe(0);
    expect(await view.main().getByRole('link', { name: 'Вернуться в каталог' }).getAttribute('href')).toBe('/catalog/');
  });
});

describe('the payment pages without an order (SPEC §2)', () => {
  const get = (p: string, init: RequestInit = {}) => fetch(`${shop.baseUrl}${p}`, { redirect: 'manual', ...init });

  it.each([
    ['/basket/pay/', 'Оплата заказа'],
    ['/basket/pay/frame/', 'Оплата заказа'],
    ['/basket/submited/cloud-payments/', 'Оплата заказа'],
    ['/basket/bad/', 'Оплата не прошла'],
  ])('%s answers 200 with one h1, never cached or indexed', async (p, heading) => {
    const res = await get(p);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    const html = await res.text();
    expect(html.match(/<h1[\s>]/g)?.length).toBe(1);
    expect(html).toContain(`>${heading}</h1>`);
    expect(html).toContain('noindex, nofollow');
  });

  it('sends a guest with an order number to log in and back', async () => {
    const res = await get('/basket/pay/?order=5');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`/auth/?next=${encodeURIComponent('/basket/pay/?order=5')}`);
  });

  it('the frame has no shop header or footer on screen', async ({ shopper }) => {
    const { page } = await shopper.open('/basket/pay/frame/');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Оплата заказа');
    expect(await page.getByRole('banner').isVisible()).toBe(false);
    expect(await page.getByRole('contentinfo').isVisible()).toBe(false);
  });
});
