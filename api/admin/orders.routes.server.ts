import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  AdminDashboardResponse,
  AdminOrderActionResponse,
  AdminOrderListResponse,
  AdminOrderOneResponse,
  OrderFittingBody,
  OrderNoteBody,
  OrderShipBody,
  ReasonBody,
  type AdminOrderDetail,
  type AdminOrderItem,
} from '~/shared/admin-contract';
import type { Database } from '~/db/client.server';
import { ORDER_STATUSES, canMove, statusLabel, type OrderStatus } from '~/core/order-status';
import { moneyRows } from '~/core/order-money';
import { can } from '~/core/staff-roles';
import { payChannel } from '~/core/order-money';
import type { Permission } from '~/core/staff-roles';
import type { StockActor } from '~/core/stock-ledger';
import { DELIVERY_ID } from '~/shared/contract';
import {
  addOrderNote,
  adminDashboard,
  adminOrderDetail,
  adminOrdersByIds,
  listAdminOrders,
  markOrderPaidOnReceipt,
  ORDER_SORTS,
  paymentState,
  type AdminOrderRow,
} from '~/models/admin-orders.server';
import { changeOrderStatusIn } from '~/models/order-status.server';
import { recordFittingIn } from '~/models/fitting.server';
import { sendBackInStock } from '~/models/stock.server';
import { notFound } from '~/api/http.server';
import { adminChange, adminRead, filterValue, IdParams, listQuery, refusal, type ChangeContext } from './action.server';
import type { AdminDeps } from './context.server';
import { auditItem } from './mappers';

// Orders in the back office (issue #29): the list, one order, staff notes, the dashboard, and
// each state change as its own named POST. Every change calls the one model function the
// command line (`npm run order`, api/staff/routes.server.ts) calls — changeOrderStatusIn,
// recordFittingIn — here in the admin change's transaction with its audit row, so a cancel or a
// fitting moves stock once whoever clicks twice. Back-in-stock SMS go out after the commit.

/** A day ('2026-12-01', Moscow's midnight) or an ISO moment; `end` makes a day include itself. */
const moment = (end: boolean) =>
  z
    .string()
    .trim()
    .refine((v) => /^\d{4}-\d{2}-\d{2}$/.test(v) || !Number.isNaN(Date.parse(v)), 'дата: ГГГГ-ММ-ДД или ISO 8601')
    .transform((v) =>
      /^\d{4}-\d{2}-\d{2}$/.test(v)
        ? new Date(new Date(`${v}T00:00:00+03:00`).getTime() + (end ? 86_400_000 : 0))
        : new Date(v),
    );

const OrderListQuery = listQuery(
  ORDER_SORTS,
  { sort: 'created_at', order: 'desc' },
  {
    status: filterValue(z.enum(ORDER_STATUSES)),
    from: filterValue(moment(false)),
    to: filterValue(moment(true)),
    delivery: filterValue(z.string().trim().max(40)),
    payment: filterValue(z.string().trim().max(40)),
    city: filterValue(z.string().trim().max(100)),
    /** Order number, phone, e-mail or name. */
    q: filterValue(z.string().trim().max(100)),
    ids: filterValue(
      z
        .string()
        .regex(/^\d{1,9}(,\d{1,9}){0,99}$/)
        .transform((v) => v.split(',').map(Number)),
    ),
  },
);

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function orderItem(r: AdminOrderRow): AdminOrderItem {
  return {
    id: r.id,
    created_at: r.createdAt.toISOString(),
    status: r.status,
    status_label: statusLabel(r.status),
    customer_id: r.customerId,
    customer_name: r.customerName,
    phone: r.phone,
    email: r.email,
    city: r.deliveryCity,
    delivery_id: r.deliveryId,
    payment_id: r.paymentId,
    payment_state: paymentState(r),
    total_kopecks: r.totalKopecks,
    track_number: r.trackNumber,
  };
}

export const ORDER_ACTIONS = [
  'confirm',
  'assemble',
  'ship',
  'deliver',
  'receive',
  'cancel',
  'mark_paid',
  'fitting',
] as const;
type OrderAction = (typeof ORDER_ACTIONS)[number];

