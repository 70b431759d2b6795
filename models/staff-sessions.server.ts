import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '~/db/client.server';
import { staff, staffSessions } from '~/db/schema';
import {
  STAFF_LOGIN_PENDING_MS,
  STAFF_LOGIN_PENDING_TRIES,
  STAFF_SEEN_WRITE_MS,
  staffSessionEnd,
} from '~/core/staff-auth';
import { newToken, tokenHash } from './staff-secrets.server';

// Staff sessions (docs/back-office.md): the cookie holds a random token, the row its SHA-256.
// A login starts as a 'password' row (the password was right; the code is awaited for 5 minutes
// and 5 tries), and becomes 'active' with a NEW token when the code is right. An active session
// ends after 30 minutes idle or 12 hours after login (core/staff-auth.ts), at logout, when its
// staff member is disabled or their password or authenticator changes, or when an admin ends it.

export type StaffRow = typeof staff.$inferSelect;
export type StaffSessionRow = typeof staffSessions.$inferSelect;

export type SessionEndReason =
  'logout' | 'idle' | 'expired' | 'disabled' | 'password' | 'totp' | 'admin' | 'failures' | 'pending';

export interface Client {
  ip: string;
  userAgent: string;
}

/** A 'password' row for `staffId`; its token goes in the cookie until the code is entered. */
export async function startPendingLogin(
  db: Database,
  { staffId, client, now }: { staffId: number; client: Client; now: Date },
): Promise<string> {
  const token = newToken();
  await db.insert(staffSessions).values({
    tokenHash: tokenHash(token),
    staffId,
    stage: 'password',
    createdAt: now,
    lastSeenAt: now,
    ip: client.ip,
    userAgent: client.userAgent.slice(0, 300),
  });
  return token;
}

/** The half-way login a token names, if still waiting for its code; ends it when its time is up. */
export async function pendingLogin(
  db: Database,
  { token, now }: { token: string; now: Date },
): Promise<{ session: StaffSessionRow; staff: StaffRow } | null> {
  const [row] = await db
    .select({ session: staffSessions, staff })
    .from(staffSessions)
    .innerJoin(staff, eq(staff.id, staffSessions.staffId))
    .where(
      and(
        eq(staffSessions.tokenHash, tokenHash(token)),
        eq(staffSessions.stage, 'password'),
        isNull(staffSessions.endedAt),
      ),
    );
  if (!row) return null;
  if (now.getTime() - row.session.createdAt.getTime() >= STAFF_LOGIN_PENDING_MS || row.staff.disabled) {
    await endSession(db, { sessionId: row.session.id, reason: 'pending', now });
    return null;
  }
  return row;
}

/** Counts a wrong code on a half-way login; the fifth ends it (the password is asked again). */
export async function countWrongCode(
  db: Database,
  { sessionId, now }: { sessionId: number; now: Date },
): Promise<void> {
  const [row] = await db
    .update(staffSessions)
    .set({ totpFailures: sql`${staffSessions.totpFailures} + 1` })
    .where(eq(staffSessions.id, sessionId))
    .returning({ failures: staffSessions.totpFailures });
  if (row && row.failures >= STAFF_LOGIN_PENDING_TRIES) await endSession(db, { sessionId, reason: 'failures', now });
}

/**
 * The half-way login becomes a session with a new token (the one the password step set is dead
 * from now on). Conditional on the row still waiting, so two right codes at once make one session.
 */
export async function activateSession(
  db: Database,
  { sessionId, now }: { sessionId: number; now: Date },
): Promise<string | null> {
  const token = newToken();
  const [row] = await db
    .update(staffSessions)
    .set({ tokenHash: tokenHash(token), stage: 'active', authenticatedAt: now, lastSeenAt: now })
    .where(and(eq(staffSessions.id, sessionId), eq(staffSessions.stage, 'password'), isNull(staffSessions.endedAt)))
    .returning({ id: staffSessions.id });
  return row ? token : null;
}

export type ActiveSession = { session: StaffSessionRow; staff: StaffRow };

/**
 * The active session a cookie's token names, with its staff member; null when there is none (or
 * it ended). An idle or expired one is ended here and answered as such, so the caller can say
 * why. Writes the last-seen time at most every 30 s.
 */
export async function activeSession(
  db: Database,
  { token, now }: { token: string; now: Date },
): Promise<{ ok: true; active: ActiveSession } | { ok: false; reason: 'none' | 'idle' | 'expired' }> {
  const [row] = await db
    .select({ session: staffSessions, staff })
    .from(staffSessions)
    .innerJoin(staff, eq(staff.id, staffSessions.staffId))
    .where(
      and(
        eq(staffSessions.tokenHash, tokenHash(token)),
        eq(staffSessions.stage, 'active'),
        isNull(staffSessions.endedAt),
      ),
    );
  if (!row || row.staff.disabled || !row.session.authenticatedAt) return { ok: false, reason: 'none' };
  const end = staffSessionEnd(
    { authenticatedAt: row.session.authenticatedAt, lastSeenAt: row.session.lastSeenAt },
    now,
  );
  if (end) {
    await endSession(db, { sessionId: row.session.id, reason: end, now });
    return { ok: false, reason: end };
  }
  if (now.getTime() - row.session.lastSeenAt.getTime() >= STAFF_SEEN_WRITE_MS) {
    await db.update(staffSessions).set({ lastSeenAt: now }).where(eq(staffSessions.id, row.session.id));
    row.session.lastSeenAt = now;
  }
  return { ok: true, active: row };
}

/** The open row (half-way or active, not ended) a token names, with its staff member: logout. */
export async function openSessionOfToken(db: Database, { token }: { token: string }): Promise<ActiveSession | null> {
  const [row] = await db
    .select({ session: staffSessions, staff })
    .from(staffSessions)
    .innerJoin(staff, eq(staff.id, staffSessions.staffId))
    .where(and(eq(staffSessions.tokenHash, tokenHash(token)), isNull(staffSessions.endedAt)));
  return row ?? null;
}

export async function endSession(
  db: Database,
  { sessionId, reason, now }: { sessionId: number; reason: SessionEndReason; now: Date },
): Promise<boolean> {
  const ended = await db
    .update(staffSessions)
    .set({ endedAt: now, endReason: reason })
    .where(and(eq(staffSessions.id, sessionId), isNull(staffSessions.endedAt)))
    .returning({ id: staffSessions.id });
  return ended.length > 0;
}

/** Ends every open session (and half-way login) of a staff member; answers how many. */
export async function endStaffSessions(
  db: Database,
  { staffId, reason, now }: { staffId: number; reason: SessionEndReason; now: Date },
): Promise<number> {
  const ended = await db
    .update(staffSessions)
    .set({ endedAt: now, endReason: reason })
    .where(and(eq(staffSessions.staffId, staffId), isNull(staffSessions.endedAt)))
    .returning({ id: staffSessions.id });
  return ended.length;
}

/** A staff member's sessions, newest first (the admin's staff page). */
export async function listStaffSessions(
  db: Database,
  { staffId, limit = 50 }: { staffId: number; limit?: number },
): Promise<StaffSessionRow[]> {
  return db
    .select()
    .from(staffSessions)
    .where(and(eq(staffSessions.staffId, staffId), eq(staffSessions.stage, 'active')))
    .orderBy(desc(staffSessions.createdAt))
    .limit(limit);
}
