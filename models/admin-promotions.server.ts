import { containsPattern } from '~/db/like';
import { and, asc, desc, eq, gte, inArray, isNotNull, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Database } from '~/db/client.server';
import { certificateMoves, giftCertificates, offers, orders, products, promoCodes } from '~/db/schema';
import type { CertificateKind } from '~/core/gift-certificates';
import { issueManualCertificate } from './certificate-issue.server';

// Promotions and money in the back office (issue #30): promo codes (list, make, edit, expire,
// remove while unused, usage figures from the orders), gift certificates (list by number, one
// with its ledger, issue by hand through certificate-issue.server.ts, void). Each change runs in
// the admin change's transaction with the row locked, and answers before/after for the audit.

export type Refusal = { ok: false; status: number; field: string; error: string };
const refuse = (status: number, field: string, error: string): Refusal => ({ ok: false, status, field, error });

export type PromoRow = typeof promoCodes.$inferSelect;
export interface PromoStats {
  orders: number;
  revenueKopecks: number;
  discountKopecks: number;
}

export type PromoState = 'active' | 'scheduled' | 'expired';
export function promoState(r: PromoRow, now: Date): PromoState {
  if (!r.active || r.expiredAt || (r.validTo && r.validTo.getTime() < now.getTime())) return 'expired';
  if (r.totalLimit !== null && r.usedCount >= r.totalLimit) return 'expired';
  if (r.validFrom && r.validFrom.getTime() > now.getTime()) return 'scheduled';
  return 'active';
}

/** Usage of these codes by orders not cancelled (orders_promo_code_idx). */
export async function promoStats(db: Database, codes: readonly string[]): Promise<Map<string, PromoStats>> {
  const out = new Map<string, PromoStats>();
  if (codes.length === 0) return out;
  const rows = await db
    .select({
      code: orders.promoCode,
      n: sql<number>`count(*)::int`,
      revenue: sql<string>`coalesce(sum(${orders.totalKopecks}), 0)`,
      discount: sql<string>`coalesce(sum(${orders.discountKopecks}), 0)`,
    })
    .from(orders)
    .where(and(inArray(orders.promoCode, [...codes]), sql`${orders.status} <> 'cancelled'`))
    .groupBy(orders.promoCode);
  for (const r of rows)
    if (r.code)
      out.set(r.code, { orders: Number(r.n), revenueKopecks: Number(r.revenue), discountKopecks: Number(r.discount) });
  return out;
}

export async function listPromoRows(
  db: Database,
  input: {
    q?: string | undefined;
    state?: 'active' | 'expired' | undefined;
    now: Date;
    sort: 'code' | 'created_at' | 'valid_to';
    order: 'asc' | 'desc';
    offset: number;
    limit: number;
  },
) {
  const where: SQL[] = [];
  if (input.q) where.push(sql`${promoCodes.code} like ${containsPattern(input.q)}`);
  const expired = or(
    eq(promoCodes.active, false),
    isNotNull(promoCodes.expiredAt),
    lt(promoCodes.validTo, input.now),
    and(isNotNull(promoCodes.totalLimit), sql`${promoCodes.usedCount} >= ${promoCodes.totalLimit}`),
  ) as SQL;
  if (input.state === 'expired') where.push(expired);
  if (input.state === 'active') where.push(sql`not (${expired})`);
  const cond = where.length ? and(...where) : undefined;
  const col = { code: promoCodes.code, created_at: promoCodes.createdAt, valid_to: promoCodes.validTo }[input.sort];
  const dir = input.order === 'asc' ? asc : desc;
  const rows = await db
    .select()
    .from(promoCodes)
    .where(cond)
    .orderBy(dir(col), asc(promoCodes.code))
    .offset(input.offset)
    .limit(input.limit);
  const [count] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(promoCodes)
    .where(cond);
  return { rows, total: Number(count?.n ?? 0) };
}

export async function getPromoRow(db: Database, code: string, forUpdate = false): Promise<PromoRow | null> {
  const q = db.select().from(promoCodes).where(eq(promoCodes.code, code));
  const [row] = await (forUpdate ? q.for('update').limit(1) : q.limit(1));
  return row ?? null;
}

