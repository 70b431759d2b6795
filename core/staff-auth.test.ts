import { describe, expect, it } from 'vitest';
import {
  isAdminOrigin,
  normalizeStaffEmail,
  passwordProblem,
  secondsLeftInWindow,
  STAFF_SESSION_ABSOLUTE_MS,
  STAFF_SESSION_IDLE_MS,
  staffSessionEnd,
} from './staff-auth';

const common = new Set(['password', 'qwertyuiop', '12345678']);
const isCommon = (p: string) => common.has(p);

describe('staff password policy', () => {
  it('takes 8 to 128 characters, counted as characters, with no composition rules', () => {
    expect(passwordProblem('abcdefgh', { email: 'a@b.ru', isCommon })).toBeNull();
    expect(passwordProblem('ёжик в тумане', { email: 'a@b.ru', isCommon })).toBeNull();
    expect(passwordProblem('a'.repeat(64), { email: 'a@b.ru', isCommon })).toBeNull();
    expect(passwordProblem('a'.repeat(128), { email: 'a@b.ru', isCommon })).toBeNull();
    expect(passwordProblem('abcdefg', { email: 'a@b.ru', isCommon })).toMatch(/короче 8/);
    // Seven emoji are 14 UTF-16 units but 7 characters.
    expect(passwordProblem('😀'.repeat(7), { email: 'a@b.ru', isCommon })).toMatch(/короче 8/);
    expect(passwordProblem('a'.repeat(129), { email: 'a@b.ru', isCommon })).toMatch(/длиннее 128/);
  });

  it('refuses a common password whatever its letter case, and one repeating the e-mail', () => {
    expect(passwordProblem('PassWord', { email: 'a@b.ru', isCommon })).toMatch(/распространён/);
    expect(passwordProblem('QWERTYUIOP', { email: 'a@b.ru', isCommon })).toMatch(/распространён/);
    expect(
      passwordProblem('anna.petrova@vitrina.example', { email: 'anna.petrova@vitrina.example', isCommon }),
    ).toMatch(/почты/);
    expect(passwordProblem('my-anna.petrova-1', { email: 'anna.petrova@vitrina.example', isCommon })).toMatch(/почты/);
  });
});

describe('staff e-mail', () => {
  it('is trimmed and lower-cased, and must look like an address', () => {
    expect(normalizeStaffEmail('  Anna@Vitrina.Example ')).toBe('anna@vitrina.example');
    for (const bad of ['', 'anna', 'anna@', '@vitrina.example', 'a b@c.ru', 'anna@vitrina'])
      expect(normalizeStaffEmail(bad)).toBeNull();
  });
});

describe('staff sessions', () => {
  const login = new Date('2026-12-01T09:00:00Z');
  const at = (ms: number) => new Date(login.getTime() + ms);

  it('ends after 30 minutes idle', () => {
    expect(staffSessionEnd({ authenticatedAt: login, lastSeenAt: login }, at(STAFF_SESSION_IDLE_MS - 1))).toBeNull();
    expect(staffSessionEnd({ authenticatedAt: login, lastSeenAt: login }, at(STAFF_SESSION_IDLE_MS))).toBe('idle');
  });

  it('ends 12 hours after login however busy', () => {
    const lastSeenAt = at(STAFF_SESSION_ABSOLUTE_MS - 60_000);
    expect(staffSessionEnd({ authenticatedAt: login, lastSeenAt }, at(STAFF_SESSION_ABSOLUTE_MS - 1))).toBeNull();
    expect(staffSessionEnd({ authenticatedAt: login, lastSeenAt }, at(STAFF_SESSION_ABSOLUTE_MS))).toBe('expired');
  });
});

describe('login caps', () => {
  it('say how long until the window ends', () => {
    expect(secondsLeftInWindow(Date.UTC(2026, 0, 1, 10, 0, 0), 60)).toBe(60);
    expect(secondsLeftInWindow(Date.UTC(2026, 0, 1, 10, 0, 45), 60)).toBe(15);
    expect(secondsLeftInWindow(Date.UTC(2026, 0, 1, 10, 14, 59, 500), 900)).toBe(1);
  });
});

describe('admin Origin rule', () => {
  const base = { requestOrigin: 'http://127.0.0.1:3000', siteOrigin: 'https://vitrina.example' };
  it.each([
    ['http://127.0.0.1:3000', undefined, true],
    ['https://vitrina.example', undefined, true],
    ['https://evil.example', undefined, false],
    ['https://vitrina.example.evil.example', undefined, false],
    ['null', undefined, false],
    [undefined, 'same-origin', true],
    [undefined, 'same-site', false],
    [undefined, 'cross-site', false],
    [undefined, undefined, false],
  ])('Origin %s, Sec-Fetch-Site %s: %s', (origin, fetchSite, allowed) => {
    expect(isAdminOrigin({ ...base, origin, fetchSite })).toBe(allowed);
  });
});
