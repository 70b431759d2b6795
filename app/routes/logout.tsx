import { redirectDocument } from 'react-router';
import { COOKIE } from '~/shared/cookies';

// SPEC §2: /logout clears phone, token, favourites, views and cart, then hard-redirects to /auth/.
const CLEARED = [COOKIE.phone, COOKIE.token, COOKIE.favourites, COOKIE.views, COOKIE.cart];

export async function loader() {
  const headers = new Headers({ 'Cache-Control': 'private, no-store' });
  for (const name of CLEARED) headers.append('Set-Cookie', `${name}=; Path=/; Max-Age=0; SameSite=Lax`);
  return redirectDocument('/auth/', { headers });
}

export default function Logout() {
  return null;
}
