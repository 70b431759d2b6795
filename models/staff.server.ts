import { containsPattern } from '~/db/like';
import { and, asc, count, desc, eq, ilike, isNotNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Database } from '~/db/client.server';
import { staff } from '~/db/schema';
import { normalizeStaffEmail, passwordProblem, STAFF_SETUP_TTL_MS } from '~/core/staff-auth';
import { verifyTotp } from '~/core/totp';
import type { StaffRole } from '~/core/staff-roles';
import {
  decryptTotpSecret,
  encryptTotpSecret,
  hashPassword,
  hmacSha1,
  newToken,
  newTotpSecret,
  tokenHash,
  totpKeyBytes,
  verifyPassword,
} from './staff-secrets.server';
import { endStaffSessions, type StaffRow } from './staff-sessions.server';

// Staff accounts (issue #29). No account exists by default: the first admin is made on the command
// line (`npm run staff -- create`), which prints a one-time link; the link's page sets the
// password and enrols an authenticator app. A lost authenticator is reset by another admin (or the
// command line), which makes a new link: the password is asked there too, so the link alone opens
// nothing. Functions that change a row take `db` as the caller's transaction
// (models/admin-change.server.ts), and answer the row before and after for the audit log.

export type { StaffRow };

/** What the audit log keeps of a staff row: never a hash, secret or token. */
export function staffAuditView(row: StaffRow) {
  return {
    email: row.email,
    name: row.name,
    role: row.role,
    disabled: row.disabled,
    password_set: row.passwordHash !== null,
    totp_enrolled: row.totpSecret !== null,
  };
}

export type Refusal = { ok: false; status: number; field: string; error: string };
const refuse = (status: number, field: string, error: string): Refusal => ({ ok: false, status, field, error });

export async function getStaff(db: Database, id: number): Promise<StaffRow | null> {
  const [row] = await db.select().from(staff).where(eq(staff.id, id));
  return row ?? null;
}

/** The account of an e-mail (any letter case), or null. */
export async function findStaffByEmail(db: Database, email: string): Promise<StaffRow | null> {
  const normalized = normalizeStaffEmail(email);
  if (!normalized) return null;
  const [row] = await db
    .select()
    .from(staff)
    .where(sql`lower(${staff.email}) = ${normalized}`);
  return row ?? null;
}

/** Locks the row (for a change that reads it first); null when there is none. */
async function lockStaff(db: Database, id: number): Promise<StaffRow | null> {
  const [row] = await db.select().from(staff).where(eq(staff.id, id)).for('update');
  return row ?? null;
}

export interface StaffListFilter {
  q?: string | undefined;
  role?: StaffRole | undefined;
  disabled?: boolean | undefined;
}
export type StaffSort = 'id' | 'email' | 'name' | 'role' | 'created_at';

export async function listStaff({
  db,
  filter,
  sort = 'id',
  order = 'asc',
  offset,
  limit,
}: {
  db: Database;
  filter: StaffListFilter;
  sort?: StaffSort;
  order?: 'asc' | 'desc';
  offset: number;
  limit: number;
}): Promise<{ rows: StaffRow[]; total: number }> {
  const where: SQL[] = [];
  if (filter.role) where.push(eq(staff.role, filter.role));
  if (filter.disabled !== undefined) where.push(eq(staff.disabled, filter.disabled));
  if (filter.q) {
    const like = containsPattern(filter.q);
    where.push(or(ilike(staff.email, like), ilike(staff.name, like)) as SQL);
  }
  const condition = where.length ? and(...where) : undefined;
  const column = { id: staff.id, email: staff.email, name: staff.name, role: staff.role, created_at: staff.createdAt }[
    sort
  ];
  const by = order === 'asc' ? asc(column) : desc(column);
  const [rows, totals] = await Promise.all([
    db.select().from(staff).where(condition).orderBy(by, asc(staff.id)).offset(offset).limit(limit),
    db.select({ n: count() }).from(staff).where(condition),
  ]);
  return { rows, total: Number(totals[0]?.n ?? 0) };
}

/** A new one-time link's token for the row (the row keeps only its hash), good for 24 hours. */
function setupFields(
  purpose: 'setup' | 'totp',
  now: Date,
): { token: string; fields: Pick<StaffRow, 'setupTokenHash' | 'setupPurpose' | 'setupExpiresAt'> } {
  const token = newToken();
  return {
    token,
    fields: {
      setupTokenHash: tokenHash(token),
      setupPurpose: purpose,
      setupExpiresAt: new Date(now.getTime() + STAFF_SETUP_TTL_MS),
    },
  };
}