/** What a promo code's audit rows show: its terms, never the counters. */
export function promoSnapshot(r: PromoRow) {
  return {
    kind: r.kind,
    percent: r.percent,
    amount_kopecks: r.amountKopecks,
    min_basket_kopecks: r.minBasketKopecks,
    valid_from: r.validFrom?.toISOString() ?? null,
    valid_to: r.validTo?.toISOString() ?? null,
    total_limit: r.totalLimit,
    per_customer_limit: r.perCustomerLimit,
    exclude_sale: r.excludeSale,
    active: r.active,
    expired_at: r.expiredAt?.toISOString() ?? null,
  };
}

export interface PromoTerms {
  kind: 'percent' | 'fixed';
  percent: number | null;
  amountKopecks: number | null;
  minBasketKopecks: number;
  validFrom: Date | null;
  validTo: Date | null;
  totalLimit: number | null;
  perCustomerLimit: number | null;
}

function checkTerms(t: PromoTerms): Refusal | null {
  if (t.kind === 'percent' && (t.percent === null || t.percent < 1 || t.percent > 100))
    return refuse(400, 'percent', 'Укажите процент скидки от 1 до 100');
  if (t.kind === 'fixed' && (t.amountKopecks === null || t.amountKopecks <= 0))
    return refuse(400, 'amount', 'Укажите сумму скидки в рублях');
  if (t.validFrom && t.validTo && t.validTo.getTime() < t.validFrom.getTime())
    return refuse(400, 'valid_to', 'Дата окончания раньше даты начала');
  if (t.totalLimit !== null && t.perCustomerLimit !== null && t.perCustomerLimit > t.totalLimit)
    return refuse(400, 'per_customer_limit', 'Лимит на покупателя больше общего лимита');
  return null;
}

const termsValues = (t: PromoTerms) => ({
  kind: t.kind,
  percent: t.kind === 'percent' ? t.percent : null,
  amountKopecks: t.kind === 'fixed' ? t.amountKopecks : null,
  minBasketKopecks: t.minBasketKopecks,
  validFrom: t.validFrom,
  validTo: t.validTo,
  totalLimit: t.totalLimit,
  perCustomerLimit: t.perCustomerLimit,
  // content/pages/promo.md: «к вещам из распродажи нельзя применить промокод» — always.
  excludeSale: true,
});

export type PromoChange =
  { ok: true; row: PromoRow; before: Record<string, unknown> | null; after: Record<string, unknown> } | Refusal;

export async function createPromo(
  db: Database,
  input: { code: string; terms: PromoTerms; now: Date },
): Promise<PromoChange> {
  const bad = checkTerms(input.terms);
  if (bad) return bad;
  // No conflict target: a taken code inserts nothing (no error aborting the transaction).
  const [row] = await db
    .insert(promoCodes)
    .values({ code: input.code, ...termsValues(input.terms), active: true, createdAt: input.now })
    .onConflictDoNothing()
    .returning();
  if (!row) return refuse(409, 'code', `Промокод ${input.code} уже есть: придумайте другой`);
  return { ok: true, row, before: null, after: promoSnapshot(row) };
}

/** Only what changed, for the audit's before and after. */
function diff(before: Record<string, unknown>, after: Record<string, unknown>) {
  const b: Record<string, unknown> = {};
  const a: Record<string, unknown> = {};
  for (const k of Object.keys(after))
    if (JSON.stringify(before[k]) !== JSON.stringify(after[k])) {
      b[k] = before[k];
      a[k] = after[k];
    }
  return { b, a };
}

