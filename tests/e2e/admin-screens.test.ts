import { eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import type { Page } from 'playwright-core';
import {
  exchangeImports,
  exchangeSaleExports,
  exchangeSessions,
  offers,
  orders,
  products,
  waitingList,
} from '~/db/schema';
import { placeOrder } from '~/models/orders.server';
import { DELIVERY_ID, PAYMENT_ID } from '~/shared/checkout-ids';
import { DESKTOP, MOBILE, setUpBrowserShop, type Viewport } from '~/tests/support/browser';
import { staffSession, testClock } from '~/tests/support/admin';
import { deliveredCardOrder, returnRequest, samePageAt, seriousAxeFaults, shot } from '~/tests/support/admin-browser';
import { offerPicker } from '~/tests/support/checkout';
import { customerMaker } from '~/tests/support/session';

// The back office's main screens (issue #29) as an admin sees them, with data in each: axe-core
// finds no serious or critical violation on any of them at 1280 px, and none of them is wider
// than the window at 1280 or at 390 px. SHOTS_DIR=… saves each screen at both widths
// (admin-<screen>-1280.png, admin-<screen>-390.png).

const clock = testClock();
const { shop, it } = setUpBrowserShop({ clock: clock.now });
const freshOffer = offerPicker(shop);
const customer = customerMaker(shop, '7997');

/** Waits until react-admin has loaded: `ready` is on screen and no progress bar is left. */
async function settled(page: Page, ready: string | RegExp) {
  await page.getByText(ready).first().waitFor();
  await page.waitForLoadState('networkidle');
  await expect.poll(() => page.getByRole('progressbar').count()).toBe(0);
}

/** How much wider than the window the page is (0 when it fits). Not window.innerWidth: a phone's
 * layout viewport grows to a page too wide for it (the browser zooms out), so innerWidth grows too. */
const overflow = async (page: Page, viewport: Viewport) =>
  (await page.evaluate(() => document.documentElement.scrollWidth)) - viewport.width;

/** Pixels between the app bar and a list's first filter: react-admin's phone layout put an
 * actions strip of 64 px there (empty, or one filter icon), now the actions share the filters' row. */
const filtersGap = (page: Page) =>
  page.evaluate(() => {
    const bar = document.querySelector('header')?.getBoundingClientRect();
    const input = document.querySelector('form .MuiInputBase-root')?.getBoundingClientRect();
    return bar && input ? input.top - bar.bottom : Number.POSITIVE_INFINITY;
  });

/** The data every screen shows, made once for the file: a card order delivered and partly
 * returned, a courier order paid on receipt, a sold-out size with someone waiting, an admin. */
async function makeData() {
  const who = await customer();
  const offer = await freshOffer({ min: 300_000, max: 1_500_000 });
  const cardOrder = await deliveredCardOrder(shop, who.token, offer, 2);
  const requestId = await returnRequest(shop, who.token, cardOrder, offer.id, 1);
  const courierOffer = await freshOffer({ quantity: 4 });
  const placed = await placeOrder({
    db: shop.database.db,
    kind: 'checkout',
    customerId: null,
    phone: '79263334455',
    name: 'Вера Покупателева',
    cart: [{ offerId: courierOffer.id, quantity: 2 }],
    preorders: [],
    promoCode: null,
    deliveryCostKopecks: 0,
  });
  if (!placed.ok) throw new Error(JSON.stringify(placed));
  await shop.database.db
    .update(orders)
    .set({
      deliveryId: DELIVERY_ID.moscowCourier,
      paymentId: PAYMENT_ID.onReceipt,
      deliveryCity: 'Москва',
      email: 'vera@example.com',
    })
    .where(eq(orders.id, placed.orderId));
  const soldOut = await freshOffer({ quantity: 0 });
  await shop.database.db
    .insert(waitingList)
    .values({ offerId: soldOut.id, phone: '79990007788', name: 'Анна Ожидающая' });
  const staff = await staffSession(shop, clock, { email: 'admin@vitrina.example', role: 'admin' });
  // The 1C exchange's log: a catalogue session (a file imported, a zip refused, one with warnings) and an order export.
  const [catalog] = await shop.database.db
    .insert(exchangeSessions)
    .values({ tokenHash: 'screens-catalog', staffId: staff.id, type: 'catalog', ip: '10.0.0.5' })
    .returning({ id: exchangeSessions.id });
  await shop.database.db.insert(exchangeImports).values([
    {
      sessionId: catalog!.id,
      filename: 'import.xml',
      kind: 'import',
      status: 'done',
      steps: 12,
      step: 12,
      counts: { products_created: 1200, products_updated: 8800, products_deactivated: 14, pictures_processed: 930 },
      warnings: ['Товар bbbb0001-0000-0000-0000-000000000002 сопоставлен с товаром сайта 41 по артикулу EX-DRESS-1'],
      finishedAt: new Date(),
    },
    {
      sessionId: catalog!.id,
      filename: 'offers.xml',
      kind: 'offers',
      status: 'failed',
      error:
        'offers.xml: Предложение bbbb0001-0000-0000-0000-000000000001#cccc0001-0000-0000-0000-000000000044: неизвестный тип цены price-nobody (его нет в ТипыЦен) (строка 210, столбец 34)',
      finishedAt: new Date(),
    },
  ]);
  const [sale] = await shop.database.db
    .insert(exchangeSessions)
    .values({ tokenHash: 'screens-sale', staffId: staff.id, type: 'sale', ip: '10.0.0.5' })
    .returning({ id: exchangeSessions.id });
  await shop.database.db
    .insert(exchangeSaleExports)
    .values({ sessionId: sale!.id, until: new Date(), orderIds: [placed.orderId], confirmedAt: new Date() });
  const [product] = await shop.database.db
    .select({ productId: offers.productId, sectionId: products.sectionId })
    .from(offers)
    .innerJoin(products, eq(products.id, offers.productId))
    .where(eq(offers.id, offer.id));
  return {
    customerId: who.customerId,
    cardOrder,
    courierOrder: placed.orderId,
    requestId,
    offerId: offer.id,
    staff,
    productId: product?.productId ?? 0,
    sectionId: product?.sectionId ?? 0,
  };
}
let data: ReturnType<typeof makeData> | undefined;

type Data = Awaited<ReturnType<typeof makeData>>;
const screens: {
  name: string;
  path: (d: Data) => string;
  ready: (d: Data) => string | RegExp;
  session?: false;
  /** A list with filters: on a phone its actions share the filters' row, no strip of their own. */
  list?: true;
}[] = [
  { name: 'login', path: () => '/admin/login', ready: () => 'Продолжить', session: false },
  { name: 'dashboard', path: () => '/admin/', ready: () => 'Возвраты ждут решения' },
  { name: 'orders', path: () => '/admin/orders', ready: () => 'Вера Покупателева', list: true },
  { name: 'order', path: (d) => `/admin/orders/${d.cardOrder}/show`, ready: (d) => `Заказ № ${d.cardOrder}` },
  {
    name: 'order-courier',
    path: (d) => `/admin/orders/${d.courierOrder}/show`,
    ready: (d) => `Заказ № ${d.courierOrder}`,
  },
  { name: 'returns', path: () => '/admin/returns', ready: () => 'Не подошёл размер', list: true },
  { name: 'return', path: (d) => `/admin/returns/${d.requestId}/show`, ready: () => 'Не подошёл размер' },
  { name: 'stock', path: () => '/admin/offers', ready: () => 'Артикул', list: true },
  { name: 'offer', path: (d) => `/admin/offers/${d.offerId}/show`, ready: () => 'Движения остатка' },
  { name: 'waiting', path: () => '/admin/waiting-list', ready: () => 'Анна Ожидающая', list: true },
  { name: 'customers', path: () => '/admin/customers', ready: () => 'С нами с', list: true },
  { name: 'customer', path: (d) => `/admin/customers/${d.customerId}/show`, ready: () => 'Заказы' },
  { name: 'staff', path: () => '/admin/staff', ready: () => 'admin@vitrina.example', list: true },
  { name: 'staff-member', path: (d) => `/admin/staff/${d.staff.id}`, ready: () => 'Сеансы' },
  // The order's status moves (`npm run order` in deliveredCardOrder) say from and to.
  {
    name: 'audit',
    path: () => '/admin/audit',
    ready: () => 'Статус заказа: Передан в доставку → Доставлен',
    list: true,
  },
  { name: 'feeds', path: () => '/admin/feeds', ready: () => 'Сохранить настройки' },
  { name: 'products', path: () => '/admin/products', ready: () => 'Показан' },
  { name: 'product', path: (d) => `/admin/products/${d.productId}`, ready: () => 'Добавить размер' },
  { name: 'product-new', path: () => '/admin/products/create', ready: () => 'Новый товар скрыт' },
  { name: 'sections', path: () => '/admin/sections', ready: () => 'Женщинам' },
  { name: 'section', path: (d) => `/admin/sections/${d.sectionId}`, ready: () => 'Текст под списком товаров' },
  { name: 'exchange', path: () => '/admin/exchange', ready: () => 'неизвестный тип цены' },
];

describe('back office screens: axe at 1280 px, no sideways scrolling at 1280 and 390 px', () => {
  for (const screen of screens) {
    it(screen.name, async ({ shopper }) => {
      data ??= makeData();
      const d = await data;
      for (const viewport of [DESKTOP, MOBILE]) {
        const page =
          screen.session === false
            ? await shopper.newPage(viewport)
            : await samePageAt(shopper, shop, d.staff.cookie, viewport);
        const errors: string[] = [];
        const calls: string[] = [];
        page.on('response', (r) => {
          if (r.url().includes('/backend/')) calls.push(`${r.status()} ${r.url()}`);
        });
        page.on('pageerror', (e) => errors.push(e.message));
        page.on('console', (m) => {
          if (m.type() === 'error') errors.push(m.text());
        });
        await page.goto(screen.path(d));
        await settled(page, screen.ready(d)).catch(async (e: unknown) => {
          await page.screenshot({ path: `/tmp/c3-fail-${screen.name}-${viewport.width}.png`, fullPage: true });
          throw new Error(`${String(e)}\n${errors.join('\n')}\n${calls.join('\n')}`);
        });
        expect.soft(errors, `${screen.name} at ${viewport.width} px: errors in the page`).toEqual([]);
        await shot(page, `admin-${screen.name}-${viewport.width}`);
        expect
          .soft(await overflow(page, viewport), `${screen.name} at ${viewport.width} px: wider than the window`)
          .toBe(0);
        if (viewport === DESKTOP) expect.soft(await seriousAxeFaults(page), `${screen.name}: axe`).toEqual([]);
        if (screen.list && viewport === MOBILE)
          expect
            .soft(await filtersGap(page), `${screen.name} at 390 px: a strip between the app bar and the filters`)
            .toBeLessThan(32);
      }
    });
  }
});
