import { withdrawReviewsOfReturnedLines } from './reviews.server';
import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Database } from '~/db/client.server';
import {
  certificateMoves,
  customers,
  giftCertificates,
  offers,
  orderItems,
  orders,
  orderStatusHistory,
  products,
  refunds,
  returnRequests,
} from '~/db/schema';
import { amountDue, planRefund, refundMeans, type ReturnLine } from '~/core/order-money';
import { orderAccrualKopecks } from '~/core/loyalty-account';
import { isOnlinePaymentId } from '~/core/delivery';
import { returnStatusLabel } from '~/core/account';
import { RETURN_TEXT, type RefundMeans, type RefundPart } from '~/core/return-notice';
import { enqueueJob } from './jobs.server';
import { certificateBackAtFitting, giveBackToCertificates } from './certificates.server';
import { cancelAccrual, giveBackBonuses } from './loyalty.server';

// Staff's decision on a return request (content/pages/return.md, docs/decisions/009-refunds.md).
// Approval is one transaction: the request locked (only a 'new' one is decided, so a second
// approval, or two at once, changes nothing), the order and its lines locked, the returned
// quantities raised by conditional updates, the money planned by core/order-money.ts planRefund
// (certificates first, then the provider; the bonus share back as bonuses), the ledgers written at
// once (certificates, bonuses, the accrual cancelled), and the provider's refund left to the
// `return.refund` job (models/refund-jobs.server.ts), which calls it after the commit.

export interface ReturnDecisionInput {
  db: Database;
  requestId: number;
  note?: string | null;
  now?: Date;
}

export type ApproveReturnResult =
  | {
      ok: true;
      requestId: number;
      orderId: number;
      status: 'approved' | 'refunded';
      refunds: (RefundPart & { id: number })[];
      /** Bonuses accrued for the returned units and taken back (0 when not credited yet). */
      accrualCancelledKopecks: number;
      deliveryRefunded: boolean;
    }
  | { ok: false; field: 'request_id' | 'items'; error: string; status?: string };

export type RejectReturnResult =
  | { ok: true; requestId: number; orderId: number; status: 'rejected' }
  | { ok: false; field: string; error: string; status?: string };

async function lockRequest(tx: Database, requestId: number) {
  const [row] = await tx.select().from(returnRequests).where(eq(returnRequests.id, requestId)).for('update').limit(1);
  return row ?? null;
}

/** Sums of what this order's earlier returns gave back, by means. */
async function refundedSoFar(tx: Database, orderId: number): Promise<Map<string, number>> {
  const rows = await tx
    .select({ means: refunds.means, sum: sql<string>`sum(${refunds.amountKopecks})` })
    .from(refunds)
    .where(eq(refunds.orderId, orderId))
    .groupBy(refunds.means);
  return new Map(rows.map((r) => [r.means, Number(r.sum)]));
}

/** Whether an earlier approved return of this order refunded its delivery (it is refunded once). */
async function deliveryRefundedBefore(tx: Database, orderId: number, requestId: number): Promise<boolean> {
  const [row] = await tx
    .select({ id: returnRequests.id })
    .from(returnRequests)
    .where(
      and(
        eq(returnRequests.orderId, orderId),
        ne(returnRequests.id, requestId),
        eq(returnRequests.refundDelivery, true),
        inArray(returnRequests.status, ['approved', 'refunded']),
      ),
    )
    .limit(1);
  return Boolean(row);
}

type ReturnRequestRow = NonNullable<Awaited<ReturnType<typeof lockRequest>>>;
type ReturnOrder = NonNullable<Awaited<ReturnType<typeof lockReturnOrder>>>;
type ReturnOrderLine = Awaited<ReturnType<typeof lockOrderLines>>[number];
type Refusal = Extract<ApproveReturnResult, { ok: false }>;

/** What every approval step works on: the locked request, order and lines, and how many units of each line come back. */
interface Approval {
  tx: Database;
  request: ReturnRequestRow;
  order: ReturnOrder;
  lines: ReturnOrderLine[];
  returning: number[];
  now: Date;
}

/** Thrown inside the approval's transaction before anything was written; becomes the answer. */
class ReturnRefused extends Error {
  constructor(readonly result: Refusal) {
    super('return refused');
  }
}

