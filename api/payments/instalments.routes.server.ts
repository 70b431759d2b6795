import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Database } from '~/db/client.server';
import { AUTH_TEXT } from '~/core/auth';
import { formatRussianDate } from '~/core/dates';
import { formatRub } from '~/core/money';
import { instalmentSchedule } from '~/core/instalments';
import { ApiError, ChangePaymentResponse, InstalmentLinkResponse } from '~/shared/contract';
import { DELIVERY_TEXT } from '~/core/delivery';
import { verifySplitWebhook } from '~/integrations/yandex-split/index.server';
import {
  changeOnlinePayment,
  confirmDolyami,
  confirmSplit,
  INSTALMENT_TEXT,
  startInstalment,
  type ConfirmOutcome,
  type InstalmentServices,
} from '~/models/instalments.server';
import { PAYMENT_TEXT } from '~/models/payments.server';
import { customerRoute } from '~/api/account/require-customer.server';
import { lastValue } from '~/api/http.server';
import { defineRoute, refuseWith, type RouteResponse } from '~/api/route.server';

// Pay in parts (issue #12; INTEGRATIONS.md §6; docs/decisions/008-instalments.md):
// - instalment_link.php (ours): the provider's page for the customer's instalment order.
// - Dolyami's callback `{API base}/api/dolyami/callback/`: never trusted; it only makes the server
//   ask Dolyami (info → commit → paid).
// - Yandex Split's webhook `{API base}/api/yandex-split/v1/webhook` (the Callback URL is
//   `{API base}/api/yandex-split`): an ES256 JWT checked against the JWKS, then GET /orders.
// - Offline: the stand-ins' pages 'Долями' and 'Яндекс Сплит' with 'Одобрить' / 'Отклонить'.

export interface InstalmentRouteDeps {
  db: Database;
  authSecret: string;
  services: InstalmentServices;
  /** The shop's public origin: where the shopper comes back to. */
  siteUrl: string;
  /** The API's public base URL: where the providers call back. */
  publicApiUrl: string;
  onOrderPlaced?: (orderId: number) => void;
}

export const DOLYAMI_CALLBACK_PATH = '/api/dolyami/callback/';
export const SPLIT_WEBHOOK_PATH = '/api/yandex-split/v1/webhook';
export const DOLYAMI_OFFLINE_PAGE = '/api/dolyami/offline/pay/';
export const SPLIT_OFFLINE_PAGE = '/api/yandex-split/offline/pay/';

const orderIdField = z
  .preprocess((v) => {
    const s = lastValue(v);
    return typeof s === 'string' && /^\d{1,9}$/.test(s.trim()) ? Number(s.trim()) : undefined;
  }, z.number().int().positive().optional())
  .describe('Order id (junk is an unknown order)');
const LinkBody = z.object({
  token: z.preprocess(lastValue, z.string().max(4000).optional()).describe('Session token'),
  order_id: orderIdField,
});
// change_payment.php (ours; token, order_id, payment_id): another online method for an order still awaiting payment.
const ChangeBody = LinkBody.extend({
  payment_id: z.preprocess(lastValue, z.string().max(10).optional()).describe('9 card, 10 Dolyami, 11 Yandex Split'),
});
const Decide = z.object({
  id: z.preprocess(lastValue, z.string().max(40)).describe("The stand-in's order id"),
  action: z.preprocess(lastValue, z.enum(['approve', 'decline'])),
  /** '0': answer without calling the shop back (tests of a lost or racing callback). */
  notify: z
    .preprocess(lastValue, z.enum(['0', '1']).default('1'))
    .describe("Dolyami: '0' answers without calling the shop back (a lost or racing callback)"),
});

/** Dolyami's callback: JSON `{id, status, amount, …}` with no signature; only the id is used, to ask Dolyami. */
const DolyamiCallback = z
  .object({
    id: z.union([z.string(), z.number()]).describe('The payment attempt id (the order id, a hyphen, the attempt)'),
    status: z.unknown().optional().meta({ type: 'string', description: 'What Dolyami says (logged, not trusted)' }),
    amount: z.unknown().optional().meta({ type: 'number' }),
  })
  .catchall(z.unknown());

/** Yandex Split's webhook body: the JWT itself (application/octet-stream), checked against the JWKS. */
const SplitWebhookBody = z.preprocess(
  (v) => (typeof v === 'string' ? v : ''),
  z.string().describe('ES256 JWT signed with a key of JWKS, its claims the event and the order'),
);

