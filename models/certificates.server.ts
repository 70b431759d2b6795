import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '~/db/client.server';
import { certificateMoves, giftCertificates } from '~/db/schema';
import { applyCertificates, certificateState, CERTIFICATE_TEXT } from '~/core/gift-certificates';

// The gift certificate ledger (content/pages/podarochnye-sertifikaty.md): redeeming at checkout
// and giving back when an unpaid order is released or a return is refunded. Each runs inside
// the caller's transaction; the rows are locked in code order so two orders spending one
// certificate queue up, and the balance moves by conditional updates, so it never goes below zero
// and never above the nominal (the table checks both as well).

export type RedeemResult =
  | { ok: true; totalKopecks: number; amounts: { code: string; amountKopecks: number }[] }
  | { ok: false; code: string; error: string };

/**
 * Pays up to `dueKopecks` of order `orderId` with the certificates `codes` (normalised, in the
 * shopper's order). All or nothing: on a refusal nothing was written and the caller rolls back.
 */
export async function redeemCertificates(
  tx: Database,
  input: { orderId: number; codes: readonly string[]; dueKopecks: number; now: Date },
): Promise<RedeemResult> {
  if (input.codes.length === 0) return { ok: true, totalKopecks: 0, amounts: [] };
  const rows = await tx
    .select({
      id: giftCertificates.id,
      code: giftCertificates.code,
      balanceKopecks: giftCertificates.balanceKopecks,
      expiresAt: giftCertificates.expiresAt,
      voidedAt: giftCertificates.voidedAt,
    })
    .from(giftCertificates)
    .where(inArray(giftCertificates.code, [...input.codes]))
    .orderBy(asc(giftCertificates.code))
    .for('update');
  const byCode = new Map(rows.map((r) => [r.code, r]));
  const ordered = [];
  for (const code of input.codes) {
    const row = byCode.get(code);
    if (!row) return { ok: false, code, error: CERTIFICATE_TEXT.notFound };
    const state = certificateState(row, input.now);
    if (!state.ok) return { ok: false, code, error: state.error };
    ordered.push(row);
  }
  const applied = applyCertificates(input.dueKopecks, ordered);
  if (!applied.ok) return applied;
  for (const a of applied.amounts) {
    const row = byCode.get(a.code) as (typeof rows)[number];
    const updated = await tx
      .update(giftCertificates)
      .set({ balanceKopecks: sql`${giftCertificates.balanceKopecks} - ${a.amountKopecks}` })
      .where(and(eq(giftCertificates.id, row.id), sql`${giftCertificates.balanceKopecks} >= ${a.amountKopecks}`))
      .returning({ id: giftCertificates.id });
    // Under the row lock this cannot miss; if it ever did, nothing is spent twice.
    if (updated.length === 0) return { ok: false, code: a.code, error: CERTIFICATE_TEXT.changed };
    await tx.insert(certificateMoves).values({
      certificateId: row.id,
      kind: 'redeem',
      amountKopecks: -a.amountKopecks,
      orderId: input.orderId,
      createdAt: input.now,
    });
  }
  return { ok: true, totalKopecks: applied.totalKopecks, amounts: applied.amounts };
}

/**
 * Puts money back on the certificates that paid order `orderId`: all that is still out
 * (`amountKopecks: 'all'`, an unpaid order released) or a return's share. The certificate that
 * paid last gets back first. Returns what was put back.
 */
export async function giveBackToCertificates(
  tx: Database,
  input: {
    orderId: number;
    amountKopecks: number | 'all';
    kind: 'release' | 'refund' | 'fitting';
    returnRequestId?: number | null;
    now: Date;
  },
): Promise<number> {
  const moves = await tx
    .select({
      id: certificateMoves.id,
      certificateId: certificateMoves.certificateId,
      amountKopecks: certificateMoves.amountKopecks,
    })
    .from(certificateMoves)
    // Only paying and giving back: the order may also be where a certificate was bought ('issue')
    // or returned whole ('void').
    .where(
      and(
        eq(certificateMoves.orderId, input.orderId),
        inArray(certificateMoves.kind, ['redeem', 'release', 'refund', 'fitting']),
      ),
    )
    .orderBy(asc(certificateMoves.id));
  // What each certificate paid for this order, less what it already got back.
  const out = new Map<number, number>();
  for (const m of moves) out.set(m.certificateId, (out.get(m.certificateId) ?? 0) - m.amountKopecks);
  const owed = [...out].filter(([, v]) => v > 0).reverse();
  if (owed.length === 0) return 0;
  // Locked in code order, as redeeming locks them: one lock order for any set of rows.
  await tx
    .select({ id: giftCertificates.id })
    .from(giftCertificates)
    .where(
      inArray(
        giftCertificates.id,
        owed.map(([id]) => id),
      ),
    )
    .orderBy(asc(giftCertificates.code))
    .for('update');
  let left = input.amountKopecks === 'all' ? Number.MAX_SAFE_INTEGER : input.amountKopecks;
  let given = 0;
  for (const [certificateId, amount] of owed) {
    if (left <= 0) break;
    const back = Math.min(amount, left);
    await tx
      .update(giftCertificates)
      .set({ balanceKopecks: sql`${giftCertificates.balanceKopecks} + ${back}` })
      .where(eq(giftCertificates.id, certificateId));
    await tx.insert(certificateMoves).values({
      certificateId,
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

/** What the courier's fitting put back onto the certificates that paid order `orderId` (their part the kept items did not use). */
export async function certificateBackAtFitting(tx: Database, orderId: number): Promise<number> {
  const [row] = await tx
    .select({ sum: sql<string | null>`sum(${certificateMoves.amountKopecks})` })
    .from(certificateMoves)
    .where(and(eq(certificateMoves.orderId, orderId), eq(certificateMoves.kind, 'fitting')));
  return Number(row?.sum ?? 0);
}
