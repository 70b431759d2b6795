import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Database } from '~/db/client.server';
import { AUTH_TEXT } from '~/core/auth';
import { formatRussianDate } from '~/core/dates';
import { formatRub } from '~/core/money';
import { instalmentSchedule } from '~/core/instalments';
import type { ChangePaymentResponse, InstalmentLinkResponse } from '~/shared/contract';
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
import { sessionOfToken } from '~/api/account/session.server';
import { lastValue, parseBody, unauthorized } from '~/api/http.server';

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

const orderIdField = z.preprocess((v) => {
  const s = lastValue(v);
  return typeof s === 'string' && /^\d{1,9}$/.test(s.trim()) ? Number(s.trim()) : undefined;
}, z.number().int().positive().optional());
const LinkBody = z.object({ token: z.preprocess(lastValue, z.string().max(4000).optional()), order_id: orderIdField });
const Decide = z.object({
  id: z.preprocess(lastValue, z.string().max(40)),
  action: z.preprocess(lastValue, z.enum(['approve', 'decline'])),
  /** '0': answer without calling the shop back (tests of a lost or racing callback). */
  notify: z.preprocess(lastValue, z.enum(['0', '1']).default('1')),
});

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

  app.post('/api/catalog/instalment_link.php', async (req, reply) => {
    const body = parseBody(LinkBody, req, reply);
    if (!body) return reply;
    reply.header('cache-control', 'private, no-store');
    const session = await sessionOfToken({ db, secret: authSecret, token: body.token });
    if (!session)
      return unauthorized(reply, {
        error: AUTH_TEXT.sessionGone,
        status: 'unauthorized',
      } satisfies InstalmentLinkResponse);
    if (!body.order_id) return { error: PAYMENT_TEXT.notFound, status: 'not_found' } satisfies InstalmentLinkResponse;
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
  });

  // change_payment.php (ours; token, order_id, payment_id): another online method for an order still awaiting payment.
  const ChangeBody = LinkBody.extend({ payment_id: z.preprocess(lastValue, z.string().max(10).optional()) });
  app.post('/api/catalog/change_payment.php', async (req, reply) => {
    const body = parseBody(ChangeBody, req, reply);
    if (!body) return reply;
    reply.header('cache-control', 'private, no-store');
    const session = await sessionOfToken({ db, secret: authSecret, token: body.token });
    if (!session)
      return unauthorized(reply, {
        success: false,
        error: AUTH_TEXT.sessionGone,
        status: 'unauthorized',
      } satisfies ChangePaymentResponse);
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
  });

  // Dolyami: JSON `{id, status, amount, …}` with no signature: only the id is used, to ask Dolyami.
  app.post(DOLYAMI_CALLBACK_PATH, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    const id = (req.body as { id?: unknown } | null)?.id;
    if (typeof id !== 'string' && typeof id !== 'number') return reply.code(400).send({ error: 'no id' });
    const attemptId = String(id);
    try {
      const outcome = await confirmDolyami({ db, dolyami: services.dolyami, attemptId });
      req.log.info({ attemptId, said: (req.body as { status?: unknown }).status, outcome }, 'Dolyami callback');
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
  });

  // Yandex Split: the body is the JWT itself (application/octet-stream).
  await app.register(async (scope) => {
    scope.addContentTypeParser(
      ['application/octet-stream', 'application/jwt', 'text/plain'],
      { parseAs: 'string', bodyLimit: 32 * 1024 },
      (_req, body, done) => done(null, body),
    );
    scope.post(SPLIT_WEBHOOK_PATH, async (req, reply) => {
      reply.header('cache-control', 'no-store');
      const token = typeof req.body === 'string' ? req.body : '';
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
    app.get(DOLYAMI_OFFLINE_PAGE, async (req, reply) => {
      reply.header('cache-control', 'no-store').type('text/html; charset=utf-8');
      const id = String((req.query as Record<string, unknown>).id ?? '');
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
    });
    app.post('/api/dolyami/offline/decide/', async (req, reply) => {
      const parsed = Decide.safeParse(req.body);
      if (!parsed.success || !dolyamiStand.order(parsed.data.id))
        return reply.code(400).send({ error: 'Неверный запрос' });
      const { redirect } = await dolyamiStand.decide(
        parsed.data.id,
        parsed.data.action === 'approve',
        parsed.data.notify === '1',
      );
      return reply.code(303).redirect(localPath(redirect));
    });
    // Sends the last callback once more (tests, trying idempotency by hand).
    app.post('/api/dolyami/offline/replay/', async (req, reply) => {
      const id = String((req.body as { id?: unknown } | null)?.id ?? '');
      if (!dolyamiStand.order(id)?.callbacks.length) return reply.code(404).send({ error: 'Нет такого уведомления' });
      return dolyamiStand.replay(id);
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
    app.get('/api/yandex-split/offline/jwks', async (_req, reply) => {
      reply.header('cache-control', 'no-store');
      return splitStand.jwks();
    });
    app.get(SPLIT_OFFLINE_PAGE, async (req, reply) => {
      reply.header('cache-control', 'no-store').type('text/html; charset=utf-8');
      const id = String((req.query as Record<string, unknown>).order ?? '');
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
    });
    app.post('/api/yandex-split/offline/decide/', async (req, reply) => {
      const parsed = Decide.safeParse(req.body);
      if (!parsed.success || !splitStand.order(parsed.data.id))
        return reply.code(400).send({ error: 'Неверный запрос' });
      const { redirect } = await splitStand.decide(parsed.data.id, parsed.data.action === 'approve');
      return reply.code(303).redirect(localPath(redirect));
    });
    app.post('/api/yandex-split/offline/replay/', async (req, reply) => {
      const id = String((req.body as { id?: unknown } | null)?.id ?? '');
      if (!splitStand.order(id)?.webhooks.length) return reply.code(404).send({ error: 'Нет такого уведомления' });
      return splitStand.replay(id);
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
