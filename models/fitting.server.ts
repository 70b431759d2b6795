import { and, asc, eq } from 'drizzle-orm';
import type { Database } from '~/db/client.server';
import { orderItems, orders, orderStatusHistory } from '~/db/schema';
import { fittingNote, planFitting, settleFitting, type FittingInputLine, type FittingLineResult } from '~/core/fitting';
import { payChannel } from '~/core/order-money';
import { statusLabel } from '~/core/order-status';
import { DELIVERY_ID } from '~/shared/contract';
import { lockOrder, type OrderStatusDeps } from './order-status.server';
import { scheduleAccrual } from './loyalty-jobs.server';
import { giveBackToCertificates } from './certificates.server';
import { STAFF_TOKEN_ACTOR, type StockActor } from '~/core/stock-ledger';
import { moveStock, sendBackInStock, type MoveStockResult, type StockChange } from './stock.server';

// The fitting at the door of a Moscow courier order (content/pages/delivery.md): what the
// shopper kept and handed back, line by line, the amount actually paid (core/fitting.ts), the
// order received, the refused items back in stock through the stock ledger ('fitting_returned'). One
// transaction under the order's row lock, so it is recorded exactly once: a second fitting (or
// one racing it) finds the order 'received' and is refused, and neither its stock nor the
// certificates' money moves again. What certificates paid beyond the kept items goes back onto
// them (a 'fitting' row in certificate_moves).

export const FITTING_ERROR = {
  notCourier: 'Примерка бывает только при курьерской доставке по Москве',
  already: 'Примерка по этому заказу уже записана',
  notYet: (status: string) =>
    `Примерку записывают, когда заказ передан в доставку или доставлен, а он сейчас «${statusLabel(status)}»`,
} as const;

export type RecordFittingResult =
  | {
      ok: true;
      orderId: number;
      /** The status before the fitting made the order 'received' (shipped or delivered). */
      from: string;
      /** Items kept and handed back, gift covers not counted. */
      kept: number;
      refused: number;
      lines: FittingLineResult[];
      /** Taken at the door: the kept lines and the delivery. */
      paidKopecks: number;
      deliveryKopecks: number;
      /** Paid online beforehand: what goes back to the shopper for the refused items. */
      refundKopecks: number;
      /** Put back onto the gift certificates that paid the order: their part the kept items did not use. */
      certificateBackKopecks: number;
      stockReturned: StockChange[];
    }
  | { ok: false; errors: Record<string, string> };

export async function recordFitting({
  db,
  sms,
  log,
  siteUrl,
  orderId,
  lines,
  actor = STAFF_TOKEN_ACTOR,
  now = new Date(),
}: OrderStatusDeps & {
  orderId: number;
  lines: readonly FittingInputLine[];
  actor?: StockActor;
  now?: Date;
}): Promise<RecordFittingResult> {
  const outcome = await db.transaction(async (txn) =>
    recordFittingIn(txn as unknown as Database, { orderId, lines, actor, now }),
  );
  if (!outcome.ok) return outcome;
  const { back, ...result } = outcome;
  await sendBackInStock({ db, sms, log, siteUrl, notices: back.notices });
  log.info(
    { orderId, kept: result.kept, refused: result.refused, paidKopecks: result.paidKopecks },
    'fitting recorded',
  );
  return { ...result, stockReturned: back.changes };
}

export type FittingOutcome =
  | Extract<RecordFittingResult, { ok: false }>
  | (Omit<Extract<RecordFittingResult, { ok: true }>, 'stockReturned'> & {
      back: Extract<MoveStockResult, { ok: true }>;
    });

/**
 * The fitting itself, in the caller's transaction under the order's row lock: the admin API runs
 * it with its audit row (api/admin/orders.routes.server.ts); recordFitting runs it alone. The
 * caller sends the back-in-stock SMS (`back.notices`) after its commit.
 */
