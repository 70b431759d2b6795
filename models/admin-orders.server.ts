import { containsPattern } from '~/db/like';
import { and, asc, count, desc, eq, gte, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Database } from '~/db/client.server';
import {
  auditEvents,
  bonusMoves,
  certificateMoves,
  jobs,
  offers,
  orderItems,
  orderNotes,
  orders,
  orderStatusHistory,
  paymentEvents,
  products,
  refunds,
  returnRequests,
  sentMessages,
  waitingList,
} from '~/db/schema';
import { payChannel, type OrderBreakdown } from '~/core/order-money';
import { DELIVERY_ID } from '~/shared/contract';
import { statusLabel } from '~/core/order-status';
import type { moneyHeadColumns, moneyLineColumns } from './order-money.server';
import { breakdownOf } from './order-money.server';
import { lockOrder } from './order-status.server';

// The back office's reads and plain changes of orders (issue #29): the list with its filters and
// text search (indexes of migration 0022), one order with everything staff look at, staff notes,
// "paid on receipt", and the dashboard's counts. The state changes themselves (confirm, ship,
// cancel, fitting) are models/order-status.server.ts and models/fitting.server.ts.

export type PaymentState = 'paid' | 'awaiting' | 'on_receipt' | 'other' | 'none';

/** Whether the order's money came in (online verified, or taken at the door), is awaited, or is due on receipt. */
export function paymentState(o: {
  status: string;
  paymentId: string;
  paidAt: Date | null;
  paidKopecks: number | null;
}): PaymentState {
  if (o.paidAt !== null || o.paidKopecks !== null) return 'paid';
  if (o.status === 'cancelled') return 'none';
  const channel = payChannel(o.paymentId);
  if (channel === 'online') return 'awaiting';
  return channel === 'receipt' ? 'on_receipt' : 'other';
}

export interface AdminOrderFilter {
  status?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
  delivery?: string | undefined;
  payment?: string | undefined;
  city?: string | undefined;
  /** Order number, phone, e-mail or name (part of). */
  q?: string | undefined;
}

export const ORDER_SORTS = ['id', 'created_at', 'total', 'status'] as const;
export type OrderSort = (typeof ORDER_SORTS)[number];

const searchText = sql`lower(${orders.phone} || ' ' || ${orders.email} || ' ' || ${orders.customerName})`;