/**
 * Approves return request `requestId`: see the module comment. `refundDelivery` only when the
 * return is our error or a defect (return.md), and once per order. The steps: the request and
 * its order locked and checked; what comes back spread over the order's lines; the gift
 * certificates bought in the order voided; the money planned; the lines marked returned; the
 * money given back; the request closed. A refusal happens before anything is written.
 */
export async function approveReturn({
  db,
  requestId,
  refundDelivery = false,
  note = null,
  now = new Date(),
}: ReturnDecisionInput & { refundDelivery?: boolean }): Promise<ApproveReturnResult> {
  try {
    return await db.transaction(async (txn) => {
      const tx = txn as unknown as Database;
      const { request, order } = await lockForDecision(tx, requestId);
      // The order's lines, locked in key order (a second approval of the same order waits here).
      const lines = await lockOrderLines(tx, order.id);
      const approval: Approval = { tx, request, order, lines, returning: spreadReturn(lines, request.items), now };
      await voidReturnedCertificates(approval);
      const { plan, withDelivery } = await planReturnMoney(approval, refundDelivery);
      await markLinesReturned(approval);
      // A line taken back whole leaves the product's reviews and rating (issue #32).
      await withdrawReviewsOfReturnedLines(tx, order.id, now);
      const { written, accrualCancelled } = await giveMoneyBack(approval, plan);
      const status = await closeRequest(approval, { written, withDelivery, note });
      return {
        ok: true as const,
        requestId: request.id,
        orderId: order.id,
        status,
        refunds: written,
        accrualCancelledKopecks: accrualCancelled,
        deliveryRefunded: withDelivery,
      };
    });
  } catch (err) {
    if (err instanceof ReturnRefused) return err.result;
    throw err;
  }
}

/** The request (only a 'new' one is decided) and its order, both under their row locks; a paid-online order only once its payment was verified. */
async function lockForDecision(
  tx: Database,
  requestId: number,
): Promise<{ request: ReturnRequestRow; order: ReturnOrder }> {
  const request = await lockRequest(tx, requestId);
  if (!request) throw new ReturnRefused({ ok: false, field: 'request_id', error: RETURN_TEXT.notFound });
  if (request.status !== 'new')
    throw new ReturnRefused({
      ok: false,
      field: 'request_id',
      error: RETURN_TEXT.already(returnStatusLabel(request.status)),
      status: request.status,
    });
  const order = await lockReturnOrder(tx, request.orderId);
  if (!order) throw new ReturnRefused({ ok: false, field: 'request_id', error: RETURN_TEXT.notFound });
  // Money paid online counts only once the provider's payment was verified; an order paid in
  // full by certificates has nothing at the provider.
  if (isOnlinePaymentId(order.paymentId) && !order.paidAt && amountDue(order) > 0)
    throw new ReturnRefused({ ok: false, field: 'request_id', error: RETURN_TEXT.orderNotPaid });
  return { request, order };
}

async function lockReturnOrder(tx: Database, orderId: number) {
  const [order] = await tx
    .select({
      id: orders.id,
      customerId: orders.customerId,
      status: orders.status,
      paymentId: orders.paymentId,
      paidAt: orders.paidAt,
      paidKopecks: orders.paidKopecks,
      totalKopecks: orders.totalKopecks,
      certificateKopecks: orders.certificateKopecks,
      deliveryCostKopecks: orders.deliveryCostKopecks,
      deliveryCostPending: orders.deliveryCostPending,
    })
    .from(orders)
    .where(eq(orders.id, orderId))
    .for('update')
    .limit(1);
  return order ?? null;
}

async function lockOrderLines(tx: Database, orderId: number) {
  return tx
    .select({
      offerId: orderItems.offerId,
      isPreorder: orderItems.isPreorder,
      isGift: orderItems.isGift,
      title: orderItems.title,
      quantity: orderItems.quantity,
      keptQuantity: orderItems.keptQuantity,
      returnedQuantity: orderItems.returnedQuantity,
      priceKopecks: orderItems.priceKopecks,
      oldPriceKopecks: orderItems.oldPriceKopecks,
      discountKopecks: orderItems.discountKopecks,
      bonusKopecks: orderItems.bonusKopecks,
    })
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId))
    .orderBy(asc(orderItems.offerId), asc(orderItems.isPreorder), asc(orderItems.isGift))
    .for('update');
}

