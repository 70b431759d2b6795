import { and, asc, eq, gt, inArray, isNotNull, lte, sql } from 'drizzle-orm';
import type { Database } from '~/db/client.server';
import { bonusLots, bonusMoves, customers, offers, orderItems, orders, products } from '~/db/schema';
import { accrualDueAt, birthdayWindow, bonusExpiry, LOYALTY } from '~/core/loyalty';
import { birthdayMonthDaysAround, orderAccrualKopecks, type AccrualItem } from '~/core/loyalty-account';
import { enqueueJob, type JobHandler } from './jobs.server';

// The loyalty programme's time-based steps (content/pages/loyalty.md), as jobs of the job table
// (models/jobs.server.ts): 'bonus.accrue' credits a received order's 5 % when its return period
// is over; the periodic 'loyalty.daily' grants birthday bonuses and burns expired ones. Each step
// writes at most once however often it runs and however many processes run it: a lot is unique
// per (customer, lot key), and expiry works under the customer's row lock, as spending does.

export const ACCRUE_JOB = 'bonus.accrue';
export const LOYALTY_DAILY_JOB = 'loyalty.daily';

interface Log {
  info(obj: object, msg: string): void;
}

const quietLog: Log = { info() {} };

export function loyaltyJobHandlers({ db, log = quietLog }: { db: Database; log?: Log }): Record<string, JobHandler> {
  return {
    // The job's run_at is the schedule (14 days after receipt): when it runs, it credits, so
    // `npm run jobs -- run bonus.accrue` can bring crediting forward.
    [ACCRUE_JOB]: async (payload) => {
      const credited = await accrueOrderBonuses(db, Number(payload.orderId));
      if (credited) log.info({ orderId: Number(payload.orderId), kopecks: credited }, 'bonuses credited');
    },
    [LOYALTY_DAILY_JOB]: async () => {
      const now = new Date();
      const granted = await grantBirthdayBonuses(db, now);
      const expired = await expireBonuses(db, now);
      if (granted || expired.lots)
        log.info(
          { birthdays: granted, expiredLots: expired.lots, expiredKopecks: expired.kopecks },
          'loyalty daily run',
        );
    },
  };
}

/**
 * Called in the transaction that makes an order 'received': its accrual becomes due when the
 * return period is over, counted from when the shopper got it (orders.delivered_at).
 */
export async function scheduleAccrual(tx: Database, orderId: number, receivedAt: Date): Promise<void> {
  await enqueueJob(tx, ACCRUE_JOB, { orderId }, accrualDueAt(receivedAt));
}

/** The order's lines as accrual reads them, with their products' certificate flag. */
export async function accrualItems(db: Database, orderIds: readonly number[]): Promise<Map<number, AccrualItem[]>> {
  const out = new Map<number, AccrualItem[]>();
  if (orderIds.length === 0) return out;
  const rows = await db
    .select({
      orderId: orderItems.orderId,
      priceKopecks: orderItems.priceKopecks,
      oldPriceKopecks: orderItems.oldPriceKopecks,
      quantity: orderItems.quantity,
      discountKopecks: orderItems.discountKopecks,
      bonusKopecks: orderItems.bonusKopecks,
      returnedQuantity: orderItems.returnedQuantity,
      keptQuantity: orderItems.keptQuantity,
      isGift: orderItems.isGift,
      certificate: products.certificate,
    })
    .from(orderItems)
    .innerJoin(offers, eq(offers.id, orderItems.offerId))
    .innerJoin(products, eq(products.id, offers.productId))
    .where(inArray(orderItems.orderId, [...orderIds]));
  for (const { orderId, certificate, ...r } of rows) {
    const list = out.get(orderId) ?? [];
    list.push({ ...r, certificate: certificate !== null });
    out.set(orderId, list);
  }
  return out;
}

/**
 * Credits a received order's bonuses once: a 'purchase' lot keyed `order:<id>`, spendable now,
 * expiring in 12 months, and its 'credit' move. Nothing for a guest's order, one no longer
 * received, or one that earns 0. The order row is locked so a return being approved at the same
 * moment is either seen here (its quantities earn nothing) or sees this lot. Returns the
 * bonuses credited by this call (0 when already credited).
 */
