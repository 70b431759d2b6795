import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  StockAdjustBody,
  StockAdjustResponse,
  StockBulkBody,
  StockMoveListResponse,
  StockOfferListResponse,
  StockOfferOneResponse,
  WaitingListResponse,
  PreorderListResponse,
  type StockMoveItem,
  type StockOfferItem,
} from '~/shared/admin-contract';
import { STOCK_REASON_LABEL, type StockActor, type StockReason } from '~/core/stock-ledger';
import {
  adjustStock,
  getStockOffer,
  listPreorders,
  listStockMoves,
  listStockOffers,
  listWaiting,
} from '~/models/admin-stock.server';
import { statusLabel } from '~/core/order-status';
import { sendBackInStock, type BackInStockNotice, type StockChange } from '~/models/stock.server';
import { entityAudit } from '~/models/audit.server';
import { notFound } from '~/api/http.server';
import { auditItem } from './mappers';
import { adminChange, adminRead, filterValue, IdParams, listQuery, refusal } from './action.server';
import type { AdminDeps } from './context.server';

// Stock (issue #29): offers with their quantities, each offer's ledger, the waiting lists, and
// staff adjustments — one offer (`offers/:id/stock`) or several (`stock/bulk`), each through
// moveStock in the change's transaction with the staff member as the ledger's actor. A size that
// goes from none to some tells its waiting list by SMS after the commit (sendBackInStock).

const idFilter = filterValue(
  z
    .string()
    .regex(/^\d{1,9}$/)
    .transform(Number),
);

const StockListQuery = listQuery(
  ['id', 'quantity', 'article', 'name'],
  { sort: 'id', order: 'asc' },
  {
    q: filterValue(z.string().trim().max(100)),
    section_id: idFilter,
    size: filterValue(z.string().trim().max(20)),
    /** At or below this quantity. */
    at_most: filterValue(
      z
        .string()
        .regex(/^\d{1,6}$/)
        .transform(Number),
    ),
    sold_out: filterValue(z.enum(['true', 'false']).transform((v) => v === 'true')),
  },
);
const MovesQuery = listQuery(['id'], { sort: 'id', order: 'desc' }, {});
const WaitingQuery = listQuery(['created_at'], { sort: 'created_at', order: 'asc' }, { offer_id: idFilter });
const PreorderQuery = listQuery(
  ['order_created_at'],
  { sort: 'order_created_at', order: 'asc' },
  { offer_id: idFilter, in_stock: filterValue(z.enum(['true', 'false']).transform((v) => v === 'true')) },
);

type OfferRow = NonNullable<Awaited<ReturnType<typeof getStockOffer>>>;
const offerItem = (r: OfferRow): StockOfferItem => ({
  id: r.id,
  product_id: r.productId,
  article: r.article,
  name: r.name,
  section_id: r.sectionId,
  size: r.size,
  quantity: r.quantity,
  preorder: r.preorder,
  waiting: Number(r.waiting),
});

const changeItem = (c: StockChange) => ({
  offer_id: c.offerId,
  previous: c.previous,
  quantity: c.quantity,
  notified: c.notified,
});

