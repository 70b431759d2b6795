import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '~/db/client.server';
import { addresses, authCodes, customers } from '~/db/schema';
import { AUTH_TEXT } from '~/core/auth';
import { formatBonuses } from '~/core/loyalty';
import { CustomerListResponse, CustomerOneResponse } from '~/shared/admin-contract';
import { ApiError, AuthResponse, ProfileResponse, SendCodeResponse } from '~/shared/contract';
import { readSmsOutbox } from '~/integrations/sms/offline.server';
import { setUpTestShop } from '~/tests/support/server';
import { expectContract, fetchJson, postForm } from '~/tests/support/api';
import { customerMaker, sessionToken } from '~/tests/support/session';
import { admin, staffSession, testClock } from '~/tests/support/admin';
import { customerExportBatches } from '~/models/admin-customers.server';

// The back office's customers (issue #29) on PGlite and (TEST_DATABASE_URL) PostgreSQL: content
// and warehouse may not see customers; search by phone, e-mail and name; the customer's page; the
// manual bonus adjustment (once per key, never below zero when two take at once, audited with its
// reason, nothing audited when refused); blocking ends the sessions and stops logins; the CSV
// export (admin only, the list's filter, streamed in batches, audited).

const clock = testClock();
const shop = setUpTestShop({ clock: clock.now });
const db = () => shop.database.db;
const api = () => `${shop.baseUrl}/backend`;
const customer = customerMaker(shop, '7996');

type Role = 'admin' | 'manager' | 'warehouse' | 'content';
const ROLES: Role[] = ['admin', 'manager', 'warehouse', 'content'];
const sessions: Partial<Record<Role, Awaited<ReturnType<typeof staffSession>>>> = {};
async function as(role: Role) {
  sessions[role] ??= await staffSession(shop, clock, { email: `${role}@customers.example`, role });
  return sessions[role];
}

const auditOf = (customerId: number) =>
  queryRows<{ action: string; staff_id: number | null; reason: string | null; before: unknown; after: unknown }>(
    db(),
    sql`select action, staff_id, reason, before, after from audit_events where entity_type = 'customer' and entity_id = ${String(customerId)} order by id`,
  );
const bonusOf = async (cookie: string, id: number) =>
  expectContract(CustomerOneResponse, (await admin(shop, `/customers/${id}`, { cookie })).body).data.bonus_kopecks;

describe('customers', () => {
  it('are seen by manager and admin only, found by phone, e-mail and name', async () => {
    const { customerId } = await sessionToken(shop, '79991234567');
    await db()
      .update(customers)
      .set({ firstName: 'Мария', lastName: 'Соколова', email: 'maria@example.ru' })
      .where(eq(customers.id, customerId));
    await db()
      .insert(addresses)
      .values({ customerId, fields: { city: 'Москва', street: 'Тверская', house: '1' } });
    for (const role of ROLES) {
      const { cookie } = await as(role);
      const allowed = role === 'admin' || role === 'manager';
      expect((await admin(shop, '/customers', { cookie })).status, role).toBe(allowed ? 200 : 403);
      expect((await admin(shop, `/customers/${customerId}`, { cookie })).status, role).toBe(allowed ? 200 : 403);
      if (!allowed) continue;
      for (const q of ['1234567', 'maria@', 'Соколова', 'мария']) {
        const list = expectContract(
          CustomerListResponse,
          (await admin(shop, `/customers?q=${encodeURIComponent(q)}`, { cookie })).body,
        );
        expect(
          list.data.map((c) => c.id),
          q,
        ).toContain(customerId);
      }
      const one = expectContract(CustomerOneResponse, (await admin(shop, `/customers/${customerId}`, { cookie })).body);
      expect(one.data).toMatchObject({
        id: customerId,
        phone: '79991234567',
        email: 'maria@example.ru',
        name: 'Соколова Мария',
        blocked: false,
        sessions: 1,
        subscribed: false,
        newsletter_status: null,
        orders: [],
        returns: [],
        bonus_moves: [],
        certificates: [],
        addresses: [{ fields: { city: 'Москва', street: 'Тверская', house: '1' } }],
      });
    }
    expect((await admin(shop, '/customers')).status).toBe(401);
    expect((await admin(shop, '/customers/99999999', { cookie: (await as('manager')).cookie })).status).toBe(404);
  });
});

