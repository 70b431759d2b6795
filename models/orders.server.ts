import { eq, sql } from 'drizzle-orm';
import { queryRows, type Database } from '~/db/client.server';
import { orderItems, orders, orderStatusHistory, promoCodes } from '~/db/schema';
import { GIFT_COVER_OFFER_ID, giftCoverQuantity } from '~/core/basket';
import { priceBasket, type RequestedLine } from '~/core/basket-pricing';
import type { PromoCode } from '~/core/promo';
import { getBasketCatalog, type BasketOfferRow } from './basket.server';
import { countPromoUsesByCustomer, toPromoCode } from './promo.server';
import { refreshProductSizes } from './stock.server';
import { bumpCatalogVersion } from '~/db/catalog-version.server';

// The one function that places an order (fast order now, checkout later): DESIGN.md's
// commerce rules. One transaction: prices re-read, quantities summed per offer, stock taken by
// one conditional update per offer in offer-id order (never below zero, no deadlock between two
// baskets), the promo counted under its row lock, order and item snapshots written, the
// idempotency key recorded; all of it or nothing. The row locks are the whole mechanism, so any
// number of processes on one database are safe.

export interface PlaceOrderInput {
  db: Database;
  kind: 'fast' | 'checkout';
  customerId: number | null;
  /** Digits with country code (core/phone.ts). */
  phone: string;
  name: string;
  cart: readonly RequestedLine[];
  preorders: readonly RequestedLine[];
  promoCode?: string | null;
  /** The storefront's key for this submission: a repeat gets the first answer. */
  idempotencyKey?: string | null;
  fields?: Record<string, string>;
  deliveryCostKopecks?: number;
  /** Checkout details written with the order (kind 'checkout'). */
  checkout?: CheckoutDetails;
  /** The first status: 'new', or 'awaiting_payment' for an online payment. */
  status?: 'new' | 'awaiting_payment';
  /** Runs inside the order's transaction once it is written (its jobs, the customer's saved basket). */
  afterWrite?: (tx: Database, orderId: number) => Promise<void>;
  now?: Date;
}

export interface CheckoutDetails {
  email: string;
  paymentId: string;
  deliveryId: string;
  deliveryCity: string;
  deliveryAddress: string;
  pickupPoint: Record<string, unknown> | null;
  /** The cost was not known online: staff confirm it. */
  costPending: boolean;
  dateFrom: string | null;
  dateTo: string | null;
  note: string | null;
  trips: number;
}

export type PlaceOrderResult =
  | { ok: true; orderId: number; repeated: boolean; payKopecks: number }
  | { ok: false; reason: 'empty' }
  /** Lines that cannot be sold as asked, by name ('«Пальто Аврора», размер 44 (S)'). */
  | { ok: false; reason: 'unavailable'; items: string[] }
  | { ok: false; reason: 'promo'; error: string };

/** Thrown inside the transaction to roll it back with an answer for the shopper. */
class Refused extends Error {
  constructor(readonly result: Exclude<PlaceOrderResult, { ok: true }>) {
    super('order refused');
  }
}

