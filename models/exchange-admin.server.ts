import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '~/db/client.server';
import { appState } from '~/db/schema';
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
  return {
    id: 'exchange',
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
