import { and, asc, desc, eq } from 'drizzle-orm';
import type { Database } from '~/db/client.server';
import { orderItems, orders, orderStatusHistory, paymentEvents } from '~/db/schema';
import { buildReceipt } from '~/core/receipt';
import { amountDue } from '~/core/order-money';
import { paymentReminderAt } from '~/core/payment-notice';
import { isInstalmentPaymentId, isOnlinePaymentId } from '~/core/delivery';
import { PAYMENT_ID, type PaymentReceipt } from '~/shared/contract';
import { CLOUDPAYMENTS_PROVIDER, parseAmount, type ProviderPayment } from '~/integrations/cloudpayments/cloudpayments';
import type { SmsGateway } from '~/integrations/sms/sms';
import { enqueueJob } from './jobs.server';
import { SYSTEM_ACTOR } from '~/core/stock-ledger';
import { enqueueGoAheadJobs, orderStockLines, releaseOrder, takeOrderStock } from './order-lifecycle.server';
import { sendBackInStock, type Logger } from './stock.server';
import { DEFAULT_ANONYMOUS_LIMITS } from '~/core/anonymous-limits';

// Card payment online (issue #12, docs/decisions/007-card-payment.md). An order is paid only on
// a verified provider signal: a Pay notification whose signature the route checked, or the
// server's own look-up with CloudPayments (`verified`). Every signal is stored once in
// payment_events (unique provider + transaction + kind): a replay finds its row and changes
// nothing. The order moves under its row lock with a conditional update (`where status =
// 'awaiting_payment'`), so two Pay notices at once, or a late payment and the release of the
// unpaid order, cannot both win.

export const PAYMENT_TEXT = {
  paidNote: 'Оплачен картой онлайн',
  releasedNote: 'Время на оплату истекло: заказ отменён, товары вернулись в продажу',
  unconfirmedNote: 'Заказ в один клик не подтверждён вовремя: заказ отменён, товары вернулись в продажу',
  restoredNote: 'Оплата пришла после отмены: заказ восстановлен',
  refundedNote: 'Оплата пришла после отмены: товаров уже нет, деньги возвращены',
  duplicateRefundedNote: 'Повторная оплата заказа: деньги возвращены',
  alreadyPaid: 'Заказ уже оплачен',
  expired: 'Время на оплату истекло: заказ отменён',
  notFound: 'Заказ не найден',
  notYet: 'Оплата пока не поступила. Если деньги списаны, обновите страницу через минуту.',
  declined: 'Платёж не прошёл. Попробуйте ещё раз или выберите другой способ оплаты.',
  description: (orderId: number) => `Заказ №${orderId} в Vitrina`,
} as const;

/** CloudPayments' Check answers (INTEGRATIONS.md §1). */
export const CHECK_CODE = { ok: 0, badInvoice: 10, badAccount: 11, badAmount: 12, refused: 13, expired: 20 } as const;

/** A notification's fields, as CloudPayments names them, after the signature was checked. */
export interface PaymentNotice {
  transactionId: string;
  invoiceId: string;
  accountId: string;
  /** null when Amount is not an amount. */
  amountKopecks: number | null;
  currency: string;
  /** All fields as sent (kept in payment_events.payload). */
  fields: Record<string, string>;
}

export function readNotice(fields: Record<string, string>): PaymentNotice | null {
  const transactionId = (fields.TransactionId ?? '').trim();
  if (!/^\d{1,20}$/.test(transactionId)) return null;
  return {
    transactionId,
    invoiceId: (fields.InvoiceId ?? '').trim(),
    accountId: (fields.AccountId ?? '').trim(),
    amountKopecks: parseAmount(fields.Amount),
    currency: (fields.Currency ?? '').trim(),
    fields,
  };
}

function orderIdOf(invoiceId: string): number | null {
  if (!/^\d{1,9}$/.test(invoiceId)) return null;
  const id = Number(invoiceId);
  return id > 0 && id <= 2_147_483_647 ? id : null;
}

