import { data, redirect, redirectDocument } from 'react-router';
import type { ShopLoadContext, ShopLog } from '~/shared/context';

/**
 * What an unknown address gets: a redirect the shop's staff stored for it (an external one
 * as a full page load, SPEC §2), otherwise the 404 page with status 404.
 */
export async function notFound(context: ShopLoadContext, request: Request): Promise<never> {
  const url = new URL(request.url);
  const found = await context.api.findRedirect(url.pathname);
  if (found) {
    const status = [301, 302, 303, 307, 308].includes(found.status) ? found.status : 301;
    throw found.external ? redirectDocument(found.location, status) : redirect(found.location, status);
  }
  throw data({ path: url.pathname }, { status: 404 });
}

/** Guest pages can be cached by the browser and a CDN; personal ones never. */
export const CACHE_PUBLIC = { 'Cache-Control': 'public, max-age=60, stale-while-revalidate=600' };
export const CACHE_PRIVATE = { 'Cache-Control': 'private, no-store' };

/** A call the page can do without: a failure is logged on the request's line (`${what} failed`) and answered null, never thrown. */
export async function orNull<T>(log: ShopLog, what: string, load: Promise<T>): Promise<T | null> {
  try {
    return await load;
  } catch (err) {
    log.error({ err }, `${what} failed`);
    return null;
  }
}

/**
 * The storefront's one 401: a resource route the browser fetches (the payment check, a heart)
 * found no live session. `loggedOut` tells the page to send the shopper to the login.
 */
export function loggedOut(error: string, headers: HeadersInit): Response {
  return Response.json({ error, loggedOut: true }, { status: 401, headers });
}