/** The conditions of the list's filters. */
function orderWhere(filter: AdminOrderFilter): SQL | undefined {
  const where: (SQL | undefined)[] = [];
  if (filter.status) where.push(eq(orders.status, filter.status));
  if (filter.from) where.push(gte(orders.createdAt, filter.from));
  if (filter.to) where.push(lt(orders.createdAt, filter.to));
  if (filter.delivery) where.push(eq(orders.deliveryId, filter.delivery));
  if (filter.payment) where.push(eq(orders.paymentId, filter.payment));
  if (filter.city) where.push(sql`lower(${orders.deliveryCity}) = lower(${filter.city})`);
  const q = filter.q?.trim().toLowerCase();
  if (q) {
    const like = (v: string) => sql`${searchText} like ${containsPattern(v)}`;
    const any: SQL[] = [like(q)];
    // A phone as people type it (+7 (916) 123-45-67): its digits.
    const digits = q.replace(/\D/g, '');
    if (digits.length >= 4 && digits !== q)
      any.push(like(digits.startsWith('8') && digits.length === 11 ? `7${digits.slice(1)}` : digits));
    // An order number (with or without «№» or «#»).
    const number = /^[№#]?\s*(\d{1,9})$/.exec(q);
    if (number) any.push(eq(orders.id, Number(number[1])));
    where.push(or(...any));
  }
  return where.length ? and(...where) : undefined;
}

const listColumns = {
  id: orders.id,
  createdAt: orders.createdAt,
  status: orders.status,
  customerId: orders.customerId,
  customerName: orders.customerName,
  phone: orders.phone,
  email: orders.email,
  deliveryCity: orders.deliveryCity,
  deliveryId: orders.deliveryId,
  paymentId: orders.paymentId,
  paidAt: orders.paidAt,
  paidKopecks: orders.paidKopecks,
  totalKopecks: orders.totalKopecks,
  trackNumber: orders.trackNumber,
};
export type AdminOrderRow = Pick<typeof orders.$inferSelect, keyof typeof listColumns>;

export async function listAdminOrders({
  db,
  filter,
  sort,
  order,
  offset,
  limit,
}: {
  db: Database;
  filter: AdminOrderFilter;
  sort: OrderSort;
  order: 'asc' | 'desc';
  offset: number;
  limit: number;
}): Promise<{ rows: AdminOrderRow[]; total: number }> {
  const where = orderWhere(filter);
  const dir = order === 'asc' ? asc : desc;
  if (filter.q?.trim()) return searchPage({ db, where, sort, dir, offset, limit });
  const column = sortColumn(sort);
  const [rows, [totalRow]] = await Promise.all([
    db.select(listColumns).from(orders).where(where).orderBy(dir(column), dir(orders.id)).limit(limit).offset(offset),
    db.select({ n: count() }).from(orders).where(where),
  ]);
  return { rows: rows as AdminOrderRow[], total: Number(totalRow?.n ?? 0) };
}

const sortColumn = (sort: OrderSort) =>
  ({ id: orders.id, created_at: orders.createdAt, total: orders.totalKopecks, status: orders.status })[sort];

/**
 * A text search's page and total. Walking an index in the list's order and filtering by the
 * search is fast when matches are many (the page fills at once) and slow when they are few (a
 * phone fragment among received CDEK orders: 75 000 rows read for 25, bench:admin); the
 * planner's trigram estimates cannot tell the two apart. So one statement first takes up to
 * SEARCH_TOTAL_CAP + 1 matches in any order (the trigram and filter indexes, a bitmap), counts
 * them and sorts the page out of them (the CTE is referenced twice, so PostgreSQL materializes
 * it). When there are more than the cap, that set is not all of them: the page is then read the
 * ordinary way, which with so many matches is quick. The total of a search is counted up to the
 * cap only (the list says 1000 for "1000 or more"): nobody pages past the thousandth match.
 */
async function searchPage({
  db,
  where,
  sort,
  dir,
  offset,
  limit,
}: {
  db: Database;
  where: SQL | undefined;
  sort: OrderSort;
  dir: typeof asc;
  offset: number;
  limit: number;
}): Promise<{ rows: AdminOrderRow[]; total: number }> {
  const matches = db.$with('matches').as(
    db
      .select(listColumns)
      .from(orders)
      .where(where)
      .limit(SEARCH_TOTAL_CAP + 1),
  );
  const fields = Object.fromEntries(
    Object.keys(listColumns).map((k) => [k, matches[k as keyof typeof listColumns]]),
  ) as unknown as typeof listColumns;
  const column = { id: matches.id, created_at: matches.createdAt, total: matches.totalKopecks, status: matches.status }[
    sort
  ];
  const page = await db
    .with(matches)
    .select({ ...fields, matched: sql<number>`(select count(*) from ${matches})::int` })
    .from(matches)
    .orderBy(dir(column), dir(matches.id))
    .limit(limit)
    .offset(offset);
  const matched = page[0]?.matched;
  if (matched !== undefined && matched <= SEARCH_TOTAL_CAP)
    return { rows: page.map(({ matched: _m, ...row }) => row) as AdminOrderRow[], total: matched };
  if (matched === undefined) {
    // No row on this page (no match, or past the last): the count alone.
    const [n] = await db.select({ n: count() }).from(
      db
        .select({ one: sql`1` })
        .from(orders)
        .where(where)
        .limit(SEARCH_TOTAL_CAP)
        .as('capped'),
    );
    const total = Number(n?.n ?? 0);
    // Fewer than the cap: the empty page is right. Otherwise it lies past the matches taken: read it the ordinary way.
    if (total < SEARCH_TOTAL_CAP) return { rows: [], total };
  }
  const byColumn = sortColumn(sort);
  const rows = await db
    .select(listColumns)
    .from(orders)
    .where(where)
    .orderBy(dir(byColumn), dir(orders.id))
    .limit(limit)
    .offset(offset);
  return { rows: rows as AdminOrderRow[], total: SEARCH_TOTAL_CAP };
}

/** A text search's `total` stops here (the list says "1000" for "1000 or more"). */
export const SEARCH_TOTAL_CAP = 1000;

/** Several orders by id (react-admin's getMany). */
export async function adminOrdersByIds(db: Database, ids: readonly number[]): Promise<AdminOrderRow[]> {
  if (ids.length === 0) return [];
  return (await db
    .select(listColumns)
    .from(orders)
    .where(inArray(orders.id, [...ids]))
    .orderBy(asc(orders.id))) as AdminOrderRow[];
}

export interface AdminOrderDetail {
  order: typeof orders.$inferSelect;
  lines: (typeof orderItems.$inferSelect)[];
  money: OrderBreakdown;
  history: (typeof orderStatusHistory.$inferSelect)[];
  payments: (typeof paymentEvents.$inferSelect)[];
  refunds: (typeof refunds.$inferSelect)[];
  returns: (typeof returnRequests.$inferSelect)[];
  certificateMoves: (typeof certificateMoves.$inferSelect)[];
  bonusMoves: (typeof bonusMoves.$inferSelect)[];
  /** Messages sent by the order's jobs (SMS and letters), and its jobs (the outbox). */
  messages: (typeof sentMessages.$inferSelect)[];
  jobs: (typeof jobs.$inferSelect)[];
  audit: (typeof auditEvents.$inferSelect)[];
  notes: (typeof orderNotes.$inferSelect)[];
}

/** One order with everything its back-office page shows; null when there is none. */
export async function adminOrderDetail(db: Database, id: number): Promise<AdminOrderDetail | null> {
  const [order] = await db.select().from(orders).where(eq(orders.id, id)).limit(1);
  if (!order) return null;
  const subject = `orderId=${id}`;
  // One after another: this runs inside an admin change's transaction too (one connection).
  const lines = await db
    .select()
    .from(orderItems)
    .where(eq(orderItems.orderId, id))
    .orderBy(asc(orderItems.isPreorder), asc(orderItems.offerId));
  const history = await db
    .select()
    .from(orderStatusHistory)
    .where(eq(orderStatusHistory.orderId, id))
    .orderBy(asc(orderStatusHistory.id));
  const payments = await db
    .select()
    .from(paymentEvents)
    .where(eq(paymentEvents.orderId, id))
    .orderBy(asc(paymentEvents.id));
  const refundRows = await db.select().from(refunds).where(eq(refunds.orderId, id)).orderBy(asc(refunds.id));
  const returns = await db
    .select()
    .from(returnRequests)
    .where(eq(returnRequests.orderId, id))
    .orderBy(asc(returnRequests.id));
  const certMoves = await db
    .select()
    .from(certificateMoves)
    .where(eq(certificateMoves.orderId, id))
    .orderBy(asc(certificateMoves.id));
  const bonus = await db.select().from(bonusMoves).where(eq(bonusMoves.orderId, id)).orderBy(asc(bonusMoves.id));
  // A job's messages are keyed by its subject (models/sent-messages.server.ts jobSubject): `<kind>:orderId=<id>|…`.
  const messages = await db
    .select()
    .from(sentMessages)
    .where(sql`${sentMessages.key} ~ ${`^[a-z0-9_.-]+:(.*,)?${subject}[,|]`}`)
    .orderBy(asc(sentMessages.claimedAt));
  const jobRows = await db
    .select()
    .from(jobs)
    .where(sql`${jobs.payload}->>'orderId' = ${String(id)}`)
    .orderBy(asc(jobs.id));
  const audit = await db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.entityType, 'order'), eq(auditEvents.entityId, String(id))))
    .orderBy(asc(auditEvents.id));
  const notes = await db.select().from(orderNotes).where(eq(orderNotes.orderId, id)).orderBy(asc(orderNotes.id));
  const money = breakdownOf(
    {
      deliveryCostKopecks: order.deliveryCostKopecks,
      deliveryCostPending: order.deliveryCostPending,
      certificateKopecks: order.certificateKopecks,
      paymentId: order.paymentId,
      paidKopecks: order.paidKopecks,
      paidAt: order.paidAt,
    } satisfies { [K in keyof typeof moneyHeadColumns]: unknown },
    lines satisfies { [K in keyof typeof moneyLineColumns]: unknown }[],
  );
  return {
    order,
    lines,
    money,
    history,
    payments,
    refunds: refundRows,
    returns,
    certificateMoves: certMoves,
    bonusMoves: bonus,
    messages,
    jobs: jobRows,
    audit,
    notes,
  };
}

