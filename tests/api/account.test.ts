import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { authCodes, customers, offers, orders, products, sessions } from '~/db/schema';
import {
  ApiError,
  AuthResponse,
  CartResponse,
  LogoutResponse,
  ProfileResponse,
  SendCodeResponse,
} from '~/shared/contract';
import { AUTH_TEXT, LOGIN_CODE_TTL_MS, SEND_LIMITS } from '~/core/auth';
import { readSmsOutbox } from '~/integrations/sms/offline.server';
import { checkLoginCode, createLoginCode } from '~/models/auth.server';
import { resolveAuthSecret } from '~/server/secrets.server';
import { expectContract, fetchJson, postForm } from '~/tests/support/api';
import { setUpTestShop } from '~/tests/support/server';

// Login by SMS code and sessions (issue "login and account"), over HTTP on PGlite or
// (TEST_DATABASE_URL) PostgreSQL: the flow, every limit, and the races that must not pass.

const shop = setUpTestShop();
const db = () => shop.database.db;
const api = () => `${shop.baseUrl}/backend`;

const form = postForm;

let phoneSeq = 0;
/** A phone no other test uses, in a number range of its own (the prefix cap counts ranges). */
function freshPhone(): string {
  phoneSeq += 1;
  return `79${String(100 + phoneSeq).padStart(3, '0')}${String(1_000_000 + phoneSeq).slice(1)}`;
}

let ipSeq = 0;
/** A client address of its own for a test (the per-IP caps would otherwise join the tests up). */
const freshIp = () => `10.1.${Math.floor(++ipSeq / 250)}.${(ipSeq % 250) + 1}`;

/** send_sms.php from a given client address (Fastify's inject sets the socket's address). */
async function sendFrom(ip: string, phone: string, token = 'test-captcha-token'): Promise<SendCodeResponse> {
  const res = await shop.app.inject({
    method: 'POST',
    url: '/backend/api/personal/send_sms.php',
    remoteAddress: ip,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ phone, recaptcha_token: token }).toString(),
  });
  expect(res.statusCode).toBe(200);
  return expectContract(SendCodeResponse, res.json());
}

const send = async (phone: string, token = 'test-captcha-token') =>
  (
    await fetchJson(api(), '/api/personal/send_sms.php', SendCodeResponse, {
      init: form({ phone, recaptcha_token: token }),
    })
  ).body;
const authPhone = async (phone: string, code: string) =>
  (await fetchJson(api(), '/api/personal/auth_phone.php', AuthResponse, { init: form({ phone, code }) })).body;
const profile = (token: string, status = 200) =>
  fetchJson(api(), '/api/personal/profile_main.php', status === 200 ? ProfileResponse : ApiError, {
    status,
    init: form({ 'params[token]': token }),
  });

/** The code in the newest login SMS to this phone (the offline gateway's outbox). */
async function lastCode(phone: string): Promise<string> {
  const sms = (await readSmsOutbox(path.join(shop.dataDir, 'outbox'))).filter(
    (m) => m.phone === phone && m.tag === 'login-code',
  );
  const m = /(\d{6})/.exec(sms.at(-1)?.text ?? '');
  if (!m?.[1]) throw new Error(`no login SMS to ${phone}`);
  return m[1];
}

async function logIn(phone: string): Promise<string> {
  expect(await sendFrom(freshIp(), phone)).toEqual({ success: true, resend_in: 59 });
  const answer = await authPhone(phone, await lastCode(phone));
  if (!('user' in answer)) throw new Error(`login failed: ${answer.data.error}`);
  return answer.user.jwt_token;
}

