import { amountDue } from '~/core/order-money';
import { confirmLatestAttempt, type InstalmentServices } from '~/models/instalments.server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Database } from '~/db/client.server';
import { kopecksToRoubles } from '~/core/money';
import { AUTH_TEXT } from '~/core/auth';
import type { PaymentParamsResponse, PaymentStatusResponse, PaymentWidgetParams } from '~/shared/contract';
import { verifyContentHmac, type CardPayments } from '~/integrations/cloudpayments/index.server';
import {
  applyPayment,
  CHECK_CODE,
  findOrderToPay,
  handleCheck,
  handleFail,
  handleRefundNotice,
  PAYMENT_TEXT,
  readNotice,
  verifyOrderPayment,
} from '~/models/payments.server';
import { sessionOfToken } from '~/api/account/session.server';
import { lastValue, parseBody, parseQuery, unauthorized } from '~/api/http.server';
import { offlinePaymentRoutes, OFFLINE_WIDGET_PATH } from './offline.routes.server';
import {
  DEFAULT_ANONYMOUS_LIMITS,
  LIMIT_TEXT,
  paymentCheckIpCounter,
  paymentCheckOrderCounter,
  type AnonymousLimits,
} from '~/core/anonymous-limits';
import { hitRateLimit } from '~/models/rate-limit.server';

// Card payment online (issue #12; INTEGRATIONS.md §1):
// - CloudPayments' notifications, to be set in its cabinet (POST, UTF-8, format CloudPayments):
//   Check `{API base}/api/cloudpayments/check/`, Pay `…/pay/`, Fail `…/fail/`, Refund `…/refund/`.
//   Each is accepted only with a valid Content-HMAC over the raw body, checked before parsing.
// - payment_params.php (ours): the widget's parameters for the customer's order awaiting payment.
// - success_payment_order.php (SPEC §7): the browser's "paid" only makes the server look.

export interface PaymentRouteDeps {
  db: Database;
  authSecret: string;
  payments: CardPayments;
  /** Nudges the job worker once a payment enqueued the order's jobs. */
  onOrderPlaced?: (orderId: number) => void;
  /** Pay in parts, so success_payment_order.php can ask Dolyami or Yandex Split too. */
  instalments?: InstalmentServices;
  /** Caps on success_payment_order.php per IP and on provider look-ups per order. */
  limits?: AnonymousLimits;
}

export const NOTIFICATION_KINDS = ['check', 'pay', 'fail', 'refund'] as const;
export type NotificationRouteKind = (typeof NOTIFICATION_KINDS)[number];

/** The path of a notification handler, relative to the API base. */
export const notificationPath = (kind: NotificationRouteKind) => `/api/cloudpayments/${kind}/`;

/** The widget options SPEC §9 asks for: Yandex Pay, bank Pay and SBP on, Apple Pay and Google Pay off. */
export const WIDGET_OPTIONS: PaymentWidgetParams['options'] = {
  language: 'ru-RU',
  applePaySupport: false,
  googlePaySupport: false,
  yandexPaySupport: true,
  tinkoffPaySupport: true,
  sbpSupport: true,
};

const orderIdField = z.preprocess((v) => {
  const s = lastValue(v);
  return typeof s === 'string' && /^\d{1,9}$/.test(s.trim()) ? Number(s.trim()) : undefined;
}, z.number().int().positive().optional());

const ParamsBody = z.object({
  token: z.preprocess(lastValue, z.string().max(4000).optional()),
  order_id: orderIdField,
});
const StatusQuery = z.object({
  order_id: orderIdField,
  payment_num: z.preprocess(lastValue, z.string().max(100).optional()),
  token: z.preprocess(lastValue, z.string().max(4000).optional()),
});

