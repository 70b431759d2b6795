import { eq, sql } from 'drizzle-orm';
import { queryPrepared, type Database } from '~/db/client.server';
import { orders, orderStatusHistory } from '~/db/schema';
import { GIFT_COVER_OFFER_ID } from '~/core/basket';
import type { PricedBasket, RequestedLine } from '~/core/basket-pricing';
import { loadPricedBasket, type BasketCatalog, type BasketOfferRow } from './basket.server';
import { takeOrderStock } from './order-lifecycle.server';
import { bonusBalance, spendBonuses } from './loyalty.server';
import { redeemCertificates } from './certificates.server';
import { checkBonusSpend, loyaltyLines, spreadBonuses, LOYALTY_TEXT } from '~/core/loyalty';
import { CERTIFICATE_TEXT } from '~/core/gift-certificates';

// The one function that places an order (fast order, checkout): DESIGN.md's commerce rules. One
// transaction: prices re-read (or read by the caller just before, `catalog`), quantities summed
// per offer, the promo read under its row lock, the order, its first status, its item snapshots,
// its jobs and the promo's use written in one statement (the idempotency key's unique index
// answers a repeat there), then the stock taken through the stock ledger (models/stock.server.ts
// moveStock: the offers locked in offer-id order, never below zero, one 'order' move per offer
// naming the order), then bonuses and certificates; all of it or nothing. The offers' row locks
// are taken last, so they are held for the fewest round trips: every order of a popular size
// waits on them. The row locks are the whole mechanism, so any number of processes on one
// database are safe.

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
  /**
   * The catalogue of these lines (and the gift cover) as the caller read it just now, in this
   * request (the fast order reads it to tell an order from a pre-order): not read again. Without
   * it the order reads its own.
   */
  catalog?: BasketCatalog;
  /** Jobs written with the order, in its statement; each payload gets the order's id as `orderId`. */
  jobs?: readonly { kind: string; runAt?: Date; payload?: Record<string, unknown> }[];
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

/** Thrown inside the transaction to roll it back with an answer (a refusal, or a repeat's first answer). */
class Refused extends Error {
  constructor(readonly result: PlaceOrderResult) {
    super('order refused');
  }
}

/**
 * Places an order, all or nothing, in named steps: the catalogue read and the lines checked; the
 * basket priced with its promo (under the promo's row lock); the order written with its promo use
 * and jobs (a repeated submission is answered there with its first order); the stock taken (stock
 * ledger, offer-id order); bonuses and certificates charged; the caller's afterWrite. A step that
 * refuses throws `Refused`, which rolls everything back and becomes the answer.
 *
 * Lock order (the same as every path's: models/order-lifecycle.server.ts): the promo, the new
 * order's own rows, the offers, then products and the catalogue version, then the customer's
 * bonuses and certificates, then what afterWrite touches. The offers are locked `for no key
 * update`: the order's items and stock moves already hold key-share locks on them (their foreign
 * keys), which `for update` would wait on in another order placing the same size (a deadlock).
 */
export async function placeOrder(input: PlaceOrderInput): Promise<PlaceOrderResult> {
  const cart = sumPerOffer(input.cart.filter((l) => l.offerId !== GIFT_COVER_OFFER_ID));
  const preorders = sumPerOffer(input.preorders.filter((l) => l.offerId !== GIFT_COVER_OFFER_ID));
  if (cart.length === 0 && preorders.length === 0) return { ok: false, reason: 'empty' };
  const now = input.now ?? new Date();
  try {
    return await input.db.transaction(async (txn) => {
      const tx = txn as unknown as Database;
      const { catalog, priced } = await priceOrder(tx, { input, cart, preorders, now });
      const money = planMoney(input, priced);
      const orderId = await writeOrder(tx, { input, priced, money, catalog, now });
      if (orderId === null) {
        // The key's order was committed by another submission (the insert waited for it).
        const first = await repeatedSubmission(tx, input);
        if (!first) throw new Error('idempotency key taken, but no order holds it');
        throw new Refused(first);
      }
      await takeStock(tx, { orderId, cart, catalog, customerId: input.customerId, now });
      const { dueKopecks, paid } = await chargeBalances(tx, { orderId, input, money, now });
      if (input.afterWrite) await input.afterWrite(tx, orderId, { dueKopecks, paid });
      return { ok: true as const, orderId, repeated: false, payKopecks: dueKopecks, paid };
    });
  } catch (err) {
    if (!(err instanceof Refused)) throw err;
    // A repeat is refused when its first submission used what it asked for (the last unit, the
    // promo's last use) or changed while it was being sent: it gets the first answer.
    if (!err.result.ok && err.result.reason !== 'key_reused' && input.idempotencyKey) {
      const first = await repeatedSubmission(input.db, input);
      if (first) return first;
    }
    return err.result;
  }
}

/**
 * The first answer to a submission sent again with its idempotency key, or null when no order
 * holds the key. A key sent again with other content answers with nobody's order (the callers
 * scope keys to who sends them; this is the last guard).
 */
