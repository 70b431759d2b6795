import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { offers, orders, products } from '~/db/schema';
import { CheckoutOrderResponse, PaymentParamsResponse } from '~/shared/contract';
import { readMailOutbox } from '~/integrations/mail/offline.server';
import { getJson, postForm } from '~/tests/support/api';
import { DESKTOP, login, MOBILE, setUpBrowserShop, StorefrontPage } from '~/tests/support/browser';
import { courierForm } from '~/tests/support/checkout';

// Issue #26 item 6: an electronic gift certificate is delivered by e-mail. Its product card, the
// paid order's page and the order's letter say so, and show nothing of parcels, sizes, colours,
// addresses, track numbers or a manager agreeing the delivery. At 390 and 1280 px.

const { shop, it } = setUpBrowserShop();
const db = () => shop.database.db;
const api = () => `${shop.baseUrl}/backend`;

function poll<T>(fn: () => T | Promise<T>) {
  return expect.poll(fn, { timeout: 20_000, interval: 100 });
}

let phones = 0;
const newPhone = () => `7995${String(process.pid % 1000).padStart(3, '0')}${String(++phones).padStart(4, '0')}`;

async function electronicCertificate(): Promise<{ offerId: number; slug: string; name: string }> {
  const [row] = await db()
    .select({ offerId: offers.id, slug: products.slug, name: products.name })
    .from(offers)
    .innerJoin(products, eq(products.id, offers.productId))
    .where(and(eq(products.certificate, 'electronic'), eq(products.priceKopecks, 500_000)))
    .limit(1);
  if (!row) throw new Error('no 5 000 ₽ electronic certificate in the seed');
  return row;
}

/** Bought and paid by card through the stand-in's charge endpoint (as its page does), by a logged-in customer. */
async function paidCertificateOrder(token: string, offerId: number, email: string): Promise<number> {
  const answer = await getJson(api(), '/api/catalog/order.php', CheckoutOrderResponse, {
    init: postForm(
      courierForm(token, `${offerId}:1`, {
        delivery_id: '300',
        payment_id: '9',
        street: '',
        house: '',
        flat: '',
        deliverycost: '0',
        email,
      }),
    ),
  });
  if (!answer.success) throw new Error(JSON.stringify(answer.data));
  const params = await getJson(api(), '/api/catalog/payment_params.php', PaymentParamsResponse, {
    init: postForm({ token, order_id: String(answer.order_id) }),
  });
  if (!('payment' in params)) throw new Error(params.error);
  const p = Buffer.from(JSON.stringify(params.payment.params)).toString('base64url');
  const res = await fetch(`${api()}/api/cloudpayments/offline/charge/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ p, action: 'pay', code: '1234', card: '4242 4242 4242 4242' }),
  });
  expect(res.status).toBe(200);
  await poll(
    async () => (await db().select({ s: orders.status }).from(orders).where(eq(orders.id, answer.order_id)))[0]?.s,
  ).toBe('new');
  return answer.order_id;
}

describe('an electronic gift certificate goes by e-mail', () => {
  for (const [label, viewport] of [
    ['390 px', MOBILE],
    ['1280 px', DESKTOP],
  ] as const) {
    it(`its product card says e-mail and shows no colour, size, delivery, return nor one-click order (${label})`, async ({
      shopper,
    }) => {
      const cert = await electronicCertificate();
      const { page } = await shopper.open(`/catalog/podarochnye-karty/${cert.slug}/`, viewport);
      const main = page.getByRole('main');
      expect(await main.getByRole('heading', { level: 1 }).textContent()).toBe(cert.name);
      expect(await main.getByText('На электронную почту.').isVisible()).toBe(true);
      expect(
        await main
          .getByText(/придёт на e-mail, указанный в заказе, в течение часа после оплаты/)
          .first()
          .isVisible(),
      ).toBe(true);
      const text = (await main.locator('.product__info').textContent()) ?? '';
      for (const parcel of ['Цвет', 'Чёрный', 'Единый', 'Купить в один клик', 'Таблица размеров'])
        expect(text).not.toContain(parcel);
      expect(await main.locator('.product__info').getByRole('link', { name: 'Доставка', exact: true }).count()).toBe(0);
      expect(await main.locator('.product__info').getByRole('link', { name: 'Возврат', exact: true }).count()).toBe(0);
      expect(await main.getByRole('button', { name: 'Добавить в корзину' }).isVisible()).toBe(true);
    });

    it(`after paying, its page and letter say it comes by e-mail, with no address, manager nor track number (${label})`, async ({
      shopper,
    }) => {
      const cert = await electronicCertificate();
      const page = await shopper.newPage(viewport);
      const { token } = await login(page.context(), shop, newPhone());
      const email = `e-cert-${process.pid}-${label.replace(/\D/g, '')}@example.ru`;
      const orderId = await paidCertificateOrder(token, cert.offerId, email);
      const store = new StorefrontPage(page);
      await store.goto(`/basket/submited/cloud-payments/?order=${orderId}`);
      expect(await store.heading().textContent()).toBe('Заказ оплачен');
      const main = page.getByRole('main');
      const text = (await main.textContent()) ?? '';
      expect(text).toContain('Сертификат придёт на e-mail');
      expect(text).toContain(email);
      for (const parcel of [
        'Адрес',
        'Москва',
        'Менеджер свяжется',
        'согласовать способ',
        'Трек-номер',
        'Размер',
        'Единый',
        'Чёрный',
      ])
        expect(text).not.toContain(parcel);

      // The account's order card: the certificate line has no size nor colour either.
      await store.goto('/personal/');
      const card = page.getByRole('article', { name: `Заказ № ${orderId}` });
      expect(await card.getByText(cert.name).isVisible()).toBe(true);
      for (const parcel of ['Размер', 'Единый', 'Чёрный'])
        expect((await card.textContent()) ?? '').not.toContain(parcel);

      await poll(async () =>
        (await readMailOutbox(path.join(shop.dataDir, 'outbox'))).some(
          (m) => m.to === email && m.tag === 'order-placed',
        ),
      ).toBe(true);
      const [sent] = (await readMailOutbox(path.join(shop.dataDir, 'outbox'))).filter(
        (m) => m.to === email && m.tag === 'order-placed',
      );
      expect(sent?.text).toContain('Электронный сертификат придёт на этот адрес');
      for (const parcel of ['трек-номер', 'Отправим', 'размер', 'Москва', 'Менеджер свяжется'])
        expect(sent?.text).not.toContain(parcel);
    });
  }
});
