/**
 * The shop's stylesheets as text, on the server only. Every document carries shop.css inline (see
 * docs/decisions/004): the first paint waits for no stylesheet request, and since later pages
 * are client-side navigations, a visit downloads the CSS once, inside its first document.
 * In the browser these are null and the conditions below drop the imports from the client bundle.
 */
export const documentStyles: string | null = import.meta.env.SSR
  ? (await import('~/app/styles/shop.css?inline')).default
  : null;

/**
 * The basket, checkout, payment and personal account pages' own styles (app/styles/orders.css),
 * which the catalogue's pages do without: inline in those pages' documents, after shop.css. A
 * client-side navigation to one of them links the built file instead (orderStylesUrl), which
 * React loads before it shows the page (a stylesheet with a precedence suspends the navigation's
 * commit until it has loaded).
 */
export const orderStyles: string | null = import.meta.env.SSR
  ? (await import('~/app/styles/orders.css?inline')).default
  : null;
export { default as orderStylesUrl } from '~/app/styles/orders.css?url';

/** Pages under /basket/ and /personal/ take orders.css (a unit test holds app/routes.ts to it). */
export function needsOrderStyles(pathname: string): boolean {
  return /^\/(?:basket|personal)(?:\/|$)/.test(pathname);
}
