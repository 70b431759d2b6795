import crypto from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { queryRows, type Database } from '~/db/client.server';
import { appState, staff } from '~/db/schema';
import { createStaff } from './staff.server';
import { hashPassword } from './staff-secrets.server';
import type { AdminExchangeResponse, ExchangeSettingsBody } from '~/shared/contract';
import { readExchangeSettings } from './exchange.server';

// The 1C exchange in the back office (issue #31, docs/exchange-1c.md): the session log, the
// settings, re-sending orders. The routes (api/admin/exchange.routes.server.ts) run the changes
// through adminChange (audit, Idempotency-Key).

type Log = AdminExchangeResponse['data'];
const iso = (v: string | Date | null) => (v === null ? null : new Date(v).toISOString());

/** The latest `limit` sessions with the files each imported and the order exports it made. */
export async function exchangeLog(
  db: Database,
  { siteUrl, limit = 50 }: { siteUrl: string; limit?: number },
): Promise<Log> {
  const sessions = await queryRows<{
    id: number;
    type: 'catalog' | 'sale';
    email: string;
    ip: string;
    created_at: string;
    last_seen_at: string;
  }>(
    db,
    sql`select s.id, s.type, st.email, s.ip, s.created_at, s.last_seen_at
        from exchange_sessions s join staff st on st.id = s.staff_id
        where exists (select 1 from exchange_imports i where i.session_id = s.id)
           or exists (select 1 from exchange_sale_exports e where e.session_id = s.id)
        order by s.id desc limit ${limit}`,
  );
  const ids = JSON.stringify(sessions.map((s) => s.id));
  const files = await queryRows<{
    session_id: number;
    filename: string;
    kind: string | null;
    status: 'applying' | 'done' | 'failed';
    step: number;
    steps: number;
    counts: Record<string, number>;
    warnings: string[];
    error: string | null;
    started_at: string;
    finished_at: string | null;
  }>(
    db,
    sql`select session_id, filename, kind, status, step, steps, counts, warnings, error, started_at, finished_at
        from exchange_imports where session_id in (select jsonb_array_elements_text(${ids}::jsonb)::int) order by id`,
  );
  const exports = await queryRows<{
    id: number;
    session_id: number;
    orders: number;
    created_at: string;
    confirmed_at: string | null;
  }>(
    db,
    sql`select id, session_id, coalesce(array_length(order_ids, 1), 0)::int as orders, created_at, confirmed_at
        from exchange_sale_exports where session_id in (select jsonb_array_elements_text(${ids}::jsonb)::int) order by id`,
  );
  const [orders] = await queryRows<{ until: string | null; unacknowledged: number }>(
    db,
    sql`select (select max(until) from exchange_sale_exports where confirmed_at is not null and reset_at is null) as until,
               (select count(*)::int from orders o where o.exchange_confirmed_at is null and o.status <> 'cancelled'
                  and o.created_at >= (select coalesce(min(created_at), now()) from exchange_sessions)) as unacknowledged`,
  );
  const base = siteUrl.replace(/\/$/, '');
  const account = await exchangeAccount(db);
  return {
    id: 'exchange',
    account: account
      ? {
          id: account.id,
          login: account.email,
          password_set: account.passwordHash !== null,
          password_changed_at: iso(account.passwordChangedAt),
          disabled: account.disabled,
        }
      : null,
    endpoint: `${base}/backend/1c/exchange`,
    legacy_endpoint: `${base}/bitrix/admin/1c_exchange.php`,
    settings: await readExchangeSettings(db),
    orders: { confirmed_until: iso(orders!.until), unacknowledged: orders!.unacknowledged },
    sessions: sessions.map((s) => ({
      id: s.id,
      type: s.type,
      account: s.email,
      ip: s.ip,
      started_at: iso(s.created_at)!,
      last_seen_at: iso(s.last_seen_at)!,
      files: files
        .filter((f) => f.session_id === s.id)
        .map((f) => ({
          filename: f.filename,
          kind: f.kind,
          status: f.status,
          step: f.step,
          steps: f.steps,
          counts: f.counts,
          warnings: f.warnings,
          error: f.error,
          started_at: iso(f.started_at)!,
          finished_at: iso(f.finished_at),
        })),
      exports: exports
        .filter((e) => e.session_id === s.id)
        .map((e) => ({
          id: e.id,
          orders: e.orders,
          created_at: iso(e.created_at)!,
          confirmed_at: iso(e.confirmed_at),
        })),
    })),
  };
}