const orderColumns = {
  id: orders.id,
  customerId: orders.customerId,
  status: orders.status,
  paymentId: orders.paymentId,
  deliveryId: orders.deliveryId,
  totalKopecks: orders.totalKopecks,
  certificateKopecks: orders.certificateKopecks,
  bonusKopecks: orders.bonusKopecks,
  deliveryCostKopecks: orders.deliveryCostKopecks,
  email: orders.email,
  phone: orders.phone,
  payUntil: orders.payUntil,
  paidAt: orders.paidAt,
  paymentTransactionId: orders.paymentTransactionId,
  kind: orders.kind,
  createdAt: orders.createdAt,
};
type PaymentOrder = { [K in keyof typeof orderColumns]: (typeof orders.$inferSelect)[K extends 'id' ? 'id' : K] };

async function readOrder(db: Database, orderId: number, lock: boolean): Promise<PaymentOrder | null> {
  const q = db.select(orderColumns).from(orders).where(eq(orders.id, orderId)).limit(1);
  const [row] = lock ? await q.for('update') : await q;
  return (row as PaymentOrder | undefined) ?? null;
}

async function recordEvent(
  db: Database,
  kind: string,
  notice: PaymentNotice,
  orderId: number | null,
  outcome: string,
  provider = CLOUDPAYMENTS_PROVIDER,
): Promise<boolean> {
  const inserted = await db
    .insert(paymentEvents)
    .values({
      provider,
      transactionId: notice.transactionId,
      kind,
      orderId,
      amountKopecks: notice.amountKopecks,
      outcome,
      payload: notice.fields,
    })
    .onConflictDoNothing({ target: [paymentEvents.provider, paymentEvents.transactionId, paymentEvents.kind] })
    .returning({ id: paymentEvents.id });
  return inserted.length > 0;
}

async function setOutcome(
  db: Database,
  kind: string,
  transactionId: string,
  outcome: string,
  provider = CLOUDPAYMENTS_PROVIDER,
): Promise<void> {
  await db
    .update(paymentEvents)
    .set({ outcome })
    .where(
      and(
        eq(paymentEvents.provider, provider),
        eq(paymentEvents.transactionId, transactionId),
        eq(paymentEvents.kind, kind),
      ),
    );
}

/**
 * The providers that mark orders paid, with the payment method each pays and the history note
 * (pay in parts: models/instalments.server.ts goes through the same transition as card).
 */
export const PAYMENT_PROVIDERS: Readonly<Record<string, { paymentId: string; paidNote: string }>> = {
  [CLOUDPAYMENTS_PROVIDER]: { paymentId: PAYMENT_ID.cardOnline, paidNote: PAYMENT_TEXT.paidNote },
  dolyami: { paymentId: PAYMENT_ID.dolyami, paidNote: 'Оплачен частями через Долями' },
  'yandex-split': { paymentId: PAYMENT_ID.yandexSplit, paidNote: 'Оплачен частями через Яндекс Сплит' },
};

/** The order's widget receipt (SPEC §3): goods lines with their promo shares, delivery, the total. */
export async function orderReceipt(
  db: Database,
  order: Pick<PaymentOrder, 'id' | 'deliveryCostKopecks' | 'totalKopecks' | 'certificateKopecks' | 'email' | 'phone'>,
): Promise<PaymentReceipt> {
  const lines = await db
    .select({
      title: orderItems.title,
      size: orderItems.size,
      priceKopecks: orderItems.priceKopecks,
      quantity: orderItems.quantity,
      discountKopecks: orderItems.discountKopecks,
      bonusKopecks: orderItems.bonusKopecks,
    })
    .from(orderItems)
    .where(eq(orderItems.orderId, order.id))
    .orderBy(asc(orderItems.isPreorder), asc(orderItems.isGift), asc(orderItems.offerId));
  return buildReceipt({
    lines,
    deliveryKopecks: order.deliveryCostKopecks,
    totalKopecks: order.totalKopecks,
    advancePaymentKopecks: order.certificateKopecks,
    email: order.email,
    phone: order.phone,
  });
}

/** Whether the order can still be paid online now. */
function payable(
  order: PaymentOrder,
  now: Date,
  paymentId: string = PAYMENT_ID.cardOnline,
): 'ok' | 'paid' | 'expired' | 'other' {
  if (order.paymentId !== paymentId) return 'other';
  if (order.status === 'awaiting_payment')
    return order.payUntil && order.payUntil.getTime() <= now.getTime() ? 'expired' : 'ok';
  if (order.status === 'cancelled') return order.paidAt ? 'other' : 'expired';
  return order.paidAt ? 'paid' : 'other';
}