describe('the manual bonus adjustment', () => {
  it('is for manager and admin, needs a reason and whole roubles, is audited, and happens once per key', async () => {
    const { customerId } = await customer();
    for (const role of ['warehouse', 'content'] as const) {
      const refused = await admin(shop, `/customers/${customerId}/bonuses`, {
        cookie: (await as(role)).cookie,
        body: { amount_kopecks: 10_000, reason: 'x' },
      });
      expect(refused.status, role).toBe(403);
    }
    const { cookie, id: managerId } = await as('manager');
    const post = (body: unknown, key?: string) =>
      admin(shop, `/customers/${customerId}/bonuses`, { cookie, body, ...(key ? { key } : {}) });
    expect((await post({ amount_kopecks: 10_000, reason: ' ' })).status).toBe(400);
    expect((await post({ amount_kopecks: 10_050, reason: 'компенсация' })).status).toBe(400);
    expect((await post({ amount_kopecks: 0, reason: 'компенсация' })).status).toBe(400);
    expect(
      (
        await admin(shop, `/customers/${customerId}/bonuses`, {
          cookie,
          body: { amount_kopecks: 10_000, reason: 'x' },
          key: null,
        })
      ).status,
    ).toBe(400);
    // Taking from an empty account is refused, and nothing is audited.
    const short = await post({ amount_kopecks: -10_000, reason: 'ошибка' });
    expect(short.status).toBe(409);
    expect(short.body.error).toMatch(/^На счёте 0 бонусов/);
    expect(await auditOf(customerId)).toEqual([]);

    // A double click: one key twice at once credits once.
    const key = `bonus-${customerId}-double`;
    const twice = await Promise.all(
      [0, 1].map(() => post({ amount_kopecks: 150_000, reason: 'Компенсация за задержку' }, key)),
    );
    expect(twice.map((a) => a.status)).toEqual([200, 200]);
    expect(await bonusOf(cookie, customerId)).toBe(150_000);
    const shown = expectContract(CustomerOneResponse, twice[0]?.body).data;
    expect(shown.bonus_kopecks).toBe(150_000);
    expect(shown.bonus_moves).toMatchObject([
      { kind: 'manual', amount_kopecks: 150_000, expires_at: expect.any(String) },
    ]);
    // The same key with another amount is refused.
    expect((await post({ amount_kopecks: 100, reason: 'Компенсация за задержку' }, key)).status).toBe(422);
    expect(await auditOf(customerId)).toEqual([
      {
        action: 'customer.bonuses',
        staff_id: managerId,
        reason: 'Компенсация за задержку',
        before: { bonus_kopecks: 0 },
        after: { bonus_kopecks: 150_000, amount_kopecks: 150_000 },
      },
    ]);
  });

  it('never takes the balance below zero when two people take at once', async () => {
    const { customerId } = await customer();
    const manager = await as('manager');
    const adminS = await as('admin');
    expect(
      (
        await admin(shop, `/customers/${customerId}/bonuses`, {
          cookie: adminS.cookie,
          body: { amount_kopecks: 100_000, reason: 'начисление' },
        })
      ).status,
    ).toBe(200);
    const both = await Promise.all(
      [manager, adminS].map((s) =>
        admin(shop, `/customers/${customerId}/bonuses`, {
          cookie: s.cookie,
          body: { amount_kopecks: -70_000, reason: 'списание' },
        }),
      ),
    );
    expect(both.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(both.find((a) => a.status === 409)?.body.error).toBe(
      `На счёте ${formatBonuses(30_000)}: списать больше нельзя`,
    );
    expect(await bonusOf(manager.cookie, customerId)).toBe(30_000);
    const lots = await queryRows<{ remaining_kopecks: number }>(
      db(),
      sql`select remaining_kopecks from bonus_lots where customer_id = ${customerId}`,
    );
    expect(lots).toEqual([{ remaining_kopecks: 30_000 }]);
    expect((await auditOf(customerId)).map((a) => [a.action, a.after])).toEqual([
      ['customer.bonuses', { bonus_kopecks: 100_000, amount_kopecks: 100_000 }],
      ['customer.bonuses', { bonus_kopecks: 30_000, amount_kopecks: -70_000 }],
    ]);
  });
});

describe('blocking a customer', () => {
  const form = postForm;
  const profile = (token: string) => fetch(`${api()}/api/personal/profile_main.php`, form({ 'params[token]': token }));
  async function lastCode(phone: string): Promise<string> {
    const sms = (await readSmsOutbox(path.join(shop.dataDir, 'outbox'))).filter(
      (m) => m.phone === phone && m.tag === 'login-code',
    );
    const m = /(\d{6})/.exec(sms.at(-1)?.text ?? '');
    if (!m?.[1]) throw new Error(`no login SMS to ${phone}`);
    return m[1];
  }
  async function tryLogin(phone: string) {
    await db().delete(authCodes).where(eq(authCodes.target, phone)); // the 59-second resend wait is not this test's
    const sent = await fetchJson(api(), '/api/personal/send_sms.php', SendCodeResponse, {
      init: form({ phone, recaptcha_token: 'test-captcha-token' }),
    });
    expect(sent.body).toMatchObject({ success: true });
    return (
      await fetchJson(api(), '/api/personal/auth_phone.php', AuthResponse, {
        init: form({ phone, code: await lastCode(phone) }),
      })
    ).body;
  }

  it('ends their sessions and refuses their logins until unblocked; manager and admin only; audited', async () => {
    const phone = '79961112233';
    const { token, customerId } = await sessionToken(shop, phone);
    expect((await profile(token)).status).toBe(200);
    for (const role of ['warehouse', 'content'] as const) {
      expect(
        (
          await admin(shop, `/customers/${customerId}/block`, {
            cookie: (await as(role)).cookie,
            body: { reason: 'мошенничество' },
          })
        ).status,
        role,
      ).toBe(403);
    }
    const { cookie, id: managerId } = await as('manager');
    expect((await admin(shop, `/customers/${customerId}/block`, { cookie, body: { reason: '' } })).status).toBe(400);
    expect((await admin(shop, `/customers/${customerId}/unblock`, { cookie, body: {} })).status).toBe(409);
    expect(await auditOf(customerId)).toEqual([]);

    // Two clicks at once (two keys): blocked once, one audit row.
    const both = await Promise.all(
      [0, 1].map(() =>
        admin(shop, `/customers/${customerId}/block`, { cookie, body: { reason: 'Мошеннические заказы' } }),
      ),
    );
    expect(both.map((a) => a.status).sort()).toEqual([200, 409]);
    const blocked = expectContract(CustomerOneResponse, both.find((a) => a.status === 200)?.body).data;
    expect(blocked).toMatchObject({ blocked: true, blocked_reason: 'Мошеннические заказы', sessions: 0 });
    expect(blocked.blocked_at).toBe(clock.now().toISOString());
    expect((await profile(token)).status).toBe(401);
    expectContract(ApiError, await (await profile(token)).json());
    const refused = await tryLogin(phone);
    expect(refused).toEqual({ data: { error: AUTH_TEXT.blocked } });
    expect(AUTH_TEXT.blocked).toBe('Вход в личный кабинет закрыт. Если это ошибка, напишите нам в чат');
    const list = expectContract(CustomerListResponse, (await admin(shop, `/customers?q=${phone}`, { cookie })).body);
    expect(list.data).toMatchObject([{ id: customerId, blocked: true }]);

    const unblocked = await admin(shop, `/customers/${customerId}/unblock`, {
      cookie,
      body: { reason: 'Разобрались' },
    });
    expect(unblocked.status).toBe(200);
    expect(unblocked.body.data).toMatchObject({ blocked: false, blocked_at: null, blocked_reason: null });
    const again = await tryLogin(phone);
    if (!('user' in again)) throw new Error(JSON.stringify(again));
    expect((await profile(again.user.jwt_token)).status).toBe(200);
    // The old session stays ended.
    expect((await profile(token)).status).toBe(401);
    expect((await auditOf(customerId)).map((a) => [a.action, a.staff_id, a.reason, a.before, a.after])).toEqual([
      ['customer.block', managerId, 'Мошеннические заказы', { blocked: false }, { blocked: true, sessions_ended: 1 }],
      ['customer.unblock', managerId, 'Разобрались', { blocked: true }, { blocked: false, sessions_ended: 0 }],
    ]);
    expectContract(ProfileResponse, await (await profile(again.user.jwt_token)).json());
  });
});

describe('the CSV export', () => {
  /** RFC 4180 fields of a `;`-separated text (quotes doubled inside quoted fields). */
  function parseCsv(text: string): string[][] {
    const rows: string[][] = [];
    let row: string[] = [];
    let field = '';
    let quoted = false;
    for (let i = 0; i < text.length; i++) {
      const c = text[i] as string;
      if (quoted) {
        if (c === '"' && text[i + 1] === '"') {
          field += '"';
          i++;
        } else if (c === '"') quoted = false;
        else field += c;
      } else if (c === '"') quoted = true;
      else if (c === ';') {
        row.push(field);
        field = '';
      } else if (c === '\r' && text[i + 1] === '\n') {
        row.push(field);
        rows.push(row);
        row = [];
        field = '';
        i++;
      } else field += c;
    }
    expect(field, 'the text ends with a line break').toBe('');
    return rows;
  }
  const exportOf = async (cookie: string | null, query = '') => {
    const res = await fetch(`${api()}/admin/customers/export.csv${query}`, cookie ? { headers: { cookie } } : {});
    return { res, bytes: Buffer.from(await res.arrayBuffer()) };
  };
  const exportAudit = () =>
    queryRows<{ staff_id: number | null; actor_kind: string; after: unknown }>(
      db(),
      sql`select staff_id, actor_kind, after from audit_events where action = 'customer.export' order by id`,
    );

  it('is the admin’s alone: UTF-8 with BOM, `;`, the list’s filter, newest first, audited with the filter and the rows', async () => {
    const made: number[] = [];
    const names = [
      ['Выгрузкина', 'Анна', 'maria;x@example.ru'],
      ['Выгрузкина', 'Ольга "Лёля"', ''],
      ['Выгрузкина', '=HYPERLINK("http://evil")', 'o@example.ru'],
    ] as const;
    for (const [last, first, email] of names) {
      const { customerId } = await customer();
      await db().update(customers).set({ lastName: last, firstName: first, email }).where(eq(customers.id, customerId));
      made.push(customerId);
    }
    await customer(); // one more, not matching the filter
    const q = encodeURIComponent('выгрузкина');

    for (const role of ['manager', 'warehouse', 'content'] as const) {
      const { res } = await exportOf((await as(role)).cookie, `?q=${q}`);
      expect(res.status, role).toBe(403);
    }
    expect((await exportOf(null)).res.status).toBe(401);
    expect(await exportAudit()).toEqual([]);

    const { cookie, id: adminId } = await as('admin');
    expect((await exportOf(cookie, '?limit=5')).res.status).toBe(400);
    const { res, bytes } = await exportOf(cookie, `?q=${q}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="customers-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = parseCsv(bytes.subarray(3).toString('utf8'));
    expect(rows[0]).toEqual([
      '№',
      'Телефон',
      'E-mail',
      'Фамилия',
      'Имя',
      'Отчество',
      'День рождения',
      'Зарегистрирован',
      'Рассылка',
      'Заблокирован',
    ]);
    const body = rows.slice(1);
    // The list's filter, in the list's order (newest first).
    const list = expectContract(CustomerListResponse, (await admin(shop, `/customers?q=${q}`, { cookie })).body);
    expect(body.map((r) => Number(r[0]))).toEqual(list.data.map((c) => c.id));
    expect(body.map((r) => Number(r[0]))).toEqual([...made].reverse());
    const byId = new Map(body.map((r) => [Number(r[0]), r]));
    expect(byId.get(made[0] as number)?.slice(2, 5)).toEqual(['maria;x@example.ru', 'Выгрузкина', 'Анна']);
    expect(byId.get(made[1] as number)?.[4]).toBe('Ольга "Лёля"');
    // A formula stays text.
    expect(byId.get(made[2] as number)?.[4]).toBe(`'=HYPERLINK("http://evil")`);
    expect(byId.get(made[0] as number)?.[7]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    expect(byId.get(made[0] as number)?.slice(8)).toEqual(['нет', '']);

    expect(await exportAudit()).toEqual([
      {
        staff_id: adminId,
        actor_kind: 'staff',
        after: { filter: { q: 'выгрузкина' }, rows: 3, format: 'csv' },
      },
    ]);
  });

  it('streams every customer in batches: past the batch size, nothing twice, nothing left out', async () => {
    const { cookie } = await as('admin');
    // 2 500 customers more: three batches of the export's 1 000.
    await db().execute(
      sql`insert into customers (phone, last_name, first_name)
          select '7953' || lpad(g::text, 7, '0'), 'Пакетова', 'Номер ' || g from generate_series(1, 2500) g`,
    );
    const [all] = await queryRows<{ n: number }>(db(), sql`select count(*)::int as n from customers`);
    const { res, bytes } = await exportOf(cookie);
    expect(res.status).toBe(200);
    // Sent as it is read: no length known beforehand.
    expect(res.headers.get('content-length')).toBeNull();
    const ids = parseCsv(bytes.subarray(3).toString('utf8'))
      .slice(1)
      .map((r) => Number(r[0]));
    expect(ids).toHaveLength(all?.n ?? -1);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    expect((await exportAudit()).at(-1)?.after).toEqual({ filter: { q: null }, rows: all?.n, format: 'csv' });
  });

  it('reads each batch only when the one before it was taken (one batch in memory at a time)', async () => {
    const batches = customerExportBatches(db(), { q: 'Пакетова', maxId: 2_147_483_647, size: 2 });
    const first = await batches.next();
    expect(first.value).toHaveLength(2);
    // A customer of a later batch renamed now is not in it: that batch was not read yet.
    const [later] = await queryRows<{ id: number }>(
      db(),
      sql`select id from customers where last_name = 'Пакетова' order by id desc offset 5 limit 1`,
    );
    await db()
      .update(customers)
      .set({ lastName: 'Другая' })
      .where(eq(customers.id, later?.id as number));
    const seen: number[] = (first.value as { id: number }[]).map((c) => c.id);
    for await (const batch of batches) {
      expect(batch.length).toBeLessThanOrEqual(2);
      seen.push(...batch.map((c) => c.id));
    }
    expect(seen).toHaveLength(2499);
    expect(seen).not.toContain(later?.id);
  });
});
