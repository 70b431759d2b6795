import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Database } from '~/db/client.server';
import { orderItems, orders, orderStatusHistory } from '~/db/schema';
import {
  orderPlacedMail,
  orderPlacedSms,
  orderShippedMail,
  orderShippedSms,
  type OrderNotice,
} from '~/core/order-notice';
import { DELIVERY_TEXT, isDeliveryId, isOnlinePaymentId, parcel } from '~/core/delivery';
import { amountDue } from '~/core/order-money';
import {
  awaitingPaymentSms,
  payLink,
  paymentExpiredMail,
  paymentExpiredSms,
  paymentReminderMail,
  paymentReminderSms,
  type PaymentNoticeOrder,
} from '~/core/payment-notice';
import { DELIVERY_ID } from '~/shared/contract';
import type { SmsGateway } from '~/integrations/sms/sms';
import type { MailSender } from '~/integrations/mail/mail';
import { CDEK_TARIFF, type CdekClient } from '~/integrations/cdek/cdek';
import type { CloudPaymentsClient } from '~/integrations/cloudpayments/cloudpayments';
import type { JobHandler } from './jobs.server';
import { releaseUnpaidOrder, refundPayment, verifiedNotice, applyPayment } from './payments.server';
import {
  confirmLatestAttempt,
  providerOf,
  refundInstalment,
  type InstalmentProvider,
  type InstalmentServices,
} from './instalments.server';
import { loadParcelKinds } from './checkout.server';
import { breakdownOf } from './order-money.server';

// What happens after a checkout order commits, as jobs (models/jobs.server.ts): the customer's
// SMS and e-mail, and the CDEK registration with its track number. Each handler is safe to run
// again: a retry after a half-done run neither registers a second CDEK order nor loses one.

export interface OrderJobDeps {
  db: Database;
  sms: SmsGateway;
  mail: MailSender;
  cdek: CdekClient;
  /** The CDEK city code parcels leave from. */
  fromCityCode: number;
  siteUrl: string;
  /** Card payments: looked up before an unpaid order is released, and refunds of late payments. */
  payments?: CloudPaymentsClient;
  /** Pay in parts: asked before an unpaid instalment order is released, and refunds through them. */
  instalments?: InstalmentServices;
  /** How long a fast order staff have not confirmed holds its stock (FAST_ORDER_HOLD_HOURS). */
  fastOrderHoldHours?: number;
  log?: {
    info(obj: object, msg: string): void;
    warn(obj: object, msg: string): void;
    error(obj: object, msg: string): void;
  };
  /** The clock the time-based steps read (the hold, the reminder); tests move it instead of waiting. */
  now?: () => Date;
}

const quietLog = { info() {}, warn() {}, error() {} };

export class JobPending extends Error {}

export function orderJobHandlers(deps: OrderJobDeps): Record<string, JobHandler> {
  return {
    'order.placed': async (payload) => notifyOrderPlaced(deps, Number(payload.orderId)),
    'cdek.register': async (payload) => registerWithCdek(deps, Number(payload.orderId)),
    'order.shipped': async (payload) => notifyOrderShipped(deps, Number(payload.orderId)),
    'order.release': async (payload) => releaseOrder(deps, Number(payload.orderId)),
    [PAYMENT_NOTICE_JOB.awaiting]: async (payload) => notifyAwaitingPayment(deps, Number(payload.orderId)),
    [PAYMENT_NOTICE_JOB.reminder]: async (payload) => remindToPay(deps, Number(payload.orderId)),
    [PAYMENT_NOTICE_JOB.expired]: async (payload) => notifyPaymentExpired(deps, Number(payload.orderId)),
    'payment.refund': async (payload) => {
      const provider = typeof payload.provider === 'string' ? payload.provider : 'cloudpayments';
      if (provider !== 'cloudpayments') {
        const services = deps.instalments;
        if (!services) throw new Error(`no ${provider} to refund through`);
        await refundPayment({
          db: deps.db,
          provider,
          refund: (attemptId, amountKopecks) =>
            refundInstalment({
              db: deps.db,
              services,
              provider: provider as InstalmentProvider,
              attemptId,
              amountKopecks,
            }),
          orderId: Number(payload.orderId),
          transactionId: String(payload.transactionId),
          amountKopecks: Number(payload.amountKopecks),
          kind: String(payload.kind),
          note: String(payload.note),
        });
        return;
      }
      if (!deps.payments) throw new Error('no payment provider to refund through');
      const payments = deps.payments;
      await refundPayment({
        db: deps.db,
        refund: (transactionId, amountKopecks) => payments.refund(transactionId, amountKopecks),
        orderId: Number(payload.orderId),
        transactionId: String(payload.transactionId),
        amountKopecks: Number(payload.amountKopecks),
        kind: String(payload.kind),
        note: String(payload.note),
      });
    },
  };
}

