import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  ReturnApproveBody,
  ReturnListResponse,
  ReturnOneResponse,
  ReturnRejectBody,
  ReasonBody,
  StockAdjustResponse,
  type ReturnItem,
} from '~/shared/admin-contract';
import { returnStatusLabel } from '~/core/account';
import { can } from '~/core/staff-roles';
import { RETURN_TEXT, type RefundPart } from '~/core/return-notice';
import { approveReturn, markTransferDone, refundsOf, rejectReturn } from '~/models/returns.server';
import { getAdminReturn, listAdminReturns, receiveReturn, returnReceivedIds } from '~/models/admin-stock.server';
import { sendBackInStock } from '~/models/stock.server';
import { notFound } from '~/api/http.server';
import { adminChange, adminRead, filterValue, IdParams, listQuery, refusal } from './action.server';
import type { AdminDeps } from './context.server';

// Returns (issue #29): the requests shoppers file in their account. Each action calls the same
// model function as `npm run return` (models/returns.server.ts), here inside the admin change's
// transaction (its own transaction becomes a savepoint), so the audit row and the Idempotency-Key
// commit with it. `approve` refunds by the original means: certificates re-credited and bonuses
// back at once, the card (CloudPayments) or instalments (Dolyami, Split) by the `return.refund`
// job after the commit, pay on receipt by a bank transfer staff then record (`transferred`).
// The request's row lock and its 'new' status make the refund happen once, whoever clicks twice
// or at once. Receiving the goods is its own step: the stock back through the ledger.

const idFilter = filterValue(
  z
    .string()
    .regex(/^\d{1,9}$/)
    .transform(Number),
);
const dateFilter = filterValue(
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .transform((v) => new Date(`${v}T00:00:00Z`)),
);
const ReturnListQuery = listQuery(
  ['id'],
  { sort: 'id', order: 'desc' },
  {
    status: filterValue(z.enum(['new', 'approved', 'refunded', 'rejected'])),
    from: dateFilter,
    to: dateFilter,
    order_id: idFilter,
    customer_id: idFilter,
  },
);

type ReturnRow = NonNullable<Awaited<ReturnType<typeof getAdminReturn>>>;
/**
 * A request as `role` sees it: without the `orders:money` permission (warehouse, who receives
 * the goods) the answer has no `refunds` at all — no amounts — as an order's has no money.
 */
const returnItem = (role: string, r: ReturnRow, received: boolean, parts: RefundPart[]): ReturnItem => ({
  id: r.id,
  order_id: r.orderId,
  customer_id: r.customerId,
  items: r.items.map((i) => ({ offer_id: i.offerId, quantity: i.quantity })),
  reason: r.reason,
  status: r.status,
  status_label: returnStatusLabel(r.status),
  created_at: r.createdAt.toISOString(),
  decided_at: r.decidedAt?.toISOString() ?? null,
  decision_note: r.decisionNote,
  refund_delivery: r.refundDelivery,
  received,
  ...(can(role, 'orders:money')
    ? { refunds: parts.map((p) => ({ means: p.means, amount_kopecks: p.amountKopecks, status: p.status })) }
    : {}),
});

const statusOf = (error: string) => (error === RETURN_TEXT.notFound ? 404 : 409);

