import { redirect } from 'react-router';
import type { ApiClient } from '~/shared/api-client';
import type { ProfileResponse } from '~/shared/contract';
import { COOKIE, readCookie } from '~/shared/cookies';
import { isSessionTokenShaped, normalizeEmail, RESEND_SECONDS, SESSION_TTL_DAYS } from '~/core/auth';

// The one place the storefront's server decides who a request belongs to. Loaders and actions
// ask here instead of reading cookies. The `token` cookie is HttpOnly: browser code never sees
// it; the API checks its signature and that its session is still live (logout revokes it).

export interface Shopper {
  /** The session token to pass to the API's account calls. */
  token: string;
  profile: ProfileResponse;
}

/** The logged-in customer of this request, or null for a guest or a dead session (SPEC §6: no account call without a token). */
export async function getShopper(request: Request, api: ApiClient): Promise<Shopper | null> {
  const token = readSessionToken(request);
  if (!token) return null;
  const profile = await api.getProfile(token);
  return profile ? { token, profile } : null;
}

/** The `token` cookie when it could be one of the shop's tokens; any other value (too long, junk) is no session. */
export function readSessionToken(request: Request): string | null {
  const token = readCookie(request.headers.get('cookie'), COOKIE.token);
  return isSessionTokenShaped(token) ? token : null;
}

/** The logged-in customer, or a redirect to the login page (SPEC §2 guards) that also drops a dead token. */
export async function requireShopper(request: Request, api: ApiClient): Promise<Shopper> {
  const shopper = await getShopper(request, api);
  if (shopper) return shopper;
  const headers = new Headers();
  if (readCookie(request.headers.get('cookie'), COOKIE.token))
    for (const c of clearSessionCookies()) headers.append('Set-Cookie', c);
  throw redirect('/auth/', { headers });
}

const secureFlag = (siteUrl: string) => (siteUrl.startsWith('https://') ? '; Secure' : '');

/** Set-Cookie values that log the browser in: the token (HttpOnly) and the non-secret «logged in» mark for the shell. */
export function sessionCookies(token: string, siteUrl: string): string[] {
  const age = SESSION_TTL_DAYS * 86_400;
  return [
    `${COOKIE.token}=${encodeURIComponent(token)}; Path=/; Max-Age=${age}; HttpOnly; SameSite=Lax${secureFlag(siteUrl)}`,
    `${COOKIE.loggedIn}=1; Path=/; Max-Age=${age}; SameSite=Lax${secureFlag(siteUrl)}`,
    ...clearCookies([COOKIE.phone, COOKIE.codeSentAt, COOKIE.loginEmail]),
  ];
}

/** SPEC §9: the phone and the send time of the code step live 59 s, so a reload within that time shows the code boxes again. */
export function codeStepCookies(phone: string, sentAtMs: number, siteUrl: string): string[] {
  return [
    `${COOKIE.phone}=${phone}; Path=/; Max-Age=${RESEND_SECONDS}; HttpOnly; SameSite=Lax${secureFlag(siteUrl)}`,
    `${COOKIE.codeSentAt}=${sentAtMs}; Path=/; Max-Age=${RESEND_SECONDS}; HttpOnly; SameSite=Lax${secureFlag(siteUrl)}`,
  ];
}

/** The code step kept by codeStepCookies, when it is still there. */
export function readCodeStep(request: Request): { phone: string; sentAt: number } | null {
  const header = request.headers.get('cookie');
  const phone = readCookie(header, COOKIE.phone);
  const sentAt = Number(readCookie(header, COOKIE.codeSentAt));
  return phone && /^\d{10,15}$/.test(phone) && Number.isFinite(sentAt) && sentAt > 0 ? { phone, sentAt } : null;
}

/** The e-mail login's code step, kept 59 s as the phone's is: the address and the send time in one cookie. */
export function emailCodeStepCookie(email: string, sentAtMs: number, siteUrl: string): string {
  return `${COOKIE.loginEmail}=${encodeURIComponent(`${sentAtMs}:${email}`)}; Path=/; Max-Age=${RESEND_SECONDS}; HttpOnly; SameSite=Lax${secureFlag(siteUrl)}`;
}

/** The code step kept by emailCodeStepCookie, when it is still there. */
export function readEmailCodeStep(request: Request): { email: string; sentAt: number } | null {
  const kept = /^(\d{1,15}):(.+)$/.exec(readCookie(request.headers.get('cookie'), COOKIE.loginEmail) ?? '');
  const email = normalizeEmail(kept?.[2] ?? '');
  const sentAt = Number(kept?.[1]);
  return email && sentAt > 0 ? { email, sentAt } : null;
}

export function clearCookies(names: readonly string[]): string[] {
  return names.map((name) => `${name}=; Path=/; Max-Age=0; SameSite=Lax`);
}

export function clearSessionCookies(): string[] {
  return clearCookies([COOKIE.token, COOKIE.loggedIn]);
}
