import { and, asc, desc, eq, inArray, ne } from 'drizzle-orm';
import type { Database } from '~/db/client.server';
import { offers, orderItems, orders, orderStatusHistory, products, refunds, returnRequests } from '~/db/schema';
import { isReturnOpen, returnableQuantities } from '~/core/account';
import type { RefundPart } from '~/core/return-notice';
import { refundsOf } from './returns.server';
import type { OrderBreakdown } from '~/core/order-money';
import { breakdownOf, moneyHeadColumns, moneyLineColumns } from './order-money.server';

// The personal account's orders and return requests. Every query is filtered by the customer
// id of the session: an order id alone never reads or returns another customer's order.

export interface AccountOrderLine {
  offerId: number;
  title: string;
  size: string;
  color: string;
  image: string;
  priceKopecks: number;
  quantity: number;
  isPreorder: boolean;
  isGift: boolean;
  /** How many may still be asked back now (content/pages/return.md). */
  returnable: number;
  /** An electronic gift certificate (sent by e-mail). */
  byEmail: boolean;
}

export interface AccountOrder {
  id: number;
  status: string;
  createdAt: Date;
  deliveredAt: Date | null;
  itemsTotalKopecks: number;
  discountKopecks: number;
  deliveryCostKopecks: number;
  totalKopecks: number;
  /** When an order awaiting online payment stops holding its stock. */
  payUntil: Date | null;
  /** The order's money, by kind (core/order-money.ts): what every page shows. */
  money: OrderBreakdown;
  lines: AccountOrderLine[];
}

type Reader = Pick<Database, 'select'>;

const lineColumns = {
  orderId: orderItems.orderId,
  offerId: orderItems.offerId,
  title: orderItems.title,
  size: orderItems.size,
  color: orderItems.color,
  image: orderItems.image,
  priceKopecks: orderItems.priceKopecks,
  quantity: orderItems.quantity,
  isPreorder: orderItems.isPreorder,
  isGift: orderItems.isGift,
  keptQuantity: orderItems.keptQuantity,
};

/** Quantities already asked back, by order and offer (refused requests give theirs back). */
async function requestedByOrder(
  db: Reader,
  customerId: number,
  orderIds: number[],
): Promise<Map<number, Map<number, number>>> {
  const out = new Map<number, Map<number, number>>();
  if (orderIds.length === 0) return out;
  const rows = await db
    .select({ orderId: returnRequests.orderId, items: returnRequests.items })
    .from(returnRequests)
    .where(
      and(
        eq(returnRequests.customerId, customerId),
        inArray(returnRequests.orderId, orderIds),
        ne(returnRequests.status, 'rejected'),
      ),
    );
  for (const row of rows) {
    const byOffer = out.get(row.orderId) ?? new Map<number, number>();
    for (const item of row.items) byOffer.set(item.offerId, (byOffer.get(item.offerId) ?? 0) + item.quantity);
    out.set(row.orderId, byOffer);
  }
  return out;
}

async function readOrders(db: Reader, customerId: number, now: Date, orderId?: number): Promise<AccountOrder[]> {
  const where =
    orderId === undefined
      ? eq(orders.customerId, customerId)
      : and(eq(orders.customerId, customerId), eq(orders.id, orderId));
  const heads = await db
    .select({
      id: orders.id,
      status: orders.status,
      createdAt: orders.createdAt,
      deliveredAt: orders.deliveredAt,
      itemsTotalKopecks: orders.itemsTotalKopecks,
      discountKopecks: orders.discountKopecks,
      totalKopecks: orders.totalKopecks,
      payUntil: orders.payUntil,
      ...moneyHeadColumns,
    })
    .from(orders)
    .where(where)
    .orderBy(desc(orders.createdAt), desc(orders.id));
  if (heads.length === 0) return [];
  const ids = heads.map((h) => h.id);
  const [lines, requested] = await Promise.all([
    db
      .select({ ...lineColumns, ...moneyLineColumns, certificate: products.certificate })
      .from(orderItems)
      .leftJoin(offers, eq(offers.id, orderItems.offerId))
      .leftJoin(products, eq(products.id, offers.productId))
      .where(inArray(orderItems.orderId, ids))
      .orderBy(asc(orderItems.orderId), asc(orderItems.isGift), asc(orderItems.offerId), asc(orderItems.isPreorder)),
    requestedByOrder(db, customerId, ids),
  ]);
  return heads.map((head) => {
    const own = lines.filter((l) => l.orderId === head.id);
    // After a fitting at the door only what was kept can be returned.
    const bought = own.map((l) => ({ ...l, quantity: l.keptQuantity ?? l.quantity }));
    const returnable = returnableQuantities(bought, head.deliveredAt, requested.get(head.id) ?? new Map(), now);
    const { deliveryCostPending, certificateKopecks, paymentId, paidKopecks, paidAt, ...rest } = head;
    const money = breakdownOf(
      {
        deliveryCostKopecks: head.deliveryCostKopecks,
        deliveryCostPending,
        certificateKopecks,
        paymentId,
        paidKopecks,
        paidAt,
      },
      own,
    );
    return {
      ...rest,
      money,
      lines: own.map(
        (
          {
            orderId: _orderId,
            keptQuantity: _kept,
            oldPriceKopecks: _old,
            discountKopecks: _discount,
            bonusKopecks: _bonus,
            certificate,
            ...line
          },
          i,
        ) => ({
          ...line,
          returnable: returnable[i] ?? 0,
          byEmail: certificate === 'electronic',
        }),
      ),
    };
  });
}

