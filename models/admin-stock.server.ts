import { containsPattern } from '~/db/like';
import { and, asc, desc, eq, ilike, inArray, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Database } from '~/db/client.server';
import { offers, orderItems, orders, products, returnRequests, stockMoves, waitingList } from '~/db/schema';
import type { StockActor, StockLine, StockReason } from '~/core/stock-ledger';
import { moveStock, type MoveStockResult } from './stock.server';

// The back office's stock screens (issue #29): offers with their quantities, each offer's ledger,
// the waiting lists, and the staff adjustments — every quantity change through moveStock, in the
// admin route's transaction, so its audit row and Idempotency-Key commit with it.

export interface StockListFilter {
  sectionId?: number | undefined;
  size?: string | undefined;
  /** At or below this quantity. */
  atMost?: number | undefined;
  soldOut?: boolean | undefined;
  /** Part of the article or the product's name. */
  q?: string | undefined;
}

const STOCK_SORTS = {
  id: offers.id,
  quantity: offers.quantity,
  article: products.article,
  name: products.name,
} as const;
export type StockSort = keyof typeof STOCK_SORTS;

export async function listStockOffers({
  db,
  filter,
  sort,
  order,
  offset,
  limit,
}: {
  db: Database;
  filter: StockListFilter;
  sort: StockSort;
  order: 'asc' | 'desc';
  offset: number;
  limit: number;
}) {
  const where: SQL[] = [];
  if (filter.sectionId !== undefined) where.push(eq(products.sectionId, filter.sectionId));
  if (filter.size !== undefined) where.push(eq(offers.size, filter.size));
  if (filter.atMost !== undefined) where.push(lte(offers.quantity, filter.atMost));
  if (filter.soldOut) where.push(eq(offers.quantity, 0));
  if (filter.q) {
    const like = containsPattern(filter.q);
    where.push(or(ilike(products.article, like), ilike(products.name, like)) as SQL);
  }
  const cond = where.length ? and(...where) : undefined;
  const waiting = sql<number>`(select count(*)::int from ${waitingList} w where w.offer_id = ${offers.id} and w.notified_at is null)`;
  const rows = await db
    .select({
      id: offers.id,
      productId: offers.productId,
      article: products.article,
      name: products.name,
      sectionId: products.sectionId,
      size: offers.size,
      quantity: offers.quantity,
      preorder: offers.preorder,
      waiting,
    })
    .from(offers)
    .innerJoin(products, eq(products.id, offers.productId))
    .where(cond)
    .orderBy(order === 'asc' ? asc(STOCK_SORTS[sort]) : desc(STOCK_SORTS[sort]), asc(offers.id))
    .offset(offset)
    .limit(limit);
  const [count] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(offers)
    .innerJoin(products, eq(products.id, offers.productId))
    .where(cond);
  return { rows, total: Number(count?.n ?? 0) };
}

export async function getStockOffer(db: Database, offerId: number) {
  const rows = await db
    .select({
      id: offers.id,
      productId: offers.productId,
      article: products.article,
      name: products.name,
      sectionId: products.sectionId,
      size: offers.size,
      quantity: offers.quantity,
      preorder: offers.preorder,
      waiting: sql<number>`(select count(*)::int from ${waitingList} w where w.offer_id = ${offers.id} and w.notified_at is null)`,
    })
    .from(offers)
    .innerJoin(products, eq(products.id, offers.productId))
    .where(eq(offers.id, offerId));
  return rows[0] ?? null;
}

/** An offer's ledger, newest first. */
export async function listStockMoves(
  db: Database,
  { offerId, offset, limit }: { offerId: number; offset: number; limit: number },
) {
  const rows = await db
    .select()
    .from(stockMoves)
    .where(eq(stockMoves.offerId, offerId))
    .orderBy(desc(stockMoves.id))
    .offset(offset)
    .limit(limit);
  const [count] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(stockMoves)
    .where(eq(stockMoves.offerId, offerId));
  return { rows, total: Number(count?.n ?? 0) };
}

