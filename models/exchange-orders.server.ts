import { and, asc, eq, sql } from 'drizzle-orm';
import type { Database } from '~/db/client.server';
import { offers, orderItems, orderNotes, orders, orderStatusHistory, products } from '~/db/schema';
import { exportLineId } from '~/core/commerceml';
import { mergeInfo, planOf, sameInfo, statusMoves, type OneCOrderInfo } from '~/core/commerceml-orders';
import { planOrderLines, type OneCOrderLine } from '~/core/commerceml-order-lines';
import { payChannel } from '~/core/order-money';
import type { StockActor } from '~/core/stock-ledger';
import { writeAudit, type AuditActor } from './audit.server';
import { markOrderPaidOnReceipt } from './admin-orders.server';
import { giveBackToCertificates } from './certificates.server';
import { giveBackBonuses } from './loyalty.server';
import { changeOrderStatusIn, lockOrder } from './order-status.server';
import { moveStock, type BackInStockNotice } from './stock.server';
import type { OrderRecord } from './exchange-xml.server';

// Orders 1C sends back (type=sale&mode=file + mode=import; issue #31, docs/exchange-1c.md). Each
// <Документ> is applied in a savepoint of the import step's transaction, through the shop's own
// order functions (changeOrderStatusIn: one allowed move at a time, a cancel releasing the stock;
// markOrderPaidOnReceipt), and audited as the exchange account. A document the site cannot apply
// (no such order, a move the status rules refuse) is rolled back alone and reported by its Ид in
// the import's warnings; the others go on. Applying the same document twice changes nothing: the
// order is already where 1C says, already paid, and keeps the same 1C numbers. The goods 1C
// changed (core/commerceml-order-lines.ts decides what the shop takes) are applied first, while
// the order is still where the site had it: lines, stock back through the ledger (reason
// 'import', the import and the order named), bonuses and certificates back, the order's sums.

class DocumentRefused extends Error {}

export interface OrderStepContext {
  tx: Database;
  staffId: number;
  audit: AuditActor;
  counts: Record<string, number>;
  warnings: string[];
  notices: BackInStockNotice[];
  now: Date;
  /** The import (exchange_imports.id) the stock moves of changed lines name. */
  importId: number;
}

const bump = (c: Record<string, number>, key: string, by = 1) => {
  c[key] = (c[key] ?? 0) + by;
};

export async function applyOrderRecords(ctx: OrderStepContext, records: OrderRecord[]): Promise<void> {
  for (const doc of records) {
    const label = `Документ ${doc.id || doc.number}${doc.number && doc.number !== doc.id ? ` (№ ${doc.number})` : ''}`;
    const notices: BackInStockNotice[] = [];
    const warnings: string[] = [];
    // The document's own counts: a document rolled back counts only as refused.
    const counts: Record<string, number> = {};
    try {
      const changed = await ctx.tx.transaction(async (sp) =>
        applyDocument(sp as unknown as Database, { ...ctx, counts }, doc, notices, warnings),
      );
      bump(ctx.counts, changed ? 'orders_updated' : 'orders_unchanged');
      for (const [k, n] of Object.entries(counts)) bump(ctx.counts, k, n);
      ctx.notices.push(...notices);
      ctx.warnings.push(...warnings.map((w) => `${label}: ${w}`));
    } catch (error) {
      if (!(error instanceof DocumentRefused)) throw error;
      bump(ctx.counts, 'orders_refused');
      ctx.warnings.push(`${label}: ${error.message}`);
    }
  }
}