/** A stand-in's page asks by its order id (`id` for Dolyami, `order` for Split); an unknown one is a 404 page. */
const standQuery = (name: 'id' | 'order') =>
  z.object({
    [name]: z.unknown().optional().meta({ type: 'string', description: "The stand-in's order id" }),
  });

/** The stand-ins' replay: `id` as it comes (JSON or a form); no sent callback for it is a 404. */
const ReplayBody = z.preprocess(
  (v) => ({ id: String((v as { id?: unknown } | null)?.id ?? '') }),
  z.object({ id: z.string().describe("The stand-in's order id") }),
);

const TAGS = ['offline stand-ins'];
const PAGE = (description: string): RouteResponse => ({
  description,
  schema: z.string(),
  contentType: 'text/html; charset=utf-8',
});
const BACK_TO_SHOP: RouteResponse = {
  description: "Decided: back to the shop's success or fail page",
  headers: { Location: 'The shop page to go back to' },
};
const REPLAYED = z.object({ status: z.number().int().describe("The HTTP status of the shop's answer") });
const NO_CALLBACK = { error: 'Нет такого уведомления' };
const BAD_DECISION = { error: 'Неверный запрос' };

const PAID_OUTCOMES: readonly string[] = ['paid', 'late:restored', 'late:refunding', 'duplicate:refunding'];

