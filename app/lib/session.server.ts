import { redirect } from 'react-router';
import { COOKIE, readCookie } from '~/shared/cookies';

// The one place the storefront's server decides who a request belongs to. Loaders and actions
// ask here instead of reading cookies, so verifying the session (the login issue: a signed
// token checked against the sessions table) changes this file and nothing else.

export interface Shopper {
  /** The session token to pass to the API's account calls. */
  token: string;
}

/** The logged-in customer of this request, or null for a guest. Today: any non-empty `token` cookie. */
export async function getShopper(request: Request): Promise<Shopper | null> {
  const token = readCookie(request.headers.get('cookie'), COOKIE.token);
  return token ? { token } : null;
}

/** The logged-in customer, or a redirect to the login page (SPEC §2 guards). */
export async function requireShopper(request: Request): Promise<Shopper> {
  const shopper = await getShopper(request);
  if (!shopper) throw redirect('/auth/');
  return shopper;
}
