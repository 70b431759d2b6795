import crypto from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Database } from '~/db/client.server';
import type { SmsGateway } from '~/integrations/sms/sms';
import { StockChangeResponse } from '~/shared/contract';
import {
  changeStockIn,
  sendBackInStock,
  verifyStockLedger,
  type BackInStockNotice,
  type StockChange,
  type StockLedgerCheck,
} from '~/models/stock.server';
import { changeOrderStatusIn, type ChangeOrderStatusResult } from '~/models/order-status.server';
import { recordFittingIn, type RecordFittingResult } from '~/models/fitting.server';
import { formatRub, kopecksToRoubles } from '~/core/money';
import { statusLabel } from '~/core/order-status';
import { lastValue, unauthorized } from '~/api/http.server';
import { actionRoute } from '~/api/route.server';
import { staffDoc } from './staff-doc';
import { staffReturnRoutes } from './returns.routes.server';
import { staffFeedRoutes, type FeedBuilder } from './feeds.routes.server';
import { staffAccountRoutes } from './accounts.routes.server';
import { noteReason, scriptChange } from './script-audit.server';
import { makeJobsDue, UnknownJobKind, type BringForward, type RunNowResult } from '~/models/jobs.server';

// Staff-only paths of the staff scripts: authenticated by the staff secret (STAFF_TOKEN) as a
// bearer token; audited as the "script" actor (script-audit.server.ts). The back office has its own
// API under /admin (api/admin/). `npm run stock` calls these on the running shop, so the
// embedded database (owned by that one process) can be changed while the shop runs.

export interface StaffDeps {
  db: Database;
  sms: SmsGateway;
  staffToken: string;
  siteUrl: string;
  /** The server's job worker: time-based steps now (`npm run jobs`). */
  runJobsNow?: (kind?: string, bringForward?: BringForward) => Promise<RunNowResult>;
  /** The server's product feed builder (`POST /staff/feeds/` action 'build'). */
  feeds?: FeedBuilder;
  /** The clock (tests move it). */
  now?: () => Date;
}

const intParam = (min: number, max: number) =>
  z.preprocess((v) => {
    const s = lastValue(v);
    return typeof s === 'string' && /^-?\d{1,9}$/.test(s) ? Number(s) : s;
  }, z.number().int().min(min).max(max));

export function sameSecret(given: string, expected: string): boolean {
  const a = crypto.createHash('sha256').update(given).digest();
  const b = crypto.createHash('sha256').update(expected).digest();
  return crypto.timingSafeEqual(a, b);
}