/**
 * How many units of each line come back: each asked quantity spread over the offer's lines (in
 * stock first, then pre-order), no more than was bought (kept, after a fitting at the door) less
 * what was returned before.
 */
function spreadReturn(
  lines: readonly ReturnOrderLine[],
  items: readonly { offerId: number; quantity: number }[],
): number[] {
  const returning = lines.map(() => 0);
  for (const item of items) {
    const own = lines.map((l, i) => ({ l, i })).filter(({ l }) => l.offerId === item.offerId && !l.isGift);
    if (own.length === 0)
      throw new ReturnRefused({ ok: false, field: 'items', error: RETURN_TEXT.noLine(item.offerId) });
    const availableOf = ({ l, i }: (typeof own)[number]) =>
      Math.max(0, (l.keptQuantity ?? l.quantity) - l.returnedQuantity - (returning[i] as number));
    const open = own.reduce((s, x) => s + availableOf(x), 0);
    if (item.quantity > open)
      throw new ReturnRefused({ ok: false, field: 'items', error: RETURN_TEXT.tooMany(own[0]?.l.title ?? '', open) });
    let left = item.quantity;
    for (const x of own) {
      const take = Math.min(availableOf(x), left);
      returning[x.i] = (returning[x.i] as number) + take;
      left -= take;
    }
  }
  return returning;
}

/**
 * A gift certificate bought in this order goes back only unused and valid, and is voided with
 * the return: otherwise its money would come back to the card while it could still pay. Every
 * returned certificate line is checked before any is voided.
 */
async function voidReturnedCertificates({ tx, order, request, lines, returning, now }: Approval): Promise<void> {
  const certificateLines = await certificateOfferIds(
    tx,
    lines.filter((_, i) => (returning[i] as number) > 0).map((l) => l.offerId),
  );
  const voids: { id: number; nominal: number }[] = [];
  for (const [i, l] of lines.entries()) {
    const n = returning[i] as number;
    if (n <= 0 || !certificateLines.has(l.offerId)) continue;
    const issued = await tx
      .select({
        id: giftCertificates.id,
        balance: giftCertificates.balanceKopecks,
        nominal: giftCertificates.nominalKopecks,
        expiresAt: giftCertificates.expiresAt,
      })
      .from(giftCertificates)
      .where(and(eq(giftCertificates.orderId, order.id), eq(giftCertificates.offerId, l.offerId)))
      .orderBy(asc(giftCertificates.code))
      .for('update');
    const unused = issued.filter((c) => c.balance === c.nominal && c.expiresAt.getTime() > now.getTime());
    // Not issued yet (a plastic card not shipped): nothing can have been spent.
    const notIssued = Math.max(0, l.quantity - issued.length);
    if (unused.length + notIssued < n)
      throw new ReturnRefused({ ok: false, field: 'items', error: RETURN_TEXT.certificateUsed(l.title) });
    voids.push(...unused.slice(0, Math.max(0, n - notIssued)));
  }
  // Written only once every line passed: a refusal above comes before anything changed.
  for (const c of voids) {
    await tx
      .update(giftCertificates)
      .set({ balanceKopecks: 0 })
      .where(and(eq(giftCertificates.id, c.id), eq(giftCertificates.balanceKopecks, c.nominal)));
    await tx.insert(certificateMoves).values({
      certificateId: c.id,
      kind: 'void',
      amountKopecks: -c.nominal,
      orderId: order.id,
      returnRequestId: request.id,
      createdAt: now,
    });
  }
}

/**
 * The money of this return (core/order-money.ts planRefund): certificates first, then the
 * provider, the bonus share back as bonuses; the delivery only when asked, known and not
 * refunded by an earlier return; what earlier returns gave back counted.
 */
