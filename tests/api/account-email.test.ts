import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { authCodes, customers, orders } from '~/db/schema';
import { AuthResponse, ProfileResponse, SendCodeResponse } from '~/shared/contract';
import { AUTH_TEXT } from '~/core/auth';
import { EMAIL_LOGIN_TAG } from '~/core/email-login';
import { lastMailTo, readMailOutbox } from '~/integrations/mail/offline.server';
import { TEST_ACCOUNT } from '~/db/seed/seed.server';
import { expectContract, fetchJson, postForm } from '~/tests/support/api';
import { setUpTestShop } from '~/tests/support/server';

// Login by a code sent by e-mail (/auth/email/), over HTTP on PGlite or (TEST_DATABASE_URL)
// PostgreSQL: the flow through the offline mail outbox, an unknown address answered exactly as
// a known one, wrong codes and the send limits.

const shop = setUpTestShop();
const db = () => shop.database.db;
const api = () => `${shop.baseUrl}/backend`;
const outbox = () => path.join(shop.dataDir, 'outbox');

const form = postForm;

let seq = 0;
/** A customer of this test with an e-mail in the profile (a phone of their own, unique). */
async function customerWithEmail(): Promise<{ id: number; email: string; phone: string }> {
  seq += 1;
  const email = `shopper${seq}.${Date.now()}@example.ru`;
  const phone = `7955${String(seq).padStart(7, '0')}`;
  const [row] = await db()
    .insert(customers)
    .values({ phone, email, firstName: 'Ольга' })
    .returning({ id: customers.id });
  if (!row) throw new Error('no customer');
  return { id: row.id, email, phone };
}

let ipSeq = 0;
/** A client address of its own for a test (the per-IP caps would otherwise join the tests up). */
const freshIp = () => `10.2.${Math.floor(++ipSeq / 250)}.${(ipSeq % 250) + 1}`;

async function sendFrom(ip: string, email: string, token = 'test-captcha-token'): Promise<SendCodeResponse> {
  const res = await shop.app.inject({
    method: 'POST',
    url: '/backend/api/personal/send_email_code.php',
    remoteAddress: ip,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ email, recaptcha_token: token }).toString(),
  });
  expect(res.statusCode).toBe(200);
  expect(res.headers['cache-control']).toBe('private, no-store');
  return expectContract(SendCodeResponse, res.json());
}

const authEmail = async (email: string, code: string) =>
  (await fetchJson(api(), '/api/personal/auth_email.php', AuthResponse, { init: form({ email, code }) })).body;

/** The code in the newest login letter to this address. */
async function lastCode(email: string): Promise<string> {
  const mail = await lastMailTo(outbox(), email, EMAIL_LOGIN_TAG.code);
  const m = /(\d{6})/.exec(mail?.text ?? '');
  if (!m?.[1]) throw new Error(`no login letter to ${email}`);
  return m[1];
}

