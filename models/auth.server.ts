import crypto from 'node:crypto';
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import { queryPrepared, type Database } from '~/db/client.server';
import { authCodes, customers, sessions } from '~/db/schema';
import {
  LOGIN_CODE_LENGTH,
  LOGIN_CODE_MAX_ATTEMPTS,
  LOGIN_CODE_TTL_MS,
  phonePrefix,
  RESEND_SECONDS,
  SEND_LIMITS,
  SESSION_TTL_DAYS,
} from '~/core/auth';
import { hitRateLimit } from './rate-limit.server';

// Login codes and sessions (DESIGN.md: sessions are signed tokens carrying an id kept here, so
// logging out really revokes them). Codes are 6 random digits from a cryptographic source,
// stored only as a keyed hash, good for 5 minutes and 5 tries; each try is counted before the
// code is compared, and the comparison takes constant time.

export type Channel = 'phone' | 'email';

/** `limit` names the counter that refused (for the log line when a cap is hit). */
export type SendRefusal =
  { ok: false; reason: 'too_soon'; retryAfter: number } | { ok: false; reason: 'too_many'; limit: string };

/** The keyed hash of a code: a stolen table gives no codes, not even by trying all 10^6. */
function hashCode(secret: string, channel: Channel, target: string, code: string): string {
  return crypto.createHmac('sha256', secret).update(`${channel}\0${target}\0${code}`).digest('base64url');
}

/**
 * Makes a new code for `target` when every limit allows, and records it (hashed). The caller
 * sends it. Per target: one per RESEND_SECONDS and the hour and day caps, checked and written
 * under an advisory lock on the target, so two requests at once cannot both pass. Per IP, per
 * number prefix and for the shop: counters, each one atomic statement.
 */
