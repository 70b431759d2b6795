import { eq, sql } from 'drizzle-orm';
import { queryRows, type Database } from '~/db/client.server';
import { orderItems, orders, orderStatusHistory, promoCodes } from '~/db/schema';
import { GIFT_COVER_OFFER_ID } from '~/core/basket';
import type { PricedBasket, RequestedLine } from '~/core/basket-pricing';
import { loadPricedBasket, type BasketCatalog, type BasketOfferRow } from './basket.server';
import { takeOrderStock } from './order-lifecycle.server';
import { bonusBalance, spendBonuses } from './loyalty.server';
import { redeemCertificates } from './certificates.server';
import { checkBonusSpend, loyaltyLines, spreadBonuses, LOYALTY_TEXT } from '~/core/loyalty';
import { CERTIFICATE_TEXT } from '~/core/gift-certificates';

// The one function that places an order (fast order, checkout): DESIGN.md's commerce rules. One
// transaction: prices re-read, quantities summed per offer, stock taken through the stock ledger
// (models/order-lifecycle.server.ts takeOrderStock: the offers locked in offer-id order, never
// below zero, no deadlock between two baskets, one 'order' move per offer naming the order), the
// promo counted under its row lock, order and item snapshots written, the idempotency key
// recorded; all of it or nothing. The row locks are the whole mechanism, so any number of
// processes on one database are safe.

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

/**
 * Places an order, all or nothing, in named steps: a repeated submission answered with its
 * first order; the catalogue read and the lines checked; the stock taken (stock ledger, offer-id
 * order); the basket priced with its promo counted; bonuses and certificates checked; the order
 * written; bonuses and certificates charged; the caller's afterWrite. A step that refuses throws
 * `Refused`, which rolls everything back and becomes the answer.
 */
export async function placeOrder(input: PlaceOrderInput): Promise<PlaceOrderResult> {
  const cart = sumPerOffer(input.cart.filter((l) => l.offerId !== GIFT_COVER_OFFER_ID));
  const preorders = sumPerOffer(input.preorders.filter((l) => l.offerId !== GIFT_COVER_OFFER_ID));
  if (cart.length === 0 && preorders.length === 0) return { ok: false, reason: 'empty' };
  const now = input.now ?? new Date();
  try {
    return await input.db.transaction(async (txn) => {
      const tx = txn as unknown as Database;
      const orderId = await newOrderId(tx, input.idempotencyKey ?? null);
      const repeat = await repeatedSubmission(tx, input);
      if (repeat) return repeat;
      const { catalog, priced } = await priceOrder(tx, { orderId, input, cart, preorders, now });
      const money = planMoney(input, priced);
      await writeOrder(tx, { orderId, input, priced, money, catalog, now });
      const { dueKopecks, paid } = await chargeBalances(tx, { orderId, input, money, now });
      if (input.afterWrite) await input.afterWrite(tx, orderId, { dueKopecks, paid });
      return { ok: true as const, orderId, repeated: false, payKopecks: dueKopecks, paid };
    });
  } catch (err) {
    if (err instanceof Refused) return err.result;
    throw err;
  }
}

/**
 * The first answer to a submission sent again with its idempotency key, or null for a new one.
 * Two submissions with one key wait for each other on an advisory lock (taken by newOrderId);
 * the second then finds the first's order. A key sent again with other content answers with
 * nobody's order (the callers scope keys to who sends them; this is the last guard).
 */
async function repeatedSubmission(tx: Database, input: PlaceOrderInput): Promise<PlaceOrderResult | null> {
  const key = input.idempotencyKey ?? null;
  if (!key) return null;
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
  if (!existing) return null;
  const sameSender = existing.kind === input.kind && existing.customerId === input.customerId;
  if (!sameSender || (input.kind === 'fast' && (existing.phone !== input.phone || existing.name !== input.name)))
    return { ok: false, reason: 'key_reused' };
  const due = existing.total - existing.certificate;
  return { ok: true, orderId: existing.id, repeated: true, payKopecks: due, paid: due === 0 };
}

type OrderCatalog = BasketCatalog;

const describeOffer = (o: BasketOfferRow) => `«${o.productName}», размер ${o.sizeLabel}`;

/** The offers of the order, read now: a line no longer sold, or a pre-order no longer open, refuses it. */
function checkOrderLines(catalog: OrderCatalog, cart: RequestedLine[], preorders: RequestedLine[]): void {
  const failed: string[] = [];
  for (const line of cart) {
    const o = catalog.offers.get(line.offerId);
    if (!o || !o.active) failed.push(o ? describeOffer(o) : `товар №${line.offerId}`);
  }
  for (const line of preorders) {
    const o = catalog.offers.get(line.offerId);
    if (!o || !o.active || !o.preorder) failed.push(o ? describeOffer(o) : `товар №${line.offerId}`);
  }
  if (failed.length) throw new Refused({ ok: false, reason: 'unavailable', items: failed });
}