export type PaymentParamsLookup =
  | { ok: true; order: PaymentOrder; receipt: PaymentReceipt }
  | { ok: false; status: 'paid' | 'cancelled' | 'not_found'; error: string };

/** The customer's own order awaiting payment, with its receipt; or why it cannot be paid. */
export async function findOrderToPay({
  db,
  customerId,
  orderId,
  paymentIds = [PAYMENT_ID.cardOnline],
  now = new Date(),
}: {
  db: Database;
  customerId: number;
  orderId: number;
  /** The methods the caller pays by (card: payment_params.php; pay in parts: instalment_link.php). */
  paymentIds?: readonly string[];
  now?: Date;
}): Promise<PaymentParamsLookup> {
  const order = await readOrder(db, orderId, false);
  if (!order || order.customerId !== customerId || !paymentIds.includes(order.paymentId))
    return { ok: false, status: 'not_found', error: PAYMENT_TEXT.notFound };
  const state = payable(order, now, order.paymentId);
  if (state === 'paid') return { ok: false, status: 'paid', error: PAYMENT_TEXT.alreadyPaid };
  if (state === 'expired') return { ok: false, status: 'cancelled', error: PAYMENT_TEXT.expired };
  if (state === 'other') return { ok: false, status: 'not_found', error: PAYMENT_TEXT.notFound };
  return { ok: true, order, receipt: await orderReceipt(db, order) };
}

/**
 * At placement of an online order (in its transaction): it holds its stock until pay_until,
 * then the release job runs. Its customer gets the pay link at once and a reminder shortly
 * before the hold ends (models/order-jobs.server.ts; each skips itself once the order is paid).
 */
export async function holdForPayment(tx: Database, orderId: number, minutes: number, now = new Date()): Promise<Date> {
  const payUntil = new Date(now.getTime() + minutes * 60_000);
  await tx.update(orders).set({ payUntil }).where(eq(orders.id, orderId));
  await enqueueJob(tx, 'order.release', { orderId }, payUntil);
  await enqueueJob(tx, 'order.awaiting_payment', { orderId });
  await enqueueJob(tx, 'order.payment_reminder', { orderId }, paymentReminderAt(now, payUntil));
  return payUntil;
}

/** Check: may this payment go ahead? 0, or the code CloudPayments shows as the refusal. Recorded once per transaction. */
export async function handleCheck({
  db,
  notice,
  now = new Date(),
}: {
  db: Database;
  notice: PaymentNotice;
  now?: Date;
}): Promise<number> {
  const orderId = orderIdOf(notice.invoiceId);
  const order = orderId === null ? null : await readOrder(db, orderId, false);
  let code: number = CHECK_CODE.ok;
  if (!order || order.paymentId !== PAYMENT_ID.cardOnline) code = CHECK_CODE.badInvoice;
  else if (order.customerId === null || notice.accountId !== String(order.customerId)) code = CHECK_CODE.badAccount;
  else {
    const state = payable(order, now);
    // Currency is part of the amount: 1 000 USD is not 1 000 ₽.
    if (state === 'expired') code = CHECK_CODE.expired;
    else if (state !== 'ok') code = CHECK_CODE.refused;
    else if (notice.amountKopecks !== amountDue(order) || notice.currency !== 'RUB') code = CHECK_CODE.badAmount;
  }
  await recordEvent(db, 'check', notice, order?.id ?? null, code === 0 ? 'accepted' : `refused:${code}`);
  return code;
}

export interface PaidDeps {
  db: Database;
  now?: Date;
}

export type PayOutcome =
  | 'paid'
  | 'replay'
  | 'already-paid'
  | 'late:restored'
  | 'late:refunding'
  | 'duplicate:refunding'
  | 'refused:unknown-order'
  | 'refused:amount'
  | 'refused:currency'
  | 'refused:account'
  | 'refused:not-card';

/** Whether the order was cancelled by the release of an unpaid order (not by staff). */
async function releasedUnpaid(tx: Database, orderId: number): Promise<boolean> {
  const [last] = await tx
    .select({ status: orderStatusHistory.status, note: orderStatusHistory.note })
    .from(orderStatusHistory)
    .where(eq(orderStatusHistory.orderId, orderId))
    .orderBy(desc(orderStatusHistory.id))
    .limit(1);
  return last?.status === 'cancelled' && last.note === PAYMENT_TEXT.releasedNote;
}