export async function staffRoutes(
  app: FastifyInstance,
  { db, sms, staffToken, siteUrl, runJobsNow, feeds, now = () => new Date() }: StaffDeps,
): Promise<void> {
  app.addHook('onRequest', async (req, reply) => {
    const header = req.headers.authorization ?? '';
    const given = header.startsWith('Bearer ') ? header.slice('Bearer '.length) : '';
    if (!given || !sameSecret(given, staffToken)) {
      return unauthorized(reply.header('cache-control', 'no-store'), { error: 'Нужен ключ сотрудника' });
    }
  });
  // Each change is one transaction with its audit row, the actor the script that made it
  // (script-audit.server.ts scriptChange); the waiting list's SMS go out after the commit.
  const backInStock = (req: FastifyRequest, notices: readonly (BackInStockNotice | null)[]) =>
    notices.some((n) => n !== null)
      ? { afterCommit: () => sendBackInStock({ db, sms, log: req.log, siteUrl, notices }) }
      : {};
  /** `npm run stock`'s set or add: the offer's move and its audit row (`offer.set`, `offer.add`). */
  const stockChange = (req: FastifyRequest, action: 'set' | 'add', offerId: number, quantity: number) =>
    scriptChange<StockChangeResponse>(
      db,
      req,
      { action: `offer.${action}`, entityType: 'offer', entityId: offerId },
      async (tx) => {
        const moved = await changeStockIn(tx, {
          offerId,
          ...(action === 'set' ? { set: quantity } : { delta: quantity }),
        });
        return { answer: result(moved?.change ?? null), ...backInStock(req, moved?.notices ?? []) };
      },
      now(),
    );
  // Return requests: approve, reject, transfer made (api/staff/returns.routes.server.ts).
  await staffReturnRoutes(app, { db, now });
  // Product feeds: addresses, settings, last builds and what they left out (api/staff/feeds.routes.server.ts).
  await staffFeedRoutes(app, { db, siteUrl, ...(feeds ? { feeds } : {}) });
  // Staff accounts: `npm run staff -- create | reset-totp | disable` (accounts.routes.server.ts).
  await staffAccountRoutes(app, { db, siteUrl, now });

  // One endpoint for stock: 'set' an offer's quantity (a count), or 'add' to it (negative takes
  // away), each written to the stock ledger; 'verify' checks the ledger.
  actionRoute(app, {
    url: '/staff/stock/',
    summary:
      "Set (a count) or add to an offer's stock, written to the stock ledger; a size coming back notifies its waiting list. 'verify' checks that every offer's quantity is the sum of its ledger moves",
    ...staffDoc(
      z.union([StockChangeResponse, StockLedgerResponse]),
      'The change (set, add) or the ledger check (verify)',
    ),
    actions: {
      set: {
        schema: z.object({ offer_id: intParam(1, 2_147_483_647), quantity: intParam(0, 1_000_000) }),
        run: (input: { offer_id: number; quantity: number }, req) =>
          stockChange(req, 'set', input.offer_id, input.quantity),
      },
      add: {
        schema: z.object({ offer_id: intParam(1, 2_147_483_647), quantity: intParam(-1_000_000, 1_000_000) }),
        run: (input: { offer_id: number; quantity: number }, req) =>
          stockChange(req, 'add', input.offer_id, input.quantity),
      },
      // The ledger check (`npm run stock -- --verify`): every offer's quantity is the sum of its moves.
      verify: {
        schema: z.object({}),
        run: async (): Promise<StockLedgerResponse> => ledgerAnswer(await verifyStockLedger({ db })),
      },
    },
  });

  // Orders, until the back office exists: 'status' moves an order along (core/order-status.ts),
  // 'fitting' records what a Moscow courier's shopper kept and handed back at the door.
  actionRoute(app, {
    url: '/staff/orders/',
    summary:
      'Move an order along (status: core/order-status.ts), or record a fitting at the door (what the shopper kept and handed back, lines[offer id][kept|refused])',
    ...staffDoc(z.union([StaffOrderStatusResponse, StaffFittingResponse]), 'The order after the move, or the fitting'),
    actions: {
      status: {
        schema: StatusBody,
        run: (input: z.infer<typeof StatusBody>, req) =>
          scriptChange<StaffOrderStatusResponse>(
            db,
            req,
            {
              action: 'order.status',
              entityType: 'order',
              entityId: input.order_id,
              reason: noteReason(input.note),
            },
            async (tx) => {
              const at = now();
              const r = await changeOrderStatusIn(tx, {
                orderId: input.order_id,
                to: input.status,
                note: input.note ?? null,
                trackNumber: input.track_number ?? null,
                now: at,
              });
              if (!r.ok) return { answer: statusAnswer(r) };
              const { released, ...moved } = r;
              if (released?.changes.length)
                req.log.info(
                  { orderId: r.orderId, offers: released.changes.length },
                  'cancelled order: stock given back',
                );
              return {
                answer: statusAnswer({ ...moved, stockReturned: released?.changes ?? [] }),
                ...backInStock(req, released?.notices ?? []),
              };
            },
            now(),
          ),
      },
      fitting: {
        schema: FittingBody,
        run: (input: z.infer<typeof FittingBody>, req) =>
          scriptChange<StaffFittingResponse>(
            db,
            req,
            { action: 'order.fitting', entityType: 'order', entityId: input.order_id },
            async (tx) => {
              const r = await recordFittingIn(tx, {
                orderId: input.order_id,
                lines: Object.entries(input.lines).map(([offerId, l]) => ({
                  offerId: Number(offerId),
                  kept: l.kept,
                  refused: l.refused,
                })),
                now: now(),
              });
              if (!r.ok) return { answer: fittingAnswer(r) };
              const { back, ...fitted } = r;
              req.log.info(
                { orderId: r.orderId, kept: r.kept, refused: r.refused, paidKopecks: r.paidKopecks },
                'fitting recorded',
              );
              return {
                answer: fittingAnswer({ ...fitted, stockReturned: back.changes }),
                ...backInStock(req, back.notices),
              };
            },
            now(),
          ),
      },
    },
  });

  // Time-based steps now (`npm run jobs -- run [kind]`): every periodic job, and the waiting
  // jobs of `kind` (e.g. bonus.accrue, 14 days ahead), made due and run once by the job runner.
  actionRoute(app, {
    url: '/staff/jobs/',
    summary:
      '`npm run jobs -- run [kind]`: every periodic job, and the waiting jobs of kind (e.g. bonus.accrue), made due and run once now',
    ...staffDoc(StaffJobsResponse, 'The kinds brought forward, how many jobs were made due and how many ran'),
    actions: {
      run: {
        schema: JobsRunBody,
        run: async (input: z.infer<typeof JobsRunBody>, req): Promise<StaffJobsResponse> => {
          if (!runJobsNow)
            return { data: null, errors: { action: 'Планировщик задач не запущен в этом процессе' }, warnings: [] };
          // What the script changes is when the waiting jobs run: made due in one transaction with
          // its audit row (`jobs.run`); the jobs then run after the commit, each as the job runner
          // runs it on its own time (their changes are the shop's, not the script's).
          const bringForward: BringForward = async (kinds) => {
            const answer = await scriptChange(
              db,
              req,
              { action: 'jobs.run', entityType: 'jobs', entityId: input.kind ?? '' },
              async (tx) => ({
                answer: { data: { kinds, made_due: await makeJobsDue(tx, kinds) }, errors: {}, warnings: [] },
              }),
              now(),
            );
            return answer.data.made_due;
          };
          let r: RunNowResult;
          try {
            r = await runJobsNow(input.kind, bringForward);
          } catch (err) {
            if (!(err instanceof UnknownJobKind)) throw err;
            return {
              data: null,
              errors: { kind: `Нет задач вида ${err.kind}. Есть: ${err.known.sort().join(', ')}` },
              warnings: [],
            };
          }
          return { data: { kinds: r.kinds, made_due: r.madeDue, ran: r.ran }, errors: {}, warnings: [] };
        },
      },
    },
  });
}

