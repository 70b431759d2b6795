import { describe, expect, it } from 'vitest';
import { setUpTestShop } from '~/tests/support/server';
import { expectContract } from '~/tests/support/api';
import {
  admin,
  codeAt,
  cookieOf,
  createStaffByScript,
  enrol,
  login,
  staffSession,
  testClock,
} from '~/tests/support/admin';
import { MeResponse, SetupStartResponse } from '~/shared/admin-contract';
import { STAFF_SESSION_ABSOLUTE_MS, STAFF_SESSION_IDLE_MS } from '~/core/staff-auth';

// Staff login (issue #29, docs/back-office.md): the one-time link, password then TOTP, each code
// once, the caps on failed tries, the session's idle and absolute timeouts on a clock the test
// moves, logout, and the Origin rule. On PGlite, and on PostgreSQL with TEST_DATABASE_URL.

const clock = testClock();
const shop = setUpTestShop({ clock: clock.now });
const PASSWORD = 'correct horse battery';

describe('one-time link and enrolment', () => {
  it('sets the password and the authenticator once; the link then is dead', async () => {
    const made = await createStaffByScript(shop, {
      email: 'Link.Owner@Vitrina.Example',
      role: 'manager',
      name: 'Лена',
    });
    expect(made.url).toMatch(/^http:\/\/shop\.test\/admin\/setup#token=/);
    const start = await admin(shop, '/auth/setup/start', { body: { token: made.token } });
    const { data } = expectContract(SetupStartResponse, start.body);
    expect(data).toMatchObject({
      email: 'link.owner@vitrina.example',
      name: 'Лена',
      purpose: 'setup',
      password_min: 8,
    });
    expect(data.otpauth_uri).toMatch(
      /^otpauth:\/\/totp\/Vitrina:link\.owner%40vitrina\.example\?secret=[A-Z2-7]{32}&issuer=Vitrina/,
    );
    expect(data.qr_svg).toMatch(/^<svg /);
    // A reload shows the same key.
    const again = await admin(shop, '/auth/setup/start', { body: { token: made.token } });
    expect(again.body.data.secret).toBe(data.secret);

    // A common password, a short one, a wrong code: refused, and the link still works.
    for (const [password, code, field] of [
      ['password1', codeAt(data.secret, clock.now()), 'password'],
      ['short', codeAt(data.secret, clock.now()), 'password'],
      [PASSWORD, '000000', 'code'],
    ] as const) {
      const r = await admin(shop, '/auth/setup/finish', { body: { token: made.token, password, code } });
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(r.body.field).toBe(field);
    }
    const ok = await admin(shop, '/auth/setup/finish', {
      body: { token: made.token, password: PASSWORD, code: codeAt(data.secret, clock.now()) },
    });
    expect(ok.status).toBe(200);
    const dead = await admin(shop, '/auth/setup/start', { body: { token: made.token } });
    expect(dead.status).toBe(404);

    const cookie = await login(shop, clock, {
      email: 'link.owner@vitrina.example',
      password: PASSWORD,
      secret: data.secret,
    });
    const me = await admin(shop, '/auth/me', { cookie });
    const parsed = expectContract(MeResponse, me.body);
    expect(parsed.data).toMatchObject({ email: 'link.owner@vitrina.example', role: 'manager', role_label: 'Менеджер' });
    expect(parsed.data.permissions).toContain('refunds:create');
    expect(parsed.data.permissions).not.toContain('staff:read');
  });

  it('a link is good for 24 hours', async () => {
    const made = await createStaffByScript(shop, { email: 'late@vitrina.example', role: 'content' });
    clock.advance(24 * 3_600_000);
    expect((await admin(shop, '/auth/setup/start', { body: { token: made.token } })).status).toBe(404);
  });
});

describe('login', () => {
  it('sets an HttpOnly SameSite=Strict cookie, and a new token after the code', async () => {
    const made = await createStaffByScript(shop, { email: 'cookie@vitrina.example', role: 'warehouse' });
    const secret = await enrol(shop, clock, { token: made.token, password: PASSWORD });
    clock.advance(30_000);
    const step1 = await admin(shop, '/auth/login', { body: { email: 'COOKIE@vitrina.example ', password: PASSWORD } });
    expect(step1.status).toBe(200);
    expect(step1.body).toEqual({ next: 'totp' });
    const set = step1.headers.get('set-cookie') ?? '';
    // Plain http (tests): the unprefixed name, no Secure (docs/back-office.md).
    expect(set).toMatch(/^vitrina_staff=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict$/);
    const pending = cookieOf(step1.headers) as string;
    // The half-way cookie is no session.
    expect((await admin(shop, '/auth/me', { cookie: pending })).status).toBe(401);
    const step2 = await admin(shop, '/auth/totp', { body: { code: codeAt(secret, clock.now()) }, cookie: pending });
    expect(step2.status).toBe(200);
    const session = cookieOf(step2.headers) as string;
    expect(session).not.toBe(pending);
    expect((await admin(shop, '/auth/me', { cookie: session })).status).toBe(200);
    // The password step's token died with it.
    expect(
      (await admin(shop, '/auth/totp', { body: { code: codeAt(secret, clock.now()) }, cookie: pending })).status,
    ).toBe(401);
  });

  it('says the same for an unknown e-mail, a wrong password and a disabled account', async () => {
    const wrong = await admin(shop, '/auth/login', {
      body: { email: 'cookie@vitrina.example', password: 'not the password' },
    });
    const unknown = await admin(shop, '/auth/login', { body: { email: 'nobody@vitrina.example', password: PASSWORD } });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual(wrong.body);
  });

  it('takes each TOTP code once (replay refused), also when sent twice at once', async () => {
    const s = await staffSession(shop, clock, { email: 'replay@vitrina.example', role: 'content' });
    // The code that just logged in, at the same moment: refused.
    const step1 = await admin(shop, '/auth/login', { body: { email: s.email, password: s.password } });
    const pending = cookieOf(step1.headers) as string;
    const used = await admin(shop, '/auth/totp', { body: { code: codeAt(s.secret, clock.now()) }, cookie: pending });
    expect(used.status).toBe(401);
    expect(used.body.error).toMatch(/использованный/);

    // The next step's code, sent by two half-way logins at once: one session.
    clock.advance(30_000);
    const a = cookieOf(
      (await admin(shop, '/auth/login', { body: { email: s.email, password: s.password } })).headers,
    ) as string;
    const b = cookieOf(
      (await admin(shop, '/auth/login', { body: { email: s.email, password: s.password } })).headers,
    ) as string;
    const code = codeAt(s.secret, clock.now());
    const both = await Promise.all([a, b].map((cookie) => admin(shop, '/auth/totp', { body: { code }, cookie })));
    expect(both.map((r) => r.status).sort()).toEqual([200, 401]);
  });

  it('a half-way login takes five wrong codes, then the password is asked again', async () => {
    const s = await staffSession(shop, clock, { email: 'fivecodes@vitrina.example', role: 'content' });
    clock.advance(30_000);
    const pending = cookieOf(
      (await admin(shop, '/auth/login', { body: { email: s.email, password: s.password } })).headers,
    ) as string;
    for (let i = 0; i < 5; i++)
      expect((await admin(shop, '/auth/totp', { body: { code: '000000' }, cookie: pending })).status).toBe(401);
    const right = await admin(shop, '/auth/totp', { body: { code: codeAt(s.secret, clock.now()) }, cookie: pending });
    expect(right.status).toBe(401);
    expect(right.body.error).toMatch(/Введите пароль снова/);
  });

  it('caps failed tries per account with a growing wait, never for good', async () => {
    const s = await staffSession(shop, clock, { email: 'capped@vitrina.example', role: 'content' });
    clock.set(new Date(Math.floor(clock.now().getTime() / 3_600_000) * 3_600_000 + 3_600_000 + 1000));
    const tryWrong = () => admin(shop, '/auth/login', { body: { email: s.email, password: 'wrong password' } });
    // A minute's cap: five, then a wait until the minute ends.
    for (let i = 0; i < 5; i++) expect((await tryWrong()).status).toBe(401);
    const capped = await tryWrong();
    expect(capped.status).toBe(429);
    expect(capped.body.retry_after).toBeGreaterThan(0);
    expect(capped.body.retry_after).toBeLessThanOrEqual(60);
    expect(capped.headers.get('retry-after')).toBe(String(capped.body.retry_after));
    // Even the right password waits: the cap is checked before anything else.
    expect((await admin(shop, '/auth/login', { body: { email: s.email, password: s.password } })).status).toBe(429);
    // The next minute: five more, then the quarter's cap (ten): a longer wait.
    clock.advance(60_000);
    for (let i = 0; i < 5; i++) expect((await tryWrong()).status).toBe(401);
    const longer = await tryWrong();
    expect(longer.status).toBe(429);
    expect(longer.body.retry_after).toBeGreaterThan(60);
    // After the quarter the owner logs in.
    clock.advance(15 * 60_000);
    expect(await login(shop, clock, s)).toBeTruthy();
  });

  it('caps failed tries per address across accounts', async () => {
    clock.set(new Date(Math.floor(clock.now().getTime() / 3_600_000) * 3_600_000 + 3_600_000 + 1000));
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++)
      statuses.push(
        (await admin(shop, '/auth/login', { body: { email: `spray${i}@vitrina.example`, password: 'wrong password' } }))
          .status,
      );
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses[10]).toBe(429);
    clock.advance(60_000);
  });
});

