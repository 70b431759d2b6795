import { eq, sql } from 'drizzle-orm';
import type { Database } from '~/db/client.server';
import { orders } from '~/db/schema';
import { mergeInfo, planOf, sameInfo, statusMoves, type OneCOrderInfo } from '~/core/commerceml-orders';
import { payChannel } from '~/core/order-money';
import type { StockActor } from '~/core/stock-ledger';
import { writeAudit, type AuditActor } from './audit.server';
import { markOrderPaidOnReceipt } from './admin-orders.server';
import { changeOrderStatusIn, lockOrder } from './order-status.server';
import type { BackInStockNotice } from './stock.server';
import type { OrderRecord } from './exchange-xml.server';

// Orders 1C sends back (type=sale&mode=file + mode=import; issue #31, docs/exchange-1c.md). Each
// <Документ> is applied in a savepoint of the import step's transaction, through the shop's own
// order functions (changeOrderStatusIn: one allowed move at a time, a cancel releasing the stock;
// markOrderPaidOnReceipt), and audited as the exchange account. A document the site cannot apply
// (no such order, a move the status rules refuse) is rolled back alone and reported by its Ид in
// the import's warnings; the others go on. Applying the same document twice changes nothing: the
// order is already where 1C says, already paid, and keeps the same 1C numbers.

class DocumentRefused extends Error {}

export interface OrderStepContext {
  tx: Database;
  staffId: number;
  audit: AuditActor;
  counts: Record<string, number>;
  warnings: string[];
  notices: BackInStockNotice[];
  now: Date;
}

const bump = (c: Record<string, number>, key: string, by = 1) => {
  c[key] = (c[key] ?? 0) + by;
};

export async function applyOrderRecords(ctx: OrderStepContext, records: OrderRecord[]): Promise<void> {
  for (const doc of records) {
    const label = `Документ ${doc.id || doc.number}${doc.number && doc.number !== doc.id ? ` (№ ${doc.number})` : ''}`;
    const notices: BackInStockNotice[] = [];
    const warnings: string[] = [];
    try {
      const changed = await ctx.tx.transaction(async (sp) =>
        applyDocument(sp as unknown as Database, ctx, doc, notices, warnings),
      );
      bump(ctx.counts, changed ? 'orders_updated' : 'orders_unchanged');
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
    .select({ paidAt: orders.paidAt, info: orders.exchange1c, confirmedAt: orders.exchangeConfirmedAt })
    .from(orders)
    .where(eq(orders.id, order.id));
  if (plan.unknownStatus) warnings.push(`статус «${plan.unknownStatus}» сайту не знаком, статус заказа не изменён`);

  const before = { status: order.status, paid_at: row!.paidAt?.toISOString() ?? null, exchange_1c: row!.info };
  const actor: StockActor = { kind: 'staff', id: ctx.staffId };
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
  if (!moved && !paid && !infoChanged) return false;

  const [after] = await tx
    .select({ status: orders.status, paidAt: orders.paidAt })
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
      document: doc.id || doc.number,
    },
  });
  return true;
}