/** The actions an order's state allows now (the admin app's buttons; the server checks again under the lock). */
export function allowedActions(o: {
  status: string;
  deliveryId: string | null;
  paymentId: string;
  paidAt: Date | null;
}): OrderAction[] {
  const courier = o.deliveryId === DELIVERY_ID.moscowCourier;
  const out: OrderAction[] = [];
  if (canMove(o.status, 'confirmed')) out.push('confirm');
  if (canMove(o.status, 'assembling')) out.push('assemble');
  if (canMove(o.status, 'shipped')) out.push('ship');
  if (canMove(o.status, 'delivered') && !courier) out.push('deliver');
  if (canMove(o.status, 'received') && !courier) out.push('receive');
  if (canMove(o.status, 'cancelled')) out.push('cancel');
  if (
    payChannel(o.paymentId) === 'receipt' &&
    o.paidAt === null &&
    ['shipped', 'delivered', 'received'].includes(o.status)
  )
    out.push('mark_paid');
  if (courier && (o.status === 'shipped' || o.status === 'delivered')) out.push('fitting');
  return out;
}

/**
 * The order's page for `role`: without the `orders:money` permission (warehouse) the answer
 * carries no money at all — no sum, no breakdown, no payments, refunds, certificate or bonus
 * moves, no line prices — only what picking, shipping and fittings need.
 */
async function detailOf(db: Database, id: number, role: string): Promise<AdminOrderDetail | null> {
  const full = await fullDetailOf(db, id);
  if (!full || can(role, 'orders:money')) return full;
  const {
    total_kopecks: _t,
    money: _m,
    payments: _p,
    refunds: _r,
    certificate_moves: _c,
    bonus_moves: _b,
    lines,
    ...rest
  } = full;
  return { ...rest, lines: lines.map(({ price_kopecks: _pk, discount_kopecks: _dk, bonus_kopecks: _bk, ...l }) => l) };
}

/** An order's list row for `role`: no sum without `orders:money`. */
function listItemFor(role: string) {
  const money = can(role, 'orders:money');
  return (r: AdminOrderRow): AdminOrderItem => {
    const item = orderItem(r);
    if (money) return item;
    const { total_kopecks: _t, ...rest } = item;
    return rest;
  };
}