/** The settings as they are, the row locked (the audit's `before`). */
export async function lockExchangeSettings(tx: Database): Promise<ExchangeSettingsBody> {
  await tx.execute(sql`select 1 from app_state where key = 'exchange_settings' for update`);
  return readExchangeSettings(tx);
}

export async function saveExchangeSettings(tx: Database, settings: ExchangeSettingsBody): Promise<void> {
  const value = {
    ...settings,
    salePriceType: settings.salePriceType || null,
    oldPriceType: settings.oldPriceType || null,
  };
  await tx
    .insert(appState)
    .values({ key: 'exchange_settings', value })
    .onConflictDoUpdate({ target: appState.key, set: { value } });
}

/**
 * «Отправить заказы заново»: the confirmed exports are set aside (reset_at), so the next
 * mode=query starts from the first exchange session again, and their orders count as not
 * acknowledged until 1C confirms them again. Idempotent: a second call finds nothing to set aside.
 */
export async function resendOrders(tx: Database): Promise<{ exports: number; orders: number }> {
  const reset = await queryRows<{ id: number; order_ids: number[] }>(
    tx,
    sql`update exchange_sale_exports set reset_at = now() where confirmed_at is not null and reset_at is null
        returning id, order_ids`,
  );
  const orderIds = [...new Set(reset.flatMap((r) => r.order_ids))];
  if (orderIds.length > 0)
    await tx.execute(
      sql`update orders set exchange_confirmed_at = null
          where id in (select jsonb_array_elements_text(${JSON.stringify(orderIds)}::jsonb)::int)`,
    );
  return { exports: reset.length, orders: orderIds.length };
}

/** The exchange account 1C logs in with: the first staff account of role 'exchange' (one is all 1C needs). */
async function exchangeAccount(db: Database, lock = false) {
  const q = db.select().from(staff).where(eq(staff.role, 'exchange')).orderBy(staff.id).limit(1);
  const [row] = lock ? await q.for('update') : await q;
  return row ?? null;
}

export type ExchangePasswordResult =
  | { ok: true; id: number; login: string; password: string; created: boolean; before: string | null; at: Date }
  | { ok: false; status: number; field: string; error: string };

/**
 * «Задать новый пароль» on the Exchange screen: a new random password for the exchange account,
 * answered once (only its argon2 hash is kept); sessions 1C opened with the old one end
 * (their tokens are spoiled). With no exchange account
 * yet, one is made with `email` as its login. 1C's password field takes any text; 24 URL-safe
 * characters (144 random bits) need no escaping in HTTP Basic.
 */
export async function setExchangePassword(
  tx: Database,
  { email, now }: { email: string | undefined; now: Date },
): Promise<ExchangePasswordResult> {
  let account = await exchangeAccount(tx, true);
  let created = false;
  if (!account) {
    if (!email)
      return { ok: false, status: 400, field: 'email', error: 'Укажите логин (адрес почты) учётной записи обмена' };
    const made = await createStaff(tx, { email, name: 'Обмен с 1С', role: 'exchange', now });
    if (!made.ok) return { ok: false, status: made.status, field: made.field, error: made.error };
    account = made.staff;
    created = true;
  }
  const password = crypto.randomBytes(18).toString('base64url');
  await tx
    .update(staff)
    .set({
      passwordHash: await hashPassword(password),
      passwordChangedAt: now,
      // The one-time link of a new account is not needed: the exchange never enrols an authenticator.
      setupTokenHash: null,
      setupPurpose: null,
      setupExpiresAt: null,
    })
    .where(eq(staff.id, account.id));
  // The sessions 1C opened with the old password end: their tokens no longer match (the rows stay for the log).
  await tx.execute(
    sql`update exchange_sessions set token_hash = 'ended:' || id::text || ':' || token_hash
        where staff_id = ${account.id} and token_hash not like 'ended:%'`,
  );
  return {
    ok: true,
    id: account.id,
    login: account.email,
    password,
    created,
    before: account.passwordChangedAt ? account.passwordChangedAt.toISOString() : null,
    at: now,
  };
}
