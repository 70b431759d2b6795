import { and, eq } from 'drizzle-orm';
import type { Database } from '~/db/client.server';
import { orderItems, orders, orderStatusHistory } from '~/db/schema';
import {
  canMove,
  isOrderStatus,
  isTrackNumber,
  moveError,
  ORDER_STATUS_TEXT,
  type OrderStatus,
} from '~/core/order-status';
import { DELIVERY_ID } from '~/shared/contract';
import type { SmsGateway } from '~/integrations/sms/sms';
import { isCdekDeliveryId } from '~/core/delivery';
import { STAFF_TOKEN_ACTOR, type StockActor } from '~/core/stock-ledger';
import { sendBackInStock, type Logger, type StockChange } from './stock.server';
import { enqueueJob } from './jobs.server';
import { releaseOrder, type ReleasedOrder } from './order-lifecycle.server';
import { enqueueCertificateIssue } from './certificate-issue.server';
import { scheduleAccrual } from './loyalty-jobs.server';

// Moving an order along its statuses (core/order-status.ts), with a history row for every move.
// One transaction: the order row locked (`for update`), the move checked against what is
// stored now, a conditional update, the history row and, for a cancel, the order released
// (models/order-lifecycle.server.ts: its stock back through the stock ledger, its certificates
// and bonuses) inside the same transaction. So two concurrent cancels (any number of processes)
// give the stock back exactly once: the second waits for the lock, then finds the order
// cancelled and is refused. Back-in-stock SMS go out after the commit.

export interface OrderStatusDeps {
  db: Database;
  sms: SmsGateway;
  log: Logger;
  siteUrl: string;
}

export type ChangeOrderStatusResult =
  | {
      ok: true;
      orderId: number;
      from: string;
      to: OrderStatus;
      trackNumber: string | null;
      deliveredAt: Date | null;
      /** Stock given back by a cancel, per offer. */
      stockReturned: StockChange[];
    }
  | {
      ok: false;
      reason: 'not_found' | 'unknown_status' | 'not_allowed' | 'track_required' | 'bad_track' | 'fitting_required';
      /** The request field the answer is about. */
      field: 'order_id' | 'status' | 'track_number';
      /** Russian, for staff. */
      error: string;
    };

type Refusal = Extract<ChangeOrderStatusResult, { ok: false }>;

/** The order row under a row lock for the rest of the caller's transaction; null when there is none. */
export async function lockOrder(tx: Database, orderId: number) {
  const [order] = await tx
    .select({
      id: orders.id,
      status: orders.status,
      customerId: orders.customerId,
      deliveryId: orders.deliveryId,
      paymentId: orders.paymentId,
      trackNumber: orders.trackNumber,
      carrierOrderId: orders.carrierOrderId,
      deliveredAt: orders.deliveredAt,
      deliveryCostKopecks: orders.deliveryCostKopecks,
      totalKopecks: orders.totalKopecks,
      certificateKopecks: orders.certificateKopecks,
      paidKopecks: orders.paidKopecks,
    })
    .from(orders)
    .where(eq(orders.id, orderId))
    .for('update')
    .limit(1);
  return order ?? null;
}
type LockedOrder = NonNullable<Awaited<ReturnType<typeof lockOrder>>>;

/** Whether the courier brings in-stock items to try on (pre-orders ship apart, the cover follows the coats). */
async function hasFittingLines(tx: Database, orderId: number): Promise<boolean> {
  const [line] = await tx
    .select({ offerId: orderItems.offerId })
    .from(orderItems)
    .where(and(eq(orderItems.orderId, orderId), eq(orderItems.isPreorder, false), eq(orderItems.isGift, false)))
    .limit(1);
  return line !== undefined;
}

/**
 * Moves the order to `to` if core/order-status.ts allows it from its current status. 'shipped'
 * keeps a track number (required for CDEK unless registration already stored one);
 * 'delivered' and 'received' set delivered_at once (the return period counts from it);
 * 'cancelled' gives back the stock of lines that took it (not pre-orders, not the gift cover).
 * A Moscow courier order with in-stock items becomes 'received' only through its fitting
 * (models/fitting.server.ts); one of pre-orders only is received like any other.
 */
export async function changeOrderStatus({
  db,
  sms,
  log,
  siteUrl,
  orderId,
  to,
  note,
  trackNumber,
  actor = STAFF_TOKEN_ACTOR,
  now = new Date(),
}: OrderStatusDeps & {
  orderId: number;
  to: string;
  note?: string | null;
  trackNumber?: string | null;
  /** Who moves it (the stock ledger's actor of a cancel). */
  actor?: StockActor;
  now?: Date;
}): Promise<ChangeOrderStatusResult> {
  const outcome = await db.transaction(async (txn) =>
    changeOrderStatusIn(txn as unknown as Database, {
      orderId,
      to,
      note: note ?? null,
      trackNumber: trackNumber ?? null,
      actor,
      now,
    }),
  );
  if (!outcome.ok) return outcome;
  const { released, ...result } = outcome;
  if (!released) return { ...result, stockReturned: [] };
  await sendBackInStock({ db, sms, log, siteUrl, notices: released.notices });
  if (released.changes.length)
    log.info({ orderId, offers: released.changes.length }, 'cancelled order: stock given back');
  return { ...result, stockReturned: released.changes };
}