async function planReturnMoney(
  { tx, order, request, lines, returning }: Approval,
  refundDelivery: boolean,
): Promise<{ plan: ReturnType<typeof planRefund>; withDelivery: boolean }> {
  const online = isOnlinePaymentId(order.paymentId);
  const so = await refundedSoFar(tx, order.id);
  const providerRefunded = (['cloudpayments', 'dolyami', 'yandex-split', 'transfer'] as const).reduce(
    (s, m) => s + (so.get(m) ?? 0),
    0,
  );
  const withDelivery =
    refundDelivery && !order.deliveryCostPending && !(await deliveryRefundedBefore(tx, order.id, request.id));
  const plan = planRefund({
    lines: lines.map((l, i): ReturnLine => ({
      unitPriceKopecks: l.priceKopecks,
      quantity: l.quantity,
      returnedBefore: l.returnedQuantity,
      returning: returning[i] as number,
      discountKopecks: l.discountKopecks,
      bonusKopecks: l.bonusKopecks,
    })),
    deliveryKopecks: withDelivery ? order.deliveryCostKopecks : 0,
    certificatePaidKopecks: order.certificateKopecks,
    // The fitting's give-back counts: the certificates never get more than they paid.
    certificateRefundedKopecks: (so.get('certificate') ?? 0) + (await certificateBackAtFitting(tx, order.id)),
    // What the provider took is the verified payment; on receipt, what the courier took (or the amount due).
    providerPaidKopecks: online ? (order.paidKopecks ?? 0) : (order.paidKopecks ?? amountDue(order)),
    providerRefundedKopecks: providerRefunded,
  });
  return { plan, withDelivery };
}

/** The returned quantities raised, conditional on the check constraint's bound as well: a line is never returned twice. */
async function markLinesReturned({ tx, order, lines, returning }: Approval): Promise<void> {
  const orderId = order.id;
  for (const [i, l] of lines.entries()) {
    const n = returning[i] as number;
    if (n <= 0) continue;
    const updated = await tx
      .update(orderItems)
      .set({ returnedQuantity: sql`${orderItems.returnedQuantity} + ${n}` })
      .where(
        and(
          eq(orderItems.orderId, orderId),
          eq(orderItems.offerId, l.offerId),
          eq(orderItems.isPreorder, l.isPreorder),
          eq(orderItems.isGift, l.isGift),
          sql`${orderItems.returnedQuantity} + ${n} <= ${orderItems.quantity}`,
        ),
      )
      .returning({ offerId: orderItems.offerId });
    if (updated.length !== 1) throw new Error(`order ${orderId} line ${l.offerId} changed under its row lock`);
  }
}

/**
 * The planned money given back, one refunds row per means: certificates and bonuses at once,
 * the accrual of the returned units cancelled, the provider's part left to the `return.refund`
 * job (on receipt: a transfer staff make by hand).
 */
async function giveMoneyBack(
  approval: Approval,
  plan: ReturnType<typeof planRefund>,
): Promise<{ written: (RefundPart & { id: number })[]; accrualCancelled: number }> {
  const { tx, order, request, now } = approval;
  const written: (RefundPart & { id: number })[] = [];
  const addRow = async (means: RefundMeans, amountKopecks: number, status: RefundPart['status']) => {
    if (amountKopecks <= 0) return null;
    const [row] = await tx
      .insert(refunds)
      .values({
        returnRequestId: request.id,
        orderId: order.id,
        means,
        amountKopecks,
        status,
        createdAt: now,
        doneAt: status === 'done' ? now : null,
      })
      .returning({ id: refunds.id });
    if (!row) throw new Error('refund insert returned nothing');
    written.push({ id: row.id, means, amountKopecks, status });
    return row.id;
  };

  // The customer's bonuses are locked before any certificate, in the order checkout takes them
  // (spend, then redeem), so a return and a new order of the same shopper cannot deadlock; the
  // same 'no key update' lock as spending, which does not wait for an order being inserted.
  if (order.customerId !== null && (plan.bonusKopecks > 0 || plan.certificateKopecks > 0))
    await tx
      .select({ id: customers.id })
      .from(customers)
      .where(eq(customers.id, order.customerId))
      .for('no key update');
  // Certificates get their part back at once: it never becomes money on a card.
  if (plan.certificateKopecks > 0) {
    const given = await giveBackToCertificates(tx, {
      orderId: order.id,
      amountKopecks: plan.certificateKopecks,
      kind: 'refund',
      returnRequestId: request.id,
      now,
    });
    await addRow('certificate', given, 'done');
  }
  let accrualCancelled = 0;
  if (order.customerId !== null) {
    if (plan.bonusKopecks > 0) {
      const given = await giveBackBonuses(tx, {
        customerId: order.customerId,
        orderId: order.id,
        amountKopecks: plan.bonusKopecks,
        kind: 'restore',
        returnRequestId: request.id,
        now,
      });
      await addRow('bonus', given, 'done');
    }
    accrualCancelled = await cancelReturnedAccrual(approval, order.customerId);
  }
  // The provider's part: a job calls it after the commit; on receipt, staff transfer it by hand.
  if (plan.providerKopecks > 0) {
    const providerMeans = isOnlinePaymentId(order.paymentId) ? refundMeans(order.paymentId) : 'transfer';
    if (providerMeans === 'transfer') await addRow('transfer', plan.providerKopecks, 'manual');
    else {
      const refundId = await addRow(providerMeans, plan.providerKopecks, 'pending');
      await enqueueJob(tx, 'return.refund', { refundId });
    }
  }
  return { written, accrualCancelled };
}