function deliveryName(id: string | null): string {
  return id && isDeliveryId(id) ? DELIVERY_TEXT.delivery[id].name : 'Доставка';
}

function paymentName(id: string): string {
  return id in DELIVERY_TEXT.payment ? DELIVERY_TEXT.payment[id as keyof typeof DELIVERY_TEXT.payment].name : '';
}

/** What every order letter shows of an order: who, the lines, the one money breakdown, the delivery. */
function orderContents(order: typeof orders.$inferSelect, items: (typeof orderItems.$inferSelect)[]) {
  return {
    orderId: order.id,
    customerName: order.customerName.split(' ')[0] ?? '',
    lines: items.map((i) => ({
      title: i.title,
      size: i.size,
      quantity: i.quantity,
      sumKopecks: i.priceKopecks * i.quantity - i.discountKopecks,
      isPreorder: i.isPreorder,
      isGift: i.isGift,
    })),
    money: breakdownOf(order, items),
    deliveryName: deliveryName(order.deliveryId),
    deliveryAddress: order.deliveryAddress,
    dateFrom: order.deliveryDateFrom,
    dateTo: order.deliveryDateTo,
    deliveryNote: order.deliveryNote,
  };
}

async function notifyOrderPlaced({ db, sms, mail, siteUrl }: OrderJobDeps, orderId: number): Promise<void> {
  const [order] = await db.select().from(orders).where(eq(orders.id, orderId)).limit(1);
  if (!order) return;
  const items = await db
    .select()
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId))
    .orderBy(asc(orderItems.isPreorder), asc(orderItems.isGift));
  const notice: OrderNotice = {
    ...orderContents(order, items),
    // A card order's notice goes out once its payment is verified: it says so.
    paymentName: order.paidAt ? `${paymentName(order.paymentId)} — оплачено` : paymentName(order.paymentId),
    awaitingPayment: order.status === 'awaiting_payment' || (isOnlinePaymentId(order.paymentId) && !order.paidAt),
    byEmail: order.deliveryId === DELIVERY_ID.email,
  };
  const smsText = orderPlacedSms(notice);
  // Two messages, one job: a retry after the e-mail failed skips the SMS that went (the send
  // path records each under its idempotency key, models/sent-messages.server.ts).
  await sms.send({ phone: order.phone, text: smsText, tag: 'order-placed' });
  if (order.email) await mail.send({ to: order.email, tag: 'order-placed', ...orderPlacedMail(notice, siteUrl) });
}

/** The messages about an order awaiting online payment (issue #26): each its own job, each sent once by the same SMS and mail paths. */
export const PAYMENT_NOTICE_JOB = {
  /** Right after placing: the pay link. */
  awaiting: 'order.awaiting_payment',
  /** Shortly before the hold ends (core/payment-notice.ts paymentReminderAt). */
  reminder: 'order.payment_reminder',
  /** The hold ended and the order was cancelled: its lines can go back in the basket. */
  expired: 'order.payment_expired',
} as const;

async function noticeOrder(db: Database, orderId: number) {
  const [order] = await db.select().from(orders).where(eq(orders.id, orderId)).limit(1);
  if (!order) return null;
  const notice: PaymentNoticeOrder = {
    orderId,
    customerName: order.customerName.split(' ')[0] ?? '',
    dueKopecks: amountDue(order),
    payUntil: order.payUntil ?? new Date(0),
  };
  return { order, notice };
}

/** Still waiting for its money, with time left: only then are the pay link and the reminder worth sending. */
function stillPayable(order: typeof orders.$inferSelect, now: Date): boolean {
  return order.status === 'awaiting_payment' && order.payUntil !== null && order.payUntil.getTime() > now.getTime();
}

/**
 * Right after an online order is placed: the SMS with the pay link and the letter with the
 * order and the same link. Skipped when the order was paid (or released) before the job ran:
 * the paid order's own notice follows then.
 */