/** The customer's orders, newest first, with their lines and what may still be returned. */
export async function listCustomerOrders({
  db,
  customerId,
  now = new Date(),
}: {
  db: Database;
  customerId: number;
  now?: Date;
}): Promise<AccountOrder[]> {
  return readOrders(db, customerId, now);
}

/**
 * The lines of the customer's own order as basket lists ('id:qty', pre-orders apart), to put
 * back in the basket («Повторить заказ», and the notice of an order cancelled unpaid). A
 * pre-order line comes back as a pre-order while its size is still out of stock (the basket keeps
 * it if it can still be pre-ordered, or says why not), or into the cart once it is in stock. The
 * gift cover is not a line of its own: it comes back with its coats (the basket recounts it from
 * them). Null when the order is not theirs, or still awaits its payment (paid, not repeated).
 */
export async function repeatOrderLines({
  db,
  customerId,
  orderId,
}: {
  db: Database;
  customerId: number;
  orderId: number;
}): Promise<{ cart: string; preorders: string } | null> {
  const [order] = await db
    .select({ status: orders.status })
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.customerId, customerId)));
  if (!order || order.status === 'awaiting_payment') return null;
  const lines = await db
    .select({
      offerId: orderItems.offerId,
      quantity: orderItems.quantity,
      isPreorder: orderItems.isPreorder,
      inStock: offers.quantity,
    })
    .from(orderItems)
    .leftJoin(offers, eq(offers.id, orderItems.offerId))
    .where(and(eq(orderItems.orderId, orderId), eq(orderItems.isGift, false)))
    .orderBy(asc(orderItems.isPreorder), asc(orderItems.offerId));
  const asPreorder = (l: (typeof lines)[number]) => l.isPreorder && (l.inStock ?? 0) <= 0;
  const list = (preorder: boolean) =>
    lines
      .filter((l) => asPreorder(l) === preorder)
      .map((l) => `${l.offerId}:${l.quantity}`)
      .join(',');
  return { cart: list(false), preorders: list(true) };
}

export interface ReturnRecord {
  id: number;
  orderId: number;
  status: string;
  reason: string;
  createdAt: Date;
  lines: (Omit<AccountOrderLine, 'returnable' | 'quantity' | 'isGift' | 'byEmail'> & { quantity: number })[];
  /** Staff's reason when rejected; the money given back (models/returns.server.ts). */
  decisionNote: string | null;
  refunds: RefundPart[];
}

/** The customer's return requests, newest first, each line with the order's snapshot of it. */
export async function listReturns({ db, customerId }: { db: Database; customerId: number }): Promise<ReturnRecord[]> {
  const rows = await db
    .select()
    .from(returnRequests)
    .where(eq(returnRequests.customerId, customerId))
    .orderBy(desc(returnRequests.createdAt), desc(returnRequests.id));
  if (rows.length === 0) return [];
  const refunded = await refundsOf(
    db,
    rows.map((r) => r.id),
  );
  const snapshots = await db
    .select(lineColumns)
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .where(
      and(
        eq(orders.customerId, customerId),
        inArray(
          orderItems.orderId,
          rows.map((r) => r.orderId),
        ),
      ),
    );
  return rows.map((row) => ({
    id: row.id,
    orderId: row.orderId,
    status: row.status,
    reason: row.reason,
    createdAt: row.createdAt,
    decisionNote: row.decisionNote,
    refunds: refunded.get(row.id) ?? [],
    lines: row.items.flatMap((item) => {
      const snap = snapshots.find((s) => s.orderId === row.orderId && s.offerId === item.offerId);
      if (!snap) return [];
      return [
        {
          offerId: item.offerId,
          title: snap.title,
          size: snap.size,
          color: snap.color,
          image: snap.image,
          priceKopecks: snap.priceKopecks,
          isPreorder: snap.isPreorder,
          quantity: item.quantity,
        },
      ];
    }),
  }));
}

export type CreateReturnResult =
  { ok: true; id: number } | { ok: false; reason: 'not_found' | 'not_delivered' | 'expired' | 'too_many' | 'nothing' };

/**
 * Asks back lines of one of the customer's own orders: received, within the return period,
 * and no more than was bought less earlier requests. The order row is locked while checking,
 * so two requests at once cannot ask the same things back twice.
 */