/**
 * The accrual for the returned units taken back: what 5 % came to before this return less what
 * it comes to after, by the same rule as the accrual itself (core/loyalty-account.ts), so what is
 * cancelled is exactly what was credited for these units.
 */
async function cancelReturnedAccrual(
  { tx, order, request, lines, returning, now }: Approval,
  customerId: number,
): Promise<number> {
  const certificateOffers = await certificateOfferIds(
    tx,
    lines.map((l) => l.offerId),
  );
  const accrualItems = (after: boolean) =>
    lines.map((l, i) => ({
      priceKopecks: l.priceKopecks,
      oldPriceKopecks: l.oldPriceKopecks,
      quantity: l.quantity,
      discountKopecks: l.discountKopecks,
      bonusKopecks: l.bonusKopecks,
      returnedQuantity: l.returnedQuantity + (after ? (returning[i] as number) : 0),
      keptQuantity: l.keptQuantity,
      isGift: l.isGift,
      certificate: certificateOffers.has(l.offerId),
    }));
  const accrualShare = orderAccrualKopecks(accrualItems(false)) - orderAccrualKopecks(accrualItems(true));
  return cancelAccrual(tx, {
    customerId,
    orderId: order.id,
    amountKopecks: accrualShare,
    returnRequestId: request.id,
    now,
  });
}

/**
 * The request decided ('refunded' when every part is done, else 'approved'), a note in the
 * order's history, and the customer told now unless the card or the instalment service is still
 * to be asked: then the refund job tells them once the provider took the refund.
 */
async function closeRequest(
  { tx, order, request, now }: Approval,
  { written, withDelivery, note }: { written: readonly RefundPart[]; withDelivery: boolean; note: string | null },
): Promise<'approved' | 'refunded'> {
  const status = written.every((r) => r.status === 'done') ? ('refunded' as const) : ('approved' as const);
  await tx
    .update(returnRequests)
    .set({ status, decidedAt: now, decisionNote: note, refundDelivery: withDelivery })
    .where(and(eq(returnRequests.id, request.id), eq(returnRequests.status, 'new')));
  await tx
    .insert(orderStatusHistory)
    .values({ orderId: order.id, status: order.status, note: RETURN_TEXT.approvedNote(request.id), createdAt: now });
  if (!written.some((r) => r.status === 'pending')) await enqueueJob(tx, 'return.notify', { requestId: request.id });
  return status;
}

async function certificateOfferIds(tx: Database, offerIds: number[]): Promise<Set<number>> {
  if (offerIds.length === 0) return new Set();
  const rows = await tx
    .select({ id: offers.id })
    .from(offers)
    .innerJoin(products, eq(products.id, offers.productId))
    .where(and(inArray(offers.id, offerIds), sql`${products.certificate} is not null`));
  return new Set(rows.map((r) => r.id));
}