async function notifyAwaitingPayment(deps: OrderJobDeps, orderId: number): Promise<void> {
  const { db, sms, mail, siteUrl } = deps;
  const found = await noticeOrder(db, orderId);
  if (!found || !stillPayable(found.order, (deps.now ?? (() => new Date()))())) return;
  const { order, notice } = found;
  await sms.send({ phone: order.phone, text: awaitingPaymentSms(notice, siteUrl), tag: 'order-awaiting-payment' });
  if (!order.email) return;
  const items = await db
    .select()
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId))
    .orderBy(asc(orderItems.isPreorder), asc(orderItems.isGift));
  await mail.send({
    to: order.email,
    tag: 'order-awaiting-payment',
    ...orderPlacedMail(
      {
        ...orderContents(order, items),
        paymentName: paymentName(order.paymentId),
        awaitingPayment: true,
        pay: { until: notice.payUntil, url: payLink(siteUrl, orderId) },
        byEmail: order.deliveryId === DELIVERY_ID.email,
      },
      siteUrl,
    ),
  });
}

/** Shortly before the hold ends, an order still unpaid: the reminder with the pay link. */
async function remindToPay(deps: OrderJobDeps, orderId: number): Promise<void> {
  const { db, sms, mail, siteUrl } = deps;
  const now = (deps.now ?? (() => new Date()))();
  const found = await noticeOrder(db, orderId);
  if (!found || !stillPayable(found.order, now)) return;
  const { order, notice } = found;
  await sms.send({ phone: order.phone, text: paymentReminderSms(notice, siteUrl, now), tag: 'order-payment-reminder' });
  if (order.email)
    await mail.send({ to: order.email, tag: 'order-payment-reminder', ...paymentReminderMail(notice, siteUrl, now) });
}

/** The release cancelled the unpaid order: the notice, with the lines offered back (unless a late payment restored it meanwhile). */
async function notifyPaymentExpired({ db, sms, mail, siteUrl }: OrderJobDeps, orderId: number): Promise<void> {
  const found = await noticeOrder(db, orderId);
  if (!found || found.order.status !== 'cancelled' || found.order.paidAt) return;
  const { order, notice } = found;
  await sms.send({ phone: order.phone, text: paymentExpiredSms(notice, siteUrl), tag: 'order-payment-expired' });
  if (order.email)
    await mail.send({ to: order.email, tag: 'order-payment-expired', ...paymentExpiredMail(notice, siteUrl) });
}

async function notifyOrderShipped({ db, sms, mail, siteUrl }: OrderJobDeps, orderId: number): Promise<void> {
  const [order] = await db.select().from(orders).where(eq(orders.id, orderId)).limit(1);
  if (!order) return;
  const notice = {
    orderId,
    customerName: order.customerName.split(' ')[0] ?? '',
    trackNumber: order.trackNumber,
    courier: order.deliveryId === DELIVERY_ID.moscowCourier,
  };
  await sms.send({ phone: order.phone, text: orderShippedSms(notice), tag: 'order-shipped' });
  if (order.email) await mail.send({ to: order.email, tag: 'order-shipped', ...orderShippedMail(notice, siteUrl) });
}