const wrongCodeFor = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('login by SMS code', () => {
  it('sends a six-digit code, logs in with it, reads the profile, and logs out for real', async () => {
    const phone = freshPhone();
    expect(await send(`+7 (${phone.slice(1, 4)}) ${phone.slice(4, 7)}-${phone.slice(7, 9)}-${phone.slice(9)}`)).toEqual(
      { success: true, resend_in: 59 },
    );
    const sms = (await readSmsOutbox(path.join(shop.dataDir, 'outbox'))).filter((m) => m.phone === phone);
    expect(sms).toHaveLength(1);
    expect(sms[0]?.text).toMatch(/^Код для входа в Vitrina: \d{6}\. Никому его не сообщайте\.$/);
    // Only a hash is kept.
    const [row] = await db().select().from(authCodes).where(eq(authCodes.target, phone));
    expect(row?.codeHash).not.toContain(await lastCode(phone));
    // No customer until the first successful login.
    expect(await db().select().from(customers).where(eq(customers.phone, phone))).toEqual([]);

    const answer = await authPhone(phone, await lastCode(phone));
    if (!('user' in answer)) throw new Error(answer.data.error);
    expect(answer.user).toMatchObject({ PHONE: phone, cart: '', wishlist: '', watched: '' });
    const token = answer.user.jwt_token;
    const me = (await profile(token)).body as ProfileResponse;
    expect(me.userInfo).toEqual({ FIRSTNAME: '', LASTNAME: '', SECONDNAME: '', PHONE: phone, EMAIL: '' });
    expect(me.userMain.ID).toBe(answer.user.ID);

    // The code is used up.
    expect(await authPhone(phone, await lastCode(phone))).toEqual({ data: { error: AUTH_TEXT.codeExpired } });

    const out = await fetchJson(api(), '/api/personal/logout.php', LogoutResponse, { init: form({ token }) });
    expect(out.body).toEqual({ success: true, revoked: 1 });
    expect((await profile(token, 401)).body).toEqual({ error: AUTH_TEXT.sessionGone });
  });

  it('answers the same whether or not the phone has an account', async () => {
    const known = await sendFrom(freshIp(), '+7 999 000-00-00');
    const unknown = await sendFrom(freshIp(), freshPhone());
    expect(known).toEqual(unknown);
  });

  it('logs the test account in through the same flow, with its completed order', async () => {
    await db()
      .delete(orders)
      .where(sql`${orders.customerId} = (select id from customers where phone = '79990000000')`);
    await db().delete(authCodes).where(eq(authCodes.target, '79990000000'));
    await logIn('79990000000');
    const [me] = await db().select().from(customers).where(eq(customers.phone, '79990000000'));
    const theirs = await db()
      .select()
      .from(orders)
      .where(eq(orders.customerId, me?.id ?? 0));
    expect(theirs.map((o) => o.status)).toEqual(['completed']);
  });

  it('refuses a wrong code, and after five tries refuses even the right one', async () => {
    const phone = freshPhone();
    await sendFrom(freshIp(), phone);
    const code = await lastCode(phone);
    for (let i = 0; i < 5; i++)
      expect(await authPhone(phone, wrongCodeFor(code))).toEqual({ data: { error: AUTH_TEXT.codeWrong } });
    expect(await authPhone(phone, code)).toEqual({ data: { error: AUTH_TEXT.codeAttempts } });
  });

  it('counts tries sent at the same moment: 20 at once get at most five comparisons', async () => {
    const phone = freshPhone();
    await sendFrom(freshIp(), phone);
    const code = await lastCode(phone);
    const answers = await Promise.all(Array.from({ length: 20 }, () => authPhone(phone, wrongCodeFor(code))));
    const errors = answers.map((a) => ('data' in a ? a.data.error : 'logged in'));
    expect(errors.filter((e) => e === AUTH_TEXT.codeWrong)).toHaveLength(5);
    expect(errors.filter((e) => e === AUTH_TEXT.codeAttempts)).toHaveLength(15);
    const [row] = await db().select().from(authCodes).where(eq(authCodes.target, phone));
    expect(row?.attempts).toBe(5);
  });

  it('lets one of two identical logins at the same moment through', async () => {
    const phone = freshPhone();
    await sendFrom(freshIp(), phone);
    const code = await lastCode(phone);
    const answers = await Promise.all([authPhone(phone, code), authPhone(phone, code), authPhone(phone, code)]);
    expect(answers.filter((a) => 'user' in a)).toHaveLength(1);
  });

  it('refuses a code after five minutes', async () => {
    const phone = freshPhone();
    const secret = resolveAuthSecret({ dataDir: shop.dataDir });
    const made = await createLoginCode({ db: db(), secret, channel: 'phone', target: phone, ip: '10.9.9.9' });
    if (!made.ok) throw new Error('not made');
    const later = new Date(Date.now() + LOGIN_CODE_TTL_MS + 1000);
    expect(
      await checkLoginCode({ db: db(), secret, channel: 'phone', target: phone, code: made.code, now: later }),
    ).toEqual({ ok: false, reason: 'expired' });
    expect(await checkLoginCode({ db: db(), secret, channel: 'phone', target: phone, code: made.code })).toEqual({
      ok: true,
    });
  });

  it('refuses junk: a phone of letters, a code of letters, no captcha, no body', async () => {
    expect(await send('abc')).toEqual({ success: false, error: AUTH_TEXT.phone });
    expect(await authPhone('79991112233', 'abcdef')).toEqual({ data: { error: AUTH_TEXT.codeFormat } });
    const phone = freshPhone();
    expect(await send(phone, '')).toEqual({ success: false, error: AUTH_TEXT.captcha });
    expect(await db().select().from(authCodes).where(eq(authCodes.target, phone))).toEqual([]);
    const res = await fetch(`${api()}/api/personal/send_sms.php`, { method: 'POST' });
    expect(res.status).toBeLessThan(500);
    const bad = await fetch(`${api()}/api/personal/auth_phone.php`, form({ 'phone[x]': '1', code: '1' }));
    expect(bad.status).toBe(400);
  });
});