async function fullDetailOf(db: Database, id: number): Promise<AdminOrderDetail | null> {
  const d = await adminOrderDetail(db, id);
  if (!d) return null;
  const o = d.order;
  const m = d.money;
  return {
    ...orderItem(o),
    kind: o.kind,
    address: o.deliveryAddress,
    pickup_point: o.pickupPoint ?? null,
    carrier_order_id: o.carrierOrderId,
    delivery_cost_pending: o.deliveryCostPending,
    delivered_at: iso(o.deliveredAt),
    paid_at: iso(o.paidAt),
    pay_until: iso(o.payUntil),
    promo_code: o.promoCode,
    fields: o.fields,
    money: {
      goods_kopecks: m.goodsKopecks,
      sale_kopecks: m.saleKopecks,
      items_kopecks: m.itemsKopecks,
      promo_kopecks: m.promoKopecks,
      bonus_kopecks: m.bonusKopecks,
      delivery_kopecks: m.deliveryKopecks,
      total_kopecks: m.totalKopecks,
      certificate_kopecks: m.certificateKopecks,
      due_kopecks: m.dueKopecks,
      channel: m.channel,
      paid_online_kopecks: m.paidOnlineKopecks,
      on_receipt_kopecks: m.onReceiptKopecks,
      collected_kopecks: m.collectedKopecks,
      rows: moneyRows(m).map((r) => ({ key: r.key, label: r.label, kopecks: r.kopecks, text: r.text })),
    },
    lines: d.lines.map((l) => ({
      offer_id: l.offerId,
      title: l.title,
      size: l.size,
      color: l.color,
      image: l.image,
      price_kopecks: l.priceKopecks,
      discount_kopecks: l.discountKopecks,
      bonus_kopecks: l.bonusKopecks,
      quantity: l.quantity,
      returned_quantity: l.returnedQuantity,
      kept_quantity: l.keptQuantity,
      refused_quantity: l.refusedQuantity,
      preorder: l.isPreorder,
      gift: l.isGift,
    })),
    history: d.history.map((h) => ({
      id: h.id,
      status: h.status,
      status_label: statusLabel(h.status),
      note: h.note,
      at: h.createdAt.toISOString(),
    })),
    payments: d.payments.map((p) => ({
      id: p.id,
      provider: p.provider,
      kind: p.kind,
      amount_kopecks: p.amountKopecks,
      outcome: p.outcome,
      at: p.createdAt.toISOString(),
    })),
    refunds: d.refunds.map((r) => ({
      id: r.id,
      return_request_id: r.returnRequestId,
      means: r.means,
      amount_kopecks: r.amountKopecks,
      status: r.status,
      at: r.createdAt.toISOString(),
    })),
    returns: d.returns.map((r) => ({ id: r.id, status: r.status, reason: r.reason, at: r.createdAt.toISOString() })),
    certificate_moves: d.certificateMoves.map((c) => ({
      id: c.id,
      certificate_id: c.certificateId,
      kind: c.kind,
      amount_kopecks: c.amountKopecks,
      at: c.createdAt.toISOString(),
    })),
    bonus_moves: d.bonusMoves.map((b) => ({
      id: b.id,
      kind: b.kind,
      amount_kopecks: b.amountKopecks,
      at: b.createdAt.toISOString(),
    })),
    messages: d.messages.map((s) => ({ key: s.key, channel: s.channel, tag: s.tag, sent_at: iso(s.sentAt) })),
    jobs: d.jobs.map((j) => ({
      id: j.id,
      kind: j.kind,
      run_at: j.runAt.toISOString(),
      attempts: j.attempts,
      done_at: iso(j.doneAt),
      last_error: j.lastError,
    })),
    audit: d.audit.map(auditItem),
    notes: d.notes.map((n) => ({ id: n.id, text: n.text, author: n.authorLabel, at: n.createdAt.toISOString() })),
    actions: allowedActions(o),
  };
}

const stockActor = (ctx: { staff: { id: number } }): StockActor => ({ kind: 'staff', id: ctx.staff.id });

