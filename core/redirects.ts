// URL rules of SPEC §2 "Routing behaviour", pure so the server and the tests share them.

export interface RedirectTarget {
  location: string;
  status: 301 | 302 | 307 | 308;
}

/** Paths that are not pages: API, build assets, media, and anything with a file extension. */
export function isPagePath(pathname: string, apiPrefix: string | null): boolean {
  if (apiPrefix && (pathname === apiPrefix || pathname.startsWith(`${apiPrefix}/`))) return false;
  if (pathname.startsWith('/assets/') || pathname.startsWith('/media/') || pathname.startsWith('/img/')) return false;
  if (pathname === '/healthz' || pathname === '/__manifest') return false;
  // The back office's single-page app: its router owns its addresses (server/admin-app.server.ts).
  if (pathname === '/admin' || pathname.startsWith('/admin/')) return false;
  const last = pathname.slice(pathname.lastIndexOf('/') + 1);
  return !/\.[a-z0-9]{1,8}$/i.test(last);
}

/**
 * The one normal form of a page path, used wherever a path is a key (redirects, stored
 * redirects, page metadata): query and hash dropped, ASCII letters lower-cased (percent
 * escapes left alone), repeated slashes collapsed, a leading and a trailing slash; '' is '/'.
 */
export function canonicalPagePath(path: string): string {
  let out = path.trim();
  const cut = out.search(/[?#]/);
  if (cut !== -1) out = out.slice(0, cut);
  out = out.replace(/(%[0-9a-f]{2})|[A-Z]+/gi, (m, escape: string | undefined) => (escape ? m : m.toLowerCase()));
  out = `/${out}/`.replace(/\/{2,}/g, '/');
  return out;
}

// Legacy '/products/...' addresses of the old shop, by the words their paths carry.
const LEGACY_PRODUCT_SECTIONS: ReadonlyArray<[RegExp, string]> = [
  [/aksessuar|accessor/, '/catalog/woman/aksessuar/'],
  [/plat(e|ya|ie)|dress|kombinezon|jumpsuit/, '/catalog/woman/platya_i_kombinezony/'],
  [/trikotazh|knit/, '/catalog/woman/trikotazh/'],
  [/futbolk|top/, '/catalog/woman/futbolki_topy/'],
];

export function legacyProductTarget(canonicalPath: string): string | null {
  if (!canonicalPath.startsWith('/products/')) return null;
  const rest = canonicalPath.slice('/products/'.length);
  for (const [pattern, target] of LEGACY_PRODUCT_SECTIONS) if (pattern.test(rest)) return target;
  return '/catalog/';
}

/**
 * The one redirect a page request needs, or null. Case, trailing slash and legacy
 * addresses are resolved together so the shopper makes a single hop; the query is kept.
 */
export function pageRedirect(pathname: string, search: string): RedirectTarget | null {
  const canonical = canonicalPagePath(pathname);
  const target = legacyProductTarget(canonical) ?? canonical;
  if (target === pathname) return null;
  return { location: target + (search && search !== '?' ? search : ''), status: 301 };
}

export function isExternalUrl(url: string): boolean {
  return /^https?:\/\//i.test(url);
}
