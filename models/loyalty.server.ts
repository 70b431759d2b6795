import { and, asc, desc, eq, gt, inArray, lte, sql } from 'drizzle-orm';
import type { Database } from '~/db/client.server';
import { bonusLots, bonusMoves, customers } from '~/db/schema';
import { bonusExpiry, formatBonuses, takeFromLots } from '~/core/loyalty';

// The bonus ledger (content/pages/loyalty.md; core/loyalty.ts has the rules). Spending and giving
// back run inside the caller's transaction under the customer's row lock, so two orders spending
// the same bonuses at once queue up and the second sees what the first left; a lot's remaining
// never goes below zero (conditional update, and the table's check).

/**
 * Lock the customer's bonuses for the rest of the transaction. 'no key update': an order being
 * inserted for this customer holds a key-share lock on the row (its foreign key), which a plain
 * 'update' lock would wait for, so two orders of one customer would deadlock.
 */
async function lockCustomer(tx: Database, customerId: number): Promise<void> {
  await tx.select({ id: customers.id }).from(customers).where(eq(customers.id, customerId)).for('no key update');
}

function spendable(customerId: number, now: Date) {
  return and(
    eq(bonusLots.customerId, customerId),
    gt(bonusLots.remainingKopecks, 0),
    lte(bonusLots.availableFrom, now),
    gt(bonusLots.expiresAt, now),
  );
}

/** Bonuses the customer can spend now, in kopecks (whole roubles). */
export async function bonusBalance(db: Database, customerId: number, now = new Date()): Promise<number> {
  const [row] = await db
    .select({ sum: sql<string | null>`sum(${bonusLots.remainingKopecks})` })
    .from(bonusLots)
    .where(spendable(customerId, now));
  return Number(row?.sum ?? 0);
}

/** Spends `amountKopecks` for order `orderId` from the lots that expire first; false when the balance is short. */
export async function spendBonuses(
  tx: Database,
  input: { customerId: number; orderId: number; amountKopecks: number; now: Date },
): Promise<boolean> {
  if (input.amountKopecks <= 0) return true;
  await lockCustomer(tx, input.customerId);
  const lots = await tx
    .select({ id: bonusLots.id, remainingKopecks: bonusLots.remainingKopecks, expiresAt: bonusLots.expiresAt })
    .from(bonusLots)
    .where(spendable(input.customerId, input.now));
  const taken = takeFromLots(lots, input.amountKopecks);
  if (!taken) return false;
  for (const t of taken) {
    const updated = await tx
      .update(bonusLots)
      .set({ remainingKopecks: sql`${bonusLots.remainingKopecks} - ${t.amountKopecks}` })
      .where(and(eq(bonusLots.id, t.lotId), sql`${bonusLots.remainingKopecks} >= ${t.amountKopecks}`))
      .returning({ id: bonusLots.id });
    if (updated.length === 0) throw new Error(`bonus lot ${t.lotId} changed under its lock`);
    await tx.insert(bonusMoves).values({
      customerId: input.customerId,
      lotId: t.lotId,
      kind: 'spend',
      amountKopecks: -t.amountKopecks,
      orderId: input.orderId,
      createdAt: input.now,
    });
  }
  return true;
}

/**
 * Puts bonuses spent on order `orderId` back into the lots they came from, keeping those lots'
 * expiry ("в пределах исходного срока"): all still out (`'all'`: an unpaid order released) or a
 * return's share. Lots that last longest get theirs back first. Returns what was put back.
 */
export async function giveBackBonuses(
  tx: Database,
  input: {
    customerId: number;
    orderId: number;
    amountKopecks: number | 'all';
    kind: 'release' | 'restore';
    returnRequestId?: number | null;
    now: Date;
  },
): Promise<number> {
  await lockCustomer(tx, input.customerId);
  const moves = await tx
    .select({ lotId: bonusMoves.lotId, amountKopecks: bonusMoves.amountKopecks })
    .from(bonusMoves)
    .where(
      and(
        eq(bonusMoves.orderId, input.orderId),
        eq(bonusMoves.customerId, input.customerId),
        inArray(bonusMoves.kind, ['spend', 'release', 'restore']),
      ),
    );
  const out = new Map<number, number>();
  for (const m of moves) if (m.lotId !== null) out.set(m.lotId, (out.get(m.lotId) ?? 0) - m.amountKopecks);
  const lotIds = [...out].filter(([, v]) => v > 0).map(([id]) => id);
  if (lotIds.length === 0) return 0;
  const lots = await tx
    .select({ id: bonusLots.id })
    .from(bonusLots)
    .where(inArray(bonusLots.id, lotIds))
    .orderBy(desc(bonusLots.expiresAt), asc(bonusLots.id));
  let left = input.amountKopecks === 'all' ? Number.MAX_SAFE_INTEGER : input.amountKopecks;
  let given = 0;
  for (const lot of lots) {
    if (left <= 0) break;
    const back = Math.min(out.get(lot.id) ?? 0, left);
    if (back <= 0) continue;
    await tx
      .update(bonusLots)
      .set({ remainingKopecks: sql`${bonusLots.remainingKopecks} + ${back}` })
      .where(eq(bonusLots.id, lot.id));
    await tx.insert(bonusMoves).values({
      customerId: input.customerId,
      lotId: lot.id,
      kind: input.kind,
      amountKopecks: back,
      orderId: input.orderId,
      returnRequestId: input.returnRequestId ?? null,
      createdAt: input.now,
    });
    left -= back;
    given += back;
  }
  return given;
}