describe('send limits', () => {
  it('a second send within 59 s says how long to wait; only one of ten at once goes out', async () => {
    const phone = freshPhone();
    const ip = freshIp();
    const answers = await Promise.all(Array.from({ length: 10 }, () => sendFrom(ip, phone)));
    expect(answers.filter((a) => a.success)).toHaveLength(1);
    const refused = answers.find((a) => !a.success);
    expect(refused).toMatchObject({
      success: false,
      error: expect.stringMatching(/^Получить новый код через: \d+ сек\.$/) as unknown,
    });
    const sent = (await readSmsOutbox(path.join(shop.dataDir, 'outbox'))).filter((m) => m.phone === phone);
    expect(sent).toHaveLength(1);
  });

  it('the 6th code in an hour and the 11th in a day are refused', async () => {
    const phone = freshPhone();
    const now = Date.now();
    const old = (minutesAgo: number) => ({
      channel: 'phone' as const,
      target: phone,
      codeHash: 'x',
      createdAt: new Date(now - minutesAgo * 60_000),
      expiresAt: new Date(now),
      usedAt: new Date(now),
    });
    await db()
      .insert(authCodes)
      .values([1, 2, 3, 4, 5].map((i) => old(i * 5)));
    expect(await sendFrom(freshIp(), phone)).toEqual({ success: false, error: AUTH_TEXT.tooMany });
    await db().delete(authCodes).where(eq(authCodes.target, phone));
    await db()
      .insert(authCodes)
      .values(Array.from({ length: SEND_LIMITS.perTargetDay }, (_, i) => old(120 + i * 60)));
    expect(await sendFrom(freshIp(), phone)).toEqual({ success: false, error: AUTH_TEXT.tooMany });
    await db().delete(authCodes).where(eq(authCodes.target, phone));
    expect((await sendFrom(freshIp(), phone)).success).toBe(true);
  });

  it('caps sends per client address and per number range (SMS pumping)', async () => {
    const ip = freshIp();
    const results: boolean[] = [];
    for (let i = 0; i < SEND_LIMITS.perIpHour + 1; i++) results.push((await sendFrom(ip, freshPhone())).success);
    expect(results.filter(Boolean)).toHaveLength(SEND_LIMITS.perIpHour);
    expect(results.at(-1)).toBe(false);

    // One operator range from many addresses.
    const range: boolean[] = [];
    for (let i = 0; i < SEND_LIMITS.perPrefixHour + 1; i++)
      range.push((await sendFrom(freshIp(), `7955123${String(1000 + i)}`)).success);
    expect(range.filter(Boolean)).toHaveLength(SEND_LIMITS.perPrefixHour);
  });
});