/** Rejects a 'new' request with staff's reason (the customer sees it); nothing else moves. */
export async function rejectReturn({
  db,
  requestId,
  note,
  now = new Date(),
}: ReturnDecisionInput): Promise<RejectReturnResult> {
  const reason = (note ?? '').trim();
  if (!reason) return { ok: false, field: 'note', error: RETURN_TEXT.noteRequired };
  return db.transaction(async (txn) => {
    const tx = txn as unknown as Database;
    const request = await lockRequest(tx, requestId);
    if (!request) return { ok: false as const, field: 'request_id', error: RETURN_TEXT.notFound };
    if (request.status !== 'new')
      return {
        ok: false as const,
        field: 'request_id',
        error: RETURN_TEXT.already(returnStatusLabel(request.status)),
        status: request.status,
      };
    await tx
      .update(returnRequests)
      .set({ status: 'rejected', decidedAt: now, decisionNote: reason })
      .where(and(eq(returnRequests.id, request.id), eq(returnRequests.status, 'new')));
    const [order] = await tx
      .select({ status: orders.status })
      .from(orders)
      .where(eq(orders.id, request.orderId))
      .limit(1);
    if (order)
      await tx.insert(orderStatusHistory).values({
        orderId: request.orderId,
        status: order.status,
        note: RETURN_TEXT.rejectedNote(request.id),
        createdAt: now,
      });
    await enqueueJob(tx, 'return.notify', { requestId: request.id });
    return { ok: true as const, requestId: request.id, orderId: request.orderId, status: 'rejected' as const };
  });
}

/**
 * A refund row settled (the provider took it, or staff made the transfer): 'done' once, by a
 * conditional update; the request becomes 'refunded' when every row is done. Runs in the
 * caller's transaction. Returns whether this call settled the row, and whether the request is now refunded.
 */
export async function settleRefund(
  tx: Database,
  refundId: number,
  now: Date,
  providerRef: string | null = null,
): Promise<{ settled: boolean; refunded: boolean }> {
  const [row] = await tx
    .update(refunds)
    .set({ status: 'done', doneAt: now, ...(providerRef ? { providerRef } : {}) })
    .where(and(eq(refunds.id, refundId), ne(refunds.status, 'done')))
    .returning({ returnRequestId: refunds.returnRequestId });
  if (!row) return { settled: false, refunded: false };
  const [open] = await tx
    .select({ id: refunds.id })
    .from(refunds)
    .where(and(eq(refunds.returnRequestId, row.returnRequestId), ne(refunds.status, 'done')))
    .limit(1);
  if (open) return { settled: true, refunded: false };
  const moved = await tx
    .update(returnRequests)
    .set({ status: 'refunded' })
    .where(and(eq(returnRequests.id, row.returnRequestId), eq(returnRequests.status, 'approved')))
    .returning({ id: returnRequests.id });
  return { settled: true, refunded: moved.length > 0 };
}

export type TransferDoneResult =
  | { ok: true; requestId: number; orderId: number; refundId: number; status: string; amountKopecks: number }
  | { ok: false; field: string; error: string };

/** Staff made the bank transfer of a pay-on-receipt return: its 'manual' row is done. */
export async function markTransferDone({
  db,
  requestId,
  now = new Date(),
}: {
  db: Database;
  requestId: number;
  now?: Date;
}): Promise<TransferDoneResult> {
  return db.transaction(async (txn) => {
    const tx = txn as unknown as Database;
    const request = await lockRequest(tx, requestId);
    if (!request) return { ok: false as const, field: 'request_id', error: RETURN_TEXT.notFound };
    const [row] = await tx
      .select({ id: refunds.id, amountKopecks: refunds.amountKopecks })
      .from(refunds)
      .where(and(eq(refunds.returnRequestId, requestId), eq(refunds.means, 'transfer'), eq(refunds.status, 'manual')))
      .limit(1);
    if (!row) return { ok: false as const, field: 'request_id', error: RETURN_TEXT.noTransfer };
    const { refunded } = await settleRefund(tx, row.id, now);
    return {
      ok: true as const,
      requestId,
      orderId: request.orderId,
      refundId: row.id,
      status: refunded ? 'refunded' : request.status,
      amountKopecks: row.amountKopecks,
    };
  });
}

/** A request's refund rows, for the account and the notices. */
export async function refundsOf(db: Database, requestIds: readonly number[]): Promise<Map<number, RefundPart[]>> {
  const out = new Map<number, RefundPart[]>();
  if (requestIds.length === 0) return out;
  const rows = await db
    .select({
      requestId: refunds.returnRequestId,
      means: refunds.means,
      amountKopecks: refunds.amountKopecks,
      status: refunds.status,
    })
    .from(refunds)
    .where(inArray(refunds.returnRequestId, [...requestIds]))
    .orderBy(asc(refunds.id));
  for (const r of rows) {
    const list = out.get(r.requestId) ?? [];
    list.push({ means: r.means, amountKopecks: r.amountKopecks, status: r.status });
    out.set(r.requestId, list);
  }
  return out;
}