/**
 * A verified payment (kind 'pay': a signed Pay notification; 'verified': CloudPayments' API
 * said Completed) applied to its order, once per transaction and kind. See
 * docs/decisions/007-card-payment.md for the late and duplicate payments.
 */
export async function applyPayment({
  db,
  notice,
  kind,
  provider = CLOUDPAYMENTS_PROVIDER,
  now = new Date(),
}: PaidDeps & { notice: PaymentNotice; kind: 'pay' | 'verified'; provider?: string }): Promise<PayOutcome> {
  const orderId = orderIdOf(notice.invoiceId);
  const method = PAYMENT_PROVIDERS[provider];
  if (!method) throw new Error(`unknown payment provider ${provider}`);
  return db.transaction(async (txn) => {
    const tx = txn as unknown as Database;
    // The order row lock first: two signals for one order take turns here.
    const order = orderId === null ? null : await readOrder(tx, orderId, true);
    if (!(await recordEvent(tx, kind, notice, order?.id ?? null, 'received', provider))) return 'replay';
    const settle = async (outcome: PayOutcome) => {
      await setOutcome(tx, kind, notice.transactionId, outcome, provider);
      return outcome;
    };
    if (!order) return settle('refused:unknown-order');
    // The shopper may have switched between online methods while the order waited (changeOnlinePayment):
    // a verified payment by any of them pays it, and the order records the method that paid.
    if (order.paymentId !== method.paymentId && !isOnlinePaymentId(order.paymentId)) return settle('refused:not-card');
    if (notice.amountKopecks !== amountDue(order)) return settle('refused:amount');
    if (notice.currency !== 'RUB') return settle('refused:currency');
    if (order.customerId === null || notice.accountId !== String(order.customerId)) return settle('refused:account');
    if (order.paymentTransactionId === notice.transactionId) return settle('already-paid');
    const paid = {
      paidAt: now,
      paymentTransactionId: notice.transactionId,
      paidKopecks: notice.amountKopecks,
      paymentId: method.paymentId,
    };

    if (order.status === 'awaiting_payment') {
      const moved = await tx
        .update(orders)
        .set({ status: 'new', ...paid })
        .where(and(eq(orders.id, order.id), eq(orders.status, 'awaiting_payment')))
        .returning({ id: orders.id });
      if (moved.length !== 1) throw new Error(`order ${order.id} changed under its row lock`);
      await tx
        .insert(orderStatusHistory)
        .values({ orderId: order.id, status: 'new', note: method.paidNote, createdAt: now });
      await enqueueGoAheadJobs(tx, order);
      return settle('paid');
    }

    const refund = async (outcome: 'late:refunding' | 'duplicate:refunding', note: string) => {
      // The provider is called by a job, after this commits and with retries (never inside the transaction).
      await enqueueJob(tx, 'payment.refund', {
        orderId: order.id,
        transactionId: notice.transactionId,
        amountKopecks: notice.amountKopecks,
        kind,
        note,
        provider,
      });
      return settle(outcome);
    };
    // An order released unpaid gave its certificates and bonuses back when it was released;
    // spending them again now could fail, so such a late payment is refunded, never restored.
    const usedLedgers = order.certificateKopecks > 0 || order.bonusKopecks > 0;
    if (order.status === 'cancelled' && !order.paymentTransactionId) {
      if (
        !usedLedgers &&
        (await releasedUnpaid(tx, order.id)) &&
        (
          await takeOrderStock(tx, {
            orderId: order.id,
            lines: await orderStockLines(tx, order.id),
            actor: SYSTEM_ACTOR,
            now,
          })
        ).ok
      ) {
        const moved = await tx
          .update(orders)
          .set({ status: 'new', ...paid })
          .where(and(eq(orders.id, order.id), eq(orders.status, 'cancelled')))
          .returning({ id: orders.id });
        if (moved.length !== 1) throw new Error(`order ${order.id} changed under its row lock`);
        await tx
          .insert(orderStatusHistory)
          .values({ orderId: order.id, status: 'new', note: PAYMENT_TEXT.restoredNote, createdAt: now });
        await enqueueGoAheadJobs(tx, order);
        return settle('late:restored');
      }
      return refund('late:refunding', PAYMENT_TEXT.refundedNote);
    }
    // Paid already by another transaction (a second payment of one order): that money goes back.
    return refund('duplicate:refunding', PAYMENT_TEXT.duplicateRefundedNote);
  });
}

