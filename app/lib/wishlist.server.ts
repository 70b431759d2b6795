import { COOKIE } from '~/shared/cookies';
import { LIST_LIMITS, parseIdList, serializeIdList } from '~/core/wishlist';
import { LIST_COOKIE_MAX_AGE } from './favourites';

// The `favourites` and `views` cookies as the storefront's server sets them: the same
// attributes as the browser writes (app/lib/favourites.ts), readable by scripts (no secret).

export function listCookie(
  name: typeof COOKIE.favourites | typeof COOKIE.views,
  ids: readonly number[],
  siteUrl: string,
): string {
  const secure = siteUrl.startsWith('https://') ? '; Secure' : '';
  if (!ids.length) return `${name}=; Path=/; Max-Age=0; SameSite=Lax${secure}`;
  return `${name}=${encodeURIComponent(serializeIdList(ids))}; Path=/; Max-Age=${LIST_COOKIE_MAX_AGE}; SameSite=Lax${secure}`;
}

/** The favourites cookie from a comma-separated list (the login answer's userMain.wishlist). */
export function favouritesCookieOf(wishlist: string, siteUrl: string): string {
  return listCookie(COOKIE.favourites, parseIdList(wishlist, LIST_LIMITS.wishlist), siteUrl);
}