describe('sessions', () => {
  it('end after 30 minutes idle (the clock moved), and live while used', async () => {
    const s = await staffSession(shop, clock, { email: 'idle@vitrina.example', role: 'content' });
    for (let i = 0; i < 3; i++) {
      clock.advance(STAFF_SESSION_IDLE_MS - 60_000);
      expect((await admin(shop, '/auth/me', { cookie: s.cookie })).status).toBe(200);
    }
    clock.advance(STAFF_SESSION_IDLE_MS);
    const ended = await admin(shop, '/auth/me', { cookie: s.cookie });
    expect(ended.status).toBe(401);
    expect(ended.body.error).toMatch(/30 минут/);
    // Ended for good: coming back at once does not revive it.
    expect((await admin(shop, '/auth/me', { cookie: s.cookie })).status).toBe(401);
  });

  it('end 12 hours after login however busy', async () => {
    const s = await staffSession(shop, clock, { email: 'absolute@vitrina.example', role: 'content' });
    const steps = Math.floor(STAFF_SESSION_ABSOLUTE_MS / (20 * 60_000));
    for (let i = 0; i < steps - 1; i++) {
      clock.advance(20 * 60_000);
      expect((await admin(shop, '/auth/me', { cookie: s.cookie })).status, `after ${(i + 1) * 20} min`).toBe(200);
    }
    clock.advance(20 * 60_000);
    const ended = await admin(shop, '/auth/me', { cookie: s.cookie });
    expect(ended.status).toBe(401);
    expect(ended.body.error).toMatch(/12 часов/);
  });

  it('logout ends the session and clears the cookie', async () => {
    const s = await staffSession(shop, clock, { email: 'logout@vitrina.example', role: 'content' });
    const out = await admin(shop, '/auth/logout', { body: {}, cookie: s.cookie });
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(/^vitrina_staff=; .*Max-Age=0/);
    expect((await admin(shop, '/auth/me', { cookie: s.cookie })).status).toBe(401);
  });
});

describe('state-changing calls', () => {
  it('are refused from another origin, without an Origin, or not as JSON', async () => {
    const s = await staffSession(shop, clock, { email: 'origin@vitrina.example', role: 'content' });
    const evil = await admin(shop, '/auth/logout', { body: {}, cookie: s.cookie, origin: 'https://evil.example' });
    expect(evil.status).toBe(403);
    const none = await admin(shop, '/auth/logout', { body: {}, cookie: s.cookie, origin: null });
    expect(none.status).toBe(403);
    // The public origin (PUBLIC_SITE_URL) is the shop's too.
    const form = await fetch(`${shop.baseUrl}/backend/admin/auth/logout`, {
      method: 'POST',
      headers: { origin: 'http://shop.test', cookie: s.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'a=1',
    });
    expect(form.status).toBe(415);
    expect((await admin(shop, '/auth/me', { cookie: s.cookie })).status).toBe(200);
  });

  it('every admin answer is no-store and noindex', async () => {
    const r = await admin(shop, '/auth/me');
    expect(r.status).toBe(401);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.headers.get('x-robots-tag')).toMatch(/noindex/);
  });
});
