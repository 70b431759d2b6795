import { asc, inArray } from 'drizzle-orm';
import type { Database } from '~/db/client.server';
import { orderItems, orders } from '~/db/schema';
import { orderMoney, type OrderBreakdown } from '~/core/order-money';

// Reads an order's money through the one breakdown (core/order-money.ts orderMoney): every page,
// message, receipt and answer that shows an amount of an order gets it from here or from the
// same function over the same columns, so they cannot disagree.

type Reader = Pick<Database, 'select'>;

/** The order columns the breakdown needs. */
export const moneyHeadColumns = {
  deliveryCostKopecks: orders.deliveryCostKopecks,
  deliveryCostPending: orders.deliveryCostPending,
  certificateKopecks: orders.certificateKopecks,
  paymentId: orders.paymentId,
  paidKopecks: orders.paidKopecks,
  paidAt: orders.paidAt,
};

/** The line columns the breakdown needs. */
export const moneyLineColumns = {
  priceKopecks: orderItems.priceKopecks,
  oldPriceKopecks: orderItems.oldPriceKopecks,
  quantity: orderItems.quantity,
  discountKopecks: orderItems.discountKopecks,
  bonusKopecks: orderItems.bonusKopecks,
};

export interface MoneyHead {
  deliveryCostKopecks: number;
  deliveryCostPending: boolean;
  certificateKopecks: number;
  paymentId: string;
  paidKopecks: number | null;
  paidAt: Date | null;
}

export type MoneyLineRow = {
  priceKopecks: number;
  oldPriceKopecks: number | null;
  quantity: number;
  discountKopecks: number;
  bonusKopecks: number;
};

/** The breakdown of an order from its row and its lines. */
export function breakdownOf(head: MoneyHead, lines: readonly MoneyLineRow[]): OrderBreakdown {
  return orderMoney({
    lines,
    deliveryKopecks: head.deliveryCostPending ? null : head.deliveryCostKopecks,
    certificateKopecks: head.certificateKopecks,
    paymentId: head.paymentId,
    paidKopecks: head.paidKopecks,
    paid: head.paidAt !== null,
  });
}

/** The breakdowns of some orders, by id (orders not found are absent). */
export async function readOrderMoney(db: Reader, orderIds: readonly number[]): Promise<Map<number, OrderBreakdown>> {
  const out = new Map<number, OrderBreakdown>();
  if (orderIds.length === 0) return out;
  const ids = [...orderIds];
  const [heads, lines] = await Promise.all([
    db
      .select({ id: orders.id, ...moneyHeadColumns })
      .from(orders)
      .where(inArray(orders.id, ids)),
    db
      .select({ orderId: orderItems.orderId, ...moneyLineColumns })
      .from(orderItems)
      .where(inArray(orderItems.orderId, ids))
      .orderBy(asc(orderItems.orderId)),
  ]);
  for (const head of heads)
    out.set(
      head.id,
      breakdownOf(
        head,
        lines.filter((l) => l.orderId === head.id),
      ),
    );
  return out;
}

/** One order's breakdown; null when there is no such order. */
export async function readOneOrderMoney(db: Reader, orderId: number): Promise<OrderBreakdown | null> {
  return (await readOrderMoney(db, [orderId])).get(orderId) ?? null;
}
