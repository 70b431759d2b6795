import path from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { orders } from '~/db/schema';
import { CheckoutOrderResponse } from '~/shared/contract';
import { createOfflineSms } from '~/integrations/sms/offline.server';
import { releaseUnpaidOrder } from '~/models/payments.server';
import { getJson, postForm } from '~/tests/support/api';
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
import { courierForm } from '~/tests/support/checkout';

// Issue #26 item 4, as a customer meets it at 390 and 1280 px: an order awaiting card payment
// has «Оплатить» in the account, which leads to the pay page; another customer who opens the
// same pay link sees nothing of the order; once the hold ended and the order was cancelled, the
// account card and the notice's page put the same lines back in the basket in one click.

const { shop, it } = setUpBrowserShop();
const picker = productPicker(shop);

function poll<T>(fn: () => T | Promise<T>) {
  return expect.poll(fn, { timeout: 15_000, interval: 100 });
}

let phones = 0;
const newPhone = () => `7996${String(process.pid % 1000).padStart(3, '0')}${String(++phones).padStart(4, '0')}`;

/** A logged-in customer with a card order awaiting payment (placed through order.php as the checkout does). */
async function customerWithUnpaidOrder(shopper: Shopper, viewport: Viewport) {
  const picked = await picker.fresh();
  const page = await shopper.newPage(viewport);
  const phone = newPhone();
  const { token } = await login(page.context(), shop, phone);
  const answer = await getJson(`${shop.baseUrl}/backend`, '/api/catalog/order.php', CheckoutOrderResponse, {
    init: postForm(
      courierForm(token, `${picked.offerId}:1`, {
        payment_id: '9',
        phone: `+${phone}`,
        email: `later-${phone}@example.ru`,
      }),
    ),
  });
  if (!answer.success) throw new Error(JSON.stringify(answer.data));
  return { page, orderId: answer.order_id, product: picked.item.NAME, offerId: picked.offerId, phone };
}

/** The hold ends (the release run with the clock past pay_until), as the release job would. */
async function releaseNow(orderId: number) {
  const [row] = await shop.database.db.select().from(orders).where(eq(orders.id, orderId));
  const sms = createOfflineSms({ outboxDir: path.join(shop.dataDir, 'outbox') });
  const quiet = { info() {}, warn() {}, error() {} };
  const outcome = await releaseUnpaidOrder({
    db: shop.database.db,
    sms,
    log: quiet,
    siteUrl: shop.baseUrl,
    orderId,
    now: new Date((row?.payUntil as Date).getTime() + 1000),
  });
  expect(outcome).toBe('released');
}

describe('an order awaiting payment, paid later or put back in the basket', () => {
  for (const [label, viewport] of [
    ['390 px', MOBILE],
    ['1280 px', DESKTOP],
  ] as const) {
    it(`has «Оплатить» in the account that opens its pay page (${label})`, async ({ shopper }) => {
      const { page, orderId } = await customerWithUnpaidOrder(shopper, viewport);
      const store = new StorefrontPage(page);
      await store.goto('/personal/');
      const card = page.getByRole('article', { name: `Заказ № ${orderId}` });
      const pay = card.getByRole('link', { name: `Оплатить заказ № ${orderId}` });
      expect(await pay.isVisible()).toBe(true);
      expect(await card.getByText(/Оплатите до \d\d:\d\d по Москве/).isVisible()).toBe(true);
      await pay.click();
      await page.waitForURL(new RegExp(`/basket/pay/\\?order=${orderId}$`));
      await poll(() => store.heading().textContent()).toBe('Оплата заказа');
      expect(await page.getByRole('main').getByRole('button', { name: 'Оплатить', exact: true }).isVisible()).toBe(
        true,
      );
    });

    it(`shows another customer nothing of the order behind its pay link (${label})`, async ({ shopper }) => {
      const { orderId, phone } = await customerWithUnpaidOrder(shopper, viewport);
      const stranger = await shopper.newPage(viewport);
      await login(stranger.context(), shop, newPhone());
      const response = await new StorefrontPage(stranger).goto(`/basket/pay/?order=${orderId}`);
      expect(response?.status()).toBe(404);
      const text = (await stranger.getByRole('main').textContent()) ?? '';
      expect(text).toContain('Такого заказа нет среди ваших');
      for (const secret of [phone, `later-${phone}@example.ru`, 'Тверская', 'Иванова'])
        expect(text).not.toContain(secret);
      // The repeat page neither shows it nor fills the stranger's basket.
      const repeat = await new StorefrontPage(stranger).goto(`/basket/repeat/?order=${orderId}`);
      expect(repeat?.status()).toBe(404);
      // A guest is asked to log in first.
      const guest = await shopper.newPage(viewport);
      await guest.goto(`/basket/pay/?order=${orderId}`);
      expect(new URL(guest.url()).pathname).toBe('/auth/');
    });

    it(`puts a cancelled order's lines back in the basket in one click from the account (${label})`, async ({
      shopper,
    }) => {
      const { page, orderId, product } = await customerWithUnpaidOrder(shopper, viewport);
      await releaseNow(orderId);
      const store = new StorefrontPage(page);
      await store.goto('/personal/');
      const card = page.getByRole('article', { name: `Заказ № ${orderId}` });
      expect(await card.getByRole('link', { name: /Оплатить/ }).count()).toBe(0);
      await card.getByRole('button', { name: `Вернуть в корзину товары заказа № ${orderId}` }).click();
      await page.waitForURL(/\/basket\/$/);
      await poll(() => page.getByRole('main').getByText(product, { exact: false }).first().isVisible()).toBe(true);
    });

    it(`puts them back from the cancellation notice's page (${label})`, async ({ shopper }) => {
      const { page, orderId, product } = await customerWithUnpaidOrder(shopper, viewport);
      await releaseNow(orderId);
      const store = new StorefrontPage(page);
      await store.goto(`/basket/repeat/?order=${orderId}`);
      expect(await store.heading().textContent()).toBe('Заказ отменён');
      expect(await page.getByRole('main').getByText(product).first().isVisible()).toBe(true);
      await page.getByRole('button', { name: 'Вернуть товары в корзину' }).click();
      await page.waitForURL(/\/basket\/$/);
      await poll(() => page.getByRole('main').getByText(product, { exact: false }).first().isVisible()).toBe(true);
      // The pay link of the cancelled order offers the same.
      await store.goto(`/basket/pay/?order=${orderId}`);
      expect(await page.getByRole('button', { name: 'Вернуть товары в корзину' }).isVisible()).toBe(true);
    });
  }
});
