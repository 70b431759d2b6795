import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { base32Decode, totpCode, type Hmac } from '~/core/totp';
import { STAFF_TOKEN_FILE } from '~/server/secrets.server';
import { staffAccount } from '~/scripts/staff';
import { SetupStartResponse } from '~/shared/admin-contract';
import { expectContract } from './api';

// The back office in tests: a clock the test moves (staff sessions' timeouts, TOTP steps, login
// caps: pass `clock.now` to startTestShop), staff made through `npm run staff`'s own function,
// the one-time link's enrolment and the two login steps with codes computed here.

export interface TestClock {
  now: () => Date;
  /** Moves the clock forward by `ms`. */
  advance(ms: number): void;
  set(at: Date): void;
}

export function testClock(start = new Date(Math.floor(Date.now() / 30_000) * 30_000 + 1_000)): TestClock {
  let at = start.getTime();
  return {
    now: () => new Date(at),
    advance(ms) {
      at += ms;
    },
    set(d) {
      at = d.getTime();
    },
  };
}

const sha1: Hmac = (key, message) => new Uint8Array(crypto.createHmac('sha1', key).update(message).digest());

/** The authenticator app: the code of `secret` (base32, spaces allowed) at `at`. */
export function codeAt(secret: string, at: Date): string {
  const key = base32Decode(secret);
  if (!key) throw new Error(`not a base32 secret: ${secret}`);
  return totpCode(sha1, key, at.getTime());
}

export interface Shop {
  baseUrl: string;
  dataDir: string;
}

export function staffToken(shop: Shop): string {
  return fs.readFileSync(path.join(shop.dataDir, STAFF_TOKEN_FILE), 'utf8').trim();
}

/** `npm run staff -- create`: the account's id and its one-time link's token. */
export async function createStaffByScript(
  shop: Shop,
  { email, role, name }: { email: string; role: string; name?: string },
): Promise<{ id: number; token: string; url: string }> {
  const data = await staffAccount({
    apiBase: `${shop.baseUrl}/backend`,
    token: staffToken(shop),
    action: 'create',
    email,
    role,
    ...(name ? { name } : {}),
  });
  return { id: data.id, url: data.setup_url as string, token: linkToken(data.setup_url as string) };
}

/** The token of a one-time link (it rides in the fragment). */
export function linkToken(url: string): string {
  const token = new URL(url).hash.replace(/^#token=/, '');
  expect(token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
  return token;
}

export interface AdminCall {
  method?: 'GET' | 'POST' | 'PATCH';
  body?: unknown;
  cookie?: string | null;
  /** Idempotency-Key (default: a new one for each POST). */
  key?: string | null;
  /** The Origin header (default: the shop's own). */
  origin?: string | null;
}

/** An answer's JSON as tests read it: any field (the contract is checked with expectContract where it matters). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyBody = any;

/** A call of the admin API as the admin app makes it (JSON, the shop's Origin, the cookie). */
export async function admin(
  shop: Shop,
  apiPath: string,
  call: AdminCall = {},
): Promise<{ status: number; body: AnyBody; headers: Headers }> {
  const method = call.method ?? (call.body === undefined ? 'GET' : 'POST');
  const headers: Record<string, string> = {};
  if (call.origin !== null) headers.origin = call.origin ?? shop.baseUrl;
  if (call.cookie) headers.cookie = call.cookie;
  if (method !== 'GET') {
    headers['content-type'] = 'application/json';
    const key = call.key === undefined ? (method === 'POST' ? crypto.randomUUID() : null) : call.key;
    if (key) headers['idempotency-key'] = key;
  }
  const res = await fetch(`${shop.baseUrl}/backend/admin${apiPath}`, {
    method,
    headers,
    ...(method !== 'GET' ? { body: JSON.stringify(call.body ?? {}) } : {}),
  });
  const text = await res.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: res.status, body, headers: res.headers };
}

/** The staff cookie an answer set ('' when it cleared it), as a Cookie header value; null when it set none. */
export function cookieOf(headers: Headers): string | null {
  const set = headers.get('set-cookie');
  if (!set) return null;
  const pair = set.split(';')[0] as string;
  return pair.endsWith('=') ? '' : pair;
}

/** The one-time link: opens it (the key) and sends it with `password` and a code at the clock's time. */
export async function enrol(
  shop: Shop,
  clock: TestClock,
  { token, password }: { token: string; password: string },
): Promise<string> {
  const start = await admin(shop, '/auth/setup/start', { body: { token } });
  expect(start.status, JSON.stringify(start.body)).toBe(200);
  const { data } = expectContract(SetupStartResponse, start.body);
  const finish = await admin(shop, '/auth/setup/finish', {
    body: { token, password, code: codeAt(data.secret, clock.now()) },
  });
  expect(finish.status, JSON.stringify(finish.body)).toBe(200);
  return data.secret;
}

/** Both login steps; moves the clock to the next TOTP step first (the last code used is never taken again). Answers the session cookie. */
export async function login(
  shop: Shop,
  clock: TestClock,
  { email, password, secret }: { email: string; password: string; secret: string },
): Promise<string> {
  clock.advance(30_000);
  const step1 = await admin(shop, '/auth/login', { body: { email, password } });
  expect(step1.status, JSON.stringify(step1.body)).toBe(200);
  const pending = cookieOf(step1.headers);
  expect(pending).toBeTruthy();
  const step2 = await admin(shop, '/auth/totp', { body: { code: codeAt(secret, clock.now()) }, cookie: pending });
  expect(step2.status, JSON.stringify(step2.body)).toBe(200);
  const session = cookieOf(step2.headers);
  expect(session).toBeTruthy();
  expect(session).not.toBe(pending);
  return session as string;
}

/** A staff member made, enrolled and logged in: their id, cookie and authenticator secret. */
export async function staffSession(
  shop: Shop,
  clock: TestClock,
  { email, role, password = 'correct horse battery' }: { email: string; role: string; password?: string },
) {
  const made = await createStaffByScript(shop, { email, role });
  const secret = await enrol(shop, clock, { token: made.token, password });
  const cookie = await login(shop, clock, { email, password, secret });
  return { id: made.id, cookie, secret, password, email };
}
