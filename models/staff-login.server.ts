import type { Database } from '~/db/client.server';
import { normalizeStaffEmail, secondsLeftInWindow, STAFF_LOGIN_CAPS } from '~/core/staff-auth';
import { NO_BACK_OFFICE_ROLES, isStaffRole } from '~/core/staff-roles';
import { hitRateLimits, releaseRateLimit } from './rate-limit.server';
import { writeAudit } from './audit.server';
import { findStaffByEmail, useTotpCode, type StaffRow } from './staff.server';
import { verifyPassword } from './staff-secrets.server';
import { activateSession, countWrongCode, pendingLogin, startPendingLogin, type Client } from './staff-sessions.server';

// Staff login in two steps (docs/back-office.md): the e-mail and password, then a code from the
// authenticator app. Every try of either step is counted per account and per address in
// rate_counters before it is checked (so tries at once cannot pass the caps together), and a
// right one gives its count back: the caps count failures. A capped try is not checked at all.

type Capped = { ok: false; reason: 'capped'; retryAfter: number; cap: string };

/** Counts a try against the login caps (password or code, also a password change); `giveBack` when it was right. */
export async function takeLoginTry({
  db,
  account,
  ip,
  now,
}: {
  db: Database;
  account: string;
  ip: string;
  now: Date;
}): Promise<{ ok: true; giveBack: () => Promise<void> } | Capped> {
  // Longest window first: when several caps are full, the answer names the longest wait.
  const counters = [...STAFF_LOGIN_CAPS]
    .sort((a, b) => b.windowSeconds - a.windowSeconds)
    .map((c) => ({
      key: `staff-login:${c.scope}:${c.windowSeconds}:${c.scope === 'account' ? account : ip}`,
      windowSeconds: c.windowSeconds,
      limit: c.limit,
    }));
  const refused = await hitRateLimits({ db, counters, now });
  if (refused) {
    const cap = counters.find((c) => c.key === refused);
    const windowSeconds = cap?.windowSeconds ?? 60;
    return {
      ok: false,
      reason: 'capped',
      retryAfter: secondsLeftInWindow(now.getTime(), windowSeconds),
      cap: refused.replace(/:[^:]*$/, ''),
    };
  }
  return {
    ok: true,
    giveBack: async () => {
      for (const c of counters) await releaseRateLimit({ db, key: c.key, windowSeconds: c.windowSeconds, now });
    },
  };
}

export type PasswordStep =
  | { ok: true; token: string; staff: StaffRow }
  | Capped
  /** Wrong e-mail or password, or a disabled account: one answer for all three. */
  | { ok: false; reason: 'wrong'; staff: StaffRow | null }
  /** The password is right but no authenticator is enrolled (reset by an admin): their link does it. */
  | { ok: false; reason: 'no_totp'; staff: StaffRow };

export async function staffPasswordStep({
  db,
  email,
  password,
  client,
  now,
}: {
  db: Database;
  email: string;
  password: string;
  client: Client;
  now: Date;
}): Promise<PasswordStep> {
  const account = normalizeStaffEmail(email) ?? email.trim().toLowerCase().slice(0, 254);
  const tried = await takeLoginTry({ db, account, ip: client.ip, now });
  if (!tried.ok) return tried;
  const row = await findStaffByEmail(db, account);
  // Always one argon2 verification, the account known or not (verifyPassword's dummy hash).
  const right = await verifyPassword(row?.passwordHash ?? null, password);
  // The 1C exchange's account logs in only at the exchange endpoint (core/staff-roles.ts).
  if (!row || !right || row.disabled || (isStaffRole(row.role) && NO_BACK_OFFICE_ROLES.has(row.role)))
    return { ok: false, reason: 'wrong', staff: row };
  await tried.giveBack();
  if (!row.totpSecret) return { ok: false, reason: 'no_totp', staff: row };
  const token = await startPendingLogin(db, { staffId: row.id, client, now });
  return { ok: true, token, staff: row };
}

export type CodeStep =
  | { ok: true; token: string; staff: StaffRow; sessionId: number }
  | Capped
  /** No half-way login (none, timed out, or ended after five wrong codes): the password again. */
  | { ok: false; reason: 'no_login' }
  | { ok: false; reason: 'wrong'; staff: StaffRow };

/**
 * The code of a half-way login. Right: the code's step is taken (never usable again), the login
 * becomes a session with a new token, and the audit log records it, in one transaction.
 */
export async function staffCodeStep({
  db,
  token,
  code,
  client,
  requestId,
  now,
  totpKey,
}: {
  db: Database;
  token: string;
  code: string;
  client: Client;
  requestId: string;
  now: Date;
  totpKey: Buffer;
}): Promise<CodeStep> {
  const pending = await pendingLogin(db, { token, now });
  if (!pending) return { ok: false, reason: 'no_login' };
  const tried = await takeLoginTry({ db, account: pending.staff.email, ip: client.ip, now });
  if (!tried.ok) return tried;
  const done = await db.transaction(async (txn) => {
    const tx = txn as unknown as Database;
    const step = await useTotpCode(tx, { row: pending.staff, code, now, totpKey });
    if (step === null) return null;
    const fresh = await activateSession(tx, { sessionId: pending.session.id, now });
    if (!fresh) return null;
    await writeAudit(
      tx,
      {
        kind: 'staff',
        staffId: pending.staff.id,
        label: pending.staff.email,
        sessionId: pending.session.id,
        ip: client.ip,
        requestId,
      },
      {
        action: 'auth.login',
        entityType: 'staff',
        entityId: pending.staff.id,
        after: { user_agent: client.userAgent.slice(0, 300) },
      },
      now,
    );
    return fresh;
  });
  if (!done) {
    await countWrongCode(db, { sessionId: pending.session.id, now });
    return { ok: false, reason: 'wrong', staff: pending.staff };
  }
  await tried.giveBack();
  return { ok: true, token: done, staff: pending.staff, sessionId: pending.session.id };
}