const JobsRunBody = z.object({
  kind: z.preprocess(
    (v) => (lastValue(v) === '' ? undefined : lastValue(v)),
    z
      .string()
      .regex(/^[a-z][a-z0-9_.-]{0,59}$/, 'Вид задачи: латинские буквы, цифры, точки')
      .optional(),
  ),
});

/** `POST /staff/jobs/` action 'run': the kinds brought forward, how many jobs were made due and how many ran. */
export const StaffJobsResponse = z.object({
  data: z.object({ kinds: z.array(z.string()), made_due: z.number().int(), ran: z.number().int() }).nullable(),
  errors: z.record(z.string(), z.string()),
  warnings: z.array(z.string()),
});
export type StaffJobsResponse = z.infer<typeof StaffJobsResponse>;

const optionalText = (max: number) =>
  z.preprocess((v) => (lastValue(v) === '' ? undefined : lastValue(v)), z.string().trim().max(max).optional());

const StatusBody = z.object({
  order_id: intParam(1, 2_147_483_647),
  status: z.preprocess(lastValue, z.string().max(40)),
  note: optionalText(500),
  track_number: optionalText(40),
});

const FittingBody = z.object({
  order_id: intParam(1, 2_147_483_647),
  // lines[<offer id>][kept], lines[<offer id>][refused] (api/form.ts nests them).
  lines: z
    .record(z.string().regex(/^[1-9]\d{0,9}$/), z.object({ kept: intParam(0, 1000), refused: intParam(0, 1000) }))
    .refine((lines) => Object.keys(lines).length > 0 && Object.keys(lines).length <= 100, 'от 1 до 100 строк'),
});

/** `POST /staff/orders/` action 'status': the order after the move. */
export const StaffOrderStatusResponse = z.object({
  data: z
    .object({
      order_id: z.number().int(),
      previous_status: z.string(),
      status: z.string(),
      status_label: z.string(),
      track_number: z.string().nullable(),
      delivered_at: z.string().nullable(),
      stock_returned: z.array(
        z.object({
          offer_id: z.number().int(),
          previous: z.number().int(),
          quantity: z.number().int(),
          notified: z.number().int(),
        }),
      ),
    })
    .nullable(),
  errors: z.record(z.string(), z.string()),
  warnings: z.array(z.string()),
});
export type StaffOrderStatusResponse = z.infer<typeof StaffOrderStatusResponse>;

/** `POST /staff/orders/` action 'fitting': what was kept, paid and given back. */
export const StaffFittingResponse = z.object({
  data: z
    .object({
      order_id: z.number().int(),
      /** The status the fitting moved the order from (shipped or delivered). */
      previous_status: z.string(),
      status: z.literal('received'),
      kept: z.number().int(),
      refused: z.number().int(),
      /** Roubles, as the API speaks; paid_kopecks exactly. */
      paid: z.number(),
      paid_kopecks: z.number().int(),
      delivery_kopecks: z.number().int(),
      refund_kopecks: z.number().int(),
      /** Put back onto the gift certificates that paid the order: their part the kept items did not use. */
      certificate_back_kopecks: z.number().int(),
      lines: z.array(
        z.object({
          offer_id: z.number().int(),
          gift: z.boolean(),
          kept: z.number().int(),
          refused: z.number().int(),
          paid_kopecks: z.number().int(),
        }),
      ),
      stock_returned: z.array(
        z.object({
          offer_id: z.number().int(),
          previous: z.number().int(),
          quantity: z.number().int(),
          notified: z.number().int(),
        }),
      ),
    })
    .nullable(),
  errors: z.record(z.string(), z.string()),
  warnings: z.array(z.string()),
});
export type StaffFittingResponse = z.infer<typeof StaffFittingResponse>;