export async function updatePromo(db: Database, input: { code: string; terms: PromoTerms }): Promise<PromoChange> {
  const current = await getPromoRow(db, input.code, true);
  if (!current) return refuse(404, 'code', 'Промокод не найден');
  const bad = checkTerms(input.terms);
  if (bad) return bad;
  if (input.terms.totalLimit !== null && input.terms.totalLimit < current.usedCount)
    return refuse(
      409,
      'total_limit',
      `Промокод уже использован ${current.usedCount} раз: общий лимит не может быть меньше`,
    );
  const [row] = await db
    .update(promoCodes)
    .set(termsValues(input.terms))
    .where(eq(promoCodes.code, input.code))
    .returning();
  if (!row) return refuse(404, 'code', 'Промокод не найден');
  const { b, a } = diff(promoSnapshot(current), promoSnapshot(row));
  if (Object.keys(a).length === 0) return refuse(409, '', 'Ничего не изменилось');
  return { ok: true, row, before: b, after: a };
}

/** Ends a code now: no new order takes it; the orders that used it keep it. */
export async function expirePromo(db: Database, input: { code: string; now: Date }): Promise<PromoChange> {
  const current = await getPromoRow(db, input.code, true);
  if (!current) return refuse(404, 'code', 'Промокод не найден');
  if (!current.active || current.expiredAt) return refuse(409, 'code', 'Промокод уже завершён');
  const [row] = await db
    .update(promoCodes)
    .set({ active: false, expiredAt: input.now })
    .where(eq(promoCodes.code, input.code))
    .returning();
  if (!row) return refuse(404, 'code', 'Промокод не найден');
  return {
    ok: true,
    row,
    before: { active: true, expired_at: null },
    after: { active: false, expired_at: input.now.toISOString() },
  };
}

/** Removes a code no order ever used (a typo made today); a used one can only be expired. */
export async function removePromo(
  db: Database,
  code: string,
): Promise<{ ok: true; before: Record<string, unknown> } | Refusal> {
  const current = await getPromoRow(db, code, true);
  if (!current) return refuse(404, 'code', 'Промокод не найден');
  // Under the code's lock: an order taking it locks the same row first (orders.server.ts).
  const [used] = await db.select({ id: orders.id }).from(orders).where(eq(orders.promoCode, code)).limit(1);
  if (used || current.usedCount > 0)
    return refuse(409, 'code', 'Промокод уже использован в заказах: его нельзя удалить, только завершить');
  await db.delete(promoCodes).where(eq(promoCodes.code, code));
  return { ok: true, before: promoSnapshot(current) };
}

// ---- Gift certificates -------------------------------------------------------------------------

export type CertificateRow = typeof giftCertificates.$inferSelect;

/**
 * Certificates newest first, `q` a number or its beginning (digits only): a range on the
 * code's unique index (`code >= q and code < q + 1`), so it is one index range at 100 000 rows.
 */
export async function listCertificateRows(
  db: Database,
  input: {
    q?: string | undefined;
    state?: 'active' | 'voided' | 'manual' | undefined;
    offset: number;
    limit: number;
    order: 'asc' | 'desc';
  },
) {
  const where: SQL[] = [];
  if (input.q) {
    if (input.q.length === 16) where.push(eq(giftCertificates.code, input.q));
    else {
      const upper = (BigInt(input.q) + 1n).toString().padStart(input.q.length, '0');
      where.push(gte(giftCertificates.code, input.q));
      // '9999' + 1 has one digit more: then there is no upper bound among 16-digit codes.
      if (upper.length === input.q.length) where.push(lt(giftCertificates.code, upper));
    }
  }
  if (input.state === 'voided') where.push(isNotNull(giftCertificates.voidedAt));
  if (input.state === 'active')
    where.push(and(isNull(giftCertificates.voidedAt), sql`${giftCertificates.balanceKopecks} > 0`) as SQL);
  if (input.state === 'manual') where.push(isNotNull(giftCertificates.issuedByStaffId));
  const cond = where.length ? and(...where) : undefined;
  const dir = input.order === 'asc' ? asc : desc;
  const rows = await db
    .select()
    .from(giftCertificates)
    .where(cond)
    .orderBy(dir(giftCertificates.id))
    .offset(input.offset)
    .limit(input.limit);
  const [count] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(giftCertificates)
    .where(cond);
  return { rows, total: Number(count?.n ?? 0) };
}