export type CreateStaffResult = { ok: true; staff: StaffRow; setupToken: string } | Refusal;

/** A new account, with no password and no authenticator yet: its one-time link sets both. */
export async function createStaff(
  db: Database,
  input: { email: string; name: string; role: StaffRole; now: Date },
): Promise<CreateStaffResult> {
  const email = normalizeStaffEmail(input.email);
  if (!email) return refuse(400, 'email', 'Неверный адрес почты');
  const { token, fields } = setupFields('setup', input.now);
  const [row] = await db
    .insert(staff)
    .values({ email, name: input.name.trim(), role: input.role, createdAt: input.now, ...fields })
    .onConflictDoNothing()
    .returning();
  if (!row) return refuse(409, 'email', 'Сотрудник с таким адресом уже есть');
  return { ok: true, staff: row, setupToken: token };
}

/**
 * Active admins (enabled, with an authenticator) other than `exceptId`: the last one is never
 * disabled or demoted. Changes of role or state take one lock first (a transaction-scoped advisory
 * lock), so two admins demoting each other at once cannot both pass this count.
 */
async function otherActiveAdmins(db: Database, exceptId: number): Promise<number> {
  const rows = await db
    .select({ id: staff.id })
    .from(staff)
    .where(
      and(eq(staff.role, 'admin'), eq(staff.disabled, false), ne(staff.id, exceptId), isNotNull(staff.totpSecret)),
    );
  return rows.length;
}

const ADMIN_SET_LOCK = 7_311_029;
const lockAdminSet = (db: Database) => db.execute(sql`select pg_advisory_xact_lock(${ADMIN_SET_LOCK})`);

export type StaffChange = { ok: true; before: StaffRow; after: StaffRow; sessionsEnded: number } | Refusal;

export async function renameStaff(db: Database, { id, name }: { id: number; name: string }): Promise<StaffChange> {
  const before = await lockStaff(db, id);
  if (!before) return refuse(404, 'id', 'Нет такого сотрудника');
  const [after] = await db.update(staff).set({ name: name.trim() }).where(eq(staff.id, id)).returning();
  return { ok: true, before, after: after as StaffRow, sessionsEnded: 0 };
}

/** A new role (checked on the next call: the sessions stay). The last active admin keeps the role. */
export async function changeStaffRole(
  db: Database,
  { id, role }: { id: number; role: StaffRole },
): Promise<StaffChange> {
  await lockAdminSet(db);
  const before = await lockStaff(db, id);
  if (!before) return refuse(404, 'id', 'Нет такого сотрудника');
  if (before.role === role) return refuse(409, 'role', 'У сотрудника уже эта роль');
  if (before.role === 'admin' && role !== 'admin' && (await otherActiveAdmins(db, id)) === 0)
    return refuse(409, 'role', 'Это последний администратор: сначала назначьте другого');
  const [after] = await db.update(staff).set({ role }).where(eq(staff.id, id)).returning();
  return { ok: true, before, after: after as StaffRow, sessionsEnded: 0 };
}

/** Disables (ending every session) or enables an account; the last active admin stays enabled. */
export async function setStaffDisabled(
  db: Database,
  { id, disabled, now }: { id: number; disabled: boolean; now: Date },
): Promise<StaffChange> {
  await lockAdminSet(db);
  const before = await lockStaff(db, id);
  if (!before) return refuse(404, 'id', 'Нет такого сотрудника');
  if (before.disabled === disabled)
    return refuse(409, 'disabled', disabled ? 'Сотрудник уже отключён' : 'Сотрудник уже включён');
  if (disabled && before.role === 'admin' && (await otherActiveAdmins(db, id)) === 0)
    return refuse(409, 'disabled', 'Это последний администратор: его нельзя отключить');
  const [after] = await db.update(staff).set({ disabled }).where(eq(staff.id, id)).returning();
  const sessionsEnded = disabled ? await endStaffSessions(db, { staffId: id, reason: 'disabled', now }) : 0;
  return { ok: true, before, after: after as StaffRow, sessionsEnded };
}

