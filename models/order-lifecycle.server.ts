import { and, asc, eq, sql } from 'drizzle-orm';
import type { Database } from '~/db/client.server';
import { orderItems, orders, orderStatusHistory } from '~/db/schema';
import { isCdekDeliveryId } from '~/core/delivery';
import type { StockActor } from '~/core/stock-ledger';
import { moveStock, type BackInStockNotice, type StockChange } from './stock.server';
import { giveBackToCertificates } from './certificates.server';
import { giveBackBonuses } from './loyalty.server';
import { CERTIFICATE_ISSUE_JOB } from './certificate-issue.server';

// One home for what an order does to stock, money ledgers and jobs as it is placed, paid and
// released, called by every path that does it: placeOrder and a late payment restoring a
// released order take the stock (takeOrderStock); a staff cancel, the release of an unpaid
// order and of an unconfirmed fast order release it (releaseOrder); an order placed to go ahead
// and an order paid later start the same jobs (enqueueGoAheadJobs). Every function runs in its
// caller's transaction, which holds the order's row lock (or, placing, the new order's rows,
// written before the stock is taken; a promo's row lock before them). Lock order, the same on
// every path: the order row, then offers in offer-id order (one statement, `for no key update`,
// models/stock.server.ts), then products and the catalogue version, then the customer's bonuses
// and certificates. So an order being placed and one being released never wait for each other
// in a circle.

export interface OrderStockLine {
  offerId: number;
  quantity: number;
}

/** The order's lines that hold stock (pre-orders and the gift cover take none), summed per offer, in offer-id order. */
export async function orderStockLines(tx: Database, orderId: number): Promise<OrderStockLine[]> {
  const rows = await tx
    .select({ offerId: orderItems.offerId, quantity: sql<number>`sum(${orderItems.quantity})::int` })
    .from(orderItems)
    .where(and(eq(orderItems.orderId, orderId), eq(orderItems.isPreorder, false), eq(orderItems.isGift, false)))
    .groupBy(orderItems.offerId)
    .orderBy(asc(orderItems.offerId));
  return rows.map((r) => ({ offerId: r.offerId, quantity: Number(r.quantity) }));
}

/**
 * Takes order `orderId`'s stock: all `lines` or none (reason 'order'). Never below zero: an
 * offer without enough stock refuses the whole take and is named in `short`. Taking never
 * brings a size back, so there is nothing to tell the waiting list.
 */
export async function takeOrderStock(
  tx: Database,
  { orderId, lines, actor, now }: { orderId: number; lines: readonly OrderStockLine[]; actor: StockActor; now?: Date },
): Promise<{ ok: true } | { ok: false; short: number[] }> {
  const moved = await moveStock(tx, {
    lines: lines.map((l) => ({ offerId: l.offerId, delta: -l.quantity })),
    reason: 'order',
    ref: { orderId },
    actor,
    short: 'refuse',
    now,
  });
  return moved.ok ? { ok: true } : { ok: false, short: [...moved.short, ...moved.missing] };
}

export interface ReleasedOrder {
  /** Stock given back, per offer. */
  changes: StockChange[];
  /** The back-in-stock SMS due once the caller commits (sendBackInStock). */
  notices: BackInStockNotice[];
}

/**
 * Releases an order the caller holds under its row lock, currently `order.status`: the order
 * cancelled (a conditional update), its history row, its stock given back (reason
 * 'order_cancelled' or 'payment_expired'), then the gift certificates and bonuses that paid it
 * get it back (an unpaid or paid order alike: the certificate's money never left the shop).
 */
export async function releaseOrder(
  tx: Database,
  {
    order,
    note,
    reason,
    actor,
    now,
  }: {
    order: { id: number; status: string; customerId: number | null };
    note: string | null;
    reason: 'order_cancelled' | 'payment_expired';
    actor: StockActor;
    now: Date;
  },
): Promise<ReleasedOrder> {
  const moved = await tx
    .update(orders)
    .set({ status: 'cancelled' })
    .where(and(eq(orders.id, order.id), eq(orders.status, order.status)))
    .returning({ id: orders.id });
  if (moved.length !== 1) throw new Error(`order ${order.id} changed under its row lock`);
  await tx.insert(orderStatusHistory).values({ orderId: order.id, status: 'cancelled', note, createdAt: now });
  const lines = await orderStockLines(tx, order.id);
  const back = await moveStock(tx, {
    lines: lines.map((l) => ({ offerId: l.offerId, delta: l.quantity })),
    reason,
    ref: { orderId: order.id },
    actor,
    short: 'clamp',
    now,
  });
  if (!back.ok) throw new Error(`order ${order.id}: stock not given back`);
  await giveBackToCertificates(tx, { orderId: order.id, amountKopecks: 'all', kind: 'release', now });
  if (order.customerId !== null)
    await giveBackBonuses(tx, {
      customerId: order.customerId,
      orderId: order.id,
      amountKopecks: 'all',
      kind: 'release',
      now,
    });
  return { changes: back.changes, notices: back.notices };
}

/**
 * enqueueGoAheadJobs's jobs, in its order, for an order not yet written (placeOrder's `jobs`,
 * written in the order's own statement, so a checkout paid on receipt adds no statement under
 * its offers' row locks): `electronicCertificates` when the order has lines (not gifts) of
 * electronic gift certificates. Each payload gets the order's id when written.
 */
export function goAheadJobs({
  deliveryId,
  electronicCertificates,
}: {
  deliveryId: string | null;
  electronicCertificates: boolean;
}): { kind: string; payload?: Record<string, unknown> }[] {
  return [
    { kind: 'order.placed' },
    ...(isCdekDeliveryId(deliveryId) ? [{ kind: 'cdek.register' }] : []),
    ...(electronicCertificates ? [{ kind: CERTIFICATE_ISSUE_JOB, payload: { kind: 'electronic' } }] : []),
  ];
}

/**
 * The jobs of an order that goes ahead: placed to be paid on receipt (or paid in full by
 * certificates), or paid online later. Its customer's notice, CDEK registration for CDEK
 * deliveries, and the codes of electronic gift certificates (plastic ones when shipped).
 */
export async function enqueueGoAheadJobs(
  tx: Database,
  order: { id: number; deliveryId: string | null },
): Promise<void> {
  // One statement (a checkout runs it under its offers' row locks): the notice, CDEK's
  // registration when the delivery is CDEK's, the electronic certificates' issue when the order
  // has lines of them (enqueueCertificateIssue's test, written out), in this order.
  await tx.execute(
    sql`insert into jobs (kind, payload)
        select j.kind, j.payload from (values
          (1, 'order.placed', jsonb_build_object('orderId', ${order.id}::int), true),
          (2, 'cdek.register', jsonb_build_object('orderId', ${order.id}::int), ${isCdekDeliveryId(order.deliveryId)}::boolean),
          (3, ${CERTIFICATE_ISSUE_JOB}::text, jsonb_build_object('orderId', ${order.id}::int, 'kind', 'electronic'),
           exists (select from order_items i join offers o on o.id = i.offer_id join products p on p.id = o.product_id
                   where i.order_id = ${order.id}::int and not i.is_gift and p.certificate = 'electronic'))
        ) as j(n, kind, payload, due)
        where j.due order by j.n`,
  );
}