/** Who waits for which size (open entries), and whether it is a pre-order size. */
export async function listWaiting(
  db: Database,
  { offerId, offset, limit }: { offerId?: number | undefined; offset: number; limit: number },
) {
  const cond = and(
    isNull(waitingList.notifiedAt),
    offerId !== undefined ? eq(waitingList.offerId, offerId) : undefined,
  );
  const rows = await db
    .select({
      id: waitingList.id,
      offerId: waitingList.offerId,
      phone: waitingList.phone,
      name: waitingList.name,
      createdAt: waitingList.createdAt,
      article: products.article,
      productName: products.name,
      size: offers.size,
      quantity: offers.quantity,
      preorder: offers.preorder,
    })
    .from(waitingList)
    .innerJoin(offers, eq(offers.id, waitingList.offerId))
    .innerJoin(products, eq(products.id, offers.productId))
    .where(cond)
    .orderBy(asc(waitingList.createdAt), asc(waitingList.id))
    .offset(offset)
    .limit(limit);
  const [count] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(waitingList)
    .where(cond);
  return { rows, total: Number(count?.n ?? 0) };
}

/** Orders not yet handed to delivery: their pre-order lines are still to fulfil. */
export const PREORDER_OPEN_STATUSES = ['awaiting_payment', 'new', 'confirmed', 'assembling'] as const;

/**
 * The pre-order lines to fulfil (issue #29): lines bought as a pre-order in orders not yet handed
 * to delivery, oldest order first, with the offer's quantity now (in_stock: only those whose
 * stock has arrived, i.e. can be fulfilled now).
 */
export async function listPreorders(
  db: Database,
  {
    offerId,
    inStock,
    offset,
    limit,
  }: { offerId?: number | undefined; inStock?: boolean | undefined; offset: number; limit: number },
) {
  const cond = and(
    eq(orderItems.isPreorder, true),
    inArray(orders.status, [...PREORDER_OPEN_STATUSES]),
    offerId !== undefined ? eq(orderItems.offerId, offerId) : undefined,
    inStock === undefined ? undefined : inStock ? sql`${offers.quantity} > 0` : sql`${offers.quantity} <= 0`,
  );
  const rows = await db
    .select({
      orderId: orders.id,
      orderCreatedAt: orders.createdAt,
      status: orders.status,
      customerId: orders.customerId,
      customerName: orders.customerName,
      phone: orders.phone,
      offerId: orderItems.offerId,
      title: orderItems.title,
      size: orderItems.size,
      quantity: orderItems.quantity,
      article: products.article,
      inStock: offers.quantity,
    })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .innerJoin(offers, eq(offers.id, orderItems.offerId))
    .innerJoin(products, eq(products.id, offers.productId))
    .where(cond)
    .orderBy(asc(orders.createdAt), asc(orders.id), asc(orderItems.offerId))
    .offset(offset)
    .limit(limit);
  const [count] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .innerJoin(offers, eq(offers.id, orderItems.offerId))
    .where(cond);
  return { rows, total: Number(count?.n ?? 0) };
}

/** Why staff change a quantity: a count sets it; damage takes away; a receipt adds. */
export const ADJUST_KINDS = ['count', 'damage', 'receipt', 'correction'] as const;
export type AdjustKind = (typeof ADJUST_KINDS)[number];
export const ADJUST_KIND_LABEL: Record<AdjustKind, string> = {
  count: 'Инвентаризация',
  damage: 'Брак или порча',
  receipt: 'Поступление',
  correction: 'Исправление',
};

export interface StaffStockLine {
  offerId: number;
  /** Set to a counted number (kind 'count'), or move by a delta. */
  set?: number | undefined;
  delta?: number | undefined;
}

/**
 * Staff adjust one or several offers in the caller's transaction: a count (setTo) is ledger
 * reason 'count', anything else 'staff_adjustment', the kind and the note kept in the move's note.
 * `all`: one moveStock call, refused whole if any offer would go below zero or is unknown;
 * `each`: every offer moved on its own, an impossible take clamped at zero, unknown offers skipped.
 */
