import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '~/db/client.server';
import { setUpTestShop } from '~/tests/support/server';
import { expectContract } from '~/tests/support/api';
import {
  admin,
  codeAt,
  createStaffByScript,
  enrol,
  linkToken,
  login,
  staffSession,
  staffToken,
  testClock,
} from '~/tests/support/admin';
import { AuditListResponse, StaffLinkResponse, StaffListResponse, StaffOneResponse } from '~/shared/admin-contract';
import { staffAccount } from '~/scripts/staff';
import { pruneExpired } from '~/models/maintenance.server';

// Staff management and the audit log over HTTP (issue #29): each role allowed or refused, the
// named POSTs with their Idempotency-Key (a repeat gets the first answer, two at once make one
// change, a reused key with another body 422), the audit row written with every change and never
// without one (a failed audit insert rolls the change back), and the staff scripts audited as the
// "script" actor. On PGlite, and on PostgreSQL with TEST_DATABASE_URL.

const clock = testClock();
const shop = setUpTestShop({ clock: clock.now });

type Session = Awaited<ReturnType<typeof staffSession>>;
const sessions: Partial<Record<'admin' | 'manager' | 'warehouse' | 'content', Session>> = {};
async function as(role: 'admin' | 'manager' | 'warehouse' | 'content'): Promise<Session> {
  sessions[role] ??= await staffSession(shop, clock, { email: `${role}@vitrina.example`, role });
  // Keep the session from idling out while the clock moves (each login moves it 30 s).
  return sessions[role];
}

async function auditRows(where: { entityId: number | string; action?: string }) {
  return queryRows<{
    action: string;
    actor_kind: string;
    staff_id: number | null;
    actor_label: string;
    before: unknown;
    after: unknown;
    reason: string | null;
  }>(
    shop.database.db,
    sql`select action, actor_kind, staff_id, actor_label, before, after, reason from audit_events
        where entity_type = 'staff' and entity_id = ${String(where.entityId)} ${where.action ? sql`and action = ${where.action}` : sql``} order by id`,
  );
}

describe('roles', () => {
  it('only the admin lists, reads and changes staff and reads the audit log', async () => {
    for (const role of ['admin', 'manager', 'warehouse', 'content'] as const) {
      const { cookie } = await as(role);
      const expected = role === 'admin' ? 200 : 403;
      expect((await admin(shop, '/staff', { cookie })).status, `${role} GET /staff`).toBe(expected);
      expect((await admin(shop, '/audit', { cookie })).status, `${role} GET /audit`).toBe(expected);
      const create = await admin(shop, '/staff', {
        cookie,
        body: { email: `by-${role}@vitrina.example`, role: 'content' },
      });
      expect(create.status, `${role} POST /staff`).toBe(role === 'admin' ? 201 : 403);
      if (role !== 'admin') expect(create.body.error).toBe('Недостаточно прав для этого действия');
      // Every role may ask who it is.
      expect((await admin(shop, '/auth/me', { cookie })).status).toBe(200);
    }
  });

  it('without a session everything is 401, the one-time link and login aside', async () => {
    for (const path of ['/staff', '/staff/1', '/staff/1/sessions', '/audit', '/audit/actions', '/auth/me'])
      expect((await admin(shop, path)).status, path).toBe(401);
    expect((await admin(shop, '/staff/1/role', { body: { role: 'admin' } })).status).toBe(401);
  });

  it('a role change takes effect on the next call, with no new login', async () => {
    const { cookie: adminCookie } = await as('admin');
    const member = await staffSession(shop, clock, { email: 'promoted@vitrina.example', role: 'content' });
    expect((await admin(shop, '/staff', { cookie: member.cookie })).status).toBe(403);
    const r = await admin(shop, `/staff/${member.id}/role`, {
      cookie: adminCookie,
      body: { role: 'admin', reason: 'Замещает Анну' },
    });
    expect(r.status).toBe(200);
    expect(expectContract(StaffOneResponse, r.body).data).toMatchObject({ role: 'admin', role_label: 'Администратор' });
    expect((await admin(shop, '/staff', { cookie: member.cookie })).status).toBe(200);
    const [row] = await auditRows({ entityId: member.id, action: 'staff.role' });
    expect(row).toMatchObject({ actor_kind: 'staff', actor_label: 'admin@vitrina.example', reason: 'Замещает Анну' });
    expect(row?.before).toMatchObject({ role: 'content' });
    expect(row?.after).toMatchObject({ role: 'admin' });
  });
});