export type OrderNoteResult =
  { ok: true; note: typeof orderNotes.$inferSelect } | { ok: false; status: number; field: string; error: string };

/** A staff note on an order (in the caller's transaction, with its audit row). */
export async function addOrderNote(
  tx: Database,
  {
    orderId,
    text,
    staffId,
    authorLabel,
    now,
  }: { orderId: number; text: string; staffId: number | null; authorLabel: string; now: Date },
): Promise<OrderNoteResult> {
  const [order] = await tx.select({ id: orders.id }).from(orders).where(eq(orders.id, orderId)).limit(1);
  if (!order) return { ok: false, status: 404, field: 'id', error: 'Заказ не найден' };
  const [note] = await tx
    .insert(orderNotes)
    .values({ orderId, text, staffId, authorLabel, createdAt: now })
    .returning();
  return { ok: true, note: note as typeof orderNotes.$inferSelect };
}

export const MARK_PAID_ERROR = {
  notFound: 'Заказ не найден',
  notOnReceipt: 'Отметить оплату при получении можно только у заказа с оплатой при получении',
  already: 'Оплата по этому заказу уже отмечена',
  notYet: (status: string) =>
    `Оплату при получении отмечают, когда заказ передан в доставку, доставлен или получен, а он сейчас «${statusLabel(status)}»`,
} as const;

