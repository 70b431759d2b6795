import { eq } from 'drizzle-orm';
import type { Database } from '~/db/client.server';
import { orders, paymentEvents, refunds, returnRequests } from '~/db/schema';
import { formatRub } from '~/core/money';
import { returnDecisionMail, returnDecisionSms } from '~/core/return-notice';
import type { SmsGateway } from '~/integrations/sms/sms';
import type { MailSender } from '~/integrations/mail/mail';
import type { CloudPaymentsClient } from '~/integrations/cloudpayments/cloudpayments';
import type { JobHandler } from './jobs.server';
import { enqueueJob } from './jobs.server';
import { refundPayment } from './payments.server';
import { refundInstalment, type InstalmentProvider, type InstalmentServices } from './instalments.server';
import { refundsOf, settleRefund } from './returns.server';

// The jobs of an approved return (models/returns.server.ts): `return.refund` asks the provider the
// order was paid with to refund a refunds row, `return.notify` tells the customer the decision.
// A refund is recorded first as a payment event `return:<refund id>` (unique per provider,
// transaction and kind), then the provider is called with that id as its idempotency key, then
// the event says refunded and the row is settled: a retry after a half-done run finds the event
// refunded and only settles, or calls the provider again with the same key, which refunds nothing twice.

export interface ReturnRefundJobDeps {
  db: Database;
  sms: SmsGateway;
  mail: MailSender;
  siteUrl: string;
  payments?: CloudPaymentsClient;
  instalments?: InstalmentServices;
  log?: { info(obj: object, msg: string): void };
}

export const REFUND_JOB_TEXT = {
  refundedNote: (requestId: number, amountKopecks: number, means: string) =>
    `Возврат по заявке №${requestId}: ${formatRub(amountKopecks)} возвращены ${means === 'cloudpayments' ? 'на карту' : means === 'dolyami' ? 'через Долями' : 'через Яндекс Сплит'}`,
} as const;

/** The payment event's transaction id of a return's refund. */
export const returnRefundEventId = (refundId: number) => `return:${refundId}`;

export function returnRefundJobHandlers(deps: ReturnRefundJobDeps): Record<string, JobHandler> {
  return {
    'return.refund': async (payload) => {
      await refundReturn(deps, Number(payload.refundId));
    },
    'return.notify': async (payload) => notifyReturnDecision(deps, Number(payload.requestId)),
  };
}

export type RefundJobOutcome = 'refunded' | 'already-done' | 'not-pending' | 'unknown';

/** Refunds one pending refunds row through its provider, once. */
export async function refundReturn(
  deps: ReturnRefundJobDeps,
  refundId: number,
  now = new Date(),
): Promise<RefundJobOutcome> {
  const { db } = deps;
  const [row] = await db
    .select({
      id: refunds.id,
      requestId: refunds.returnRequestId,
      orderId: refunds.orderId,
      means: refunds.means,
      amountKopecks: refunds.amountKopecks,
      status: refunds.status,
      paymentTransactionId: orders.paymentTransactionId,
    })
    .from(refunds)
    .innerJoin(orders, eq(orders.id, refunds.orderId))
    .where(eq(refunds.id, refundId))
    .limit(1);
  if (!row) return 'unknown';
  if (row.status === 'done') return 'already-done';
  if (row.status !== 'pending') return 'not-pending';
  const payment = row.paymentTransactionId;
  if (!payment) throw new Error(`order ${row.orderId} has no verified payment to refund`);
  const eventId = returnRefundEventId(row.id);
  let call: () => Promise<void>;
  if (row.means === 'cloudpayments') {
    const payments = deps.payments;
    if (!payments) throw new Error('no payment provider to refund through');
    call = () => payments.refund(payment, row.amountKopecks, eventId);
  } else if (row.means === 'dolyami' || row.means === 'yandex-split') {
    const services = deps.instalments;
    if (!services) throw new Error(`no ${row.means} to refund through`);
    const provider = row.means as InstalmentProvider;
    call = () =>
      refundInstalment({ db, services, provider, attemptId: payment, amountKopecks: row.amountKopecks, key: eventId });
  } else {
    throw new Error(`refund ${row.id}: ${row.means} is not refunded by a provider`);
  }
  // The attempt recorded before the provider is called (once: the insert is on conflict do nothing).
  await db
    .insert(paymentEvents)
    .values({
      provider: row.means,
      transactionId: eventId,
      kind: 'refund',
      orderId: row.orderId,
      amountKopecks: row.amountKopecks,
      outcome: 'return:refunding',
      payload: { refundId: row.id, returnRequestId: row.requestId, paymentTransactionId: payment },
    })
    .onConflictDoNothing({ target: [paymentEvents.provider, paymentEvents.transactionId, paymentEvents.kind] });
  // Calls the provider unless the event already says refunded, then marks it so with the order's history note.
  await refundPayment({
    db,
    provider: row.means,
    refund: () => call(),
    orderId: row.orderId,
    transactionId: eventId,
    amountKopecks: row.amountKopecks,
    kind: 'refund',
    note: REFUND_JOB_TEXT.refundedNote(row.requestId, row.amountKopecks, row.means),
  });
  const settled = await db.transaction(async (txn) => {
    const tx = txn as unknown as Database;
    const result = await settleRefund(tx, row.id, now, eventId);
    // The customer is told once, when the last row is done (the certificate and bonus rows were done at approval).
    if (result.refunded) await enqueueJob(tx, 'return.notify', { requestId: row.requestId });
    return result;
  });
  deps.log?.info(
    { refundId: row.id, orderId: row.orderId, means: row.means, amountKopecks: row.amountKopecks },
    'return refunded',
  );
  return settled.settled ? 'refunded' : 'already-done';
}

/** The customer's SMS and e-mail about a decided return request. */
async function notifyReturnDecision({ db, sms, mail, siteUrl }: ReturnRefundJobDeps, requestId: number): Promise<void> {
  const [request] = await db
    .select({
      id: returnRequests.id,
      orderId: returnRequests.orderId,
      status: returnRequests.status,
      note: returnRequests.decisionNote,
      phone: orders.phone,
      email: orders.email,
      customerName: orders.customerName,
    })
    .from(returnRequests)
    .innerJoin(orders, eq(orders.id, returnRequests.orderId))
    .where(eq(returnRequests.id, requestId))
    .limit(1);
  if (!request || request.status === 'new') return;
  const parts = (await refundsOf(db, [requestId])).get(requestId) ?? [];
  const decision = {
    orderId: request.orderId,
    requestId: request.id,
    customerName: request.customerName.split(' ')[0] ?? '',
    decision: request.status === 'rejected' ? ('rejected' as const) : ('approved' as const),
    parts,
    note: request.note,
  };
  await sms.send({ phone: request.phone, text: returnDecisionSms(decision), tag: 'return-decision' });
  if (request.email)
    await mail.send({ to: request.email, tag: 'return-decision', ...returnDecisionMail(decision, siteUrl) });
}