describe('staff management', () => {
  it('creates an account with its one-time link, lists and filters it', async () => {
    const { cookie } = await as('admin');
    const r = await admin(shop, '/staff', {
      cookie,
      body: { email: ' Olga@Vitrina.Example', name: 'Ольга', role: 'warehouse' },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const made = expectContract(StaffLinkResponse, r.body);
    expect(made.data).toMatchObject({
      email: 'olga@vitrina.example',
      name: 'Ольга',
      role: 'warehouse',
      password_set: false,
      totp_enrolled: false,
      setup_pending: true,
    });
    expect(made.setup_url).toMatch(/^http:\/\/shop\.test\/admin\/setup#token=/);
    // Hashes and secrets never leave the server, not even in the audit log.
    const [created] = await auditRows({ entityId: made.data.id, action: 'staff.create' });
    expect(JSON.stringify(created)).not.toMatch(/hash|secret|token/i);

    const list = expectContract(
      StaffListResponse,
      (await admin(shop, '/staff?role=warehouse&q=olga&sort=email&order=desc', { cookie })).body,
    );
    expect(list.data.map((s) => s.email)).toEqual(['olga@vitrina.example']);
    expect(list.total).toBe(1);
    const paged = expectContract(StaffListResponse, (await admin(shop, '/staff?limit=2&offset=0', { cookie })).body);
    expect(paged.data).toHaveLength(2);
    expect(paged.total).toBeGreaterThan(2);
    const many = expectContract(StaffListResponse, (await admin(shop, `/staff?ids=${made.data.id}`, { cookie })).body);
    expect(many.data.map((s) => s.id)).toEqual([made.data.id]);
    // A misspelt filter is refused, not ignored.
    expect((await admin(shop, '/staff?rol=admin', { cookie })).status).toBe(400);
    expect((await admin(shop, '/staff?limit=1000', { cookie })).status).toBe(400);

    const dup = await admin(shop, '/staff', { cookie, body: { email: 'OLGA@vitrina.example', role: 'content' } });
    expect(dup.status).toBe(409);
    expect(dup.body.field).toBe('email');
  });

  it('disabling ends the sessions at once; the last admin cannot be disabled or demoted', async () => {
    const { cookie, id: adminId } = await as('admin');
    const member = await staffSession(shop, clock, { email: 'leaving@vitrina.example', role: 'manager' });
    expect((await admin(shop, '/auth/me', { cookie: member.cookie })).status).toBe(200);
    const off = await admin(shop, `/staff/${member.id}/disable`, { cookie, body: { reason: 'Уволилась' } });
    expect(off.status).toBe(200);
    expect(off.body.data.disabled).toBe(true);
    expect((await admin(shop, '/auth/me', { cookie: member.cookie })).status).toBe(401);
    // A disabled account's right password is answered as a wrong one.
    clock.advance(30_000);
    expect(
      (await admin(shop, '/auth/login', { body: { email: member.email, password: member.password } })).status,
    ).toBe(401);
    const [row] = await auditRows({ entityId: member.id, action: 'staff.disable' });
    expect(row?.after).toMatchObject({ disabled: true, sessions_ended: 1 });

    // Every other admin demoted or disabled first: then this one is the last.
    const admins = expectContract(
      StaffListResponse,
      (await admin(shop, '/staff?role=admin&disabled=false&limit=100', { cookie })).body,
    );
    for (const other of admins.data.filter((s) => s.id !== adminId))
      expect((await admin(shop, `/staff/${other.id}/role`, { cookie, body: { role: 'content' } })).status).toBe(200);
    const demote = await admin(shop, `/staff/${adminId}/role`, { cookie, body: { role: 'manager' } });
    expect(demote.status).toBe(409);
    expect(demote.body.error).toMatch(/последний администратор/);
    expect((await admin(shop, `/staff/${adminId}/disable`, { cookie, body: {} })).status).toBe(409);
    // Refused: no audit row.
    expect(await auditRows({ entityId: adminId, action: 'staff.role' })).toEqual([]);
  });

  it('reset-totp ends the sessions and makes a link that asks the current password', async () => {
    const { cookie } = await as('admin');
    const member = await staffSession(shop, clock, { email: 'lostphone@vitrina.example', role: 'warehouse' });
    const r = await admin(shop, `/staff/${member.id}/reset-totp`, { cookie, body: { reason: 'Потерян телефон' } });
    expect(r.status).toBe(200);
    const reset = expectContract(StaffLinkResponse, r.body);
    expect(reset.data).toMatchObject({ totp_enrolled: false, password_set: true, setup_pending: true });
    expect((await admin(shop, '/auth/me', { cookie: member.cookie })).status).toBe(401);
    // The password alone no longer logs in: the authenticator must be enrolled again.
    clock.advance(30_000);
    const noTotp = await admin(shop, '/auth/login', { body: { email: member.email, password: member.password } });
    expect(noTotp.status).toBe(403);
    // The link with a wrong password is refused; with the current one it enrols the new key.
    const token = linkToken(reset.setup_url);
    const start = await admin(shop, '/auth/setup/start', { body: { token } });
    expect(start.body.data.purpose).toBe('totp');
    const wrong = await admin(shop, '/auth/setup/finish', {
      body: { token, password: 'not the password', code: codeAt(start.body.data.secret, clock.now()) },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.field).toBe('password');
    const secret = await enrol(shop, clock, { token, password: member.password });
    expect(secret).not.toBe(member.secret);
    expect(await login(shop, clock, { email: member.email, password: member.password, secret })).toBeTruthy();
    expect((await auditRows({ entityId: member.id })).map((a) => a.action)).toEqual(
      expect.arrayContaining(['staff.create', 'staff.setup', 'auth.login', 'staff.reset_totp', 'staff.totp_enrol']),
    );
  });

  it('reset-password: the old password dies, the link sets a new one and a new authenticator', async () => {
    const { cookie } = await as('admin');
    const member = await staffSession(shop, clock, { email: 'forgot@vitrina.example', role: 'content' });
    const r = await admin(shop, `/staff/${member.id}/reset-password`, { cookie, body: { reason: 'Забыла пароль' } });
    expect(r.status).toBe(200);
    expect(expectContract(StaffLinkResponse, r.body).data).toMatchObject({
      password_set: false,
      totp_enrolled: false,
      setup_pending: true,
    });
    expect((await admin(shop, '/auth/me', { cookie: member.cookie })).status).toBe(401);
    clock.advance(30_000);
    expect(
      (await admin(shop, '/auth/login', { body: { email: member.email, password: member.password } })).status,
    ).toBe(401);
    const token = linkToken(r.body.setup_url);
    expect((await admin(shop, '/auth/setup/start', { body: { token } })).body.data.purpose).toBe('setup');
    const secret = await enrol(shop, clock, { token, password: 'новый пароль 2027' });
    expect(await login(shop, clock, { email: member.email, password: 'новый пароль 2027', secret })).toBeTruthy();
    expect((await auditRows({ entityId: member.id, action: 'staff.reset_password' }))[0]?.reason).toBe('Забыла пароль');
  });

  it('a staff member changes their own password: the current one is checked, every session ends', async () => {
    const member = await staffSession(shop, clock, { email: 'changer@vitrina.example', role: 'warehouse' });
    const other = await login(shop, clock, member);
    const wrong = await admin(shop, '/auth/password', {
      cookie: member.cookie,
      body: { current_password: 'not it at all', password: 'совсем новый пароль' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.field).toBe('current_password');
    const common = await admin(shop, '/auth/password', {
      cookie: member.cookie,
      body: { current_password: member.password, password: 'qwertyuiop' },
    });
    expect(common.body.field).toBe('password');
    const ok = await admin(shop, '/auth/password', {
      cookie: member.cookie,
      body: { current_password: member.password, password: 'совсем новый пароль' },
    });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('set-cookie')).toMatch(/Max-Age=0/);
    for (const c of [member.cookie, other]) expect((await admin(shop, '/auth/me', { cookie: c })).status).toBe(401);
    clock.advance(30_000);
    expect(
      (await admin(shop, '/auth/login', { body: { email: member.email, password: member.password } })).status,
    ).toBe(401);
    expect(await login(shop, clock, { ...member, password: 'совсем новый пароль' })).toBeTruthy();
    const [row] = await auditRows({ entityId: member.id, action: 'staff.password' });
    expect(row?.after).toEqual({ sessions_ended: 2 });
  });

  it("an admin ends anyone's sessions; the account stays", async () => {
    const { cookie } = await as('admin');
    const member = await staffSession(shop, clock, { email: 'laptop@vitrina.example', role: 'content' });
    const second = await login(shop, clock, member);
    const r = await admin(shop, `/staff/${member.id}/end-sessions`, { cookie, body: { reason: 'Ноутбук украден' } });
    expect(r.status).toBe(200);
    expect(r.body.sessions_ended).toBe(2);
    for (const c of [member.cookie, second]) expect((await admin(shop, '/auth/me', { cookie: c })).status).toBe(401);
    const list = await admin(shop, `/staff/${member.id}/sessions`, { cookie });
    expect(list.body.data.every((s: { end_reason: string }) => s.end_reason === 'admin')).toBe(true);
    expect(await login(shop, clock, member)).toBeTruthy();
  });

  it('renames with PATCH (audited), 404 for a missing one', async () => {
    const { cookie } = await as('admin');
    const member = await createStaffByScript(shop, { email: 'rename@vitrina.example', role: 'content' });
    const r = await admin(shop, `/staff/${member.id}`, { cookie, method: 'PATCH', body: { name: 'Мария Иванова' } });
    expect(r.status).toBe(200);
    expect(r.body.data.name).toBe('Мария Иванова');
    expect((await auditRows({ entityId: member.id, action: 'staff.rename' }))[0]?.after).toMatchObject({
      name: 'Мария Иванова',
    });
    expect((await admin(shop, '/staff/999999', { cookie })).status).toBe(404);
    expect((await admin(shop, '/staff/999999/role', { cookie, body: { role: 'admin' } })).status).toBe(404);
  });
});

describe('Idempotency-Key', () => {
  it('is required on named POSTs', async () => {
    const { cookie } = await as('admin');
    const r = await admin(shop, '/staff', {
      cookie,
      key: null,
      body: { email: 'nokey@vitrina.example', role: 'content' },
    });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/Idempotency-Key/);
  });

  it('a repeat gets the first answer and changes nothing; another body with the key is 422', async () => {
    const { cookie } = await as('admin');
    const key = 'create-repeat-0001';
    const first = await admin(shop, '/staff', {
      cookie,
      key,
      body: { email: 'repeat@vitrina.example', role: 'content' },
    });
    expect(first.status).toBe(201);
    const again = await admin(shop, '/staff', {
      cookie,
      key,
      body: { email: 'repeat@vitrina.example', role: 'content' },
    });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const other = await admin(shop, '/staff', {
      cookie,
      key,
      body: { email: 'other@vitrina.example', role: 'content' },
    });
    expect(other.status).toBe(422);
    expect(await auditRows({ entityId: first.body.data.id, action: 'staff.create' })).toHaveLength(1);
    // Another staff member's key of the same name is theirs: no clash.
    const promoted = await staffSession(shop, clock, { email: 'second-admin@vitrina.example', role: 'admin' });
    const theirs = await admin(shop, '/staff', {
      cookie: promoted.cookie,
      key,
      body: { email: 'theirs@vitrina.example', role: 'content' },
    });
    expect(theirs.status).toBe(201);
  });

  it('two requests at once with one key make one change and both get its answer', async () => {
    const { cookie } = await as('admin');
    const member = await createStaffByScript(shop, { email: 'race@vitrina.example', role: 'content' });
    const key = 'race-role-0001';
    const answers = await Promise.all(
      [0, 1, 2].map(() => admin(shop, `/staff/${member.id}/role`, { cookie, key, body: { role: 'manager' } })),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(answers.filter((a) => a.headers.get('idempotent-replayed') === 'true')).toHaveLength(2);
    expect(await auditRows({ entityId: member.id, action: 'staff.role' })).toHaveLength(1);
    // Without the key, the second of two at once is refused by the model (already that role): still one change.
    const other = await createStaffByScript(shop, { email: 'race2@vitrina.example', role: 'content' });
    const two = await Promise.all(
      [0, 1].map(() => admin(shop, `/staff/${other.id}/role`, { cookie, body: { role: 'manager' } })),
    );
    expect(two.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(await auditRows({ entityId: other.id, action: 'staff.role' })).toHaveLength(1);
  });

  it('a refused change leaves the key free for a corrected retry', async () => {
    const { cookie } = await as('admin');
    const key = 'refused-then-ok-1';
    const bad = await admin(shop, '/staff', { cookie, key, body: { email: 'not-an-email', role: 'content' } });
    expect(bad.status).toBe(400);
    const good = await admin(shop, '/staff', {
      cookie,
      key,
      body: { email: 'corrected@vitrina.example', role: 'content' },
    });
    expect(good.status).toBe(201);
  });
});

describe('audit log', () => {
  it('a failed audit insert rolls the change back', async () => {
    const { cookie } = await as('admin');
    const member = await createStaffByScript(shop, { email: 'rollback@vitrina.example', role: 'content', name: 'До' });
    const { db } = shop.database;
    await db.execute(
      sql`alter table audit_events add constraint test_refuse_rename check (action <> 'staff.rename') not valid`,
    );
    try {
      const r = await admin(shop, `/staff/${member.id}`, {
        cookie,
        method: 'PATCH',
        key: 'rename-rolled-back',
        body: { name: 'После' },
      });
      expect(r.status).toBe(500);
    } finally {
      await db.execute(sql`alter table audit_events drop constraint test_refuse_rename`);
    }
    const [row] = await queryRows<{ name: string }>(db, sql`select name from staff where id = ${member.id}`);
    expect(row?.name).toBe('До');
    expect(await queryRows(db, sql`select 1 from idempotency_keys where key = 'rename-rolled-back'`)).toEqual([]);
    // The same key then works: nothing of the failed try was kept.
    const retry = await admin(shop, `/staff/${member.id}`, {
      cookie,
      method: 'PATCH',
      key: 'rename-rolled-back',
      body: { name: 'После' },
    });
    expect(retry.status).toBe(200);
  });

  it('the application cannot change or delete a row', async () => {
    const { db } = shop.database;
    await expect(db.execute(sql`update audit_events set reason = 'tampered'`)).rejects.toThrow();
    await expect(db.execute(sql`delete from audit_events`)).rejects.toThrow();
  });

  it('lists newest first with filters by staff, entity, action and dates', async () => {
    const { cookie, id: adminId } = await as('admin');
    const all = expectContract(AuditListResponse, (await admin(shop, '/audit?limit=100', { cookie })).body);
    expect(all.total).toBeGreaterThan(10);
    const times = all.data.map((a) => a.at);
    expect([...times].sort().reverse()).toEqual(times);
    const mine = expectContract(
      AuditListResponse,
      (await admin(shop, `/audit?staff_id=${adminId}&action=staff.create&limit=100`, { cookie })).body,
    );
    expect(mine.data.length).toBeGreaterThan(0);
    expect(
      mine.data.every((a) => a.staff_id === adminId && a.action === 'staff.create' && a.actor_kind === 'staff'),
    ).toBe(true);
    expect(mine.data.every((a) => a.session_id !== null && a.request_id.length > 0 && a.ip !== '')).toBe(true);
    const one = mine.data[0];
    const entity = expectContract(
      AuditListResponse,
      (await admin(shop, `/audit?entity_type=staff&entity_id=${one?.entity_id}`, { cookie })).body,
    );
    expect(entity.data.every((a) => a.entity_id === one?.entity_id)).toBe(true);
    const day = clock.now().toISOString().slice(0, 10);
    const future = expectContract(AuditListResponse, (await admin(shop, `/audit?from=2999-01-01`, { cookie })).body);
    expect(future.total).toBe(0);
    const upTo = expectContract(AuditListResponse, (await admin(shop, `/audit?to=2000-01-01`, { cookie })).body);
    expect(upTo.total).toBe(0);
    expect((await admin(shop, `/audit?from=${day}&limit=1`, { cookie })).status).toBe(200);
    expect((await admin(shop, '/audit?from=yesterday', { cookie })).status).toBe(400);
    const actions = await admin(shop, '/audit/actions', { cookie });
    expect(actions.body.data.map((a: { id: string }) => a.id)).toEqual(
      expect.arrayContaining(['auth.login', 'staff.create', 'staff.role']),
    );
  });

  it('the staff scripts are audited as the script that made the change', async () => {
    const [offer] = await queryRows<{ id: number; quantity: number }>(
      shop.database.db,
      sql`select id, quantity from offers order by id limit 1`,
    );
    const res = await fetch(`${shop.baseUrl}/backend/staff/stock/`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${staffToken(shop)}`,
        'content-type': 'application/x-www-form-urlencoded',
        'x-vitrina-script': 'stock',
      },
      body: new URLSearchParams({
        action: 'set',
        offer_id: String(offer?.id),
        quantity: String((offer?.quantity ?? 0) + 3),
      }),
    });
    expect(res.status).toBe(200);
    const rows = await queryRows<{
      actor_kind: string;
      actor_label: string;
      action: string;
      entity_type: string;
      after: { quantity: number };
    }>(
      shop.database.db,
      sql`select actor_kind, actor_label, action, entity_type, after from audit_events where entity_type = 'offer' and entity_id = ${String(offer?.id)}`,
    );
    expect(rows).toEqual([
      {
        actor_kind: 'script',
        actor_label: 'npm run stock',
        action: 'offer.set',
        entity_type: 'offer',
        after: expect.objectContaining({ quantity: (offer?.quantity ?? 0) + 3 }),
      },
    ]);

    // npm run staff: audited in its own transaction; a refusal answers the envelope's error.
    const made = await staffAccount({
      apiBase: `${shop.baseUrl}/backend`,
      token: staffToken(shop),
      action: 'create',
      email: 'scripted@vitrina.example',
      role: 'manager',
    });
    const [created] = await auditRows({ entityId: made.id, action: 'staff.create' });
    expect(created).toMatchObject({ actor_kind: 'script', actor_label: 'npm run staff', staff_id: null });
    await expect(
      staffAccount({
        apiBase: `${shop.baseUrl}/backend`,
        token: staffToken(shop),
        action: 'disable',
        email: 'nobody@vitrina.example',
      }),
    ).rejects.toThrow(/Нет сотрудника/);
    const off = await staffAccount({
      apiBase: `${shop.baseUrl}/backend`,
      token: staffToken(shop),
      action: 'disable',
      email: 'scripted@vitrina.example',
    });
    expect(off.disabled).toBe(true);
    // Without the staff token: nothing.
    const denied = await fetch(`${shop.baseUrl}/backend/staff/accounts/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'action=create&email=x@y.ru&role=admin',
    });
    expect(denied.status).toBe(401);
  });
});

describe('malformed input', () => {
  it('never answers 500: odd bodies, ids, keys and queries are refused with a 4xx', async () => {
    const { cookie } = await as('admin');
    const bodies: unknown[] = [
      null,
      [],
      'text',
      42,
      { role: ['admin'] },
      { email: { $ne: 1 } },
      { name: 'a'.repeat(10_000) },
      { reason: 'x\u0000y' },
      { role: 'root' },
      {},
    ];
    // A member of their own to be changed (a valid body may disable them: that is fine here).
    const target = await createStaffByScript(shop, { email: 'fuzzed@vitrina.example', role: 'content' });
    const routes = [
      '/staff',
      `/staff/${target.id}/role`,
      `/staff/${target.id}/disable`,
      '/staff/abc/enable',
      '/staff/99999999999/reset-totp',
      '/auth/login',
      '/auth/totp',
      '/auth/setup/start',
      '/auth/setup/finish',
    ];
    for (const route of routes)
      for (const body of bodies) {
        const r = await admin(shop, route, { cookie, body: body as object });
        expect(
          r.status,
          `${route} ${JSON.stringify(body)?.slice(0, 80)}: ${JSON.stringify(r.body).slice(0, 200)}`,
        ).toBeLessThan(500);
      }
    for (const key of ['short', 'has space in it', 'x'.repeat(300), 'bad/slash/key'])
      expect(
        (await admin(shop, '/staff', { cookie, key, body: { email: 'k@vitrina.example', role: 'content' } })).status,
      ).toBe(400);
    for (const q of [
      '?sort=password_hash',
      '?order=up',
      '?offset=-1',
      '?limit=0',
      '?ids=1,,2',
      '?role[]=admin',
      '?q=%00',
    ])
      expect((await admin(shop, `/staff${q}`, { cookie })).status, q).toBe(400);
    for (const q of ['?staff_id=x', '?from=2026-13-45', '?to=soon', '?actor_kind=robot'])
      expect((await admin(shop, `/audit${q}`, { cookie })).status, q).toBe(400);
  });
});

describe('maintenance', () => {
  it('prunes Idempotency-Keys after a week and staff sessions after 90 days, never the audit log', async () => {
    const { db } = shop.database;
    const [before] = await queryRows<{ keys: number; sessions: number; audit: number }>(
      db,
      sql`select (select count(*)::int from idempotency_keys) as keys, (select count(*)::int from staff_sessions) as sessions, (select count(*)::int from audit_events) as audit`,
    );
    expect(before?.keys).toBeGreaterThan(0);
    const counts = await pruneExpired({ db, now: new Date(clock.now().getTime() + 91 * 86_400_000) });
    expect(counts.idempotencyKeys).toBe(before?.keys);
    expect(counts.staffSessions).toBe(before?.sessions);
    const [after] = await queryRows<{ audit: number }>(db, sql`select count(*)::int as audit from audit_events`);
    expect(after?.audit).toBe(before?.audit);
  });
});

describe('OpenAPI', () => {
  it('describes the admin routes from their schemas, the Idempotency-Key with the named POSTs', async () => {
    const doc = (await (await fetch(`${shop.baseUrl}/backend/openapi.json`)).json()) as {
      paths: Record<
        string,
        Record<string, { parameters?: { name: string; required: boolean }[]; description?: string }>
      >;
    };
    for (const path of [
      '/admin/auth/login',
      '/admin/auth/totp',
      '/admin/auth/me',
      '/admin/staff',
      '/admin/staff/{id}',
      '/admin/staff/{id}/role',
      '/admin/audit',
    ])
      expect(doc.paths[path], path).toBeDefined();
    const role = doc.paths['/admin/staff/{id}/role']?.post;
    expect(role?.description).toMatch(/staff:write/);
    expect(role?.parameters).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'Idempotency-Key', required: true }),
        expect.objectContaining({ name: 'id' }),
      ]),
    );
    expect(doc.paths['/admin/audit']?.get?.parameters?.map((p) => p.name)).toEqual(
      expect.arrayContaining(['staff_id', 'entity_type', 'action', 'from', 'to', 'sort', 'limit']),
    );
  });
});
