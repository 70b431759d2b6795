import { eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { orders } from '~/db/schema';
import { placeOrder } from '~/models/orders.server';
import { DELIVERY_ID, PAYMENT_ID } from '~/shared/checkout-ids';
import { setUpBrowserShop } from '~/tests/support/browser';
import { testClock } from '~/tests/support/admin';
import { shot, staffPage } from '~/tests/support/admin-browser';
import { offerPicker } from '~/tests/support/checkout';

// The back office's orders at 1280 px (issue #29): a manager finds an order by phone, confirms it
// from its page (a confirmation dialog), and records a partial fitting of a Moscow courier order:
// one of two kept, the other back in stock through the ledger. The manager's session is made over
// HTTP (the login screen has its own test, admin.test.ts). SHOTS_DIR=… saves screenshots.
//
// The search box is found by its label: react-admin's TextInput shows its label inside the empty
// box (an MUI floating label, <label for>), which looks like a placeholder but is none, so
// getByPlaceholder never finds it.

const clock = testClock();
const { shop, it } = setUpBrowserShop({ clock: clock.now });
const freshOffer = offerPicker(shop);

async function order(phone: string, deliveryId: string, status: string, quantity = 1) {
  const offer = await freshOffer({ quantity: 5 });
  const placed = await placeOrder({
    db: shop.database.db,
    kind: 'checkout',
    customerId: null,
    phone,
    name: 'Вера Покупателева',
    cart: [{ offerId: offer.id, quantity }],
    preorders: [],
    promoCode: null,
    deliveryCostKopecks: 0,
  });
  if (!placed.ok) throw new Error(JSON.stringify(placed));
  await shop.database.db
    .update(orders)
    .set({ deliveryId, paymentId: PAYMENT_ID.onReceipt, status, deliveryCity: 'Москва', email: 'vera@example.com' })
    .where(eq(orders.id, placed.orderId));
  return { orderId: placed.orderId, offer };
}

const statusOf = async (orderId: number) =>
  (await shop.database.db.select().from(orders).where(eq(orders.id, orderId)))[0]?.status;

describe('back office orders', () => {
  it('a manager finds an order by phone, confirms it, and records a partial fitting', async ({ shopper }) => {
    const { orderId: newId } = await order('79261112233', DELIVERY_ID.cdekDoor, 'new');
    const { orderId: courierId } = await order('79264445566', DELIVERY_ID.moscowCourier, 'shipped', 2);
    const { page } = await staffPage(shopper, shop, clock, { email: 'olga@vitrina.example', role: 'manager' });

    await page.goto('/admin/orders');
    await page.getByRole('cell', { name: String(courierId), exact: true }).waitFor();
    await page.getByRole('textbox', { name: 'Номер, телефон, e-mail или имя' }).fill('+7 926 111-22-33');
    await expect.poll(() => page.getByRole('cell', { name: String(courierId), exact: true }).count()).toBe(0);
    const row = page.getByRole('row').filter({ hasText: '+7 926 111-22-33' });
    expect(await row.count()).toBe(1);
    expect(await row.textContent()).toMatch(/Принят.*₽/);
    await shot(page, 'admin-orders-search-1280');
    await page.getByRole('cell', { name: String(newId), exact: true }).click();
    await page.getByRole('heading', { name: `Заказ № ${newId}` }).waitFor();
    await page.getByRole('button', { name: 'Подтвердить' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Заказ станет «Подтверждён».').waitFor();
    await dialog.getByRole('button', { name: 'Подтвердить' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => statusOf(newId)).toBe('confirmed');
    await page
      .getByText(/— Подтверждён/)
      .first()
      .waitFor();
    // The order's journal names the move, from and to, in Russian.
    await page.getByText('olga@vitrina.example: Заказ подтверждён: Принят → Подтверждён').waitFor();

    // The courier came back: one of two kept, one returned.
    await page.goto(`/admin/orders/${courierId}/show`);
    await page.getByRole('heading', { name: `Заказ № ${courierId}` }).waitFor();
    await page.getByRole('button', { name: 'Записать примерку' }).click();
    await dialog.getByRole('spinbutton', { name: 'Оставил' }).fill('1');
    await dialog.getByText('Вернул: 1').waitFor();
    await shot(page, 'admin-fitting-1280');
    await dialog.getByRole('button', { name: 'Записать примерку' }).click();
    await page.getByRole('cell', { name: 'оставил 1, вернул 1' }).waitFor();
    await shot(page, 'admin-order-fitted-1280');
    await expect.poll(() => statusOf(courierId)).toBe('received');
    await page.getByText(/: Примерка: Передан в доставку → Получен$/).waitFor();
  });
});