export async function adminOrderRoutes(app: FastifyInstance, deps: AdminDeps): Promise<void> {
  const { db, sms, siteUrl } = deps;

  adminRead(app, deps, {
    url: '/orders',
    summary:
      'Orders: filters status, from, to (days in Moscow time or ISO moments), delivery, payment, city, q (number, phone, e-mail, name), ids',
    permission: 'orders:read',
    query: OrderListQuery,
    response: AdminOrderListResponse,
    handler: async ({ query, staff }) => {
      const { sort, order, offset, limit, ids, ...filter } = query;
      const item = listItemFor(staff.role);
      if (ids) {
        const rows = await adminOrdersByIds(db, ids);
        return { data: rows.map(item), total: rows.length } satisfies AdminOrderListResponse;
      }
      const { rows, total } = await listAdminOrders({ db, filter, sort, order, offset, limit });
      return { data: rows.map(item), total } satisfies AdminOrderListResponse;
    },
  });

  adminRead(app, deps, {
    url: '/orders/:id',
    summary:
      'One order: lines, delivery, the money breakdown, payments, refunds, certificates and bonuses, messages, history, audit, notes, the actions allowed now',
    permission: 'orders:read',
    params: IdParams,
    response: AdminOrderOneResponse,
    handler: async ({ params, reply, staff }) => {
      const data = await detailOf(db, params.id, staff.role);
      if (!data) return notFound(reply);
      return { data } satisfies AdminOrderOneResponse;
    },
  });

  adminRead(app, deps, {
    url: '/dashboard',
    summary: "Today's and this week's orders and revenue, what waits for staff, low stock, the longest waiting lists",
    permission: 'dashboard:read',
    response: AdminDashboardResponse,
    handler: async ({ staff }) => {
      const d = await adminDashboard(db, { now: deps.now() });
      // Revenue is money: only for roles with orders:money.
      const money = can(staff.role, 'orders:money');
      return {
        data: {
          today: { orders: d.today.orders, ...(money ? { revenue_kopecks: d.today.revenueKopecks } : {}) },
          week: { orders: d.week.orders, ...(money ? { revenue_kopecks: d.week.revenueKopecks } : {}) },
          awaiting_payment: d.awaitingPayment,
          to_confirm: d.toConfirm,
          to_ship: d.toShip,
          fittings_out: d.fittingsOut,
          returns_to_decide: d.returnsToDecide,
          refunds_pending: d.refundsPending,
          low_stock: d.lowStock.map((x) => ({
            offer_id: x.offerId,
            product_id: x.productId,
            name: x.name,
            size: x.size,
            quantity: x.quantity,
          })),
          waiting_lists: d.waitingLists.map((x) => ({
            offer_id: x.offerId,
            product_id: x.productId,
            name: x.name,
            size: x.size,
            waiting: x.waiting,
          })),
        },
      } satisfies AdminDashboardResponse;
    },
  });

  adminChange(app, deps, {
    method: 'POST',
    url: '/orders/:id/notes',
    summary: 'A staff note on the order',
    permission: 'orders:write',
    params: IdParams,
    body: OrderNoteBody,
    response: AdminOrderActionResponse,
    run: async ({ tx, params, body, staff, now }) => {
      const r = await addOrderNote(tx, {
        orderId: params.id,
        text: body.text,
        staffId: staff.id,
        authorLabel: staff.name || staff.email,
        now,
      });
      if (!r.ok) return refusal(r);
      return {
        ok: true,
        status: 201,
        body: { data: (await detailOf(tx, params.id, staff.role)) as AdminOrderDetail },
        audit: {
          action: 'order.note',
          entityType: 'order',
          entityId: params.id,
          after: { note_id: r.note.id, text: r.note.text },
        },
      };
    },
  });

  /** A move along the statuses through changeOrderStatusIn (the CLI's own function). */
  const statusAction = <
    B extends z.ZodType<{ note?: string | undefined; reason?: string | undefined; track_number?: string | undefined }>,
  >(
    name: OrderAction,
    to: OrderStatus,
    permission: Permission,
    body: B,
    summary: string,
  ) =>
    adminChange(app, deps, {
      method: 'POST',
      url: `/orders/:id/${name.replace('_', '-')}`,
      summary,
      permission,
      params: IdParams,
      body,
      response: AdminOrderActionResponse,
      run: async (ctx: ChangeContext<{ id: number }, z.infer<B>>) => {
        const { tx, params, body: b, now, req, staff } = ctx;
        const note = b.note ?? b.reason ?? null;
        const r = await changeOrderStatusIn(tx, {
          orderId: params.id,
          to,
          note,
          trackNumber: b.track_number ?? null,
          actor: stockActor(ctx),
          now,
        });
        if (!r.ok)
          return refusal({
            status: r.reason === 'not_found' ? 404 : r.reason === 'bad_track' ? 400 : 409,
            field: r.field,
            error: r.error,
          });
        const released = r.released;
        return {
          ok: true,
          body: { data: (await detailOf(tx, params.id, staff.role)) as AdminOrderDetail },
          audit: {
            action: `order.${name}`,
            entityType: 'order',
            entityId: params.id,
            before: { status: r.from },
            after: {
              status: r.to,
              ...(r.to === 'shipped' ? { track_number: r.trackNumber } : {}),
              ...(released
                ? {
                    stock_returned: released.changes.map((c) => ({
                      offer_id: c.offerId,
                      previous: c.previous,
                      quantity: c.quantity,
                    })),
                  }
                : {}),
            },
            reason: note,
          },
          ...(released && released.notices.length
            ? { afterCommit: () => sendBackInStock({ db, sms, log: req.log, siteUrl, notices: released.notices }) }
            : {}),
        };
      },
    });

  statusAction('confirm', 'confirmed', 'orders:status', ReasonBody, 'Confirms a new order (new → confirmed)');
  statusAction(
    'assemble',
    'assembling',
    'orders:ship',
    ReasonBody,
    'Starts picking (confirmed → assembling; a CDEK parcel is registered)',
  );
  statusAction(
    'ship',
    'shipped',
    'orders:ship',
    OrderShipBody,
    "Hands the order to delivery (assembling → shipped) with the CDEK track number: the shopper's SMS and letter go out (the order.shipped job)",
  );
  statusAction(
    'deliver',
    'delivered',
    'orders:ship',
    ReasonBody,
    'Delivered (shipped → delivered; not a Moscow courier order: that one records its fitting)',
  );
  statusAction(
    'receive',
    'received',
    'orders:ship',
    ReasonBody,
    'Received (delivered → received; the return period and bonuses count from delivery)',
  );
  statusAction(
    'cancel',
    'cancelled',
    'orders:status',
    ReasonBody,
    'Cancels the order until it is handed to delivery: stock back through the ledger, certificates and bonuses back (releaseOrder)',
  );

  adminChange(app, deps, {
    method: 'POST',
    url: '/orders/:id/mark-paid',
    summary: 'Paid on receipt: the courier or the pickup point took the money (once)',
    permission: 'orders:status',
    params: IdParams,
    body: ReasonBody,
    response: AdminOrderActionResponse,
    run: async ({ tx, params, body, now, staff }) => {
      const r = await markOrderPaidOnReceipt(tx, { orderId: params.id, now });
      if (!r.ok) return refusal(r);
      return {
        ok: true,
        body: { data: (await detailOf(tx, params.id, staff.role)) as AdminOrderDetail },
        audit: {
          action: 'order.mark_paid',
          entityType: 'order',
          entityId: params.id,
          before: { paid_kopecks: r.before.paidKopecks, paid_at: null },
          after: { paid_kopecks: r.paidKopecks, paid_at: r.paidAt.toISOString() },
          reason: body.reason ?? null,
        },
      };
    },
  });

  adminChange(app, deps, {
    method: 'POST',
    url: '/orders/:id/fitting',
    summary:
      'The fitting at the door of a Moscow courier order: each line kept and refused; refused items back to stock (fitting_returned); the order received',
    permission: 'orders:fitting',
    params: IdParams,
    body: OrderFittingBody,
    response: AdminOrderActionResponse,
    run: async (ctx) => {
      const { tx, params, body, now, req, staff } = ctx;
      const r = await recordFittingIn(tx, {
        orderId: params.id,
        lines: body.lines.map((l) => ({ offerId: l.offer_id, kept: l.kept, refused: l.refused })),
        actor: stockActor(ctx),
        now,
      });
      if (!r.ok) {
        const [field, error] = Object.entries(r.errors)[0] ?? ['lines', 'Примерка не записана'];
        return refusal({
          status: error === 'Заказ не найден' ? 404 : field === 'order_id' ? 409 : 400,
          field: field === 'order_id' ? 'id' : field,
          error,
        });
      }
      const { back } = r;
      return {
        ok: true,
        body: { data: (await detailOf(tx, params.id, staff.role)) as AdminOrderDetail },
        audit: {
          action: 'order.fitting',
          entityType: 'order',
          entityId: params.id,
          before: { status: r.from },
          after: {
            status: 'received',
            kept: r.kept,
            refused: r.refused,
            paid_kopecks: r.paidKopecks,
            refund_kopecks: r.refundKopecks,
            lines: r.lines.map((l) => ({
              offer_id: l.offerId,
              kept: l.kept,
              refused: l.refused,
              paid_kopecks: l.paidKopecks,
            })),
            stock_returned: back.changes.map((c) => ({
              offer_id: c.offerId,
              previous: c.previous,
              quantity: c.quantity,
            })),
          },
        },
        ...(back.notices.length
          ? { afterCommit: () => sendBackInStock({ db, sms, log: req.log, siteUrl, notices: back.notices }) }
          : {}),
      };
    },
  });
}