async function repeatedSubmission(db: Database, input: PlaceOrderInput): Promise<PlaceOrderResult | null> {
  const key = input.idempotencyKey ?? null;
  if (!key) return null;
  const [existing] = await db
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
 * the catalogue read (unless the caller just did) and the lines checked, then the lines priced as
 * asked, gift covers recounted; the promo code is read under its row lock (its limits hold under
 * any load) and refused when invalid; writeOrder counts its use.
 */
async function priceOrder(
  tx: Database,
  {
    input,
    cart,
    preorders,
    now,
  }: { input: PlaceOrderInput; cart: RequestedLine[]; preorders: RequestedLine[]; now: Date },
): Promise<{ catalog: OrderCatalog; priced: PricedBasket }> {
  const { catalog, priced } = await loadPricedBasket({
    db: tx,
    cart,
    preorders,
    promoCode: input.promoCode ?? null,
    customerId: input.customerId,
    now,
    lines: 'as-asked',
    lockPromo: true,
    catalog: input.catalog,
    onCatalog: async (catalog) => checkOrderLines(catalog, cart, preorders),
  });
  if (priced.promo.status === 'invalid') throw new Refused({ ok: false, reason: 'promo', error: priced.promo.error });
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

/**
 * The order row (with the checkout details), its first status-history row, its item snapshots,
 * its jobs and its promo's use, in one statement (a CTE: one round trip, the foreign keys checked
 * at its end). The order's id comes from its row. Null when the idempotency key is already an
 * order's (`on conflict do nothing`: a submission of the same key still open is waited for, as
 * the unique index makes it); then nothing is written.
 */
async function writeOrder(
  tx: Database,
  {
    input,
    priced,
    money,
    catalog,
    now,
  }: {
    input: PlaceOrderInput;
    priced: PricedBasket;
    money: OrderMoney;
    catalog: OrderCatalog;
    now: Date;
  },
): Promise<number | null> {
  const checkout = input.checkout;
  const status = input.status ?? 'new';
  const promoUsed = priced.promo.status === 'valid' ? (input.promoCode ?? null) : null;
  // Column names as keys: the JSON is read by jsonb_populate_record into the table's own types;
  // columns left out keep their defaults.
  const order: Record<string, unknown> = {
    customer_id: input.customerId,
    kind: input.kind,
    phone: input.phone,
    customer_name: input.name,
    idempotency_key: input.idempotencyKey ?? null,
    promo_code: promoUsed,
    discount_kopecks: priced.discountKopecks,
    fields: input.fields ?? {},
    items_total_kopecks: priced.totalKopecks,
    delivery_cost_kopecks: money.deliveryKopecks,
    total_kopecks: money.totalKopecks,
    bonus_kopecks: money.bonusKopecks,
    ...(checkout
      ? {
          email: checkout.email,
          payment_id: checkout.paymentId,
          delivery_id: checkout.deliveryId,
          delivery_city: checkout.deliveryCity,
          delivery_address: checkout.deliveryAddress,
          pickup_point: checkout.pickupPoint,
          delivery_cost_pending: checkout.costPending,
          delivery_date_from: checkout.dateFrom,
          delivery_date_to: checkout.dateTo,
          delivery_note: checkout.note,
          delivery_trips: checkout.trips,
        }
      : {}),
    status,
    created_at: now.toISOString(),
  };
  const items = priced.lines.map((l, i) => {
    const o = catalog.offers.get(l.offerId) as BasketOfferRow;
    const photo = catalog.photos.get(o.productId);
    return {
      offer_id: l.offerId,
      title: o.productName,
      size: o.sizeLabel,
      color: o.colorName,
      image: photo ? `/media/${photo}` : '',
      price_kopecks: l.priceKopecks,
      old_price_kopecks: l.oldPriceKopecks,
      discount_kopecks: l.discountKopecks,
      bonus_kopecks: money.bonusShares[i] ?? 0,
      quantity: l.quantity,
      is_preorder: l.isPreorder,
      is_gift: l.isGift,
    };
  });
  const orderColumns = sql.raw(Object.keys(order).join(', '));
  const itemColumns = ITEM_COLUMNS.join(', ');
  const parts = [
    sql`o as (insert into orders (${orderColumns})
              select ${orderColumns} from jsonb_populate_record(null::orders, ${JSON.stringify(order)}::jsonb)
              on conflict (idempotency_key) do nothing
              returning id, status, created_at)`,
    sql`h as (insert into order_status_history (order_id, status, created_at) select id, status, created_at from o)`,
    sql`i as (insert into order_items (order_id, ${sql.raw(itemColumns)})
              select o.id, ${sql.raw(ITEM_COLUMNS.map((c) => `x.${c}`).join(', '))}
              from o, jsonb_populate_recordset(null::order_items, ${JSON.stringify(items)}::jsonb) as x)`,
  ];
  if (promoUsed)
    parts.push(
      sql`p as (update promo_codes set used_count = used_count + 1 where code = ${promoUsed} and exists (select from o))`,
    );
  const jobs = input.jobs ?? [];
  if (jobs.length > 0)
    parts.push(
      sql`j as (insert into jobs (kind, payload, run_at)
                select x.kind, coalesce(x.payload, '{}'::jsonb) || jsonb_build_object('orderId', o.id), coalesce(x.run_at, now())
                from o, jsonb_populate_recordset(null::jobs, ${JSON.stringify(
                  jobs.map((j) => ({ kind: j.kind, payload: j.payload ?? {}, run_at: j.runAt?.toISOString() ?? null })),
                )}::jsonb) with ordinality as x
                order by x.ordinality)`,
    );
  const [row] = await queryPrepared<{ id: number }>(tx, sql`with ${sql.join(parts, sql`, `)} select id from o`);
  return row ? Number(row.id) : null;
}

/** The order_items columns an order writes (the rest keep their defaults). */
const ITEM_COLUMNS = [
  'offer_id',
  'title',
  'size',
  'color',
  'image',
  'price_kopecks',
  'old_price_kopecks',
  'discount_kopecks',
  'bonus_kopecks',
  'quantity',
  'is_preorder',
  'is_gift',
] as const;

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