describe('sessions', () => {
  it('refuses forged, altered and foreign tokens, and reads only the own profile', async () => {
    const a = await logIn(freshPhone());
    const b = await logIn(freshPhone());
    const [pa, pb] = [(await profile(a)).body as ProfileResponse, (await profile(b)).body as ProfileResponse];
    expect(pa.userMain.ID).not.toBe(pb.userMain.ID);
    const [head, body, sig] = a.split('.');
    const claims = JSON.parse(Buffer.from(body ?? '', 'base64url').toString()) as Record<string, unknown>;
    const altered = `${head}.${Buffer.from(JSON.stringify({ ...claims, sub: String(pb.userMain.ID) })).toString('base64url')}.${sig}`;
    for (const token of [altered, 'junk', '', `${a}x`]) await profile(token, 401);
    expect((await fetch(`${api()}/api/personal/profile_main.php`, form({}))).status).toBe(401);
  });

  it('«log out on all devices» ends every session of the customer and no other', async () => {
    const phone = freshPhone();
    const first = await logIn(phone);
    await db().delete(authCodes).where(eq(authCodes.target, phone));
    const second = await logIn(phone);
    const other = await logIn(freshPhone());
    const out = await fetchJson(api(), '/api/personal/logout.php', LogoutResponse, {
      init: form({ token: first, all: 'yes' }),
    });
    expect(out.body).toEqual({ success: true, revoked: 2 });
    await profile(first, 401);
    await profile(second, 401);
    await profile(other, 200);
    const live = await db()
      .select()
      .from(sessions)
      .where(
        and(
          sql`${sessions.revokedAt} is null`,
          sql`${sessions.customerId} in (select id from customers where phone = ${phone})`,
        ),
      );
    expect(live).toEqual([]);
  });
});

describe("a customer's basket on the server", () => {
  const cart = async (fields: Record<string, string>) =>
    (await fetchJson(api(), '/api/personal/get_cart.php', CartResponse, { init: form(fields) })).body;

  it('merges the guest basket at login, follows the customer to another device, and never lets an old copy overwrite a newer one', async () => {
    const inStock = await db()
      .select({ id: offers.id })
      .from(offers)
      .innerJoin(products, eq(products.id, offers.productId))
      .where(and(eq(products.active, true), sql`${offers.quantity} >= 5`, sql`${products.name} not ilike '%пальто%'`))
      .orderBy(offers.id)
      .limit(2);
    const [a, b] = inStock.map((o) => o.id);
    const token = await logIn(freshPhone());

    const first = await cart({ token, ids: `${a}:1`, merge: 'Y' });
    expect(first).toMatchObject({ cart: `${a}:1`, cart_rev: 1 });
    // Another device, its own guest basket joining at its login.
    const second = await cart({ token, ids: `${b}:2,${a}:1`, merge: 'Y' });
    expect(second).toMatchObject({ cart: `${a}:2,${b}:2`, cart_rev: 2 });
    // The first device's copy is older: it gets the saved basket, nothing is overwritten.
    const stale = await cart({ token, ids: `${a}:5`, cart_rev: '1' });
    expect(stale).toMatchObject({ cart: `${a}:2,${b}:2`, cart_rev: 2 });
    // Made from the latest: saved.
    const saved = await cart({ token, ids: `${a}:3`, cart_rev: '2' });
    expect(saved).toMatchObject({ cart: `${a}:3`, cart_rev: 3 });
    // Without a copy, the saved basket; a guest with the same ids is priced but nothing is saved.
    expect(await cart({ token })).toMatchObject({ cart: `${a}:3`, cart_rev: 3 });
    expect((await cart({ ids: `${b}:1` })).cart_rev).toBeUndefined();
    // Another customer's token reads their own (empty) basket.
    const other = await logIn(freshPhone());
    expect(await cart({ token: other })).toMatchObject({ cart: '', cart_rev: 0 });
  });
});