export async function paymentRoutes(app: FastifyInstance, deps: PaymentRouteDeps): Promise<void> {
  const { db, authSecret, payments, limits = DEFAULT_ANONYMOUS_LIMITS } = deps;
  const prefix = app.prefix;

  // Notifications: their own scope, where a form body stays the raw string it was signed as.
  await app.register(async (scope) => {
    scope.removeContentTypeParser('application/x-www-form-urlencoded');
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 64 * 1024 },
      (_req, body, done) => done(null, body),
    );
    const handle = (kind: NotificationRouteKind) => async (req: FastifyRequest, reply: FastifyReply) => {
      reply.header('cache-control', 'no-store');
      const raw = typeof req.body === 'string' ? req.body : '';
      if (!verifyContentHmac(payments.apiSecret, raw, req.headers['content-hmac'])) {
        req.log.warn({ kind, ip: req.ip }, 'CloudPayments notification with a bad signature refused');
        return unauthorized(reply, { code: CHECK_CODE.refused });
      }
      const notice = readNotice(Object.fromEntries(new URLSearchParams(raw)));
      if (!notice) {
        req.log.warn({ kind }, 'CloudPayments notification without a TransactionId');
        return { code: kind === 'check' ? CHECK_CODE.refused : 0 };
      }
      if (kind === 'check') {
        const code = await handleCheck({ db, notice });
        req.log.info(
          { kind, transactionId: notice.transactionId, invoiceId: notice.invoiceId, code },
          'CloudPayments notification',
        );
        return { code };
      }
      const outcome =
        kind === 'pay'
          ? await applyPayment({ db, notice, kind: 'pay' })
          : kind === 'fail'
            ? await handleFail({ db, notice })
            : await handleRefundNotice({ db, notice });
      req.log.info(
        { kind, transactionId: notice.transactionId, invoiceId: notice.invoiceId, outcome },
        'CloudPayments notification',
      );
      if (outcome === 'paid' || outcome === 'late:restored' || outcome.endsWith(':refunding'))
        deps.onOrderPlaced?.(Number(notice.invoiceId));
      // Handled, whatever the outcome: anything else makes CloudPayments retry for days.
      return { code: 0 };
    };
    for (const kind of NOTIFICATION_KINDS) scope.post(notificationPath(kind), handle(kind));
  });

  const scriptUrl = payments.widgetUrl ?? `${prefix}${OFFLINE_WIDGET_PATH}`;

  app.post('/api/catalog/payment_params.php', async (req, reply) => {
    const body = parseBody(ParamsBody, req, reply);
    if (!body) return reply;
    reply.header('cache-control', 'private, no-store');
    const session = await sessionOfToken({ db, secret: authSecret, token: body.token });
    if (!session)
      return unauthorized(reply, {
        error: AUTH_TEXT.sessionGone,
        status: 'unauthorized',
      } satisfies PaymentParamsResponse);
    if (!body.order_id) return { error: PAYMENT_TEXT.notFound, status: 'not_found' } satisfies PaymentParamsResponse;
    const found = await findOrderToPay({ db, customerId: session.customerId, orderId: body.order_id });
    if (!found.ok) return { error: found.error, status: found.status } satisfies PaymentParamsResponse;
    const { order, receipt } = found;
    return {
      payment: {
        scriptUrl,
        options: WIDGET_OPTIONS,
        params: {
          publicId: payments.publicId,
          description: PAYMENT_TEXT.description(order.id),
          amount: kopecksToRoubles(amountDue(order)),
          currency: 'RUB',
          invoiceId: String(order.id),
          accountId: String(session.customerId),
          email: order.email,
          skin: 'classic',
          data: { CloudPayments: { CustomerReceipt: receipt } },
        },
      },
    } satisfies PaymentParamsResponse;
  });

  app.get('/api/catalog/success_payment_order.php', async (req, reply) => {
    const q = parseQuery(StatusQuery, req, reply);
    if (!q) return reply;
    reply.header('cache-control', 'private, no-store');
    const orderId = q.order_id ?? 0;
    const unknown: PaymentStatusResponse = {
      order_id: orderId,
      paid: false,
      status: 'unknown',
      message: PAYMENT_TEXT.notFound,
    };
    if (!orderId) return unknown;
    // Anyone may call this: a cap per IP, and the provider is asked only for the order's owner,
    // at most so often per order (a page asking in a loop is answered from the database).
    if (!(await hitRateLimit({ db, ...paymentCheckIpCounter(limits, req.ip) }))) {
      req.log.warn({ ip: req.ip }, 'payment check refused: a cap was hit');
      return {
        order_id: orderId,
        paid: false,
        status: 'unknown',
        message: LIMIT_TEXT.paymentCheck,
      } satisfies PaymentStatusResponse;
    }
    const session = q.token ? await sessionOfToken({ db, secret: authSecret, token: q.token }) : null;
    if (!session) return unknown;
    // Counted only when the provider would be asked: the owner's unpaid order.
    const mayAsk = () => hitRateLimit({ db, ...paymentCheckOrderCounter(limits, orderId) });
    let result;
    try {
      const services = deps.instalments;
      result = await verifyOrderPayment({
        db,
        orderId,
        customerId: session.customerId,
        findPayment: async (invoiceId) => ((await mayAsk()) ? payments.client.findPayment(invoiceId) : null),
        ...(services
          ? {
              confirmInstalment: async (id: number) =>
                (await mayAsk()) ? confirmLatestAttempt({ db, services, orderId: id }) : undefined,
            }
          : {}),
      });
    } catch (err) {
      // The provider could not be asked: not paid as far as we know; the Pay notice will still come.
      req.log.warn({ err: err instanceof Error ? err.message : String(err), orderId }, 'payment look-up failed');
      return {
        order_id: orderId,
        paid: false,
        status: 'awaiting_payment',
        message: PAYMENT_TEXT.notYet,
      } satisfies PaymentStatusResponse;
    }
    if (result.paid) deps.onOrderPlaced?.(orderId);
    // Only the owner learns anything about the order; anyone else gets the unknown answer.
    if (!result.found || !session || session.customerId !== result.customerId) return unknown;
    return {
      order_id: orderId,
      paid: result.paid,
      status: result.status,
      message: result.message,
    } satisfies PaymentStatusResponse;
  });

  if (payments.offline) await app.register(offlinePaymentRoutes, { stand: payments.offline, notificationPath });
}