export async function adminReturnRoutes(app: FastifyInstance, deps: AdminDeps): Promise<void> {
  const { db } = deps;
  const items = async (role: string, rows: ReturnRow[]) => {
    const ids = rows.map((r) => r.id);
    const money = can(role, 'orders:money');
    const [received, parts] = await Promise.all([
      returnReceivedIds(db, ids),
      money ? refundsOf(db, ids) : new Map<number, RefundPart[]>(),
    ]);
    return rows.map((r) => returnItem(role, r, received.has(r.id), parts.get(r.id) ?? []));
  };
  const one = async (role: string, id: number) => {
    const row = await getAdminReturn(db, id);
    return row ? ((await items(role, [row]))[0] as ReturnItem) : null;
  };

  adminRead(app, deps, {
    url: '/returns',
    summary:
      'Return requests, newest first: filters status, from and to (YYYY-MM-DD, by filing date), order_id, customer_id',
    permission: 'returns:read',
    query: ReturnListQuery,
    response: ReturnListResponse,
    handler: async ({ query, staff }) => {
      const { offset, limit, status, from, to, order_id, customer_id } = query;
      const { rows, total } = await listAdminReturns(db, {
        filter: {
          status,
          from,
          to: to ? new Date(to.getTime() + 86_400_000) : undefined,
          orderId: order_id,
          customerId: customer_id,
        },
        offset,
        limit,
      });
      return { data: await items(staff.role, rows), total } satisfies ReturnListResponse;
    },
  });

  adminRead(app, deps, {
    url: '/returns/:id',
    summary: 'One return request with its refunds',
    permission: 'returns:read',
    params: IdParams,
    response: ReturnOneResponse,
    handler: async ({ params, reply, staff }) => {
      const item = await one(staff.role, params.id);
      if (!item) return notFound(reply);
      return { data: item } satisfies ReturnOneResponse;
    },
  });

  adminChange(app, deps, {
    method: 'POST',
    url: '/returns/:id/approve',
    summary:
      'Approves a new request and refunds it by the original means, once (a second call, or two at once, refunds nothing more)',
    permission: 'refunds:create',
    params: IdParams,
    body: ReturnApproveBody,
    response: ReturnOneResponse,
    run: async ({ tx, params, body, now, staff }) => {
      const r = await approveReturn({
        db: tx,
        requestId: params.id,
        refundDelivery: body.refund_delivery,
        note: body.note ?? null,
        now,
      });
      if (!r.ok) return refusal({ status: statusOf(r.error), field: 'id', error: r.error });
      const row = (await getAdminReturn(tx, params.id)) as ReturnRow;
      const received = await returnReceivedIds(tx, [params.id]);
      return {
        ok: true,
        body: { data: returnItem(staff.role, row, received.has(params.id), r.refunds) },
        audit: {
          action: 'return.approve',
          entityType: 'return',
          entityId: params.id,
          before: { status: 'new' },
          after: {
            status: r.status,
            refunds: r.refunds.map((p) => ({
              id: p.id,
              means: p.means,
              amount_kopecks: p.amountKopecks,
              status: p.status,
            })),
            delivery_refunded: r.deliveryRefunded,
            accrual_cancelled_kopecks: r.accrualCancelledKopecks,
          },
          reason: body.note ?? null,
        },
      };
    },
  });

  adminChange(app, deps, {
    method: 'POST',
    url: '/returns/:id/reject',
    summary: 'Refuses a new request with the reason the customer sees (their return notice says it)',
    permission: 'returns:decide',
    params: IdParams,
    body: ReturnRejectBody,
    response: ReturnOneResponse,
    run: async ({ tx, params, body, now, staff }) => {
      const r = await rejectReturn({ db: tx, requestId: params.id, note: body.note, now });
      if (!r.ok)
        return refusal({ status: statusOf(r.error), field: r.field === 'note' ? 'note' : 'id', error: r.error });
      const row = (await getAdminReturn(tx, params.id)) as ReturnRow;
      return {
        ok: true,
        body: { data: returnItem(staff.role, row, false, []) },
        audit: {
          action: 'return.reject',
          entityType: 'return',
          entityId: params.id,
          before: { status: 'new' },
          after: { status: 'rejected' },
          reason: body.note,
        },
      };
    },
  });

  adminChange(app, deps, {
    method: 'POST',
    url: '/returns/:id/receive',
    summary:
      "The returned goods received: back on the shelf through the stock ledger ('return_received'), once per request",
    permission: 'returns:receive',
    params: IdParams,
    body: ReasonBody,
    response: StockAdjustResponse,
    run: async ({ tx, params, body, staff }) => {
      const r = await receiveReturn(tx, { requestId: params.id, actor: { kind: 'staff', id: staff.id } });
      if (!r.ok) return refusal(r);
      const { changes, notices } = r.result;
      return {
        ok: true,
        body: {
          data: changes.map((c) => ({
            offer_id: c.offerId,
            previous: c.previous,
            quantity: c.quantity,
            notified: c.notified,
          })),
        },
        audit: {
          action: 'return.receive',
          entityType: 'return',
          entityId: params.id,
          after: { stock: changes.map((c) => ({ offer_id: c.offerId, previous: c.previous, quantity: c.quantity })) },
          reason: body.reason ?? null,
        },
        afterCommit: async () => {
          if (notices.length)
            await sendBackInStock({ db, sms: deps.sms, log: app.log, siteUrl: deps.siteUrl, notices });
        },
      };
    },
  });

  adminChange(app, deps, {
    method: 'POST',
    url: '/returns/:id/transferred',
    summary: 'Paid on receipt: staff made the bank transfer; its refund row is done (once)',
    permission: 'refunds:create',
    params: IdParams,
    body: ReasonBody,
    response: ReturnOneResponse,
    run: async ({ tx, params, body, now, staff }) => {
      const r = await markTransferDone({ db: tx, requestId: params.id, now });
      if (!r.ok) return refusal({ status: statusOf(r.error), field: 'id', error: r.error });
      const item = (await (async () => {
        const row = (await getAdminReturn(tx, params.id)) as ReturnRow;
        const [received, parts] = await Promise.all([returnReceivedIds(tx, [params.id]), refundsOf(tx, [params.id])]);
        return returnItem(staff.role, row, received.has(params.id), parts.get(params.id) ?? []);
      })()) satisfies ReturnItem;
      return {
        ok: true,
        body: { data: item },
        audit: {
          action: 'return.transferred',
          entityType: 'return',
          entityId: params.id,
          after: { refund_id: r.refundId, amount_kopecks: r.amountKopecks, status: r.status },
          reason: body.reason ?? null,
        },
      };
    },
  });
}