/** Fail: recorded once; the order keeps waiting (the shopper may try again until the hold ends). */
export async function handleFail({ db, notice }: { db: Database; notice: PaymentNotice }): Promise<string> {
  const orderId = orderIdOf(notice.invoiceId);
  const order = orderId === null ? null : await readOrder(db, orderId, false);
  const outcome = order ? `declined:${notice.fields.ReasonCode ?? ''}` : 'refused:unknown-order';
  return (await recordEvent(db, 'fail', notice, order?.id ?? null, outcome)) ? outcome : 'replay';
}

/** Refund notices (the provider confirms a refund): recorded once, for the record. */
export async function handleRefundNotice({ db, notice }: { db: Database; notice: PaymentNotice }): Promise<string> {
  const orderId = orderIdOf(notice.invoiceId);
  const order = orderId === null ? null : await readOrder(db, orderId, false);
  const outcome = order ? 'recorded' : 'refused:unknown-order';
  return (await recordEvent(db, 'refund', notice, order?.id ?? null, outcome)) ? outcome : 'replay';
}

/** The provider's view turned into a notice, when it is a completed payment of this invoice. */
export function verifiedNotice(invoiceId: string, payment: ProviderPayment | null): PaymentNotice | null {
  if (!payment || payment.status !== 'Completed' || payment.invoiceId !== invoiceId) return null;
  return {
    transactionId: payment.transactionId,
    invoiceId,
    accountId: payment.accountId,
    amountKopecks: payment.amountKopecks,
    currency: payment.currency,
    fields: { source: 'findPayment', Status: payment.status, TestMode: payment.testMode ? '1' : '0' },
  };
}

export interface PaymentStatus {
  found: boolean;
  paid: boolean;
  status: string;
  message: string | null;
}

/**
 * success_payment_order.php: the browser says it paid. Paid only if the order is paid already,
 * or CloudPayments' API says Completed with the right amount (then the same transition as a Pay
 * notice, stored as a 'verified' event: a lost Pay notice is healed here).
 */
export async function verifyOrderPayment({
  db,
  orderId,
  findPayment,
  confirmInstalment,
  customerId,
  now = new Date(),
}: {
  db: Database;
  orderId: number;
  /** The caller's customer: another customer's order is not found, and its provider is not asked. */
  customerId?: number;
  findPayment: (invoiceId: string) => Promise<ProviderPayment | null>;
  /** Pay in parts: asks the provider about the order's latest attempt and settles it (models/instalments.server.ts). */
  confirmInstalment?: (orderId: number) => Promise<unknown>;
  now?: Date;
}): Promise<PaymentStatus & { customerId: number | null }> {
  const order = await readOrder(db, orderId, false);
  const instalment = order !== null && isInstalmentPaymentId(order.paymentId) && confirmInstalment !== undefined;
  if (
    !order ||
    (order.paymentId !== PAYMENT_ID.cardOnline && !instalment) ||
    (customerId !== undefined && order.customerId !== customerId)
  )
    return { found: false, paid: false, status: 'unknown', message: PAYMENT_TEXT.notFound, customerId: null };
  const answer = (o: PaymentOrder, declined = false): PaymentStatus & { customerId: number | null } => {
    const paid = o.paidAt !== null && o.status !== 'cancelled';
    const message = paid
      ? null
      : o.status === 'cancelled'
        ? PAYMENT_TEXT.expired
        : declined
          ? PAYMENT_TEXT.declined
          : PAYMENT_TEXT.notYet;
    return { found: true, paid, status: o.status, message, customerId: o.customerId };
  };
  if (order.paidAt) return answer(order);
  if (instalment) {
    // A lost or late callback of Dolyami or Yandex Split is settled here, from the provider's word.
    await confirmInstalment(orderId);
    return answer((await readOrder(db, orderId, false)) ?? order);
  }
  const payment = await findPayment(String(orderId));
  const notice = verifiedNotice(String(orderId), payment);
  if (!notice) return answer(order, payment?.status === 'Declined');
  await applyPayment({ db, notice, kind: 'verified', now });
  const after = await readOrder(db, orderId, false);
  return answer(after ?? order);
}

