// Rules of staff login (issue #29, OWASP ASVS 5.0 level 2 for administrative interfaces): the
// password policy, session lifetimes, the caps on failed tries, and the Origin rule of the admin
// API's state changes. Numbers live here; models/ and api/ apply them.

/** At least 8 characters; any length up to 128 is taken (ASVS: at least 64 must be). */
export const STAFF_PASSWORD_MIN = 8;
export const STAFF_PASSWORD_MAX = 128;

/** A session ends after 30 minutes without a request, and 12 hours after login whatever happens. */
export const STAFF_SESSION_IDLE_MS = 30 * 60_000;
export const STAFF_SESSION_ABSOLUTE_MS = 12 * 3_600_000;
/** The password step waits this long for the code, and takes this many wrong codes. */
export const STAFF_LOGIN_PENDING_MS = 5 * 60_000;
export const STAFF_LOGIN_PENDING_TRIES = 5;
/** A session's last-seen time is written at most this often (the idle timeout is minutes). */
export const STAFF_SEEN_WRITE_MS = 30_000;
/** How long a one-time link (new account, authenticator reset) stays good. */
export const STAFF_SETUP_TTL_MS = 24 * 3_600_000;

/**
 * Caps on failed tries (a wrong password or a wrong code), each a fixed window in rate_counters:
 * per account and per address. Once a window's cap is reached, tries wait for the window to end,
 * so the wait grows (a minute, a quarter of an hour, an hour) but never locks the owner out for
 * good. A right try gives its count back.
 */
export const STAFF_LOGIN_CAPS: readonly { scope: 'account' | 'ip'; windowSeconds: number; limit: number }[] = [
  { scope: 'account', windowSeconds: 60, limit: 5 },
  { scope: 'account', windowSeconds: 900, limit: 10 },
  { scope: 'account', windowSeconds: 3600, limit: 20 },
  { scope: 'ip', windowSeconds: 60, limit: 10 },
  { scope: 'ip', windowSeconds: 900, limit: 30 },
  { scope: 'ip', windowSeconds: 3600, limit: 60 },
];

/** Seconds until the window of `windowSeconds` that holds `nowMs` ends. */
export function secondsLeftInWindow(nowMs: number, windowSeconds: number): number {
  const windowMs = windowSeconds * 1000;
  return Math.max(1, Math.ceil((windowMs - (nowMs % windowMs)) / 1000));
}

/** E-mails are kept trimmed and lower-cased; null when it does not look like one. */
export function normalizeStaffEmail(input: string): string | null {
  const email = input.trim().toLowerCase();
  if (email.length > 254 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) return null;
  return email;
}

/**
 * What is wrong with a new password, in Russian, or null: length (in characters, not bytes), a
 * common password (the list, compared without letter case), or the account's own e-mail. No
 * composition rules (ASVS 6.2.5).
 */
export function passwordProblem(
  password: string,
  { email, isCommon }: { email: string; isCommon: (candidate: string) => boolean },
): string | null {
  const length = [...password].length;
  if (length < STAFF_PASSWORD_MIN) return `Пароль короче ${STAFF_PASSWORD_MIN} символов`;
  if (length > STAFF_PASSWORD_MAX) return `Пароль длиннее ${STAFF_PASSWORD_MAX} символов`;
  const lower = password.toLowerCase();
  if (isCommon(lower)) return 'Этот пароль слишком распространён: его подбирают первым. Выберите другой';
  const local = email.toLowerCase().split('@')[0] ?? '';
  if (lower === email.toLowerCase() || (local.length >= 4 && lower.includes(local)))
    return 'Пароль не должен повторять адрес почты';
  return null;
}

export type StaffSessionEnd = 'idle' | 'expired';

/** Whether an active session has run out at `now`: idle too long, or past its absolute lifetime. */
export function staffSessionEnd(
  session: { authenticatedAt: Date; lastSeenAt: Date },
  now: Date,
): StaffSessionEnd | null {
  if (now.getTime() - session.authenticatedAt.getTime() >= STAFF_SESSION_ABSOLUTE_MS) return 'expired';
  if (now.getTime() - session.lastSeenAt.getTime() >= STAFF_SESSION_IDLE_MS) return 'idle';
  return null;
}

/**
 * The admin API's rule for state-changing calls: the browser's Origin must be the shop's own
 * (the request's origin or PUBLIC_SITE_URL's). Without an Origin header, only a browser saying
 * `Sec-Fetch-Site: same-origin` passes; a request naming neither is refused (the admin API is
 * called by the admin app, which is always a browser).
 */
export function isAdminOrigin(input: {
  origin: string | undefined;
  fetchSite: string | undefined;
  requestOrigin: string;
  siteOrigin: string | null;
}): boolean {
  const { origin } = input;
  if (origin === undefined || origin === '') return input.fetchSite === 'same-origin';
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  return url.origin === input.requestOrigin || (input.siteOrigin !== null && url.origin === input.siteOrigin);
}