/**
 * The new order's id, taken before its row is written so its stock moves can name it (a refused
 * or repeated order leaves a gap); with an idempotency key, in the same round trip, the key's
 * advisory lock, held to the transaction's end. The lock comes first in the select list and
 * repeatedSubmission's read is a later statement, so it sees what the key's holder committed.
 */
async function newOrderId(tx: Database, key: string | null): Promise<number> {
  const [row] = await queryRows<{ id: number }>(
    tx,
    key
      ? sql`select pg_advisory_xact_lock(7311002, hashtext(${key})), nextval(pg_get_serial_sequence('orders', 'id'))::int as id`
      : sql`select nextval(pg_get_serial_sequence('orders', 'id'))::int as id`,
  );
  if (!row) throw new Error('no order id');
  return Number(row.id);
}

/** The in-stock lines' stock, all or none, through the stock ledger (pre-order lines take none); every short line is named. */
async function takeStock(
  tx: Database,
  {
    orderId,
    cart,
    catalog,
    customerId,
    now,
  }: { orderId: number; cart: RequestedLine[]; catalog: OrderCatalog; customerId: number | null; now: Date },
): Promise<void> {
  const taken = await takeOrderStock(tx, { orderId, lines: cart, actor: { kind: 'customer', id: customerId }, now });
  if (!taken.ok)
    throw new Refused({
      ok: false,
      reason: 'unavailable',
      items: taken.short.map((id) => describeOffer(catalog.offers.get(id) as BasketOfferRow)),
    });
}

/**
 * The basket priced through the one basket pipeline (models/basket.server.ts loadPricedBasket):
 * the catalogue read and the lines checked, the stock taken, then the lines priced as asked, gift
 * covers recounted; the promo code is read under its row lock (its limits hold under any load),
 * refused when invalid, and its use counted.
 */
async function priceOrder(
  tx: Database,
  {
    orderId,
    input,
    cart,
    preorders,
    now,
  }: { orderId: number; input: PlaceOrderInput; cart: RequestedLine[]; preorders: RequestedLine[]; now: Date },
): Promise<{ catalog: OrderCatalog; priced: PricedBasket }> {
  const promoCode = input.promoCode ?? null;
  const { catalog, priced } = await loadPricedBasket({
    db: tx,
    cart,
    preorders,
    promoCode,
    customerId: input.customerId,
    now,
    lines: 'as-asked',
    lockPromo: true,
    onCatalog: async (catalog) => {
      checkOrderLines(catalog, cart, preorders);
      await takeStock(tx, { orderId, cart, catalog, customerId: input.customerId, now });
    },
  });
  if (priced.promo.status === 'invalid') throw new Refused({ ok: false, reason: 'promo', error: priced.promo.error });
  if (priced.promo.status === 'valid') {
    await tx
      .update(promoCodes)
      .set({ usedCount: sql`${promoCodes.usedCount} + 1` })
      .where(eq(promoCodes.code, promoCode as string));
  }
  return { catalog, priced };
}

interface OrderMoney {
  bonusKopecks: number;
  /** Each line's share of the bonuses (the receipt shows them as the line's discount). */
  bonusShares: number[];
  /** What the order's gift certificate lines cost: never paid with certificates. */
  certificateLinesKopecks: number;
  deliveryKopecks: number;
  totalKopecks: number;
}

/**
 * The order's money before any balance is charged: bonuses checked against the cap (the balance
 * is checked when they are spent) and spread over the lines; certificates refused when they would
 * pay only for other certificates.
 */
function planMoney(input: PlaceOrderInput, priced: PricedBasket): OrderMoney {
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
  const certificateLinesKopecks = priced.lines.reduce(
    (sum, l) => sum + (l.certificate !== null ? l.sumKopecks - l.discountKopecks : 0),
    0,
  );
  const deliveryKopecks = input.deliveryCostKopecks ?? 0;
  const totalKopecks = priced.payKopecks - bonusKopecks + deliveryKopecks;
  // A certificate never pays for another certificate.
  if (
    (input.certificateCodes ?? []).length > 0 &&
    certificateLinesKopecks > 0 &&
    totalKopecks - certificateLinesKopecks <= 0
  ) {
    throw new Refused({ ok: false, reason: 'certificate', code: '', error: CERTIFICATE_TEXT.notForCertificates });
  }
  return {
    bonusKopecks,
    bonusShares: spreadBonuses(bonusLines, bonusKopecks),
    certificateLinesKopecks,
    deliveryKopecks,
    totalKopecks,
  };
}