export async function createLoginCode(input: {
  db: Database;
  secret: string;
  channel: Channel;
  target: string;
  ip: string;
  now?: Date;
}): Promise<{ ok: true; code: string } | SendRefusal> {
  const { db, secret, channel, target, ip } = input;
  const now = input.now ?? new Date();
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(7311003, hashtext(${`${channel}:${target}`}))`);
    const dayAgo = new Date(now.getTime() - 86_400_000);
    const hourAgo = now.getTime() - 3_600_000;
    const recent = await tx
      .select({ createdAt: authCodes.createdAt })
      .from(authCodes)
      .where(and(eq(authCodes.channel, channel), eq(authCodes.target, target), gt(authCodes.createdAt, dayAgo)))
      .orderBy(desc(authCodes.createdAt));
    const last = recent[0]?.createdAt.getTime();
    if (last !== undefined && now.getTime() - last < RESEND_SECONDS * 1000) {
      return { ok: false, reason: 'too_soon', retryAfter: Math.ceil(RESEND_SECONDS - (now.getTime() - last) / 1000) };
    }
    if (
      recent.length >= SEND_LIMITS.perTargetDay ||
      recent.filter((r) => r.createdAt.getTime() > hourAgo).length >= SEND_LIMITS.perTargetHour
    ) {
      return { ok: false, reason: 'too_many', limit: 'target' };
    }
    const counters: [string, number, number][] = [
      [`login:ip:h:${ip}`, 3600, SEND_LIMITS.perIpHour],
      [`login:ip:d:${ip}`, 86_400, SEND_LIMITS.perIpDay],
      [`login:shop:d`, 86_400, SEND_LIMITS.shopPerDay],
    ];
    if (channel === 'phone') counters.push([`login:prefix:h:${phonePrefix(target)}`, 3600, SEND_LIMITS.perPrefixHour]);
    for (const [key, windowSeconds, limit] of counters) {
      if (!(await hitRateLimit({ db: tx, key, windowSeconds, limit, now })))
        return { ok: false, reason: 'too_many', limit: key.replace(/:[^:]*$/, '') };
    }
    const code = String(crypto.randomInt(0, 10 ** LOGIN_CODE_LENGTH)).padStart(LOGIN_CODE_LENGTH, '0');
    // Older codes of this target die: only the newest one can be entered.
    await tx
      .update(authCodes)
      .set({ usedAt: now })
      .where(and(eq(authCodes.channel, channel), eq(authCodes.target, target), isNull(authCodes.usedAt)));
    await tx.insert(authCodes).values({
      channel,
      target,
      codeHash: hashCode(secret, channel, target, code),
      createdAt: now,
      expiresAt: new Date(now.getTime() + LOGIN_CODE_TTL_MS),
      ip,
    });
    return { ok: true, code };
  });
}

/** Forgets a code whose message could not be sent, so the shopper may ask again at once. */
export async function dropLoginCode({
  db,
  channel,
  target,
}: {
  db: Database;
  channel: Channel;
  target: string;
}): Promise<void> {
  await db
    .delete(authCodes)
    .where(
      and(
        eq(authCodes.channel, channel),
        eq(authCodes.target, target),
        isNull(authCodes.usedAt),
        eq(authCodes.attempts, 0),
      ),
    );
}

export type CodeCheck = { ok: true } | { ok: false; reason: 'expired' | 'attempts' | 'wrong' };

/**
 * One try of a code. The try is counted first, by a conditional update that cannot pass the
 * limit whatever runs at the same moment; then the hash is compared in constant time; a match
 * uses the code up.
 */
export async function checkLoginCode(input: {
  db: Database;
  secret: string;
  channel: Channel;
  target: string;
  code: string;
  now?: Date;
}): Promise<CodeCheck> {
  const { db, secret, channel, target, code } = input;
  const now = input.now ?? new Date();
  const [current] = await db
    .select({ id: authCodes.id, codeHash: authCodes.codeHash, expiresAt: authCodes.expiresAt })
    .from(authCodes)
    .where(and(eq(authCodes.channel, channel), eq(authCodes.target, target), isNull(authCodes.usedAt)))
    .orderBy(desc(authCodes.createdAt))
    .limit(1);
  if (!current || current.expiresAt.getTime() <= now.getTime()) return { ok: false, reason: 'expired' };
  const counted = await db
    .update(authCodes)
    .set({ attempts: sql`${authCodes.attempts} + 1` })
    .where(
      and(
        eq(authCodes.id, current.id),
        isNull(authCodes.usedAt),
        sql`${authCodes.attempts} < ${LOGIN_CODE_MAX_ATTEMPTS}`,
      ),
    )
    .returning({ attempts: authCodes.attempts });
  if (counted.length === 0) return { ok: false, reason: 'attempts' };
  const expected = Buffer.from(current.codeHash);
  const given = Buffer.from(hashCode(secret, channel, target, code));
  if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given))
    return { ok: false, reason: 'wrong' };
  // Used once: a second request with the same code (a double click) finds nothing to use.
  const used = await db
    .update(authCodes)
    .set({ usedAt: now })
    .where(and(eq(authCodes.id, current.id), isNull(authCodes.usedAt)))
    .returning({ id: authCodes.id });
  return used.length === 1 ? { ok: true } : { ok: false, reason: 'expired' };
}

/** The customer with this phone, made at their first successful login. */
export async function findOrCreateCustomerByPhone({
  db,
  phone,
}: {
  db: Database;
  phone: string;
}): Promise<{ id: number }> {
  await db.insert(customers).values({ phone }).onConflictDoNothing({ target: customers.phone });
  const [row] = await db.select({ id: customers.id }).from(customers).where(eq(customers.phone, phone));
  if (!row) throw new Error('customer vanished after insert');
  return row;
}

/** The customer whose e-mail this is (e-mail login is for customers who gave one); null when none. */
export async function findCustomerByEmail({
  db,
  email,
}: {
  db: Database;
  email: string;
}): Promise<{ id: number } | null> {
  const [row] = await db
    .select({ id: customers.id })
    .from(customers)
    .where(sql`lower(${customers.email}) = ${email}`)
    .orderBy(customers.id)
    .limit(1);
  return row ?? null;
}

export async function createSession(input: {
  db: Database;
  customerId: number;
  userAgent?: string;
  ip?: string;
  now?: Date;
}): Promise<{ id: string; expiresAt: Date }> {
  const now = input.now ?? new Date();
  const id = crypto.randomBytes(24).toString('base64url');
  const expiresAt = new Date(now.getTime() + SESSION_TTL_DAYS * 86_400_000);
  await input.db.insert(sessions).values({
    id,
    customerId: input.customerId,
    createdAt: now,
    expiresAt,
    userAgent: (input.userAgent ?? '').slice(0, 300),
    ip: input.ip ?? '',
  });
  return { id, expiresAt };
}

/** The customer of a live session (not revoked, not expired); null otherwise. */
export async function getSessionCustomerId({
  db,
  sessionId,
  now,
}: {
  db: Database;
  sessionId: string;
  now?: Date;
}): Promise<number | null> {
  // A blocked customer's sessions are revoked when they are blocked; the join keeps it so for any
  // session that slipped in between. Written out and sent prepared (queryPrepared): every call
  // of a customer (each checkout) reads it.
  const [row] = await queryPrepared<{ customer_id: number }>(
    db,
    sql`select s.customer_id from sessions s join customers c on c.id = s.customer_id
        where s.id = ${sessionId}::text and s.revoked_at is null
          and s.expires_at > coalesce(${now?.toISOString() ?? null}::timestamptz, now())
          and c.blocked_at is null`,
  );
  return row ? Number(row.customer_id) : null;
}

/** Whether staff blocked this customer (issue #29): no login then. */
export async function isCustomerBlocked({ db, customerId }: { db: Database; customerId: number }): Promise<boolean> {
  const [row] = await db
    .select({ blockedAt: customers.blockedAt })
    .from(customers)
    .where(eq(customers.id, customerId))
    .limit(1);
  return row?.blockedAt != null;
}

export async function revokeSession({ db, sessionId }: { db: Database; sessionId: string }): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

/** "Log out on all devices". */
export async function revokeAllSessions({ db, customerId }: { db: Database; customerId: number }): Promise<number> {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.customerId, customerId), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  return rows.length;
}