export async function accrueOrderBonuses(db: Database, orderId: number, now = new Date()): Promise<number> {
  return db.transaction(async (txn) => {
    const tx = txn as unknown as Database;
    const [order] = await tx
      .select({ id: orders.id, customerId: orders.customerId, status: orders.status })
      .from(orders)
      .where(eq(orders.id, orderId))
      .for('update')
      .limit(1);
    if (!order || order.customerId === null || order.status !== 'received') return 0;
    const kopecks = orderAccrualKopecks((await accrualItems(tx, [orderId])).get(orderId) ?? []);
    if (kopecks <= 0) return 0;
    const [lot] = await tx
      .insert(bonusLots)
      .values({
        customerId: order.customerId,
        kind: 'purchase',
        lotKey: `order:${orderId}`,
        orderId,
        amountKopecks: kopecks,
        remainingKopecks: kopecks,
        availableFrom: now,
        expiresAt: bonusExpiry(now),
        createdAt: now,
      })
      .onConflictDoNothing({ target: [bonusLots.customerId, bonusLots.lotKey] })
      .returning({ id: bonusLots.id });
    if (!lot) return 0;
    await tx.insert(bonusMoves).values({
      customerId: order.customerId,
      lotId: lot.id,
      kind: 'credit',
      amountKopecks: kopecks,
      orderId,
      createdAt: now,
    });
    return kopecks;
  });
}

/**
 * Grants 2 000 bonuses to `customerId` if their birthday window is open at `now` and this
 * year's gift is not there yet: a 'birthday' lot keyed `birthday:<year>`, spendable from the
 * window's first day to its last. Returns whether this call granted it.
 */
export async function grantBirthdayBonus(
  db: Database,
  customerId: number,
  birthday: string,
  now = new Date(),
): Promise<boolean> {
  const window = birthdayWindow(birthday, now);
  if (!window.current) return false;
  return db.transaction(async (txn) => {
    const tx = txn as unknown as Database;
    const [lot] = await tx
      .insert(bonusLots)
      .values({
        customerId,
        kind: 'birthday',
        lotKey: `birthday:${window.year}`,
        amountKopecks: LOYALTY.birthdayKopecks,
        remainingKopecks: LOYALTY.birthdayKopecks,
        availableFrom: window.from,
        expiresAt: window.to,
        createdAt: now,
      })
      .onConflictDoNothing({ target: [bonusLots.customerId, bonusLots.lotKey] })
      .returning({ id: bonusLots.id });
    if (!lot) return false;
    await tx
      .insert(bonusMoves)
      .values({ customerId, lotId: lot.id, kind: 'birthday', amountKopecks: LOYALTY.birthdayKopecks, createdAt: now });
    return true;
  });
}

/** Every customer whose birthday window is open at `now` gets this year's gift, once. Returns how many got it now. */
export async function grantBirthdayBonuses(db: Database, now = new Date()): Promise<number> {
  // Only birthdays within a week or so of today can be in their window: the rest are not read.
  const days = birthdayMonthDaysAround(now);
  const rows = await db
    .select({ id: customers.id, birthday: customers.birthday })
    .from(customers)
    .where(and(isNotNull(customers.birthday), inArray(sql<string>`substr(${customers.birthday}, 6, 5)`, days)))
    .orderBy(asc(customers.id));
  let granted = 0;
  for (const row of rows) if (row.birthday && (await grantBirthdayBonus(db, row.id, row.birthday, now))) granted++;
  return granted;
}

/**
 * Burns what is left on lots past their expiry: an 'expire' move of minus the remainder (the
 * history says «Сгорели») and the lot emptied. Per customer under their row lock, like spending,
 * so a spend or a second runner at the same moment cannot double the move.
 */
export async function expireBonuses(db: Database, now = new Date()): Promise<{ lots: number; kopecks: number }> {
  const due = await db
    .selectDistinct({ customerId: bonusLots.customerId })
    .from(bonusLots)
    .where(and(lte(bonusLots.expiresAt, now), gt(bonusLots.remainingKopecks, 0)))
    .orderBy(asc(bonusLots.customerId));
  let lots = 0;
  let kopecks = 0;
  for (const { customerId } of due) {
    await db.transaction(async (txn) => {
      const tx = txn as unknown as Database;
      // The lock spending takes ('no key update': it does not wait for an order being inserted).
      await tx.select({ id: customers.id }).from(customers).where(eq(customers.id, customerId)).for('no key update');
      // Read again under the lock: a second runner finds these lots already empty.
      const expired = await tx
        .select({ id: bonusLots.id, remaining: bonusLots.remainingKopecks })
        .from(bonusLots)
        .where(
          and(eq(bonusLots.customerId, customerId), lte(bonusLots.expiresAt, now), gt(bonusLots.remainingKopecks, 0)),
        )
        .orderBy(asc(bonusLots.id));
      for (const lot of expired) {
        const emptied = await tx
          .update(bonusLots)
          .set({ remainingKopecks: 0 })
          .where(and(eq(bonusLots.id, lot.id), eq(bonusLots.remainingKopecks, lot.remaining)))
          .returning({ id: bonusLots.id });
        if (emptied.length !== 1) throw new Error(`bonus lot ${lot.id} changed under its lock`);
        await tx
          .insert(bonusMoves)
          .values({ customerId, lotId: lot.id, kind: 'expire', amountKopecks: -lot.remaining, createdAt: now });
        lots++;
        kopecks += lot.remaining;
      }
    });
  }
  return { lots, kopecks };
}