export type MarkPaidResult =
  | {
      ok: true;
      orderId: number;
      paidKopecks: number;
      before: { paidKopecks: number | null; paidAt: null };
      paidAt: Date;
    }
  | { ok: false; status: number; field: string; error: string };

/**
 * "Paid on receipt": the courier or the pickup point took the money. Under the order's row lock,
 * once: an order paid on receipt, handed to delivery or later, not marked yet. The amount is what
 * the courier took after a fitting, or otherwise what was due (core/order-money.ts dueKopecks).
 */
export async function markOrderPaidOnReceipt(
  tx: Database,
  { orderId, now }: { orderId: number; now: Date },
): Promise<MarkPaidResult> {
  const order = await lockOrder(tx, orderId);
  if (!order) return { ok: false, status: 404, field: 'id', error: MARK_PAID_ERROR.notFound };
  if (payChannel(order.paymentId) !== 'receipt')
    return { ok: false, status: 409, field: 'payment', error: MARK_PAID_ERROR.notOnReceipt };
  const [row] = await tx.select({ paidAt: orders.paidAt }).from(orders).where(eq(orders.id, orderId));
  if (row?.paidAt) return { ok: false, status: 409, field: 'payment', error: MARK_PAID_ERROR.already };
  if (!['shipped', 'delivered', 'received'].includes(order.status))
    return { ok: false, status: 409, field: 'status', error: MARK_PAID_ERROR.notYet(order.status) };
  const paidKopecks = order.paidKopecks ?? Math.max(0, order.totalKopecks - order.certificateKopecks);
  const moved = await tx
    .update(orders)
    .set({ paidAt: now, paidKopecks })
    .where(and(eq(orders.id, orderId), isNull(orders.paidAt)))
    .returning({ id: orders.id });
  if (moved.length !== 1) throw new Error(`order ${orderId} changed under its row lock`);
  await tx
    .insert(orderStatusHistory)
    .values({ orderId, status: order.status, note: 'Оплата при получении получена', createdAt: now });
  return { ok: true, orderId, paidKopecks, paidAt: now, before: { paidKopecks: order.paidKopecks, paidAt: null } };
}

// --- The dashboard -------------------------------------------------------------------------------

const MOSCOW_OFFSET_MS = 3 * 3_600_000;