async function registerWithCdek({ db, cdek, fromCityCode }: OrderJobDeps, orderId: number): Promise<void> {
  const [order] = await db.select().from(orders).where(eq(orders.id, orderId)).limit(1);
  if (!order || order.status === 'cancelled') return;
  let uuid = order.carrierOrderId;
  if (!uuid) {
    const items = await db
      .select()
      .from(orderItems)
      .where(and(eq(orderItems.orderId, orderId), eq(orderItems.isPreorder, false)));
    if (items.length === 0) return; // pre-orders only: registered when they are ready
    const kinds = await loadParcelKinds(
      db,
      items.map((i) => i.offerId),
    );
    const box = parcel(
      items.map((i) => ({
        kind: kinds.get(i.offerId)?.kind ?? '',
        weightGrams: kinds.get(i.offerId)?.weightGrams ?? null,
        quantity: i.quantity,
        isGift: i.isGift,
      })),
    );
    const point = order.pickupPoint as { code?: string } | null;
    const toPoint = order.deliveryId === DELIVERY_ID.cdekPickup;
    const state = await cdek.createOrder({
      type: 1,
      number: String(orderId),
      tariff_code: toPoint ? CDEK_TARIFF.toPoint : CDEK_TARIFF.toDoor,
      ...(toPoint ? { delivery_point: point?.code ?? '' } : { to_location: { address: order.deliveryAddress } }),
      from_location: { code: fromCityCode },
      recipient: {
        name: order.customerName,
        ...(order.email ? { email: order.email } : {}),
        phones: [{ number: `+${order.phone}` }],
      },
      packages: [
        {
          number: `${orderId}-1`,
          ...box,
          items: items.map((i) => ({
            name: `${i.title}${i.size ? `, ${i.size}` : ''}`,
            ware_key: String(i.offerId),
            // Paid before shipping (online) or by agreement: nothing to collect at the point.
            payment: { value: 0 },
            cost: Math.round((i.priceKopecks * i.quantity - i.discountKopecks) / i.quantity) / 100,
            weight: Math.max(
              1,
              Math.round(
                box.weight /
                  Math.max(
                    1,
                    items.reduce((n, x) => n + x.quantity, 0),
                  ),
              ),
            ),
            amount: i.quantity,
          })),
        },
      ],
    });
    uuid = state.uuid;
    // Conditional: two runs of this job cannot both record an order.
    await db
      .update(orders)
      .set({ carrierOrderId: uuid })
      .where(and(eq(orders.id, orderId), isNull(orders.carrierOrderId)));
  }
  const state = await cdek.getOrder(uuid);
  if (state.state === 'INVALID') throw new Error(`CDEK refused the order: ${state.errors.join('; ')}`);
  if (!state.cdek_number) throw new JobPending('waiting for the CDEK number');
  const updated = await db
    .update(orders)
    .set({ trackNumber: state.cdek_number })
    .where(and(eq(orders.id, orderId), isNull(orders.trackNumber)))
    .returning({ id: orders.id });
  if (updated.length > 0)
    await db
      .insert(orderStatusHistory)
      .values({ orderId, status: order.status, note: `Заказ зарегистрирован в СДЭК, трек-номер ${state.cdek_number}` });
}

/**
 * A fast order staff have not confirmed in FAST_ORDER_HOLD_HOURS is released with its stock.
 * An unpaid card order whose time is up: CloudPayments is asked first (a Pay notice may have
 * been lost), then the order is released with its stock (models/payments.server.ts). A failed
 * look-up does not keep the stock: a payment that comes later takes the late-payment rule.
 */
async function releaseOrder(
  { db, sms, siteUrl, payments, instalments, fastOrderHoldHours, log = quietLog, now }: OrderJobDeps,
  orderId: number,
): Promise<void> {
  const [row] = await db
    .select({ paymentId: orders.paymentId, kind: orders.kind })
    .from(orders)
    .where(eq(orders.id, orderId))
    .limit(1);
  // A fast order is paid on receipt: no provider to ask, only whether staff confirmed it in time.
  const fast = row?.kind === 'fast';
  if (!fast && row && providerOf(row.paymentId)) {
    // Pay in parts: its provider is asked about the latest attempt (a lost callback is healed there).
    if (instalments) {
      try {
        const outcome = await confirmLatestAttempt({ db, services: instalments, orderId });
        if (outcome === 'paid' || outcome === 'already-paid') return;
      } catch (err) {
        log.warn(
          { orderId, err: err instanceof Error ? err.message : String(err) },
          'instalment look-up at release failed',
        );
      }
    }
  } else if (!fast && payments) {
    try {
      const notice = verifiedNotice(String(orderId), await payments.findPayment(String(orderId)));
      if (notice) {
        const outcome = await applyPayment({ db, notice, kind: 'verified' });
        log.info({ orderId, outcome }, 'unpaid order: payment found at release');
        if (outcome === 'paid' || outcome === 'already-paid') return;
      }
    } catch (err) {
      log.warn({ orderId, err: err instanceof Error ? err.message : String(err) }, 'payment look-up at release failed');
    }
  }
  const outcome = await releaseUnpaidOrder({
    db,
    sms,
    log,
    siteUrl,
    orderId,
    ...(fastOrderHoldHours ? { fastOrderHoldHours } : {}),
    ...(now ? { now: now() } : {}),
  });
  if (outcome === 'not-due') throw new JobPending('the order still has time to be paid or confirmed');
}