const wrongCodeFor = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('login by e-mail code', () => {
  it('mails a six-digit code, logs in with it, and the token opens profile_main.php', async () => {
    const shopper = await customerWithEmail();
    // Typed with capitals and spaces: the address is compared lower-cased.
    expect(await sendFrom(freshIp(), `  ${shopper.email.toUpperCase()} `)).toEqual({ success: true, resend_in: 59 });
    const letters = (await readMailOutbox(outbox())).filter((m) => m.to === shopper.email);
    expect(letters).toHaveLength(1);
    expect(letters[0]?.subject).toBe('Код для входа в Vitrina');
    expect(letters[0]?.tag).toBe(EMAIL_LOGIN_TAG.code);
    expect(letters[0]?.text).toMatch(/Код для входа в Vitrina: \d{6}\n/);
    const code = await lastCode(shopper.email);
    // Only a hash is kept.
    const [row] = await db().select().from(authCodes).where(eq(authCodes.target, shopper.email));
    expect(row?.channel).toBe('email');
    expect(row?.codeHash).not.toContain(code);

    const answer = await authEmail(shopper.email, code);
    if (!('user' in answer)) throw new Error(answer.data.error);
    expect(answer.user).toMatchObject({ ID: shopper.id, PHONE: shopper.phone });
    const me = await fetchJson(api(), '/api/personal/profile_main.php', ProfileResponse, {
      init: form({ 'params[token]': answer.user.jwt_token }),
    });
    expect(me.body.userInfo).toMatchObject({ FIRSTNAME: 'Ольга', EMAIL: shopper.email, PHONE: shopper.phone });
    expect(me.body.userMain.ID).toBe(shopper.id);

    // The code is used up.
    expect(await authEmail(shopper.email, code)).toEqual({ data: { error: AUTH_TEXT.codeExpired } });
  });

  it('answers an unknown address exactly as a known one, and mails it no code but the way in by phone', async () => {
    const known = await customerWithEmail();
    const stranger = `nobody${Date.now()}@example.ru`;
    const first = await sendFrom(freshIp(), known.email);
    expect(await sendFrom(freshIp(), stranger)).toEqual(first);
    // The 59-second refusal is the same too.
    const again = await sendFrom(freshIp(), known.email);
    expect(await sendFrom(freshIp(), stranger)).toEqual({
      ...again,
      error: expect.stringMatching(/^Получить новый код через: \d+ сек\.$/) as unknown,
    });
    expect(again.success).toBe(false);

    const letters = (await readMailOutbox(outbox())).filter((m) => m.to === stranger);
    expect(letters).toHaveLength(1);
    expect(letters[0]?.tag).toBe(EMAIL_LOGIN_TAG.noAccount);
    expect(letters[0]?.subject).toBe('Вход в Vitrina');
    expect(letters[0]?.text).toContain('ни один личный кабинет его не использует');
    expect(letters[0]?.text).toContain('http://shop.test/auth/');
    expect(letters[0]?.text).not.toMatch(/\d{6}/);
    // Any code for it reads as a wrong one, never as "no such account".
    expect(await authEmail(stranger, '123456')).toEqual({ data: { error: AUTH_TEXT.codeWrong } });
  });

  it('logs the test account in by its e-mail, with its completed order', async () => {
    await db()
      .delete(orders)
      .where(sql`${orders.customerId} = (select id from customers where phone = ${TEST_ACCOUNT.phone})`);
    expect(await sendFrom(freshIp(), TEST_ACCOUNT.email)).toEqual({ success: true, resend_in: 59 });
    const answer = await authEmail(TEST_ACCOUNT.email, await lastCode(TEST_ACCOUNT.email));
    if (!('user' in answer)) throw new Error(answer.data.error);
    expect(answer.user.PHONE).toBe(TEST_ACCOUNT.phone);
    const theirs = await db().select().from(orders).where(eq(orders.customerId, answer.user.ID));
    expect(theirs.map((o) => o.status)).toEqual(['completed']);
  });

  it('refuses a wrong code, and after five tries refuses even the right one', async () => {
    const shopper = await customerWithEmail();
    await sendFrom(freshIp(), shopper.email);
    const code = await lastCode(shopper.email);
    for (let i = 0; i < 5; i++)
      expect(await authEmail(shopper.email, wrongCodeFor(code))).toEqual({ data: { error: AUTH_TEXT.codeWrong } });
    expect(await authEmail(shopper.email, code)).toEqual({ data: { error: AUTH_TEXT.codeAttempts } });
  });

  it('a code sent by SMS does not open the e-mail login, nor the other way round', async () => {
    const shopper = await customerWithEmail();
    await sendFrom(freshIp(), shopper.email);
    const code = await lastCode(shopper.email);
    const byPhone = await fetchJson(api(), '/api/personal/auth_phone.php', AuthResponse, {
      init: form({ phone: shopper.phone, code }),
    });
    expect(byPhone.body).toEqual({ data: { error: AUTH_TEXT.codeExpired } });
  });

  it('refuses junk: a malformed address, a code of letters, no captcha, a nested field', async () => {
    expect(await sendFrom(freshIp(), 'not-an-address')).toEqual({ success: false, error: AUTH_TEXT.email });
    expect(await authEmail('a@example.ru', 'abcdef')).toEqual({ data: { error: AUTH_TEXT.codeFormat } });
    expect(await authEmail('nope', '123456')).toEqual({ data: { error: AUTH_TEXT.email } });
    const shopper = await customerWithEmail();
    expect(await sendFrom(freshIp(), shopper.email, '')).toEqual({ success: false, error: AUTH_TEXT.captcha });
    expect(await sendFrom(freshIp(), shopper.email, 'offline-fail')).toEqual({
      success: false,
      error: AUTH_TEXT.captcha,
    });
    expect(await db().select().from(authCodes).where(eq(authCodes.target, shopper.email))).toEqual([]);
    expect(await readMailOutbox(outbox()).then((all) => all.filter((m) => m.to === shopper.email))).toEqual([]);
    const bad = await fetch(`${api()}/api/personal/auth_email.php`, form({ 'email[x]': '1', code: '1' }));
    expect(bad.status).toBe(400);
  });
});

describe('e-mail send limits', () => {
  it('a second send within 59 s says how long to wait and mails nothing', async () => {
    const shopper = await customerWithEmail();
    const ip = freshIp();
    expect(await sendFrom(ip, shopper.email)).toEqual({ success: true, resend_in: 59 });
    const second = await sendFrom(ip, shopper.email);
    expect(second).toMatchObject({
      success: false,
      error: expect.stringMatching(/^Получить новый код через: (59|58|57) сек\.$/) as unknown,
    });
    expect(second.success === false && second.resend_in).toBeGreaterThan(50);
    expect((await readMailOutbox(outbox())).filter((m) => m.to === shopper.email)).toHaveLength(1);
  });

  it('only one of ten sends at the same moment goes out', async () => {
    const shopper = await customerWithEmail();
    const ip = freshIp();
    const answers = await Promise.all(Array.from({ length: 10 }, () => sendFrom(ip, shopper.email)));
    expect(answers.filter((a) => a.success)).toHaveLength(1);
    expect((await readMailOutbox(outbox())).filter((m) => m.to === shopper.email)).toHaveLength(1);
  });

  it('the 6th code in an hour is refused', async () => {
    const shopper = await customerWithEmail();
    const now = Date.now();
    await db()
      .insert(authCodes)
      .values(
        [1, 2, 3, 4, 5].map((i) => ({
          channel: 'email' as const,
          target: shopper.email,
          codeHash: 'x',
          createdAt: new Date(now - i * 5 * 60_000),
          expiresAt: new Date(now),
          usedAt: new Date(now),
        })),
      );
    expect(await sendFrom(freshIp(), shopper.email)).toEqual({ success: false, error: AUTH_TEXT.tooMany });
  });

  it('one client address may ask for 20 codes an hour, to any addresses', async () => {
    const ip = freshIp();
    const answers: SendCodeResponse[] = [];
    for (let i = 0; i < 21; i++) answers.push(await sendFrom(ip, `many${i}.${Date.now()}@example.ru`));
    expect(answers.slice(0, 20).every((a) => a.success)).toBe(true);
    expect(answers[20]).toEqual({ success: false, error: AUTH_TEXT.tooMany });
  });
});