/** One document under the order's row lock; true when it changed the order. Throws DocumentRefused to roll it back. */
async function applyDocument(
  tx: Database,
  ctx: OrderStepContext,
  doc: OrderRecord,
  notices: BackInStockNotice[],
  warnings: string[],
): Promise<boolean> {
  const plan = planOf(doc);
  if (plan.orderId === null) throw new DocumentRefused('не указан номер заказа сайта');
  const order = await lockOrder(tx, plan.orderId);
  if (!order) throw new DocumentRefused(`заказа ${plan.orderId} нет на сайте`);
  const [row] = await tx
    .select({
      paidAt: orders.paidAt,
      info: orders.exchange1c,
      confirmedAt: orders.exchangeConfirmedAt,
      deliveryCostPending: orders.deliveryCostPending,
    })
    .from(orders)
    .where(eq(orders.id, order.id));
  if (plan.unknownStatus) warnings.push(`статус «${plan.unknownStatus}» сайту не знаком, статус заказа не изменён`);

  const before = {
    status: order.status,
    paid_at: row!.paidAt?.toISOString() ?? null,
    exchange_1c: row!.info,
    total_kopecks: order.totalKopecks,
  };
  const actor: StockActor = { kind: 'staff', id: ctx.staffId };

  // The goods first, while the order is where the site had it (1C may lower a line and ship it in one document).
  const lines = await applyLines(tx, ctx, {
    order,
    paid: row!.paidAt !== null || order.paidKopecks !== null,
    deliveryCostPending: row!.deliveryCostPending,
    goods: doc.goods,
    cancelling: plan.status === 'cancelled',
    notices,
    warnings,
  });
  const info = plan.info;
  const what = [
    info.number ? `№ ${info.number}${info.date ? ` от ${info.date}` : ''}` : '',
    info.shipmentNumber
      ? `отгрузка № ${info.shipmentNumber}${info.shipmentDate ? ` от ${info.shipmentDate}` : ''}`
      : '',
  ]
    .filter(Boolean)
    .join(', ');
  const note = `Из 1С${what ? `: ${what}` : ''}`;

  let moved = false;
  if (plan.status) {
    for (const to of statusMoves(order.status, plan.status)) {
      const r = await changeOrderStatusIn(tx, { orderId: order.id, to, note, actor, now: ctx.now });
      if (!r.ok) throw new DocumentRefused(r.error);
      if (r.released) notices.push(...r.released.notices);
      moved = true;
    }
  }

  let paid = false;
  if (plan.paid && !row!.paidAt) {
    if (payChannel(order.paymentId) !== 'receipt')
      throw new DocumentRefused('оплату онлайн подтверждает платёжная система, а не 1С: заказ не отмечен оплаченным');
    // 1C's payment date when it reads as one (and is not in the future), else now.
    const at = plan.paidAt && plan.paidAt <= ctx.now ? plan.paidAt : ctx.now;
    const r = await markOrderPaidOnReceipt(tx, { orderId: order.id, now: at });
    if (!r.ok) throw new DocumentRefused(r.error);
    paid = true;
  }

  const merged = mergeInfo(row!.info, info);
  const infoChanged = !sameInfo(row!.info, merged);
  // 1C has the order: from now on its units are in 1C's quantities (the stock import stops holding them out).
  const acknowledged = row!.confirmedAt === null;
  if (infoChanged || acknowledged)
    await tx
      .update(orders)
      .set({
        ...(infoChanged ? { exchange1c: merged } : {}),
        ...(acknowledged ? { exchangeConfirmedAt: sql`now()` } : {}),
      })
      .where(eq(orders.id, order.id));
  if (!moved && !paid && !infoChanged && !lines) return false;

  const [after] = await tx
    .select({ status: orders.status, paidAt: orders.paidAt, totalKopecks: orders.totalKopecks })
    .from(orders)
    .where(eq(orders.id, order.id));
  await writeAudit(tx, ctx.audit, {
    action: 'exchange.order',
    entityType: 'order',
    entityId: order.id,
    before,
    after: {
      status: after!.status,
      paid_at: after!.paidAt?.toISOString() ?? null,
      exchange_1c: merged satisfies OneCOrderInfo,
      total_kopecks: after!.totalKopecks,
      ...(lines ? { lines } : {}),
      document: doc.id || doc.number,
    },
  });
  return true;
}

type LockedOrder = NonNullable<Awaited<ReturnType<typeof lockOrder>>>;

/**
 * The goods of 1C's document against the order's lines (core/commerceml-order-lines.ts). Applied:
 * the lines rewritten (a line of none deleted), their units back on the shelf through the ledger,
 * the bonuses and certificates the order no longer uses given back, the order's sums set from the
 * one breakdown, a history note the shopper sees. Refused: the reason in the import's warnings
 * and, once, in a note on the order for staff. Returns what changed (for the audit), or null.
 */
async function applyLines(
  tx: Database,
  ctx: OrderStepContext,
  input: {
    order: LockedOrder;
    paid: boolean;
    deliveryCostPending: boolean;
    goods: OneCOrderLine[] | null | undefined;
    cancelling: boolean;
    notices: BackInStockNotice[];
    warnings: string[];
  },
): Promise<
  { change: string; id: string; from: number; to: number; price_from: number | null; price_to: number | null }[] | null