/** Midnight in Moscow of the day of `now`, and of that week's Monday. */
export function moscowDayAndWeek(now: Date): { day: Date; week: Date } {
  const local = new Date(now.getTime() + MOSCOW_OFFSET_MS);
  const dayStart = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate()) - MOSCOW_OFFSET_MS;
  const weekday = (local.getUTCDay() + 6) % 7;
  return { day: new Date(dayStart), week: new Date(dayStart - weekday * 86_400_000) };
}

export interface Dashboard {
  today: { orders: number; revenueKopecks: number };
  week: { orders: number; revenueKopecks: number };
  awaitingPayment: number;
  toConfirm: number;
  toShip: number;
  fittingsOut: number;
  returnsToDecide: number;
  refundsPending: number;
  lowStock: { offerId: number; productId: number; name: string; size: string; quantity: number }[];
  waitingLists: { offerId: number; productId: number; name: string; size: string; waiting: number }[];
}

/** Orders that count as sales: placed and not cancelled, not waiting for an online payment. */
const sold = sql`${orders.status} not in ('cancelled', 'awaiting_payment')`;

export async function adminDashboard(
  db: Database,
  { now, lowStockAt = 2 }: { now: Date; lowStockAt?: number },
): Promise<Dashboard> {
  const { day, week } = moscowDayAndWeek(now);
  const period = (from: Date) =>
    db
      .select({ n: count(), sum: sql<string>`coalesce(sum(${orders.totalKopecks}), 0)` })
      .from(orders)
      .where(and(gte(orders.createdAt, from), sold));
  const byStatus = db
    .select({ status: orders.status, n: count() })
    .from(orders)
    .where(inArray(orders.status, ['awaiting_payment', 'new', 'confirmed', 'assembling']))
    .groupBy(orders.status);
  const fittings = db
    .select({ n: count() })
    .from(orders)
    .where(and(inArray(orders.status, ['shipped', 'delivered']), eq(orders.deliveryId, DELIVERY_ID.moscowCourier)));
  const returnsNew = db.select({ n: count() }).from(returnRequests).where(eq(returnRequests.status, 'new'));
  const refundsOpen = db
    .select({ n: count() })
    .from(refunds)
    .where(inArray(refunds.status, ['pending', 'manual']));
  const low = db
    .select({
      offerId: offers.id,
      productId: products.id,
      name: products.name,
      size: offers.size,
      quantity: offers.quantity,
    })
    .from(offers)
    .innerJoin(products, eq(products.id, offers.productId))
    .where(and(sql`${offers.quantity} between 1 and ${lowStockAt}`, eq(offers.preorder, false)))
    .orderBy(asc(offers.quantity), asc(offers.id))
    .limit(10);
  const waiting = db
    .select({ offerId: offers.id, productId: products.id, name: products.name, size: offers.size, waiting: count() })
    .from(waitingList)
    .innerJoin(offers, eq(offers.id, waitingList.offerId))
    .innerJoin(products, eq(products.id, offers.productId))
    .where(isNull(waitingList.notifiedAt))
    .groupBy(offers.id, products.id, products.name, offers.size)
    .orderBy(desc(count()), asc(offers.id))
    .limit(10);
  const [[t], [w], statuses, [f], [r], [rf], lowRows, waitRows] = await Promise.all([
    period(day),
    period(week),
    byStatus,
    fittings,
    returnsNew,
    refundsOpen,
    low,
    waiting,
  ]);
  const of = (s: string) => Number(statuses.find((x) => x.status === s)?.n ?? 0);
  return {
    today: { orders: Number(t?.n ?? 0), revenueKopecks: Number(t?.sum ?? 0) },
    week: { orders: Number(w?.n ?? 0), revenueKopecks: Number(w?.sum ?? 0) },
    awaitingPayment: of('awaiting_payment'),
    toConfirm: of('new'),
    toShip: of('confirmed') + of('assembling'),
    fittingsOut: Number(f?.n ?? 0),
    returnsToDecide: Number(r?.n ?? 0),
    refundsPending: Number(rf?.n ?? 0),
    lowStock: lowRows,
    waitingLists: waitRows.map((x) => ({ ...x, waiting: Number(x.waiting) })),
  };
}
