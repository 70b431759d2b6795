import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '~/db/client.server';
import { giftCertificates, rateCounters } from '~/db/schema';
import { CERTIFICATE_TEXT, certificateState, normalizeCertificateCode } from '~/core/gift-certificates';
import { hitRateLimit } from './rate-limit.server';

// The balance check of a gift certificate (check_certificate.php). A code is 15 random digits, so
// guessing needs very many tries: each lookup of a well-formed code that does not exist counts as
// a failure, per IP (10 an hour) and per logged-in customer (30 a day); once either is used up,
// every lookup is refused, a right code too, so the answers stop being an oracle. A code of the
// wrong shape (or check digit) is refused before any lookup and counts nothing: it tells nothing.
// The counters are rate_counters rows (models/rate-limit.server.ts), shared by every process.

export const CERTIFICATE_CHECK_LIMITS = {
  ip: { windowSeconds: 3600, limit: 10 },
  customer: { windowSeconds: 86_400, limit: 30 },
} as const;

export type CertificateCheck =
  | { ok: true; code: string; balanceKopecks: number; expiresAt: Date }
  | { ok: false; reason: 'bad_code' | 'not_found' | 'expired' | 'empty'; error: string }
  | { ok: false; reason: 'rate_limited'; error: string };

function windowStartOf(windowSeconds: number, now: Date): Date {
  const windowMs = windowSeconds * 1000;
  return new Date(Math.floor(now.getTime() / windowMs) * windowMs);
}

export async function checkCertificate({
  db,
  input,
  ip,
  customerId,
  now = new Date(),
}: {
  db: Database;
  input: string;
  ip: string;
  customerId: number | null;
  now?: Date;
}): Promise<CertificateCheck> {
  const code = normalizeCertificateCode(input);
  if (!code) return { ok: false, reason: 'bad_code', error: CERTIFICATE_TEXT.badCode };

  const limits = [
    { key: `certificate-check:ip:${ip}`, ...CERTIFICATE_CHECK_LIMITS.ip },
    ...(customerId !== null
      ? [{ key: `certificate-check:customer:${customerId}`, ...CERTIFICATE_CHECK_LIMITS.customer }]
      : []),
  ];
  // Each lookup first takes a try (one atomic statement per counter, so a burst of requests
  // cannot all slip through at once); a code that exists gives its try back below.
  const taken: typeof limits = [];
  for (const l of limits) {
    if (!(await hitRateLimit({ db, key: l.key, windowSeconds: l.windowSeconds, limit: l.limit, now }))) {
      await giveBack(db, taken, now);
      return { ok: false, reason: 'rate_limited', error: CERTIFICATE_TEXT.rateLimited };
    }
    taken.push(l);
  }

  const [row] = await db
    .select({
      code: giftCertificates.code,
      balanceKopecks: giftCertificates.balanceKopecks,
      expiresAt: giftCertificates.expiresAt,
      voidedAt: giftCertificates.voidedAt,
    })
    .from(giftCertificates)
    .where(eq(giftCertificates.code, code))
    .limit(1);
  if (!row) return { ok: false, reason: 'not_found', error: CERTIFICATE_TEXT.notFound };
  await giveBack(db, taken, now);
  const state = certificateState(row, now);
  if (!state.ok)
    return {
      ok: false,
      reason: row.voidedAt || (row.balanceKopecks <= 0 && row.expiresAt > now) ? 'empty' : 'expired',
      error: state.error,
    };
  return { ok: true, code: row.code, balanceKopecks: row.balanceKopecks, expiresAt: row.expiresAt };
}

/** Un-counts the tries of a lookup that found its certificate. */
async function giveBack(
  db: Database,
  limits: readonly { key: string; windowSeconds: number }[],
  now: Date,
): Promise<void> {
  for (const l of limits) {
    await db
      .update(rateCounters)
      .set({ count: sql`${rateCounters.count} - 1` })
      .where(
        and(
          eq(rateCounters.key, l.key),
          eq(rateCounters.windowStart, windowStartOf(l.windowSeconds, now)),
          sql`${rateCounters.count} > 0`,
        ),
      );
  }
}
