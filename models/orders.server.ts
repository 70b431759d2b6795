import { eq, sql } from 'drizzle-orm';
import { queryRows, type Database } from '~/db/client.server';
import { orderItems, orders, orderStatusHistory, promoCodes } from '~/db/schema';
import { GIFT_COVER_OFFER_ID, giftCoverQuantity } from '~/core/basket';
import { priceBasket, type RequestedLine } from '~/core/basket-pricing';
import type { PromoCode } from '~/core/promo';
import { getBasketCatalog, type BasketOfferRow } from './basket.server';
import { countPromoUsesByCustomer, toPromoCode } from './promo.server';
import { refreshProductSizes } from './stock.server';
import { bonusBalance, spendBonuses } from './loyalty.server';
import { redeemCertificates } from './certificates.server';
import { checkBonusSpend, loyaltyLines, spreadBonuses, LOYALTY_TEXT } from '~/core/loyalty';
import { CERTIFICATE_TEXT } from '~/core/gift-certificates';
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
  /** Bonuses to spend (whole roubles in kopecks; a customer's order only; content/pages/loyalty.md). */
  bonusKopecks?: number;
  /** Gift certificate codes (normalised, core/gift-certificates.ts) to pay with, in this order. */
  certificateCodes?: readonly string[];
  /** Judges what is left to pay once bonuses and certificates are counted (pay in parts' limits): a Russian refusal or null. */
  checkDue?: (dueKopecks: number) => string | null;
  /**
   * Runs inside the order's transaction once it is written (its jobs, the customer's saved
   * basket). `dueKopecks` is what is left to pay after certificates; an online order that
   * certificates paid in full is written 'new' and paid (`paid`).
   */
  afterWrite?: (tx: Database, orderId: number, money: { dueKopecks: number; paid: boolean }) => Promise<void>;
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
  /** payKopecks: what is left to pay after certificates (SPEC §5 pay amount); paid: nothing is left. */
  | { ok: true; orderId: number; repeated: boolean; payKopecks: number; paid: boolean }
  | { ok: false; reason: 'empty' }
  /** The idempotency key was used before for another submission (another sender, other content). */
  | { ok: false; reason: 'key_reused' }
  /** Lines that cannot be sold as asked, by name ('«Пальто Аврора», размер 44 (S)'). */
  | { ok: false; reason: 'unavailable'; items: string[] }
  | { ok: false; reason: 'promo'; error: string }
  | { ok: false; reason: 'bonuses'; error: string }
  | { ok: false; reason: 'payment'; error: string }
  /** `code`: the certificate refused ('' when it is about all of them). */
  | { ok: false; reason: 'certificate'; code: string; error: string };

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
        const [existing] = await tx
          .select({
            id: orders.id,
            total: orders.totalKopecks,
            certificate: orders.certificateKopecks,
            kind: orders.kind,
            customerId: orders.customerId,
            phone: orders.phone,
            name: orders.customerName,
          })
          .from(orders)
          .where(eq(orders.idempotencyKey, key))
          .limit(1);
        if (existing) {
          // A repeat is the same submission: a key sent again with other content answers with
          // nobody's order (the callers scope keys to who sends them; this is the last guard).
          const sameSender = existing.kind === input.kind && existing.customerId === input.customerId;
          if (!sameSender || (input.kind === 'fast' && (existing.phone !== input.phone || existing.name !== input.name)))
            return { ok: false as const, reason: 'key_reused' as const };
          const due = existing.total - existing.certificate;
          return { ok: true as const, orderId: existing.id, repeated: true, payKopecks: due, paid: due === 0 };
        }
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

      // Bonuses: checked against the cap and (under the customer's lock, in spendBonuses) the
      // balance; spread over the lines so the receipt shows them as each line's discount.
      const bonusLines = loyaltyLines(priced);
      const bonusAsked = input.bonusKopecks ?? 0;
      let bonusKopecks = 0;
      if (bonusAsked !== 0) {
        if (input.customerId === null) throw new Refused({ ok: false, reason: 'bonuses', error: LOYALTY_TEXT.badAmount });
        const check = checkBonusSpend({
          requestedKopecks: bonusAsked,
          balanceKopecks: Number.MAX_SAFE_INTEGER,
          lines: bonusLines,
          hasPromo: priced.promo.status === 'valid',
        });
        if (!check.ok) throw new Refused({ ok: false, reason: 'bonuses', error: check.error });
        bonusKopecks = check.kopecks;
      }
      const bonusShares = spreadBonuses(bonusLines, bonusKopecks);
      const certificateLinesKopecks = priced.lines.reduce((sum, l) => sum + (l.certificate !== null ? l.sumKopecks - l.discountKopecks : 0), 0);
      const codes = input.certificateCodes ?? [];
      // A certificate never pays for another certificate.
      if (
        codes.length > 0 &&
        certificateLinesKopecks > 0 &&
        priced.payKopecks - bonusKopecks + (input.deliveryCostKopecks ?? 0) - certificateLinesKopecks <= 0
      ) {
        throw new Refused({ ok: false, reason: 'certificate', code: '', error: CERTIFICATE_TEXT.notForCertificates });
      }

      const delivery = input.deliveryCostKopecks ?? 0;
      const totalKopecks = priced.payKopecks - bonusKopecks + delivery;
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
          totalKopecks,
          bonusKopecks,
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
        priced.lines.map((l, i) => {
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
            bonusKopecks: bonusShares[i] ?? 0,
            quantity: l.quantity,
            isPreorder: l.isPreorder,
            isGift: l.isGift,
          };
        }),
      );
      if (bonusKopecks > 0) {
        const spent = await spendBonuses(tx, { customerId: input.customerId as number, orderId, amountKopecks: bonusKopecks, now });
        if (!spent) {
          const balance = await bonusBalance(tx, input.customerId as number, now);
          throw new Refused({ ok: false, reason: 'bonuses', error: LOYALTY_TEXT.overBalance(balance) });
        }
      }
      let certificateKopecks = 0;
      if (codes.length > 0) {
        const redeemed = await redeemCertificates(tx, { orderId, codes, dueKopecks: totalKopecks - certificateLinesKopecks, now });
        if (!redeemed.ok) throw new Refused({ ok: false, reason: 'certificate', code: redeemed.code, error: redeemed.error });
        certificateKopecks = redeemed.totalKopecks;
      }
      const dueKopecks = totalKopecks - certificateKopecks;
      // Certificates paid it all: nothing waits for a provider.
      const paid = dueKopecks === 0;
      const dueProblem = paid ? null : (input.checkDue?.(dueKopecks) ?? null);
      if (dueProblem) throw new Refused({ ok: false, reason: 'payment', error: dueProblem });
      if (certificateKopecks > 0) {
        await tx
          .update(orders)
          .set(paid ? { certificateKopecks, status: 'new', paidAt: now, paidKopecks: 0 } : { certificateKopecks })
          .where(eq(orders.id, orderId));
        if (paid && input.status === 'awaiting_payment') {
          await tx.update(orderStatusHistory).set({ status: 'new', note: 'Оплачен подарочными сертификатами' }).where(eq(orderStatusHistory.orderId, orderId));
        }
      }
      if (input.afterWrite) await input.afterWrite(tx, orderId, { dueKopecks, paid });
      return { ok: true as const, orderId, repeated: false, payKopecks: dueKopecks, paid };
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