const stockRows = (changes: { offerId: number; previous: number; quantity: number; notified: number }[]) =>
  changes.map((c) => ({ offer_id: c.offerId, previous: c.previous, quantity: c.quantity, notified: c.notified }));

const notifiedWarning = (changes: { notified: number }[]): string[] => {
  const notified = changes.reduce((s, c) => s + c.notified, 0);
  return notified ? [`Сообщили о поступлении: ${notified}`] : [];
};

function statusAnswer(r: ChangeOrderStatusResult): StaffOrderStatusResponse {
  if (!r.ok) return { data: null, errors: { [r.field]: r.error }, warnings: [] };
  return {
    data: {
      order_id: r.orderId,
      previous_status: r.from,
      status: r.to,
      status_label: statusLabel(r.to),
      track_number: r.trackNumber,
      delivered_at: r.deliveredAt ? r.deliveredAt.toISOString() : null,
      stock_returned: stockRows(r.stockReturned),
    },
    errors: {},
    warnings: notifiedWarning(r.stockReturned),
  };
}

function fittingAnswer(r: RecordFittingResult): StaffFittingResponse {
  if (!r.ok) return { data: null, errors: r.errors, warnings: [] };
  return {
    data: {
      order_id: r.orderId,
      previous_status: r.from,
      status: 'received',
      kept: r.kept,
      refused: r.refused,
      paid: kopecksToRoubles(r.paidKopecks),
      paid_kopecks: r.paidKopecks,
      delivery_kopecks: r.deliveryKopecks,
      refund_kopecks: r.refundKopecks,
      certificate_back_kopecks: r.certificateBackKopecks,
      lines: r.lines.map((l) => ({
        offer_id: l.offerId,
        gift: l.isGift,
        kept: l.kept,
        refused: l.refused,
        paid_kopecks: l.paidKopecks,
      })),
      stock_returned: stockRows(r.stockReturned),
    },
    errors: {},
    warnings: [
      ...(r.refundKopecks
        ? [`Заказ оплачен онлайн: верните покупателю ${formatRub(r.refundKopecks)} за возвращённые вещи`]
        : []),
      ...(r.certificateBackKopecks
        ? [`На подарочные сертификаты покупателя вернули ${formatRub(r.certificateBackKopecks)}`]
        : []),
      ...notifiedWarning(r.stockReturned),
    ],
  };
}

/** `POST /staff/stock/` action 'verify': offers and moves checked, and the offers the ledger does not explain (at most 100). */
export const StockLedgerResponse = z.object({
  data: z.object({
    balanced: z.boolean(),
    offers: z.number().int(),
    moves: z.number().int(),
    mismatches: z.array(
      z.object({
        offer_id: z.number().int(),
        quantity: z.number().int(),
        moves_sum: z.number().int(),
        broken_move_id: z.number().int().nullable(),
      }),
    ),
  }),
  errors: z.record(z.string(), z.string()),
  warnings: z.array(z.string()),
});
export type StockLedgerResponse = z.infer<typeof StockLedgerResponse>;

function ledgerAnswer(check: StockLedgerCheck): StockLedgerResponse {
  return {
    data: {
      balanced: check.mismatches.length === 0,
      offers: check.offers,
      moves: check.moves,
      mismatches: check.mismatches.map((m) => ({
        offer_id: m.offerId,
        quantity: m.quantity,
        moves_sum: m.movesSum,
        broken_move_id: m.brokenMoveId,
      })),
    },
    errors: {},
    warnings: check.mismatches.length ? [`Остатки не сходятся с журналом движений: ${check.mismatches.length}`] : [],
  };
}

function result(change: StockChange | null): StockChangeResponse {
  if (!change) return { data: null, errors: { offer_id: 'Нет такого предложения' }, warnings: [] };
  return {
    data: { offer_id: change.offerId, previous: change.previous, quantity: change.quantity, notified: change.notified },
    errors: {},
    warnings: change.notified ? [`Сообщили о поступлении: ${change.notified}`] : [],
  };
}