export async function createReturnRequest(input: {
  db: Database;
  customerId: number;
  orderId: number;
  items: { offerId: number; quantity: number }[];
  reason: string;
  now?: Date;
}): Promise<CreateReturnResult> {
  const { db, customerId, orderId, reason } = input;
  const now = input.now ?? new Date();
  const wanted = new Map<number, number>();
  for (const item of input.items)
    if (item.quantity > 0) wanted.set(item.offerId, (wanted.get(item.offerId) ?? 0) + item.quantity);
  if (wanted.size === 0) return { ok: false, reason: 'nothing' };
  return db.transaction(async (tx) => {
    const [locked] = await tx
      .select({ id: orders.id })
      .from(orders)
      .where(and(eq(orders.id, orderId), eq(orders.customerId, customerId)))
      .for('update');
    if (!locked) return { ok: false, reason: 'not_found' } as const;
    const [order] = await readOrders(tx, customerId, now, orderId);
    if (!order) return { ok: false, reason: 'not_found' } as const;
    if (!order.deliveredAt) return { ok: false, reason: 'not_delivered' } as const;
    const open = new Map<number, number>();
    for (const line of order.lines) open.set(line.offerId, (open.get(line.offerId) ?? 0) + line.returnable);
    const bought = new Set(order.lines.filter((l) => !l.isGift).map((l) => l.offerId));
    for (const [offerId, quantity] of wanted) {
      if (!bought.has(offerId)) return { ok: false, reason: 'too_many' } as const;
      const inPeriod = order.lines.some(
        (l) => l.offerId === offerId && !l.isGift && isReturnOpen(order.deliveredAt, l.isPreorder, now),
      );
      if (!inPeriod) return { ok: false, reason: 'expired' } as const;
      if ((open.get(offerId) ?? 0) < quantity) return { ok: false, reason: 'too_many' } as const;
    }
    const [row] = await tx
      .insert(returnRequests)
      .values({ customerId, orderId, items: [...wanted].map(([offerId, quantity]) => ({ offerId, quantity })), reason })
      .returning({ id: returnRequests.id });
    if (!row) throw new Error('return request insert returned nothing');
    return { ok: true, id: row.id } as const;
  });
}

export interface OrderDetailRecord extends AccountOrder {
  paymentId: string;
  email: string;
  phone: string;
  customerName: string;
  deliveryId: string | null;
  deliveryCity: string;
  deliveryAddress: string;
  pickupPoint: Record<string, unknown> | null;
  deliveryCostPending: boolean;
  deliveryDateFrom: string | null;
  deliveryDateTo: string | null;
  deliveryNote: string | null;
  trackNumber: string | null;
  paidKopecks: number | null;
  paidAt: Date | null;
  payUntil: Date | null;
  history: { status: string; note: string | null; createdAt: Date }[];
  /** Money given back for approved returns, one row per means. */
  refunds: (RefundPart & { returnRequestId: number; createdAt: Date })[];
}

/** One order of the customer with its delivery, payment and status history; null when it is not theirs. */
export async function getCustomerOrderDetail({
  db,
  customerId,
  orderId,
  now = new Date(),
}: {
  db: Database;
  customerId: number;
  orderId: number;
  now?: Date;
}): Promise<OrderDetailRecord | null> {
  const [base] = await readOrders(db, customerId, now, orderId);
  if (!base) return null;
  const [[head], history] = await Promise.all([
    db
      .select({
        paymentId: orders.paymentId,
        email: orders.email,
        phone: orders.phone,
        customerName: orders.customerName,
        deliveryId: orders.deliveryId,
        deliveryCity: orders.deliveryCity,
        deliveryAddress: orders.deliveryAddress,
        pickupPoint: orders.pickupPoint,
        deliveryCostPending: orders.deliveryCostPending,
        deliveryDateFrom: orders.deliveryDateFrom,
        deliveryDateTo: orders.deliveryDateTo,
        deliveryNote: orders.deliveryNote,
        trackNumber: orders.trackNumber,
        paidKopecks: orders.paidKopecks,
        paidAt: orders.paidAt,
        payUntil: orders.payUntil,
      })
      .from(orders)
      .where(and(eq(orders.id, orderId), eq(orders.customerId, customerId))),
    db
      .select({
        status: orderStatusHistory.status,
        note: orderStatusHistory.note,
        createdAt: orderStatusHistory.createdAt,
      })
      .from(orderStatusHistory)
      .where(eq(orderStatusHistory.orderId, orderId))
      .orderBy(asc(orderStatusHistory.id)),
  ]);
  if (!head) return null;
  const given = await db
    .select({
      returnRequestId: refunds.returnRequestId,
      means: refunds.means,
      amountKopecks: refunds.amountKopecks,
      status: refunds.status,
      createdAt: refunds.createdAt,
    })
    .from(refunds)
    .where(eq(refunds.orderId, orderId))
    .orderBy(asc(refunds.id));
  return { ...base, ...head, history, refunds: given };
}