export async function placeOrder(input: PlaceOrderInput): Promise<PlaceOrderResult> {
  const cart = sumPerOffer(input.cart.filter((l) => l.offerId !== GIFT_COVER_OFFER_ID));
  const preorders = sumPerOffer(input.preorders.filter((l) => l.offerId !== GIFT_COVER_OFFER_ID));
  if (cart.length === 0 && preorders.length === 0) return { ok: false, reason: 'empty' };
  try {
    return await input.db.transaction(async (txn) => {
      const tx = txn as unknown as Database;
      const key = input.idempotencyKey ?? null;
      if (key) {
        // Two submissions with one key wait for each other here; the second then finds the first's order.
        await tx.execute(sql`select pg_advisory_xact_lock(7311002, hashtext(${key}))`);
        const [existing] = await tx.select({ id: orders.id, total: orders.totalKopecks }).from(orders).where(eq(orders.idempotencyKey, key)).limit(1);
        if (existing) return { ok: true as const, orderId: existing.id, repeated: true, payKopecks: existing.total };
      }

      const catalog = await getBasketCatalog({ db: tx, offerIds: [...cart, ...preorders].map((l) => l.offerId).concat(GIFT_COVER_OFFER_ID) });
      const failed: string[] = [];
      const describe = (o: BasketOfferRow) => `«${o.productName}», размер ${o.sizeLabel}`;
      for (const line of cart) {
        const o = catalog.offers.get(line.offerId);
        if (!o || !o.active) failed.push(o ? describe(o) : `товар №${line.offerId}`);
      }
      for (const line of preorders) {
        const o = catalog.offers.get(line.offerId);
        if (!o || !o.active || !o.preorder) failed.push(o ? describe(o) : `товар №${line.offerId}`);
      }
      if (failed.length) throw new Refused({ ok: false, reason: 'unavailable', items: failed });

      // Stock, in offer-id order: the conditional update is the check, so no oversell and no deadlock.
      const soldOutProducts = new Set<number>();
      for (const line of [...cart].sort((a, b) => a.offerId - b.offerId)) {
        const rows = await queryRows<{ quantity: number; product_id: number }>(
          tx,
          sql`update offers set quantity = quantity - ${line.quantity} where id = ${line.offerId} and quantity >= ${line.quantity} returning quantity, product_id`,
        );
        const row = rows[0];
        if (!row) failed.push(describe(catalog.offers.get(line.offerId) as BasketOfferRow));
        else if (Number(row.quantity) === 0) soldOutProducts.add(Number(row.product_id));
      }
      if (failed.length) throw new Refused({ ok: false, reason: 'unavailable', items: failed });
      if (soldOutProducts.size) {
        // A size that sold out leaves the listing's size facet.
        for (const productId of soldOutProducts) await refreshProductSizes({ db: tx, productId });
        await bumpCatalogVersion(tx);
      }

      const giftCovers = giftCoverQuantity([...cart, ...preorders].map((l) => ({ ...l, productName: catalog.offers.get(l.offerId)?.productName ?? '' })));
      const gift = catalog.offers.get(GIFT_COVER_OFFER_ID) ?? null;
      const promoCode = input.promoCode ?? null;
      let promo: PromoCode | null = null;
      if (promoCode) {
        // The row lock orders concurrent uses of one code: its limits hold under any load.
        const [row] = await tx.select().from(promoCodes).where(eq(promoCodes.code, promoCode)).for('update').limit(1);
        promo = row ? toPromoCode(row, await countPromoUsesByCustomer({ db: tx, code: promoCode, customerId: input.customerId })) : null;
      }
      const now = input.now ?? new Date();
      const priced = priceBasket({ basket: { cart, preorders, giftCovers }, offers: catalog.offers, giftCover: gift, promoCode, promo, now });
      if (priced.promo.status === 'invalid') throw new Refused({ ok: false, reason: 'promo', error: priced.promo.error });
      if (priced.promo.status === 'valid') {
        await tx
          .update(promoCodes)
          .set({ usedCount: sql`${promoCodes.usedCount} + 1` })
          .where(eq(promoCodes.code, promoCode as string));
      }

      const delivery = input.deliveryCostKopecks ?? 0;
      const [order] = await tx
        .insert(orders)
        .values({
          customerId: input.customerId,
          kind: input.kind,
          phone: input.phone,
          customerName: input.name,
          idempotencyKey: key,
          promoCode: priced.promo.status === 'valid' ? promoCode : null,
          discountKopecks: priced.discountKopecks,
          fields: input.fields ?? {},
          itemsTotalKopecks: priced.totalKopecks,
          deliveryCostKopecks: delivery,
          totalKopecks: priced.payKopecks + delivery,
          ...(input.checkout
            ? {
                email: input.checkout.email,
                paymentId: input.checkout.paymentId,
                deliveryId: input.checkout.deliveryId,
                deliveryCity: input.checkout.deliveryCity,
                deliveryAddress: input.checkout.deliveryAddress,
                pickupPoint: input.checkout.pickupPoint,
                deliveryCostPending: input.checkout.costPending,
                deliveryDateFrom: input.checkout.dateFrom,
                deliveryDateTo: input.checkout.dateTo,
                deliveryNote: input.checkout.note,
                deliveryTrips: input.checkout.trips,
              }
            : {}),
          status: input.status ?? 'new',
          createdAt: now,
        })
        .returning({ id: orders.id });
      const orderId = (order as { id: number }).id;
      await tx.insert(orderStatusHistory).values({ orderId, status: input.status ?? 'new', createdAt: now });
      await tx.insert(orderItems).values(
        priced.lines.map((l) => {
          const o = catalog.offers.get(l.offerId) as BasketOfferRow;
          const photo = catalog.photos.get(o.productId);
          return {
            orderId,
            offerId: l.offerId,
            title: o.productName,
            size: o.sizeLabel,
            color: o.colorName,
            image: photo ? `/media/${photo}` : '',
            priceKopecks: l.priceKopecks,
            oldPriceKopecks: l.oldPriceKopecks,
            discountKopecks: l.discountKopecks,
            quantity: l.quantity,
            isPreorder: l.isPreorder,
            isGift: l.isGift,
          };
        }),
      );
      if (input.afterWrite) await input.afterWrite(tx, orderId);
      return { ok: true as const, orderId, repeated: false, payKopecks: priced.payKopecks + delivery };
    });
  } catch (err) {
    if (err instanceof Refused) return err.result;
    throw err;
  }
}

function sumPerOffer(lines: readonly RequestedLine[]): RequestedLine[] {
  const sums = new Map<number, number>();
  for (const l of lines) if (l.quantity > 0) sums.set(l.offerId, (sums.get(l.offerId) ?? 0) + l.quantity);
  return [...sums].map(([offerId, quantity]) => ({ offerId, quantity }));
}
