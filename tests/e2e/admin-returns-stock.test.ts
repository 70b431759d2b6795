import path from 'node:path';
import { asc, eq, sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { queryRows } from '~/db/client.server';
import { refunds, waitingList } from '~/db/schema';
import { readSmsOutbox } from '~/integrations/sms/offline.server';
import { setUpBrowserShop } from '~/tests/support/browser';
import { eventually } from '~/tests/support/api';
import { admin, testClock } from '~/tests/support/admin';
import { deliveredCardOrder, returnRequest, shot, staffPage } from '~/tests/support/admin-browser';
import { offerPicker } from '~/tests/support/checkout';
import { customerMaker } from '~/tests/support/session';

// The back office's returns and stock at 1280 px (issue #29): a manager approves a return request
// (the card refund, once) and receives the goods (stock back through the ledger); a warehouse
// worker adds stock to a sold-out size and the waiting list's SMS lands in the offline provider's
// outbox (DATA_DIR/outbox/sms.jsonl). Sessions and data are made over HTTP; the clicks are the
// ones under test. SHOTS_DIR=… saves screenshots.

const clock = testClock();
const { shop, it } = setUpBrowserShop({ clock: clock.now });
const db = () => shop.database.db;
const freshOffer = offerPicker(shop);
const customer = customerMaker(shop, '7996');

const quantityOf = async (offerId: number) =>
  (await queryRows<{ quantity: number }>(db(), sql`select quantity from offers where id = ${offerId}`))[0]?.quantity;

describe('back office returns and stock', () => {
  it('a manager approves a return (one card refund) and receives the goods back into stock', async ({ shopper }) => {
    const who = await customer();
    const offer = await freshOffer({ min: 300_000, max: 1_500_000 });
    const orderId = await deliveredCardOrder(shop, who.token, offer, 2);
    const requestId = await returnRequest(shop, who.token, orderId, offer.id, 1);
    const { page } = await staffPage(shopper, shop, clock, { email: 'irina@vitrina.example', role: 'manager' });

    await page.goto('/admin/returns');
    const row = page.getByRole('row').filter({ hasText: 'Не подошёл размер' });
    await row.first().waitFor();
    expect(await row.first().textContent()).toContain('Новое');
    await row
      .first()
      .getByRole('cell', { name: String(requestId), exact: true })
      .click();
    await page.getByRole('button', { name: 'Одобрить и вернуть деньги' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(/Деньги вернутся тем же способом/).waitFor();
    await shot(page, 'admin-return-approve-1280');
    // A double click sends one request with one Idempotency-Key: one refund.
    await dialog.getByRole('button', { name: 'Одобрить и вернуть деньги' }).dblclick();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Принять товар' }).waitFor();
    const refundRows = () =>
      db().select().from(refunds).where(eq(refunds.returnRequestId, requestId)).orderBy(asc(refunds.id));
    await eventually(async () => ((await refundRows())[0]?.status === 'done' ? true : null), 'the card refund done');
    expect(await refundRows()).toHaveLength(1);

    const before = await quantityOf(offer.id);
    await page.getByRole('button', { name: 'Принять товар' }).click();
    await dialog.getByRole('textbox', { name: 'Комментарий' }).fill('Пришло курьером, без следов носки');
    await dialog.getByRole('button', { name: 'Принять товар на склад' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => quantityOf(offer.id)).toBe((before ?? 0) + 1);
    await expect.poll(() => page.getByRole('button', { name: 'Принять товар' }).count()).toBe(0);
    await shot(page, 'admin-return-done-1280');
  });

  it('a warehouse worker adds stock to a sold-out size and its waiting list gets the SMS', async ({ shopper }) => {
    const offer = await freshOffer({ quantity: 0 });
    const phone = '79990004455';
    await db().insert(waitingList).values({ offerId: offer.id, phone, name: 'Анна' });
    const { page, cookie } = await staffPage(shopper, shop, clock, {
      email: 'pyotr@vitrina.example',
      role: 'warehouse',
    });
    const { article, size } = (await admin(shop, `/offers/${offer.id}`, { cookie })).body.data as {
      article: string;
      size: string;
    };

    await page.goto('/admin/offers');
    await page.getByRole('textbox', { name: 'Артикул или название' }).fill(article);
    const row = page
      .getByRole('row')
      .filter({ hasText: article })
      .filter({ has: page.getByRole('cell', { name: size, exact: true }) });
    await expect.poll(() => row.count()).toBe(1);
    await row.getByRole('button', { name: 'Изменить' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(/сейчас 0/).waitFor();
    await dialog.getByRole('spinbutton', { name: 'Количество' }).fill('3');
    await dialog.getByRole('textbox', { name: 'Комментарий' }).fill('поставка от фабрики');
    await shot(page, 'admin-stock-adjust-1280');
    await dialog.getByRole('button', { name: 'Сохранить' }).click();
    await dialog.waitFor({ state: 'detached' });
    // The notification (the offer's history on the page says the same words).
    await page.getByRole('alert').getByText('Остаток изменён').waitFor();
    expect(await quantityOf(offer.id)).toBe(3);
    const sms = await eventually(
      async () =>
        (await readSmsOutbox(path.join(shop.dataDir, 'outbox'))).find(
          (m) => m.tag === 'back-in-stock' && m.phone.endsWith(phone.slice(1)),
        ) ?? null,
      'the back-in-stock SMS',
    );
    expect(sms.text.length).toBeGreaterThan(0);

    // The offer's ledger shows the receipt, by the warehouse worker.
    await page.goto(`/admin/offers/${offer.id}/show`);
    await page.getByRole('cell', { name: 'поставка от фабрики', exact: true }).waitFor();
    await shot(page, 'admin-offer-1280');
  });
});