/** An admin ends every session of a staff member (a lost laptop): the account stays as it is. */
export async function endStaffSessionsBy(db: Database, { id, now }: { id: number; now: Date }): Promise<StaffChange> {
  const before = await lockStaff(db, id);
  if (!before) return refuse(404, 'id', 'Нет такого сотрудника');
  const sessionsEnded = await endStaffSessions(db, { staffId: id, reason: 'admin', now });
  return { ok: true, before, after: before, sessionsEnded };
}

export type LinkChange =
  { ok: true; before: StaffRow; after: StaffRow; setupToken: string; sessionsEnded: number } | Refusal;

/**
 * A lost authenticator: the key is removed, every session ends, and a new one-time link enrols a
 * new one (the page asks the password too). For an account that never finished its setup, a new
 * setup link instead (the old one dies). With `forgetPassword` (a forgotten password) the password
 * goes too, and the link sets both again.
 */
export async function resetStaffTotp(
  db: Database,
  { id, now, forgetPassword = false }: { id: number; now: Date; forgetPassword?: boolean },
): Promise<LinkChange> {
  const before = await lockStaff(db, id);
  if (!before) return refuse(404, 'id', 'Нет такого сотрудника');
  const setup = forgetPassword || !before.passwordHash;
  const { token, fields } = setupFields(setup ? 'setup' : 'totp', now);
  const [after] = await db
    .update(staff)
    .set({
      totpSecret: null,
      totpPendingSecret: null,
      totpLastStep: null,
      ...(forgetPassword ? { passwordHash: null } : {}),
      ...fields,
    })
    .where(eq(staff.id, id))
    .returning();
  const sessionsEnded = await endStaffSessions(db, { staffId: id, reason: forgetPassword ? 'password' : 'totp', now });
  return { ok: true, before, after: after as StaffRow, setupToken: token, sessionsEnded };
}

/**
 * A staff member changes their own password: the current one checked, the new one by the policy
 * (and not the same), and every session of theirs ends, this one too (they log in again).
 */
export async function changeOwnPassword(
  db: Database,
  input: { id: number; current: string; password: string; now: Date; isCommonPassword: (p: string) => boolean },
): Promise<StaffChange> {
  const before = await lockStaff(db, input.id);
  if (!before) return refuse(404, 'id', 'Нет такого сотрудника');
  if (!(await verifyPassword(before.passwordHash, input.current)))
    return refuse(400, 'current_password', 'Неверный текущий пароль');
  const problem = passwordProblem(input.password, { email: before.email, isCommon: input.isCommonPassword });
  if (problem) return refuse(400, 'password', problem);
  if (input.password === input.current) return refuse(400, 'password', 'Новый пароль совпадает с текущим');
  const [after] = await db
    .update(staff)
    .set({ passwordHash: await hashPassword(input.password), passwordChangedAt: input.now })
    .where(eq(staff.id, input.id))
    .returning();
  const sessionsEnded = await endStaffSessions(db, { staffId: input.id, reason: 'password', now: input.now });
  return { ok: true, before, after: after as StaffRow, sessionsEnded };
}

/** The row a one-time link's token names while it is good. */
async function staffOfSetupToken(db: Database, token: string, now: Date, lock: boolean): Promise<StaffRow | null> {
  if (!token) return null;
  const query = db
    .select()
    .from(staff)
    .where(eq(staff.setupTokenHash, tokenHash(token)));
  const [row] = lock ? await query.for('update') : await query;
  if (!row || !row.setupExpiresAt || row.setupExpiresAt.getTime() <= now.getTime() || row.disabled) return null;
  return row;
}

/** The owner of a one-time link while it is good (no lock: to name the actor before the change). */
export async function staffOfSetupLink(
  db: Database,
  { token, now }: { token: string; now: Date },
): Promise<StaffRow | null> {
  return staffOfSetupToken(db, token, now, false);
}

export type SetupStart =
  | { ok: true; staff: StaffRow; purpose: 'setup' | 'totp'; secret: string }
  | { ok: false; status: 404; error: string; field: 'token' };

const LINK_DEAD = 'Ссылка недействительна или устарела: попросите администратора прислать новую';

/**
 * Opening the one-time link: the key to enrol, made once and kept (encrypted) until a code from it
 * is entered, so a reload shows the same QR code.
 */