export async function getCertificateRow(db: Database, id: number) {
  const [row] = await db.select().from(giftCertificates).where(eq(giftCertificates.id, id)).limit(1);
  if (!row) return null;
  const moves = await db
    .select()
    .from(certificateMoves)
    .where(eq(certificateMoves.certificateId, id))
    .orderBy(asc(certificateMoves.id));
  return { row, moves };
}

/**
 * The certificate product's nominals: the prices of the active certificate products (their
 * offers' own prices where set), as the catalogue sells them, so staff edit them in «Товары».
 */
export async function certificateNominals(db: Database): Promise<number[]> {
  const rows = await db
    .select({ price: sql<number>`coalesce(${offers.priceKopecks}, ${products.priceKopecks})` })
    .from(products)
    .innerJoin(offers, eq(offers.productId, products.id))
    .where(and(isNotNull(products.certificate), eq(products.active, true)));
  return [...new Set(rows.map((r) => Number(r.price)))].filter((n) => n > 0).sort((a, b) => a - b);
}

/** A stated amount outside the nominals: 1 000 ₽ to 100 000 ₽ in whole roubles (a goodwill gesture). */
export const MANUAL_CERTIFICATE_RANGE = { minKopecks: 100_000, maxKopecks: 10_000_000 } as const;

export function certificateSnapshot(r: CertificateRow) {
  return {
    kind: r.kind,
    nominal_kopecks: r.nominalKopecks,
    balance_kopecks: r.balanceKopecks,
    email: r.email,
    expires_at: r.expiresAt.toISOString(),
    voided_at: r.voidedAt?.toISOString() ?? null,
    void_reason: r.voidReason,
  };
}

export async function issueCertificateByHand(
  db: Database,
  input: {
    clientKey: string;
    staffId: number;
    kind: CertificateKind;
    nominalKopecks: number;
    email: string;
    note: string;
    now: Date;
  },
): Promise<{ ok: true; row: CertificateRow; created: boolean } | Refusal> {
  const { minKopecks, maxKopecks } = MANUAL_CERTIFICATE_RANGE;
  const nominals = await certificateNominals(db);
  const inRange =
    input.nominalKopecks % 100 === 0 && input.nominalKopecks >= minKopecks && input.nominalKopecks <= maxKopecks;
  if (!nominals.includes(input.nominalKopecks) && !inRange)
    return refuse(400, 'amount', 'Сумма сертификата — один из номиналов или от 1 000 до 100 000 ₽ в целых рублях');
  if (input.kind === 'electronic' && input.email && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(input.email))
    return refuse(400, 'email', 'Проверьте e-mail получателя');
  const issued = await issueManualCertificate(db, input);
  const issueKey = `staff:${input.staffId}:${input.clientKey}`;
  const [row] = await db.select().from(giftCertificates).where(eq(giftCertificates.issueKey, issueKey)).limit(1);
  if (!row) throw new Error(`certificate ${issueKey} was not written`);
  return { ok: true, row, created: issued !== null };
}

/** Voids a certificate: its balance goes with a 'void' move, and it never pays again. */
export async function voidCertificate(
  db: Database,
  input: { id: number; reason: string; now: Date },
): Promise<{ ok: true; before: CertificateRow; row: CertificateRow } | Refusal> {
  const [current] = await db
    .select()
    .from(giftCertificates)
    .where(eq(giftCertificates.id, input.id))
    .for('update')
    .limit(1);
  if (!current) return refuse(404, 'id', 'Сертификат не найден');
  if (current.voidedAt) return refuse(409, 'id', 'Сертификат уже аннулирован');
  const [row] = await db
    .update(giftCertificates)
    .set({ balanceKopecks: 0, voidedAt: input.now, voidReason: input.reason })
    .where(and(eq(giftCertificates.id, input.id), isNull(giftCertificates.voidedAt)))
    .returning();
  if (!row) return refuse(409, 'id', 'Сертификат уже аннулирован');
  if (current.balanceKopecks > 0)
    await db.insert(certificateMoves).values({
      certificateId: input.id,
      kind: 'void',
      amountKopecks: -current.balanceKopecks,
      createdAt: input.now,
    });
  return { ok: true, before: current, row };
}
