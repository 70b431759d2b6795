/**
 * The shop's stylesheet as text, on the server only. Every document carries it inline (see
 * docs/decisions/004): the first paint waits for no stylesheet request, and since later pages
 * are client-side navigations, a visit downloads the CSS once, inside its first document.
 * In the browser this is null and the condition below drops the import from the client bundle.
 */
export const documentStyles: string | null = import.meta.env.SSR ? (await import('~/app/styles/shop.css?inline')).default : null;