export async function recordFittingIn(
  tx: Database,
  {
    orderId,
    lines,
    actor = STAFF_TOKEN_ACTOR,
    now = new Date(),
  }: { orderId: number; lines: readonly FittingInputLine[]; actor?: StockActor; now?: Date },
): Promise<FittingOutcome> {
  const refuse = (error: string) => ({ ok: false as const, errors: { order_id: error } });
  const order = await lockOrder(tx, orderId);
  if (!order) return refuse('Заказ не найден');
  if (order.deliveryId !== DELIVERY_ID.moscowCourier) return refuse(FITTING_ERROR.notCourier);
  // A fitting makes the order 'received' (under this row lock): that is the one mark of it. An
  // order paid before (online, or in full with certificates) has paid_kopecks and still needs its fitting.
  if (order.status === 'received') return refuse(FITTING_ERROR.already);
  if (order.status !== 'shipped' && order.status !== 'delivered') return refuse(FITTING_ERROR.notYet(order.status));

  const items = await tx
    .select({
      offerId: orderItems.offerId,
      title: orderItems.title,
      quantity: orderItems.quantity,
      priceKopecks: orderItems.priceKopecks,
      discountKopecks: orderItems.discountKopecks,
      bonusKopecks: orderItems.bonusKopecks,
      isPreorder: orderItems.isPreorder,
      isGift: orderItems.isGift,
    })
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId))
    .orderBy(asc(orderItems.offerId));
  // Bonuses are a discount of the line like the promo (core/order-money.ts): the kept units keep their share.
  const plan = planFitting({
    order: items.map(({ bonusKopecks, ...i }) => ({ ...i, discountKopecks: i.discountKopecks + bonusKopecks })),
    given: lines,
    deliveryKopecks: order.deliveryCostKopecks,
  });
  if (!plan.ok) return plan;
  // What the courier takes (or the provider keeps), what goes back to the card, and the
  // certificates' money the kept items do not use, back onto them (issue #26).
  const paidOnline = payChannel(order.paymentId ?? '') === 'online';
  const settled = settleFitting({
    keptKopecks: plan.totalKopecks,
    preorderKopecks: items
      .filter((i) => i.isPreorder)
      .reduce((sum, i) => sum + i.priceKopecks * i.quantity - i.discountKopecks - i.bonusKopecks, 0),
    totalKopecks: order.totalKopecks,
    certificateKopecks: order.certificateKopecks,
    online: paidOnline,
  });
  const doorKopecks = settled.paidKopecks;

  for (const line of plan.lines) {
    await tx
      .update(orderItems)
      .set({ keptQuantity: line.kept, refusedQuantity: line.refused })
      .where(
        and(eq(orderItems.orderId, orderId), eq(orderItems.offerId, line.offerId), eq(orderItems.isPreorder, false)),
      );
  }
  const moved = await tx
    .update(orders)
    .set({ status: 'received', paidKopecks: doorKopecks, deliveredAt: order.deliveredAt ?? now })
    .where(and(eq(orders.id, orderId), eq(orders.status, order.status)))
    .returning({ id: orders.id });
  if (moved.length !== 1) throw new Error(`order ${orderId} changed under its row lock`);
  // The courier's visit is both the delivery and the receipt: the history shows both steps.
  const history: (typeof orderStatusHistory.$inferInsert)[] = [];
  if (order.status === 'shipped') history.push({ orderId, status: 'delivered', createdAt: now });
  history.push({
    orderId,
    status: 'received',
    note: fittingNote(plan.kept, plan.refused, settled.certificateBackKopecks),
    createdAt: now,
  });
  await tx.insert(orderStatusHistory).values(history);
  // Under the order's row lock, once: a second fitting finds the order 'received' and stops above.
  const certificateBackKopecks =
    settled.certificateBackKopecks > 0
      ? await giveBackToCertificates(tx, {
          orderId,
          amountKopecks: settled.certificateBackKopecks,
          kind: 'fitting',
          now,
        })
      : 0;
  // loyalty.md: the kept items' bonuses are credited once the return period is over.
  await scheduleAccrual(tx, orderId, order.deliveredAt ?? now);

  // Refused items go back on the shelf; the gift cover never took stock (placeOrder), so it gives none back.
  const back = await moveStock(tx, {
    lines: plan.lines.filter((l) => !l.isGift && l.refused > 0).map((l) => ({ offerId: l.offerId, delta: l.refused })),
    reason: 'fitting_returned',
    ref: { orderId },
    actor,
    short: 'clamp',
    now,
  });
  if (!back.ok) throw new Error(`order ${orderId}: refused items not given back`);
  return {
    ok: true as const,
    orderId,
    from: order.status,
    kept: plan.kept,
    refused: plan.refused,
    lines: plan.lines,
    paidKopecks: doorKopecks,
    deliveryKopecks: plan.deliveryKopecks,
    refundKopecks: settled.refundKopecks,
    certificateBackKopecks,
    back,
  };
}