export async function adjustStock(
  tx: Database,
  {
    lines,
    kind,
    note,
    actor,
    mode,
  }: { lines: readonly StaffStockLine[]; kind: AdjustKind; note: string; actor: StockActor; mode: 'all' | 'each' },
): Promise<MoveStockResult> {
  const reason: StockReason = kind === 'count' ? 'count' : 'staff_adjustment';
  const moveNote = `${ADJUST_KIND_LABEL[kind]}: ${note}`;
  const planned: StockLine[] = lines.map((l) =>
    l.set !== undefined ? { offerId: l.offerId, setTo: l.set } : { offerId: l.offerId, delta: l.delta ?? 0 },
  );
  if (mode === 'all') return moveStock(tx, { lines: planned, reason, actor, note: moveNote, short: 'refuse' });
  const result: MoveStockResult & { ok: true } = { ok: true, changes: [], notices: [] };
  for (const line of planned) {
    const r = await moveStock(tx, { lines: [line], reason, actor, note: moveNote, short: 'clamp' });
    if (!r.ok) continue;
    result.changes.push(...r.changes);
    result.notices.push(...r.notices);
  }
  return result;
}

/**
 * The goods of an approved (or refunded) return request received back: its items back on the
 * shelf through the ledger (reason 'return_received', the request named), exactly once — under
 * the request's row lock, a request that already has its receipt move is refused.
 */
export async function receiveReturn(
  tx: Database,
  { requestId, actor }: { requestId: number; actor: StockActor },
): Promise<
  | { ok: true; requestId: number; orderId: number; result: MoveStockResult & { ok: true } }
  | { ok: false; status: number; field: string; error: string }
> {
  const [request] = await tx
    .select()
    .from(returnRequests)
    .where(eq(returnRequests.id, requestId))
    .for('update')
    .limit(1);
  if (!request) return { ok: false, status: 404, field: 'id', error: 'Заявление на возврат не найдено' };
  if (request.status !== 'approved' && request.status !== 'refunded')
    return { ok: false, status: 409, field: 'id', error: 'Принять товар можно только по одобренному заявлению' };
  const [done] = await tx
    .select({ id: stockMoves.id })
    .from(stockMoves)
    .where(and(eq(stockMoves.returnRequestId, requestId), eq(stockMoves.reason, 'return_received')))
    .limit(1);
  if (done) return { ok: false, status: 409, field: 'id', error: 'Товар по этому заявлению уже принят' };
  const lines = request.items.filter((i) => i.quantity > 0).map((i) => ({ offerId: i.offerId, delta: i.quantity }));
  const moved = await moveStock(tx, {
    lines,
    reason: 'return_received',
    actor,
    ref: { returnRequestId: requestId, orderId: request.orderId },
    short: 'clamp',
  });
  if (!moved.ok) return { ok: false, status: 409, field: 'id', error: 'Товары заявления не найдены' };
  return { ok: true, requestId, orderId: request.orderId, result: moved };
}

/** Whether the request's goods were received (its receipt move exists). */
export async function returnReceivedIds(db: Database, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectDistinct({ id: stockMoves.returnRequestId })
    .from(stockMoves)
    .where(and(eq(stockMoves.reason, 'return_received'), sql`${stockMoves.returnRequestId} in ${ids}`));
  return new Set(rows.map((r) => r.id as number));
}

export interface ReturnListFilter {
  status?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
  orderId?: number | undefined;
  customerId?: number | undefined;
}

/** The return requests for the back office, newest first, with whether their goods were received. */
export async function listAdminReturns(
  db: Database,
  { filter, offset, limit }: { filter: ReturnListFilter; offset: number; limit: number },
) {
  const where: SQL[] = [];
  if (filter.status) where.push(eq(returnRequests.status, filter.status));
  if (filter.from) where.push(sql`${returnRequests.createdAt} >= ${filter.from.toISOString()}`);
  if (filter.to) where.push(sql`${returnRequests.createdAt} < ${filter.to.toISOString()}`);
  if (filter.orderId !== undefined) where.push(eq(returnRequests.orderId, filter.orderId));
  if (filter.customerId !== undefined) where.push(eq(returnRequests.customerId, filter.customerId));
  const cond = where.length ? and(...where) : undefined;
  const rows = await db
    .select()
    .from(returnRequests)
    .where(cond)
    .orderBy(desc(returnRequests.id))
    .offset(offset)
    .limit(limit);
  const [count] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(returnRequests)
    .where(cond);
  return { rows, total: Number(count?.n ?? 0) };
}

export async function getAdminReturn(db: Database, id: number) {
  const [row] = await db.select().from(returnRequests).where(eq(returnRequests.id, id)).limit(1);
  return row ?? null;
}