export async function instalmentRoutes(app: FastifyInstance, deps: InstalmentRouteDeps): Promise<void> {
  const { db, authSecret, services } = deps;
  const prefix = app.prefix;
  const urls = (orderId: number) => ({
    successUrl: `${deps.siteUrl}/basket/submited/cloud-payments/?order=${orderId}`,
    failUrl: `${deps.siteUrl}/basket/bad/?order=${orderId}`,
    notificationUrl: `${deps.publicApiUrl}${DOLYAMI_CALLBACK_PATH}`,
  });
  const settled = (outcome: ConfirmOutcome, orderId: number | null) => {
    if (orderId && PAID_OUTCOMES.includes(outcome)) deps.onOrderPlaced?.(orderId);
  };

  customerRoute(
    app,
    { db, secret: authSecret },
    {
      url: '/api/catalog/instalment_link.php',
      summary:
        "Pay in parts: the provider's page (Dolyami or Yandex Split; offline, the stand-in's) for the customer's order awaiting payment",
      body: LinkBody,
      responses: {
        200: { description: 'link and provider, or error with the order status', schema: InstalmentLinkResponse },
        502: { description: 'The provider failed', schema: InstalmentLinkResponse },
      },
      noSession: {
        body: { error: AUTH_TEXT.sessionGone, status: 'unauthorized' } satisfies InstalmentLinkResponse,
        schema: InstalmentLinkResponse,
      },
      handler: async (session, req, reply) => {
        const { body } = session;
        if (!body.order_id)
          return { error: PAYMENT_TEXT.notFound, status: 'not_found' } satisfies InstalmentLinkResponse;
        try {
          const started = await startInstalment({
            db,
            services,
            customerId: session.customerId,
            orderId: body.order_id,
            urls,
          });
          if (!started.ok) return { error: started.error, status: started.status } satisfies InstalmentLinkResponse;
          return { link: started.link, provider: started.provider } satisfies InstalmentLinkResponse;
        } catch (err) {
          req.log.warn(
            { err: err instanceof Error ? err.message : String(err), orderId: body.order_id },
            'instalment provider failed',
          );
          return reply
            .code(502)
            .send({ error: INSTALMENT_TEXT.unavailable, status: 'unavailable' } satisfies InstalmentLinkResponse);
        }
      },
    },
  );

  customerRoute(
    app,
    { db, secret: authSecret },
    {
      url: '/api/catalog/change_payment.php',
      summary:
        "Another online method (9 card, 10 Dolyami, 11 Yandex Split) for the customer's order still awaiting payment",
      body: ChangeBody,
      responses: { 200: { description: 'success, or error with the order status', schema: ChangePaymentResponse } },
      noSession: {
        body: { success: false, error: AUTH_TEXT.sessionGone, status: 'unauthorized' } satisfies ChangePaymentResponse,
        schema: ChangePaymentResponse,
      },
      handler: async (session) => {
        const { body } = session;
        const paymentId = body.payment_id ?? '';
        const name =
          paymentId in DELIVERY_TEXT.payment
            ? DELIVERY_TEXT.payment[paymentId as keyof typeof DELIVERY_TEXT.payment].name
            : paymentId;
        const result = body.order_id
          ? await changeOnlinePayment({ db, customerId: session.customerId, orderId: body.order_id, paymentId, name })
          : { ok: false as const, status: 'not_found', error: PAYMENT_TEXT.notFound };
        return (
          result.ok ? { success: true } : { success: false, error: result.error, status: result.status }
        ) satisfies ChangePaymentResponse;
      },
    },
  );

  // Dolyami: JSON `{id, status, amount, …}` with no signature: only the id is used, to ask Dolyami.
  defineRoute(app, {
    method: 'POST',
    url: DOLYAMI_CALLBACK_PATH,
    summary: "Dolyami's callback (unsigned): it only makes the server ask Dolyami (info, then commit)",
    tags: ['providers'],
    bodyType: 'json',
    body: DolyamiCallback,
    parse: refuseWith(400, { error: 'no id' }, { 'cache-control': 'no-store' }),
    responses: {
      200: { description: 'Handled', schema: z.object({ status: z.literal('ok') }) },
      400: { description: 'No id', schema: ApiError },
      503: { description: 'Dolyami could not be asked: to be retried', schema: ApiError },
    },
    handler: async ({ body }, req, reply) => {
      reply.header('cache-control', 'no-store');
      const attemptId = String(body.id);
      try {
        const outcome = await confirmDolyami({ db, dolyami: services.dolyami, attemptId });
        req.log.info({ attemptId, said: body.status, outcome }, 'Dolyami callback');
        settled(outcome, Number(attemptId.split('-')[0]) || null);
        return { status: 'ok' };
      } catch (err) {
        // Dolyami retries a callback that failed: the next one asks again.
        req.log.warn(
          { attemptId, err: err instanceof Error ? err.message : String(err) },
          'Dolyami callback: could not confirm',
        );
        return reply.code(503).send({ error: 'try later' });
      }
    },
  });

  // Yandex Split: the body is the JWT itself (application/octet-stream).
  await app.register(async (scope) => {
    scope.addContentTypeParser(
      ['application/octet-stream', 'application/jwt', 'text/plain'],
      { parseAs: 'string', bodyLimit: 32 * 1024 },
      (_req, body, done) => done(null, body),
    );
    defineRoute(scope, {
      method: 'POST',
      url: SPLIT_WEBHOOK_PATH,
      summary: "Yandex Split's webhook: a JWT checked against Yandex's JWKS; then GET /orders confirms what it says",
      tags: ['providers'],
      bodyType: ['application/octet-stream', 'application/jwt', 'text/plain'],
      body: SplitWebhookBody,
      // Any body reads as a token (one that is not a string as none): a bad one is the 403 below.
      parse: refuseWith(403, { reasonCode: 'FORBIDDEN', reason: 'bad token' }),
      responses: {
        200: { description: 'Handled', schema: z.object({ status: z.literal('success') }) },
        403: {
          description: 'A token not signed by Yandex for this merchant',
          schema: z.object({ reasonCode: z.literal('FORBIDDEN'), reason: z.string() }),
        },
        503: {
          description: 'Yandex Split could not be asked: to be retried',
          schema: z.object({ status: z.literal('fail'), reasonCode: z.literal('TRY_LATER') }),
        },
      },
      handler: async ({ body: token }, req, reply) => {
        reply.header('cache-control', 'no-store');
        const hook = await verifySplitWebhook(token, {
          keys: services.split.keys,
          merchantId: services.split.merchantId,
        });
        if (!hook) {
          req.log.warn({ ip: req.ip }, 'Yandex Split webhook with a bad token refused');
          return reply.code(403).send({ reasonCode: 'FORBIDDEN', reason: 'bad token' });
        }
        try {
          const outcome = await confirmSplit({ db, split: services.split, attemptId: hook.orderId });
          req.log.info(
            { attemptId: hook.orderId, event: hook.event, said: hook.paymentStatus, outcome },
            'Yandex Split webhook',
          );
          settled(outcome, Number(hook.orderId.split('-')[0]) || null);
          return { status: 'success' };
        } catch (err) {
          req.log.warn(
            { attemptId: hook.orderId, err: err instanceof Error ? err.message : String(err) },
            'Yandex Split webhook: could not confirm',
          );
          return reply.code(503).send({ status: 'fail', reasonCode: 'TRY_LATER' });
        }
      },
    });
  });

  const dolyamiStand = services.dolyami.offline;
  if (dolyamiStand) {
    // In-process, as Dolyami would POST to notification_url: no port, no internet.
    dolyamiStand.connect(async (_url, body) => {
      const res = await app.inject({
        method: 'POST',
        url: `${prefix}${DOLYAMI_CALLBACK_PATH}`,
        headers: { 'content-type': 'application/json' },
        payload: body,
      });
      return { status: res.statusCode };
    });
    defineRoute(app, {
      method: 'GET',
      url: DOLYAMI_OFFLINE_PAGE,
      summary: "Offline Dolyami: the stand-in's page (the schedule, 'Одобрить' / 'Отклонить')",
      tags: TAGS,
      query: standQuery('id'),
      parse: refuseWith(400, BAD_DECISION),
      responses: { 200: PAGE('The page'), 404: PAGE('The page: order not found') },
      handler: async ({ query }, _req, reply) => {
        reply.header('cache-control', 'no-store').type('text/html; charset=utf-8');
        const id = String(query.id ?? '');
        const order = dolyamiStand.order(id);
        if (!order) return reply.code(404).send(page('Долями', '<p role="alert">Заказ не найден.</p>'));
        const rows = order.schedule.map((s, i) => ({
          date: formatRussianDate(new Date(`${s.date}T12:00:00`)),
          amount: s.amountKopecks,
          first: i === 0,
        }));
        return standPage({
          service: 'Долями',
          id,
          amountKopecks: order.amountKopecks,
          rows,
          action: `${prefix}/api/dolyami/offline/decide/`,
          open: order.status === 'new',
        });
      },
    });
    defineRoute(app, {
      method: 'POST',
      url: '/api/dolyami/offline/decide/',
      summary: "Offline Dolyami: the page's decision; the stand-in calls the shop back as Dolyami would",
      tags: TAGS,
      body: Decide,
      parse: refuseWith(400, BAD_DECISION),
      responses: { 303: BACK_TO_SHOP, 400: { description: 'Bad decision or unknown order', schema: ApiError } },
      handler: async ({ body }, _req, reply) => {
        if (!dolyamiStand.order(body.id)) return reply.code(400).send(BAD_DECISION);
        const { redirect } = await dolyamiStand.decide(body.id, body.action === 'approve', body.notify === '1');
        return reply.code(303).redirect(localPath(redirect));
      },
    });
    // Sends the last callback once more (tests, trying idempotency by hand).
    defineRoute(app, {
      method: 'POST',
      url: '/api/dolyami/offline/replay/',
      summary: 'Offline Dolyami: send the last callback once more (tests, idempotency by hand)',
      tags: TAGS,
      bodyType: ['json', 'form'],
      body: ReplayBody,
      parse: refuseWith(404, NO_CALLBACK),
      responses: {
        200: { description: "The shop's answer", schema: REPLAYED },
        404: { description: 'No callback sent', schema: ApiError },
      },
      handler: async ({ body: { id } }, _req, reply) => {
        if (!dolyamiStand.order(id)?.callbacks.length) return reply.code(404).send(NO_CALLBACK);
        return dolyamiStand.replay(id);
      },
    });
  }

  const splitStand = services.split.offline;
  if (splitStand) {
    splitStand.connect(async (body) => {
      const res = await app.inject({
        method: 'POST',
        url: `${prefix}${SPLIT_WEBHOOK_PATH}`,
        headers: { 'content-type': 'application/octet-stream' },
        payload: body,
      });
      return { status: res.statusCode };
    });
    defineRoute(app, {
      method: 'GET',
      url: '/api/yandex-split/offline/jwks',
      summary: "Offline Yandex Split: the stand-in's public keys (JWKS), which its webhooks are signed with",
      tags: TAGS,
      responses: {
        200: {
          description: 'The JWKS',
          schema: z.object({ keys: z.array(z.record(z.string(), z.unknown())) }),
        },
      },
      handler: async (_input, _req, reply) => {
        reply.header('cache-control', 'no-store');
        return splitStand.jwks();
      },
    });
    defineRoute(app, {
      method: 'GET',
      url: SPLIT_OFFLINE_PAGE,
      summary: "Offline Yandex Split: the stand-in's page (the schedule, 'Одобрить' / 'Отклонить')",
      tags: TAGS,
      query: standQuery('order'),
      parse: refuseWith(400, BAD_DECISION),
      responses: { 200: PAGE('The page'), 404: PAGE('The page: order not found') },
      handler: async ({ query }, _req, reply) => {
        reply.header('cache-control', 'no-store').type('text/html; charset=utf-8');
        const id = String(query.order ?? '');
        const order = splitStand.order(id);
        if (!order) return reply.code(404).send(page('Яндекс Сплит', '<p role="alert">Заказ не найден.</p>'));
        const rows = (instalmentSchedule(order.amountKopecks, new Date()) ?? []).map((p, i) => ({
          date: formatRussianDate(p.date),
          amount: p.amountKopecks,
          first: i === 0,
        }));
        return standPage({
          service: 'Яндекс Сплит',
          id,
          amountKopecks: order.amountKopecks,
          rows,
          action: `${prefix}/api/yandex-split/offline/decide/`,
          open: order.paymentStatus === 'PENDING',
        });
      },
    });
    defineRoute(app, {
      method: 'POST',
      url: '/api/yandex-split/offline/decide/',
      summary: "Offline Yandex Split: the page's decision; the stand-in sends the shop its webhook as Yandex would",
      tags: TAGS,
      body: Decide,
      parse: refuseWith(400, BAD_DECISION),
      responses: { 303: BACK_TO_SHOP, 400: { description: 'Bad decision or unknown order', schema: ApiError } },
      handler: async ({ body }, _req, reply) => {
        if (!splitStand.order(body.id)) return reply.code(400).send(BAD_DECISION);
        const { redirect } = await splitStand.decide(body.id, body.action === 'approve');
        return reply.code(303).redirect(localPath(redirect));
      },
    });
    defineRoute(app, {
      method: 'POST',
      url: '/api/yandex-split/offline/replay/',
      summary: 'Offline Yandex Split: send the last webhook once more (tests, idempotency by hand)',
      tags: TAGS,
      bodyType: ['json', 'form'],
      body: ReplayBody,
      parse: refuseWith(404, NO_CALLBACK),
      responses: {
        200: { description: "The shop's answer", schema: REPLAYED },
        404: { description: 'No webhook sent', schema: ApiError },
      },
      handler: async ({ body: { id } }, _req, reply) => {
        if (!splitStand.order(id)?.webhooks.length) return reply.code(404).send(NO_CALLBACK);
        return splitStand.replay(id);
      },
    });
  }
}