/** The order row (with the checkout details), its first status-history row and its item snapshots. */
async function writeOrder(
  tx: Database,
  {
    orderId,
    input,
    priced,
    money,
    catalog,
    now,
  }: {
    orderId: number;
    input: PlaceOrderInput;
    priced: PricedBasket;
    money: OrderMoney;
    catalog: OrderCatalog;
    now: Date;
  },
): Promise<void> {
  const checkout = input.checkout;
  await tx.insert(orders).values({
    id: orderId,
    customerId: input.customerId,
    kind: input.kind,
    phone: input.phone,
    customerName: input.name,
    idempotencyKey: input.idempotencyKey ?? null,
    promoCode: priced.promo.status === 'valid' ? (input.promoCode ?? null) : null,
    discountKopecks: priced.discountKopecks,
    fields: input.fields ?? {},
    itemsTotalKopecks: priced.totalKopecks,
    deliveryCostKopecks: money.deliveryKopecks,
    totalKopecks: money.totalKopecks,
    bonusKopecks: money.bonusKopecks,
    ...(checkout
      ? {
          email: checkout.email,
          paymentId: checkout.paymentId,
          deliveryId: checkout.deliveryId,
          deliveryCity: checkout.deliveryCity,
          deliveryAddress: checkout.deliveryAddress,
          pickupPoint: checkout.pickupPoint,
          deliveryCostPending: checkout.costPending,
          deliveryDateFrom: checkout.dateFrom,
          deliveryDateTo: checkout.dateTo,
          deliveryNote: checkout.note,
          deliveryTrips: checkout.trips,
        }
      : {}),
    status: input.status ?? 'new',
    createdAt: now,
  });
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
        bonusKopecks: money.bonusShares[i] ?? 0,
        quantity: l.quantity,
        isPreorder: l.isPreorder,
        isGift: l.isGift,
      };
    }),
  );
}

/**
 * Bonuses spent (under the customer's lock: the balance is final there) and certificates
 * redeemed; what is left to pay is judged (`checkDue`), and an order the certificates paid in
 * full is paid now (an online one written 'new', nothing waits for a provider).
 */
async function chargeBalances(
  tx: Database,
  { orderId, input, money, now }: { orderId: number; input: PlaceOrderInput; money: OrderMoney; now: Date },
): Promise<{ dueKopecks: number; paid: boolean }> {
  if (money.bonusKopecks > 0) {
    const spent = await spendBonuses(tx, {
      customerId: input.customerId as number,
      orderId,
      amountKopecks: money.bonusKopecks,
      now,
    });
    if (!spent) {
      const balance = await bonusBalance(tx, input.customerId as number, now);
      throw new Refused({ ok: false, reason: 'bonuses', error: LOYALTY_TEXT.overBalance(balance) });
    }
  }
  const codes = input.certificateCodes ?? [];
  let certificateKopecks = 0;
  if (codes.length > 0) {
    const redeemed = await redeemCertificates(tx, {
      orderId,
      codes,
      dueKopecks: money.totalKopecks - money.certificateLinesKopecks,
      now,
    });
    if (!redeemed.ok)
      throw new Refused({ ok: false, reason: 'certificate', code: redeemed.code, error: redeemed.error });
    certificateKopecks = redeemed.totalKopecks;
  }
  const dueKopecks = money.totalKopecks - certificateKopecks;
  const paid = dueKopecks === 0;
  const dueProblem = paid ? null : (input.checkDue?.(dueKopecks) ?? null);
  if (dueProblem) throw new Refused({ ok: false, reason: 'payment', error: dueProblem });
  if (certificateKopecks > 0) {
    await tx
      .update(orders)
      .set(paid ? { certificateKopecks, status: 'new', paidAt: now, paidKopecks: 0 } : { certificateKopecks })
      .where(eq(orders.id, orderId));
    if (paid && input.status === 'awaiting_payment') {
      await tx
        .update(orderStatusHistory)
        .set({ status: 'new', note: 'Оплачен подарочными сертификатами' })
        .where(eq(orderStatusHistory.orderId, orderId));
    }
  }
  return { dueKopecks, paid };
}

function sumPerOffer(lines: readonly RequestedLine[]): RequestedLine[] {
  const sums = new Map<number, number>();
  for (const l of lines) if (l.quantity > 0) sums.set(l.offerId, (sums.get(l.offerId) ?? 0) + l.quantity);
  return [...sums].map(([offerId, quantity]) => ({ offerId, quantity }));
}
