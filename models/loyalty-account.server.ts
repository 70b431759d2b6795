import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '~/db/client.server';
import { bonusLots, bonusMoves, customers, orders } from '~/db/schema';
import { accrualDueAt } from '~/core/loyalty';
import { orderAccrualKopecks, type BonusMoveKind } from '~/core/loyalty-account';
import { bonusBalance } from './loyalty.server';
import { accrualItems, ACCRUE_JOB, grantBirthdayBonus } from './loyalty-jobs.server';

// The loyalty programme in the personal account: the balance, the history of moves, the
// bonuses still to come from received orders, and the birthday, which is set once. Every
// function takes the customer from the caller's session.

/** Moves shown at most (newest first); older ones stay in the ledger. */
export const HISTORY_LIMIT = 200;

export interface BonusHistoryEntry {
  at: Date;
  kind: BonusMoveKind;
  orderId: number | null;
  amountKopecks: number;
  /** When the bonuses this entry added expire (credits and the birthday gift). */
  expiresAt: Date | null;
}

export interface PendingAccrual {
  orderId: number;
  amountKopecks: number;
  dueAt: Date;
}

export interface BonusAccount {
  balanceKopecks: number;
  birthday: string | null;
  history: BonusHistoryEntry[];
  pending: PendingAccrual[];
}

export async function getBonusAccount({
  db,
  customerId,
  now = new Date(),
}: {
  db: Database;
  customerId: number;
  now?: Date;
}): Promise<BonusAccount> {
  const [customer] = await db
    .select({ birthday: customers.birthday })
    .from(customers)
    .where(eq(customers.id, customerId))
    .limit(1);
  const [balanceKopecks, history, pending] = await Promise.all([
    bonusBalance(db, customerId, now),
    bonusHistory(db, customerId),
    pendingAccruals(db, customerId),
  ]);
  return { balanceKopecks, birthday: customer?.birthday ?? null, history, pending };
}

/**
 * The customer's moves, newest first. One event can touch several lots (a spend taken from two
 * lots, a return given back to them): those moves are one entry, their amounts summed.
 */
async function bonusHistory(db: Database, customerId: number): Promise<BonusHistoryEntry[]> {
  const rows = await db
    .select({
      kind: bonusMoves.kind,
      orderId: bonusMoves.orderId,
      returnRequestId: bonusMoves.returnRequestId,
      amountKopecks: bonusMoves.amountKopecks,
      createdAt: bonusMoves.createdAt,
      expiresAt: bonusLots.expiresAt,
    })
    .from(bonusMoves)
    .leftJoin(bonusLots, eq(bonusLots.id, bonusMoves.lotId))
    .where(eq(bonusMoves.customerId, customerId))
    .orderBy(desc(bonusMoves.id))
    .limit(HISTORY_LIMIT);
  const entries: (BonusHistoryEntry & { key: string })[] = [];
  for (const r of rows) {
    // Expiry is per lot: expired lots stay separate entries, whatever else they share.
    const key =
      r.kind === 'expire'
        ? `expire:${entries.length}`
        : [r.kind, r.orderId, r.returnRequestId, r.createdAt.getTime()].join(':');
    const last = entries[entries.length - 1];
    if (last && last.key === key) {
      last.amountKopecks += r.amountKopecks;
      continue;
    }
    const adds = r.kind === 'credit' || r.kind === 'birthday' || r.kind === 'manual';
    entries.push({
      key,
      at: r.createdAt,
      kind: r.kind,
      orderId: r.orderId,
      amountKopecks: r.amountKopecks,
      expiresAt: adds ? r.expiresAt : null,
    });
  }
  return entries.map(({ key: _key, ...e }) => e);
}

/** Received orders whose bonuses are scheduled and not credited yet, with what they will bring and when. */
async function pendingAccruals(db: Database, customerId: number): Promise<PendingAccrual[]> {
  const rows = await db
    .select({ id: orders.id, deliveredAt: orders.deliveredAt })
    .from(orders)
    .leftJoin(bonusLots, and(eq(bonusLots.customerId, customerId), eq(bonusLots.lotKey, sql`'order:' || ${orders.id}`)))
    .where(
      and(
        eq(orders.customerId, customerId),
        eq(orders.status, 'received'),
        isNull(bonusLots.id),
        sql`exists (select 1 from jobs where jobs.kind = ${ACCRUE_JOB} and jobs.done_at is null and jobs.payload->>'orderId' = ${orders.id}::text)`,
      ),
    )
    .orderBy(desc(orders.id));
  const items = await accrualItems(
    db,
    rows.map((r) => r.id),
  );
  return rows
    .map((r) => ({
      orderId: r.id,
      amountKopecks: orderAccrualKopecks(items.get(r.id) ?? []),
      dueAt: accrualDueAt(r.deliveredAt ?? new Date()),
    }))
    .filter((p) => p.amountKopecks > 0);
}

export type SetBirthdayResult = { ok: true; birthday: string; granted: boolean } | { ok: false; reason: 'already_set' };

/**
 * Stores the birthday if none is stored (one conditional update, so two requests at once set it
 * once); setting the same date again is not a change and answers as done. If the birthday
 * window is open right now the gift is granted at once, rather than at the next daily run.
 */
export async function setBirthday({
  db,
  customerId,
  birthday,
  now = new Date(),
}: {
  db: Database;
  customerId: number;
  birthday: string;
  now?: Date;
}): Promise<SetBirthdayResult> {
  const set = await db
    .update(customers)
    .set({ birthday })
    .where(and(eq(customers.id, customerId), isNull(customers.birthday)))
    .returning({ id: customers.id });
  if (set.length === 0) {
    const [row] = await db
      .select({ birthday: customers.birthday })
      .from(customers)
      .where(eq(customers.id, customerId))
      .limit(1);
    if (row?.birthday !== birthday) return { ok: false, reason: 'already_set' };
  }
  const granted = await grantBirthdayBonus(db, customerId, birthday, now);
  return { ok: true, birthday, granted };
}