/** The stand-ins run on the shop's own origin: the browser goes back by path. */
function localPath(url: string): string {
  try {
    const u = new URL(url, 'http://local');
    return `${u.pathname}${u.search}`;
  } catch {
    return '/';
  }
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="ru"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${esc(title)} — тестовый режим</title>
<style>
*{box-sizing:border-box}body{margin:0;font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;color:#1d1d1b;background:#f4f2ee}
main{max-width:440px;margin:24px auto;background:#fff;border-radius:12px;padding:24px;box-shadow:0 8px 30px rgba(0,0,0,.12)}
h1{font-size:22px;margin:0 0 4px}.test{display:inline-block;font-size:12px;background:#fff3c4;color:#5c4400;border-radius:4px;padding:2px 6px;margin-bottom:12px}
.amount{font-size:28px;font-weight:700;margin:8px 0 16px}table{width:100%;border-collapse:collapse;font-size:15px;margin-bottom:16px}
th,td{padding:6px 0;text-align:left;border-bottom:1px solid #e6e3dc}td.sum{text-align:right;white-space:nowrap}caption{text-align:left;font-weight:600;padding-bottom:4px}
.row{display:flex;gap:12px;margin-top:20px}button{flex:1;font:inherit;font-weight:600;padding:12px;border-radius:8px;border:1px solid #1d1d1b;cursor:pointer}
button:focus-visible{outline:3px solid #1d5fd1;outline-offset:2px}.primary{background:#1d1d1b;color:#fff}.secondary{background:#fff;color:#1d1d1b}
</style></head><body><main>${body}</main></body></html>`;
}

function standPage(v: {
  service: string;
  id: string;
  amountKopecks: number;
  rows: { date: string; amount: number; first: boolean }[];
  action: string;
  open: boolean;
}): string {
  const rows = v.rows
    .map(
      (r) =>
        `<tr><td>${esc(r.date)}${r.first ? ' (сегодня)' : ''}</td><td class="sum">${esc(formatRub(r.amount))}</td></tr>`,
    )
    .join('');
  const buttons = v.open
    ? `<form method="post" action="${esc(v.action)}"><input type="hidden" name="id" value="${esc(v.id)}">
<div class="row"><button type="submit" name="action" value="approve" class="primary">Одобрить</button><button type="submit" name="action" value="decline" class="secondary">Отклонить</button></div></form>`
    : '<p role="status">Решение по этому заказу уже принято.</p>';
  return page(
    v.service,
    `<h1>${esc(v.service)}</h1><span class="test">Тестовый режим: деньги не списываются</span>
<p>Оплата заказа частями</p><p class="amount">${esc(formatRub(v.amountKopecks))}</p>
<table><caption>График платежей</caption><thead><tr><th scope="col">Дата</th><th scope="col" class="sum">Сумма</th></tr></thead><tbody>${rows}</tbody></table>${buttons}`,
  );
}