export type ReleaseOutcome = 'released' | 'not-awaiting' | 'not-due' | 'paid';

/**
 * Releases an order that holds stock it has no right to keep any longer, in one transaction under
 * the order's row lock, its stock given back through the one stock function: an unpaid online
 * order once its time is up (awaiting_payment → cancelled; a payment that won the lock first
 * keeps its order), or a fast order staff have not confirmed within `fastOrderHoldHours` of its
 * placing (new → cancelled; one staff moved on keeps it).
 */
export async function releaseUnpaidOrder({
  db,
  sms,
  log,
  siteUrl,
  orderId,
  fastOrderHoldHours = DEFAULT_ANONYMOUS_LIMITS.fastOrderHoldHours,
  now = new Date(),
}: {
  db: Database;
  sms: SmsGateway;
  log: Logger;
  siteUrl: string;
  orderId: number;
  fastOrderHoldHours?: number;
  now?: Date;
}): Promise<ReleaseOutcome> {
  const outcome = await db.transaction(async (txn) => {
    const tx = txn as unknown as Database;
    const order = await readOrder(tx, orderId, true);
    const from = order?.kind === 'fast' ? 'new' : 'awaiting_payment';
    if (!order || order.status !== from) return { result: 'not-awaiting' as const, released: null };
    const until =
      from === 'new' ? new Date(order.createdAt.getTime() + fastOrderHoldHours * 3_600_000) : order.payUntil;
    if (until && until.getTime() > now.getTime()) return { result: 'not-due' as const, released: null };
    const released = await releaseOrder(tx, {
      order,
      note: from === 'new' ? PAYMENT_TEXT.unconfirmedNote : PAYMENT_TEXT.releasedNote,
      // An unconfirmed fast order is cancelled by the shop; an online order ran out of time to pay.
      reason: from === 'new' ? 'order_cancelled' : 'payment_expired',
      actor: SYSTEM_ACTOR,
      now,
    });
    // An online order's customer is told, with the lines offered back in the basket
    // (models/order-jobs.server.ts); an unconfirmed fast order had no payment to miss.
    if (from === 'awaiting_payment') await enqueueJob(tx, 'order.payment_expired', { orderId });
    return { result: 'released' as const, released };
  });
  if (outcome.released) {
    await sendBackInStock({ db, sms, log, siteUrl, notices: outcome.released.notices });
    log.info({ orderId, offers: outcome.released.changes.length }, 'unpaid or unconfirmed order released');
  }
  return outcome.result;
}

/** The refund job: asks the provider once (idempotent there too), then records it and the order's history. */
export async function refundPayment({
  db,
  refund,
  orderId,
  transactionId,
  amountKopecks,
  kind,
  note,
  provider = CLOUDPAYMENTS_PROVIDER,
}: {
  db: Database;
  refund: (transactionId: string, amountKopecks: number) => Promise<void>;
  orderId: number;
  transactionId: string;
  amountKopecks: number;
  kind: string;
  note: string;
  provider?: string;
}): Promise<void> {
  const [event] = await db
    .select({ outcome: paymentEvents.outcome })
    .from(paymentEvents)
    .where(
      and(
        eq(paymentEvents.provider, provider),
        eq(paymentEvents.transactionId, transactionId),
        eq(paymentEvents.kind, kind),
      ),
    )
    .limit(1);
  if (!event || event.outcome.endsWith(':refunded')) return;
  await refund(transactionId, amountKopecks);
  const outcome = event.outcome.replace(/:refunding$/, ':refunded');
  await db.transaction(async (txn) => {
    const tx = txn as unknown as Database;
    const [order] = await tx
      .select({ status: orders.status })
      .from(orders)
      .where(eq(orders.id, orderId))
      .for('update')
      .limit(1);
    await setOutcome(tx, kind, transactionId, outcome, provider);
    if (order) await tx.insert(orderStatusHistory).values({ orderId, status: order.status, note });
  });
}