export type OrderStatusOutcome =
  | Refusal
  | (Omit<Extract<ChangeOrderStatusResult, { ok: true }>, 'stockReturned'> & { released: ReleasedOrder | null });

/**
 * The move itself, in the caller's transaction (which it leaves holding the order's row lock):
 * the admin API runs it with its audit row (api/admin/orders.routes.server.ts); changeOrderStatus
 * runs it alone. The caller sends the released stock's back-in-stock SMS after its commit.
 */
export async function changeOrderStatusIn(
  tx: Database,
  {
    orderId,
    to,
    note,
    trackNumber,
    actor = STAFF_TOKEN_ACTOR,
    now = new Date(),
  }: { orderId: number; to: string; note?: string | null; trackNumber?: string | null; actor?: StockActor; now?: Date },
): Promise<OrderStatusOutcome> {
  const refuse = (reason: Refusal['reason'], field: Refusal['field'], error: string): Refusal => ({
    ok: false,
    reason,
    field,
    error,
  });
  const track = trackNumber?.trim() || null;
  if (!isOrderStatus(to)) return refuse('unknown_status', 'status', ORDER_STATUS_TEXT.unknownStatus);
  if (track !== null && !isTrackNumber(track)) return refuse('bad_track', 'track_number', ORDER_STATUS_TEXT.badTrack);
  if (track !== null && to !== 'shipped')
    return refuse('bad_track', 'track_number', 'Трек-номер указывают при передаче заказа в доставку');

  const order = await lockOrder(tx, orderId);
  if (!order) return refuse('not_found', 'order_id', ORDER_STATUS_TEXT.notFound);
  if (!canMove(order.status, to)) return refuse('not_allowed', 'status', moveError(order.status, to));
  if (to === 'received' && order.deliveryId === DELIVERY_ID.moscowCourier && (await hasFittingLines(tx, orderId))) {
    return refuse('fitting_required', 'status', ORDER_STATUS_TEXT.fittingRequired);
  }
  const keptTrack = track ?? order.trackNumber;
  if (to === 'shipped' && !keptTrack && isCdekDeliveryId(order.deliveryId)) {
    return refuse('track_required', 'track_number', ORDER_STATUS_TEXT.trackRequired);
  }
  const moved = {
    ok: true as const,
    orderId,
    from: order.status,
    to,
    trackNumber: to === 'shipped' ? keptTrack : order.trackNumber,
  };
  // A cancel releases the order: its stock and the ledgers that paid it come back (models/order-lifecycle.server.ts).
  if (to === 'cancelled') {
    const released = await releaseOrder(tx, {
      order,
      note: note?.trim() || null,
      reason: 'order_cancelled',
      actor,
      now,
    });
    return { ...moved, deliveredAt: order.deliveredAt, released };
  }
  const deliveredAt = await moveAlong(tx, { order, to, track, keptTrack, note, now });
  return { ...moved, deliveredAt, released: null };
}

/**
 * Any move but a cancel, under the order's row lock: the status (and the track number, and
 * delivered_at once), its history row, and the jobs the new status starts. Returns delivered_at.
 */
async function moveAlong(
  tx: Database,
  {
    order,
    to,
    track,
    keptTrack,
    note,
    now,
  }: {
    order: LockedOrder;
    to: OrderStatus;
    track: string | null;
    keptTrack: string | null;
    note?: string | null;
    now: Date;
  },
): Promise<Date | null> {
  const orderId = order.id;
  const deliveredAt = to === 'delivered' || to === 'received' ? (order.deliveredAt ?? now) : order.deliveredAt;
  // The lock makes the status check final; the condition keeps the update honest regardless.
  const moved = await tx
    .update(orders)
    .set({ status: to, deliveredAt, ...(to === 'shipped' && track ? { trackNumber: track } : {}) })
    .where(and(eq(orders.id, orderId), eq(orders.status, order.status)))
    .returning({ id: orders.id });
  if (moved.length !== 1) throw new Error(`order ${orderId} changed under its row lock`);
  await tx.insert(orderStatusHistory).values({
    orderId,
    status: to,
    note: note?.trim() || (to === 'shipped' && keptTrack ? `Трек-номер: ${keptTrack}` : null),
    createdAt: now,
  });

  // A CDEK parcel being assembled is registered with CDEK (a job: models/order-jobs.server.ts),
  // which gives the track number 'shipped' needs. Orders paid on receipt were registered at placement.
  if (to === 'assembling' && !order.carrierOrderId && isCdekDeliveryId(order.deliveryId)) {
    await enqueueJob(tx, 'cdek.register', { orderId });
  }
  // shipment.md promises an SMS and a letter with the track number when the parcel leaves.
  if (to === 'shipped') await enqueueJob(tx, 'order.shipped', { orderId });
  // Plastic gift certificates get their codes as they leave with the parcel (podarochnye-sertifikaty.md).
  if (to === 'shipped') await enqueueCertificateIssue(tx, orderId, 'plastic');
  // loyalty.md: a received order's bonuses are credited once its return period is over.
  if (to === 'received') await scheduleAccrual(tx, orderId, deliveredAt ?? now);
  return deliveredAt;
}