export async function startStaffSetup(
  db: Database,
  { token, now, totpKey }: { token: string; now: Date; totpKey: Buffer },
): Promise<SetupStart> {
  return db.transaction(async (txn) => {
    const tx = txn as unknown as Database;
    const row = await staffOfSetupToken(tx, token, now, true);
    if (!row) return { ok: false, status: 404, field: 'token', error: LINK_DEAD };
    const kept = row.totpPendingSecret ? decryptTotpSecret(totpKey, row.id, row.totpPendingSecret) : null;
    if (kept) return { ok: true, staff: row, purpose: row.setupPurpose ?? 'setup', secret: kept };
    const secret = newTotpSecret();
    await tx
      .update(staff)
      .set({ totpPendingSecret: encryptTotpSecret(totpKey, row.id, secret) })
      .where(eq(staff.id, row.id));
    return { ok: true, staff: row, purpose: row.setupPurpose ?? 'setup', secret };
  });
}

export type SetupFinish =
  { ok: true; before: StaffRow; after: StaffRow; purpose: 'setup' | 'totp'; sessionsEnded: number } | Refusal;

/**
 * The link's form sent: for a new account the password to set, after an authenticator reset the
 * current password; and a code from the new key, which proves the app has it. The key becomes the
 * account's, the link dies, and every session of the account ends. Runs in the caller's transaction.
 */
export async function finishStaffSetup(
  db: Database,
  input: {
    token: string;
    password: string;
    code: string;
    now: Date;
    totpKey: Buffer;
    isCommonPassword: (p: string) => boolean;
  },
): Promise<SetupFinish> {
  const { now, totpKey } = input;
  const before = await staffOfSetupToken(db, input.token, now, true);
  if (!before || !before.totpPendingSecret) return refuse(404, 'token', LINK_DEAD);
  const purpose = before.setupPurpose ?? 'setup';
  let passwordHash = before.passwordHash;
  if (purpose === 'setup') {
    const problem = passwordProblem(input.password, { email: before.email, isCommon: input.isCommonPassword });
    if (problem) return refuse(400, 'password', problem);
    passwordHash = await hashPassword(input.password);
  } else if (!(await verifyPassword(before.passwordHash, input.password))) {
    return refuse(400, 'password', 'Неверный пароль');
  }
  const secret = decryptTotpSecret(totpKey, before.id, before.totpPendingSecret);
  if (!secret) return refuse(404, 'token', LINK_DEAD);
  const step = verifyTotp({
    hmac: hmacSha1,
    key: totpKeyBytes(secret),
    code: input.code,
    atMs: now.getTime(),
    lastUsedStep: null,
  });
  if (step === null)
    return refuse(400, 'code', 'Код не подходит: проверьте время на телефоне и введите новый код из приложения');
  const [after] = await db
    .update(staff)
    .set({
      passwordHash,
      ...(purpose === 'setup' ? { passwordChangedAt: now } : {}),
      totpSecret: encryptTotpSecret(totpKey, before.id, secret),
      totpPendingSecret: null,
      totpLastStep: step,
      setupTokenHash: null,
      setupPurpose: null,
      setupExpiresAt: null,
    })
    .where(eq(staff.id, before.id))
    .returning();
  const sessionsEnded = await endStaffSessions(db, {
    staffId: before.id,
    reason: purpose === 'setup' ? 'password' : 'totp',
    now,
  });
  return { ok: true, before, after: after as StaffRow, purpose, sessionsEnded };
}

/**
 * A code entered at login: right for the account's key, and of a later step than any code used
 * before (each code works once, RFC 6238 §5.2). The step is taken with a conditional update, so the
 * same code sent twice at once passes once. Null when the code is wrong, used, or the key unreadable.
 */
export async function useTotpCode(
  db: Database,
  { row, code, now, totpKey }: { row: StaffRow; code: string; now: Date; totpKey: Buffer },
): Promise<number | null> {
  if (!row.totpSecret) return null;
  const secret = decryptTotpSecret(totpKey, row.id, row.totpSecret);
  if (!secret) return null;
  const step = verifyTotp({
    hmac: hmacSha1,
    key: totpKeyBytes(secret),
    code,
    atMs: now.getTime(),
    lastUsedStep: row.totpLastStep,
  });
  if (step === null) return null;
  const taken = await db
    .update(staff)
    .set({ totpLastStep: step })
    .where(and(eq(staff.id, row.id), sql`(${staff.totpLastStep} is null or ${staff.totpLastStep} < ${step})`))
    .returning({ id: staff.id });
  return taken.length ? step : null;
}