/**
 * A return cancels the bonuses accrued for the returned units (content/pages/loyalty.md «бонусы,
 * начисленные за неё, аннулируются»): taken from what is left of the order's purchase lot
 * (`order:<id>`), as a 'cancel' move. Not yet credited: nothing to do, the accrual counts only
 * what was kept. Spent already: only what remains can be taken, never below zero. Returns what
 * was taken.
 */
export async function cancelAccrual(
  tx: Database,
  input: { customerId: number; orderId: number; amountKopecks: number; returnRequestId: number; now: Date },
): Promise<number> {
  if (input.amountKopecks <= 0) return 0;
  await lockCustomer(tx, input.customerId);
  const [lot] = await tx
    .select({ id: bonusLots.id, remainingKopecks: bonusLots.remainingKopecks })
    .from(bonusLots)
    .where(and(eq(bonusLots.customerId, input.customerId), eq(bonusLots.lotKey, `order:${input.orderId}`)))
    .limit(1);
  const take = Math.min(lot?.remainingKopecks ?? 0, input.amountKopecks);
  if (!lot || take <= 0) return 0;
  const updated = await tx
    .update(bonusLots)
    .set({ remainingKopecks: sql`${bonusLots.remainingKopecks} - ${take}` })
    .where(and(eq(bonusLots.id, lot.id), sql`${bonusLots.remainingKopecks} >= ${take}`))
    .returning({ id: bonusLots.id });
  if (updated.length === 0) throw new Error(`bonus lot ${lot.id} changed under its lock`);
  await tx.insert(bonusMoves).values({
    customerId: input.customerId,
    lotId: lot.id,
    kind: 'cancel',
    amountKopecks: -take,
    orderId: input.orderId,
    returnRequestId: input.returnRequestId,
    createdAt: input.now,
  });
  return take;
}

export type BonusAdjustResult =
  | { ok: true; beforeKopecks: number; afterKopecks: number; lotId: number | null }
  | { ok: false; status: number; field: string; error: string };

/**
 * Staff's manual adjustment (issue #29, the back office's customer page): + a new 'manual' lot
 * valid 12 months, or − taken from the lots that expire first, as 'manual' moves. Under the
 * customer's row lock inside the caller's transaction, so two adjustments at once queue up and
 * the balance never goes below zero: taking more than there is is refused. Whole roubles only.
 */
export async function adjustBonuses(
  tx: Database,
  input: { customerId: number; amountKopecks: number; now: Date; key: string },
): Promise<BonusAdjustResult> {
  const [customer] = await tx
    .select({ id: customers.id })
    .from(customers)
    .where(eq(customers.id, input.customerId))
    .for('no key update');
  if (!customer) return { ok: false, status: 404, field: 'id', error: 'Покупатель не найден' };
  const before = await bonusBalance(tx, input.customerId, input.now);
  if (input.amountKopecks > 0) {
    const [lot] = await tx
      .insert(bonusLots)
      .values({
        customerId: input.customerId,
        kind: 'manual',
        lotKey: `manual:${input.key}`,
        amountKopecks: input.amountKopecks,
        remainingKopecks: input.amountKopecks,
        availableFrom: input.now,
        expiresAt: bonusExpiry(input.now),
        createdAt: input.now,
      })
      .returning({ id: bonusLots.id });
    if (!lot) throw new Error('manual bonus lot not written');
    await tx.insert(bonusMoves).values({
      customerId: input.customerId,
      lotId: lot.id,
      kind: 'manual',
      amountKopecks: input.amountKopecks,
      createdAt: input.now,
    });
    return { ok: true, beforeKopecks: before, afterKopecks: before + input.amountKopecks, lotId: lot.id };
  }
  const take = -input.amountKopecks;
  const lots = await tx
    .select({ id: bonusLots.id, remainingKopecks: bonusLots.remainingKopecks, expiresAt: bonusLots.expiresAt })
    .from(bonusLots)
    .where(spendable(input.customerId, input.now));
  const taken = takeFromLots(lots, take);
  if (!taken)
    return {
      ok: false,
      status: 409,
      field: 'amount_kopecks',
      error: `На счёте ${formatBonuses(before)}: списать больше нельзя`,
    };
  for (const t of taken) {
    const updated = await tx
      .update(bonusLots)
      .set({ remainingKopecks: sql`${bonusLots.remainingKopecks} - ${t.amountKopecks}` })
      .where(and(eq(bonusLots.id, t.lotId), sql`${bonusLots.remainingKopecks} >= ${t.amountKopecks}`))
      .returning({ id: bonusLots.id });
    if (updated.length === 0) throw new Error(`bonus lot ${t.lotId} changed under its lock`);
    await tx.insert(bonusMoves).values({
      customerId: input.customerId,
      lotId: t.lotId,
      kind: 'manual',
      amountKopecks: -t.amountKopecks,
      createdAt: input.now,
    });
  }
  return { ok: true, beforeKopecks: before, afterKopecks: before - take, lotId: null };
}
