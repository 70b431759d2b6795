import { redirectDocument } from 'react-router';
import type { Route } from './+types/logout';
import { COOKIE, readCookie } from '~/shared/cookies';
import { clearCookies } from '~/app/lib/session.server';

// SPEC §2: /logout ends the session (revoked on the server, so the token is dead everywhere),
// clears phone, token, favourites, views and cart, then hard-redirects to /auth/. A POST with
// all=yes ends every session of the customer ('Выйти на всех устройствах').
// The basket's other cookies go with the cart: it stays saved for the customer, not on this device.
const CLEARED = [
  COOKIE.phone,
  COOKIE.codeSentAt,
  COOKIE.token,
  COOKIE.loggedIn,
  COOKIE.favourites,
  COOKIE.views,
  COOKIE.cart,
  COOKIE.preorders,
  COOKIE.promoCode,
  COOKIE.cartRev,
];

async function logOut(request: Request, api: Route.LoaderArgs['context']['api'], all: boolean) {
  const token = readCookie(request.headers.get('cookie'), COOKIE.token);
  if (token) {
    try {
      await api.logout(token, all);
    } catch (err) {
      // The cookies go anyway: the shopper asked to be logged out of this browser.
      console.error('logout: the session could not be revoked', err);
    }
  }
  const headers = new Headers({ 'Cache-Control': 'private, no-store' });
  for (const c of clearCookies(CLEARED)) headers.append('Set-Cookie', c);
  return redirectDocument('/auth/', { headers });
}

export async function loader({ request, context }: Route.LoaderArgs) {
  return logOut(request, context.api, false);
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  return logOut(request, context.api, form.get('all') === 'yes');
}

export default function Logout() {
  return null;
}
