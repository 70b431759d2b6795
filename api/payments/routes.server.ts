import { amountDue } from '~/core/order-money';
import { confirmLatestAttempt, type InstalmentServices } from '~/models/instalments.server';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Database } from '~/db/client.server';
import { kopecksToRoubles } from '~/core/money';
import { AUTH_TEXT } from '~/core/auth';
import { PaymentParamsResponse, PaymentStatusResponse, type PaymentWidgetParams } from '~/shared/contract';
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
import { customerRoute } from '~/api/account/require-customer.server';
import { sessionOfToken } from '~/api/account/session.server';
import { lastValue, unauthorized } from '~/api/http.server';
import { BAD_PARAMETERS, defineRoute, refuseWith } from '~/api/route.server';
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

const orderIdField = z
  .preprocess((v) => {
    const s = lastValue(v);
    return typeof s === 'string' && /^\d{1,9}$/.test(s.trim()) ? Number(s.trim()) : undefined;
  }, z.number().int().positive().optional())
  .describe('Order id (junk is an unknown order)');
const tokenField = z.preprocess(lastValue, z.string().max(4000).optional()).describe('Session token');

const ParamsBody = z.object({ token: tokenField, order_id: orderIdField });
const StatusQuery = z.object({
  order_id: orderIdField,
  payment_num: z.preprocess(lastValue, z.string().max(100).optional()).describe('The transaction id the widget gave'),
  token: tokenField,
});

/**
 * A CloudPayments notification: the form as CloudPayments sends it (its fields by its names; the
 * rest kept as they come). The route receives it as the raw string it was signed as, checks the
 * Content-HMAC over that string, and only then reads the fields (models/payments.server.ts readNotice).
 */
const NoticeBody = z.preprocess(
  (raw) => Object.fromEntries(new URLSearchParams(typeof raw === 'string' ? raw : '')),
  z
    .object({
      TransactionId: z.string().optional().describe('CloudPayments transaction number (digits); without it, ignored'),
      InvoiceId: z.string().optional().describe('The order id'),
      AccountId: z.string().optional().describe('The customer id'),
      Amount: z.string().optional().describe('Roubles, e.g. 5490.00'),
      Currency: z.string().optional().describe('RUB'),
      Status: z.string().optional(),
      OperationType: z.string().optional(),
      Reason: z.string().optional(),
      ReasonCode: z.string().optional(),
    })
    .catchall(z.string()),
);
const NOTICE_SUMMARY: Record<NotificationRouteKind, string> = {
  check: 'CloudPayments Check: may this payment go ahead (the order awaits this amount from this customer)',
  pay: 'CloudPayments Pay: the payment went through; the order is paid (or refunded when it can no longer be)',
  fail: 'CloudPayments Fail: the payment was declined; the order keeps awaiting payment',
  refund: 'CloudPayments Refund: a refund was made',
};
const NoticeAnswer = z.object({ code: z.number().int() });

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
    for (const kind of NOTIFICATION_KINDS)
      defineRoute(scope, {
        method: 'POST',
        url: notificationPath(kind),
        summary: NOTICE_SUMMARY[kind],
        description:
          'Form body as CloudPayments sends it, accepted only with a valid Content-HMAC (base64 HMAC-SHA256 of the raw body with the API secret). Every notification handled answers 200 `{ code: 0 }`, whatever it changed; a Check refused answers its code (10 bad invoice, 11 bad account, 12 bad amount, 13 refused, 20 expired).',
        tags: ['providers'],
        body: NoticeBody,
        // The schema takes any form (its fields as they come): nothing is refused before the signature is checked.
        parse: refuseWith(400, { code: CHECK_CODE.refused }),
        parameters: [
          {
            name: 'Content-HMAC',
            in: 'header',
            required: true,
            description: 'base64 HMAC-SHA256 of the raw body, keyed with the API secret',
            schema: { type: 'string' },
          },
        ],
        responses: {
          200: { description: 'Handled: 0, or the code of a Check refused', schema: NoticeAnswer },
          401: { description: 'Missing or bad signature', schema: NoticeAnswer },
        },
        handler: async ({ body: fields }, req, reply) => {
          reply.header('cache-control', 'no-store');
          const raw = typeof req.body === 'string' ? req.body : '';
          if (!verifyContentHmac(payments.apiSecret, raw, req.headers['content-hmac'])) {
            req.log.warn({ kind, ip: req.ip }, 'CloudPayments notification with a bad signature refused');
            return unauthorized(reply, { code: CHECK_CODE.refused });
          }
          const notice = readNotice(fields as Record<string, string>);
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
        },
      });
  });

  const scriptUrl = payments.widgetUrl ?? `${prefix}${OFFLINE_WIDGET_PATH}`;

  customerRoute(
    app,
    { db, secret: authSecret },
    {
      url: '/api/catalog/payment_params.php',
      summary:
        "The CloudPayments widget's options and pay('charge', …) parameters (with the SPEC §3 receipt) for the customer's order awaiting card payment",
      body: ParamsBody,
      responses: { 200: { description: 'payment, or error with the order status', schema: PaymentParamsResponse } },
      noSession: {
        body: { error: AUTH_TEXT.sessionGone, status: 'unauthorized' } satisfies PaymentParamsResponse,
        schema: PaymentParamsResponse,
      },
      handler: async (session) => {
        const { body } = session;
        if (!body.order_id)
          return { error: PAYMENT_TEXT.notFound, status: 'not_found' } satisfies PaymentParamsResponse;
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
      },
    },
  );

  defineRoute(app, {
    method: 'GET',
    url: '/api/catalog/success_payment_order.php',
    summary:
      'The browser says a payment went through: the server answers paid only when it verified it (already paid, or the provider asked)',
    description:
      "Only the order's owner (token) learns anything, and only for the owner is the provider asked, at most PAYMENT_CHECKS_PER_ORDER_MINUTE times a minute per order (beyond, the stored state). PAYMENT_CHECKS_PER_IP_MINUTE calls a minute per IP; beyond, status `unknown` with the Russian text in `message`.",
    query: StatusQuery,
    responses: {
      200: { description: 'Whether the order is paid', schema: PaymentStatusResponse },
      400: BAD_PARAMETERS,
    },
    handler: async ({ query: q }, req, reply) => {
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
    },
  });

  if (payments.offline) await app.register(offlinePaymentRoutes, { stand: payments.offline, notificationPath });
}
