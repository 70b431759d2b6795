import { randomBytes } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { giftCertificates, offers, products } from '~/db/schema';
import { PaymentParamsResponse } from '~/shared/contract';
import { formatCertificateCode, newCertificateCode } from '~/core/gift-certificates';
import { isOuterwear, MOSCOW_COURIER_PRICE_KOPECKS } from '~/core/delivery';
import { getJson, postForm } from './api';
import type { TestShop } from './server';
import { setStock } from './stock';

/**
 * Pays an order awaiting a card payment as the shopper would: the widget's parameters from
 * payment_params.php, then the offline stand-in's 'Оплатить' with the 3-D Secure code, which
 * sends the signed Check and Pay notifications to the shop. Returns the transaction id.
 */
export async function payByCard(
  apiBase: string,
  token: string,
  orderId: number,
): Promise<{ transactionId: string; amount: number }> {
  const answer = await getJson(apiBase, '/api/catalog/payment_params.php', PaymentParamsResponse, {
    init: postForm({ token, order_id: String(orderId) }),
  });
  if (!('payment' in answer)) throw new Error(answer.error);
  const p = Buffer.from(JSON.stringify(answer.payment.params)).toString('base64url');
  const res = await fetch(`${apiBase}/api/cloudpayments/offline/charge/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ p, action: 'pay', code: '1234', card: '4242 4242 4242 4242' }),
  });
  const body = (await res.json()) as { success: boolean; transactionId: string; message: string };
  if (!body.success) throw new Error(`payment declined: ${body.message}`);
  return { transactionId: body.transactionId, amount: answer.payment.params.amount };
}

/** order.php's fields for the Moscow courier, paid on receipt (`extra` changes any). */
export function courierForm(token: string, ids: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    token,
    ids,
    firstname: 'Анна',
    lastname: 'Иванова',
    phone: '+7 (916) 123-45-67',
    email: 'anna@example.com',
    city: 'Москва',
    delivery_id: '1',
    street: 'ул Тверская',
    house: '12',
    flat: '5',
    payment_id: '1',
    deliverycost: String(MOSCOW_COURIER_PRICE_KOPECKS / 100),
    key: `k-${Math.random().toString(36).slice(2, 12)}`,
    ...extra,
  };
}

export interface FreshOffer {
  id: number;
  productId: number;
  name: string;
  kind: string;
  /** Kopecks. */
  price: number;
}

/**
 * `freshOffer()` for a test file: each call an offer of a product no earlier call took (so tests
 * share no stock), at full price, neither a gift certificate (it goes by e-mail, with no courier)
 * nor outerwear (a coat brings the gift cover line; the courier takes two a trip), priced within
 * [min, max] kopecks and stocked with `quantity`, not on preorder.
 */
export function offerPicker(shop: Pick<TestShop, 'database'>) {
  const used = new Set<number>();
  return async function freshOffer({ min = 0, max = Number.MAX_SAFE_INTEGER, quantity = 5 } = {}): Promise<FreshOffer> {
    const db = shop.database.db;
    const rows = await db
      .select({
        id: offers.id,
        productId: products.id,
        name: products.name,
        kind: products.kind,
        price: offers.priceKopecks,
      })
      .from(offers)
      .innerJoin(products, eq(products.id, offers.productId))
      .where(
        and(
          eq(products.active, true),
          isNull(products.oldPriceKopecks),
          isNull(offers.oldPriceKopecks),
          isNull(products.certificate),
        ),
      )
      .orderBy(offers.id);
    const found = rows.find(
      (o) =>
        !used.has(o.productId) && o.price >= min && o.price <= max && !/пальто/i.test(o.name) && !isOuterwear(o.kind),
    );
    if (!found) throw new Error('the seed has no such offer left');
    used.add(found.productId);
    await setStock(db, found.id, quantity, { preorder: false });
    return found;
  };
}

/** A valid electronic gift certificate of `balanceKopecks` (a year's validity), as if bought: its row id, its number and the number as shown. */
export async function issueCertificate(
  shop: Pick<TestShop, 'database'>,
  balanceKopecks: number,
): Promise<{ id: number; code: string; formatted: string }> {
  const code = newCertificateCode((n) => randomBytes(n));
  const [row] = await shop.database.db
    .insert(giftCertificates)
    .values({
      code,
      kind: 'electronic',
      nominalKopecks: balanceKopecks,
      balanceKopecks,
      issueKey: `test:${code}`,
      expiresAt: new Date(Date.now() + 86_400_000 * 300),
    })
    .returning({ id: giftCertificates.id });
  return { id: (row as { id: number }).id, code, formatted: formatCertificateCode(code) };
}
