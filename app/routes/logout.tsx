import { data, Form, redirect, redirectDocument } from 'react-router';
import type { Route } from './+types/logout';
import { COOKIE } from '~/shared/cookies';
import { CACHE_PRIVATE } from '~/app/lib/route-data.server';
import { pageMetaTags } from '~/app/lib/seo';
import { clearCookies, readSessionToken } from '~/app/lib/session.server';

// SPEC §2: /logout ends the session (revoked on the server, so the token is dead everywhere),
// clears phone, token, favourites, views and cart, then hard-redirects to /auth/. A POST with
// all=yes ends every session of the customer ('Выйти на всех устройствах').
// Logging out is a POST (issue #27): a GET, which any other site can trigger with a link or an
// image, only shows the button that posts; a guest has nothing to end and goes to /auth/.
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

export const meta: Route.MetaFunction = (args) => [
  ...pageMetaTags(args),
  { name: 'robots', content: 'noindex, nofollow' },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  if (!readSessionToken(request)) throw redirect('/auth/', { headers: CACHE_PRIVATE });
  return data({ meta: await context.api.getPageMeta(new URL(request.url).pathname) }, { headers: CACHE_PRIVATE });
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const token = readSessionToken(request);
  if (token) {
    try {
      await context.api.logout(token, form.get('all') === 'yes');
    } catch (err) {
      // The cookies go anyway: the shopper asked to be logged out of this browser.
      context.log.error({ err }, 'logout: the session could not be revoked');
    }
  }
  const headers = new Headers(CACHE_PRIVATE);
  for (const c of clearCookies(CLEARED)) headers.append('Set-Cookie', c);
  return redirectDocument('/auth/', { headers });
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export default function Logout() {
  return (
    <article className="page page--narrow auth-page">
      <h1 className="page__title">Выход</h1>
      <p>Выйти из аккаунта на этом устройстве?</p>
      <Form method="post" action="/logout/" reloadDocument>
        <button type="submit" className="button">
          Выйти
        </button>
      </Form>
    </article>
  );
}