> {
  const { order } = input;
  if (!input.goods) return null;
  const rows = await tx
    .select({
      offerId: orderItems.offerId,
      isPreorder: orderItems.isPreorder,
      isGift: orderItems.isGift,
      title: orderItems.title,
      size: orderItems.size,
      priceKopecks: orderItems.priceKopecks,
      oldPriceKopecks: orderItems.oldPriceKopecks,
      quantity: orderItems.quantity,
      keptQuantity: orderItems.keptQuantity,
      discountKopecks: orderItems.discountKopecks,
      bonusKopecks: orderItems.bonusKopecks,
      offerExternalId: offers.externalId,
      productExternalId: products.externalId,
      certificate: products.certificate,
    })
    .from(orderItems)
    .innerJoin(offers, eq(offers.id, orderItems.offerId))
    .innerJoin(products, eq(products.id, offers.productId))
    .where(eq(orderItems.orderId, order.id))
    .orderBy(asc(orderItems.offerId), asc(orderItems.isPreorder));
  const plan = planOrderLines({
    order: {
      status: order.status,
      paymentId: order.paymentId,
      paid: input.paid,
      deliveryKopecks: order.deliveryCostKopecks,
      deliveryPending: input.deliveryCostPending,
      certificateKopecks: order.certificateKopecks,
    },
    lines: rows.map(({ offerExternalId, productExternalId, certificate, ...r }) => ({
      ...r,
      certificate: certificate !== null,
      externalId: exportLineId(offerExternalId, productExternalId, r.offerId),
    })),
    goods: input.goods,
    cancelling: input.cancelling,
  });
  input.warnings.push(...plan.warnings);
  if (plan.kind === 'none') return null;
  if (plan.kind === 'refused') {
    bump(ctx.counts, 'order_lines_refused');
    input.warnings.push(plan.reason);
    // Staff see it on the order's page too; the same document again adds no second note.
    const text = `Из 1С пришёл другой состав заказа, он не применён: ${plan.reason}`;
    const [noted] = await tx
      .select({ id: orderNotes.id })
      .from(orderNotes)
      .where(and(eq(orderNotes.orderId, order.id), eq(orderNotes.text, text)))
      .limit(1);
    if (!noted)
      await tx
        .insert(orderNotes)
        .values({ orderId: order.id, text, staffId: ctx.staffId, authorLabel: ctx.audit.label, createdAt: ctx.now });
    return null;
  }

  for (const l of plan.lines) {
    const key = and(
      eq(orderItems.orderId, order.id),
      eq(orderItems.offerId, l.offerId),
      eq(orderItems.isPreorder, l.isPreorder),
    );
    if (l.quantity === 0) await tx.delete(orderItems).where(key);
    else
      await tx
        .update(orderItems)
        .set({
          quantity: l.quantity,
          priceKopecks: l.priceKopecks,
          oldPriceKopecks: l.oldPriceKopecks,
          discountKopecks: l.discountKopecks,
          bonusKopecks: l.bonusKopecks,
        })
        .where(key);
  }
  // The one stock function: the units back on the shelf, the waiting list told after the commit.
  const back = await moveStock(tx, {
    lines: plan.stockBack.map((s) => ({ offerId: s.offerId, delta: s.quantity })),
    reason: 'import',
    ref: { orderId: order.id, importId: ctx.importId },
    actor: { kind: 'staff', id: ctx.staffId },
    note: `Заказ ${order.id}: состав изменён в 1С`,
    short: 'clamp',
    now: ctx.now,
  });
  if (!back.ok) throw new Error(`order ${order.id}: stock not given back`);
  input.notices.push(...back.notices);
  if (plan.bonusBackKopecks > 0 && order.customerId !== null)
    await giveBackBonuses(tx, {
      customerId: order.customerId,
      orderId: order.id,
      amountKopecks: plan.bonusBackKopecks,
      kind: 'release',
      now: ctx.now,
    });
  if (plan.certificateBackKopecks > 0)
    await giveBackToCertificates(tx, {
      orderId: order.id,
      amountKopecks: plan.certificateBackKopecks,
      kind: 'release',
      now: ctx.now,
    });
  const money = plan.after;
  await tx
    .update(orders)
    .set({
      itemsTotalKopecks: money.itemsKopecks,
      discountKopecks: money.promoKopecks,
      bonusKopecks: money.bonusKopecks,
      totalKopecks: money.totalKopecks,
      certificateKopecks: money.certificateKopecks,
    })
    .where(eq(orders.id, order.id));
  await tx
    .insert(orderStatusHistory)
    .values({ orderId: order.id, status: order.status, note: plan.note, createdAt: ctx.now });
  if (order.carrierOrderId)
    input.warnings.push('заказ уже зарегистрирован в СДЭК: проверьте состав посылки в личном кабинете СДЭК');
  bump(ctx.counts, 'order_lines_changed');
  return plan.decisions
    .filter((d) => d.change !== 'unchanged')
    .map((d) => ({
      change: d.change,
      id: d.id,
      from: d.quantity.from,
      to: d.quantity.to,
      price_from: d.price.from,
      price_to: d.price.to,
    }));
}