export async function adminStockRoutes(app: FastifyInstance, deps: AdminDeps): Promise<void> {
  const { db } = deps;
  const staffActorOf = (id: number): StockActor => ({ kind: 'staff', id });
  const tell = (notices: BackInStockNotice[]) => async () => {
    if (notices.length) await sendBackInStock({ db, sms: deps.sms, log: app.log, siteUrl: deps.siteUrl, notices });
  };

  adminRead(app, deps, {
    url: '/offers',
    summary: 'Offers with their quantities: filters q (article or name), section_id, size, at_most, sold_out',
    permission: 'stock:read',
    query: StockListQuery,
    response: StockOfferListResponse,
    handler: async ({ query }) => {
      const { sort, order, offset, limit, q, section_id, size, at_most, sold_out } = query;
      const { rows, total } = await listStockOffers({
        db,
        filter: { q, sectionId: section_id, size, atMost: at_most, soldOut: sold_out },
        sort,
        order,
        offset,
        limit,
      });
      return { data: rows.map(offerItem), total } satisfies StockOfferListResponse;
    },
  });

  adminRead(app, deps, {
    url: '/offers/:id',
    summary: 'One offer with its quantity',
    permission: 'stock:read',
    params: IdParams,
    response: StockOfferOneResponse,
    handler: async ({ params, reply }) => {
      const row = await getStockOffer(db, params.id);
      if (!row) return notFound(reply);
      return {
        data: { ...offerItem(row), audit: (await entityAudit(db, 'offer', params.id)).map(auditItem) },
      } satisfies z.infer<typeof StockOfferOneResponse>;
    },
  });

  adminRead(app, deps, {
    url: '/offers/:id/moves',
    summary: "The offer's stock ledger, newest first",
    permission: 'stock:read',
    params: IdParams,
    query: MovesQuery,
    response: StockMoveListResponse,
    handler: async ({ params, query }) => {
      const { rows, total } = await listStockMoves(db, {
        offerId: params.id,
        offset: query.offset,
        limit: query.limit,
      });
      const data: StockMoveItem[] = rows.map((m) => ({
        id: m.id,
        offer_id: m.offerId,
        delta: m.delta,
        quantity_after: m.quantityAfter,
        reason: m.reason,
        reason_label: STOCK_REASON_LABEL[m.reason as StockReason] ?? m.reason,
        order_id: m.orderId,
        return_request_id: m.returnRequestId,
        actor_kind: m.actorKind,
        actor_id: m.actorId,
        note: m.note,
        created_at: m.createdAt.toISOString(),
      }));
      return { data, total } satisfies StockMoveListResponse;
    },
  });

  adminRead(app, deps, {
    url: '/preorders',
    summary:
      'Pre-order lines to fulfil (orders not yet handed to delivery), oldest first; in_stock=true: the stock has arrived',
    permission: 'waitlist:read',
    query: PreorderQuery,
    response: PreorderListResponse,
    handler: async ({ query }) => {
      const { rows, total } = await listPreorders(db, {
        offerId: query.offer_id,
        inStock: query.in_stock,
        offset: query.offset,
        limit: query.limit,
      });
      return {
        data: rows.map((r) => ({
          id: `${r.orderId}:${r.offerId}`,
          order_id: r.orderId,
          order_created_at: r.orderCreatedAt.toISOString(),
          status: r.status,
          status_label: statusLabel(r.status),
          customer_id: r.customerId,
          customer_name: r.customerName,
          phone: r.phone,
          offer_id: r.offerId,
          article: r.article,
          title: r.title,
          size: r.size,
          quantity: r.quantity,
          in_stock: r.inStock,
        })),
        total,
      } satisfies PreorderListResponse;
    },
  });

  adminRead(app, deps, {
    url: '/waiting-list',
    summary:
      'Who waits for which size (open entries, oldest first); preorder marks the sizes to fulfil when stock arrives',
    permission: 'waitlist:read',
    query: WaitingQuery,
    response: WaitingListResponse,
    handler: async ({ query }) => {
      const { rows, total } = await listWaiting(db, {
        offerId: query.offer_id,
        offset: query.offset,
        limit: query.limit,
      });
      return {
        data: rows.map((r) => ({
          id: r.id,
          offer_id: r.offerId,
          phone: r.phone,
          name: r.name,
          created_at: r.createdAt.toISOString(),
          article: r.article,
          product_name: r.productName,
          size: r.size,
          quantity: r.quantity,
          preorder: r.preorder,
        })),
        total,
      } satisfies WaitingListResponse;
    },
  });

  adminChange(app, deps, {
    method: 'POST',
    url: '/offers/:id/stock',
    summary:
      "Sets (a count) or moves (damage, receipt, correction) one offer's quantity through the stock ledger; 0 → more tells its waiting list",
    permission: 'stock:adjust',
    params: IdParams,
    body: StockAdjustBody,
    response: StockAdjustResponse,
    run: async ({ tx, params, body, staff }) => {
      const r = await adjustStock(tx, {
        lines: [{ offerId: params.id, set: body.set, delta: body.delta }],
        kind: body.kind,
        note: body.note,
        actor: staffActorOf(staff.id),
        mode: 'all',
      });
      if (!r.ok && r.missing.length) return refusal({ status: 404, field: 'id', error: 'Предложение не найдено' });
      if (!r.ok) return refusal({ status: 409, field: 'delta', error: 'Нельзя списать больше, чем есть на складе' });
      return {
        ok: true,
        body: { data: r.changes.map(changeItem) },
        audit: r.changes.map((c) => ({
          action: 'offer.stock',
          entityType: 'offer',
          entityId: c.offerId,
          before: { quantity: c.previous },
          after: { quantity: c.quantity, kind: body.kind },
          reason: body.note,
        })),
        afterCommit: tell(r.notices),
      };
    },
  });

  adminChange(app, deps, {
    method: 'POST',
    url: '/stock/bulk',
    summary:
      'Moves several offers at once: mode all (the whole batch or nothing) or each (each offer on its own, a take clamped at zero, unknown offers skipped)',
    permission: 'stock:adjust',
    body: StockBulkBody,
    response: StockAdjustResponse,
    run: async ({ tx, body, staff }) => {
      const r = await adjustStock(tx, {
        lines: body.lines.map((l) => ({ offerId: l.offer_id, delta: l.delta })),
        kind: body.kind,
        note: body.note,
        actor: staffActorOf(staff.id),
        mode: body.mode,
      });
      if (!r.ok)
        return refusal({
          status: 409,
          field: 'lines',
          error: r.missing.length
            ? `Нет предложений: ${r.missing.join(', ')}`
            : `Не хватает остатка у предложений: ${r.short.join(', ')}`,
        });
      if (r.changes.length === 0)
        return refusal({ status: 409, field: 'lines', error: 'Ни одно предложение не изменилось' });
      return {
        ok: true,
        body: { data: r.changes.map(changeItem) },
        audit: r.changes.map((c) => ({
          action: 'offer.stock',
          entityType: 'offer',
          entityId: c.offerId,
          before: { quantity: c.previous },
          after: { quantity: c.quantity, kind: body.kind, bulk: body.mode },
          reason: body.note,
        })),
        afterCommit: tell(r.notices),
      };
    },
  });
}
