import { useEffect, type ComponentProps } from 'react';
import { useNavigate } from 'react-router';

// React Router's <Link> runs about ten hooks to resolve its address against the route tree
// (15 µs of server CPU each; a category page has ~100 of them in its menus, filters and cards).
// An AppLink is a plain <a> to an absolute address of the shop, with no hooks: one listener on
// the document (useAppLinks, in the root layout) makes it navigate on the client like a <Link>.
// Links that prefetch on intent, or that need state or a relative address, stay <Link>s.

const KEEP_SCROLL = 'data-keep-scroll';
const REPLACE = 'data-replace';

export type AppLinkProps = Omit<ComponentProps<'a'>, 'href'> & {
  /** An absolute path of the shop, with its query and hash: "/catalog/woman/?sort=price". */
  to: string;
  /** Keep the scroll position (a filter changed on the same listing). */
  preventScrollReset?: boolean;
  /** Replace the current history entry instead of adding one. */
  replace?: boolean;
};

export function AppLink({ to, preventScrollReset, replace, ...rest }: AppLinkProps) {
  // data-discover: React Router's own mark of a link to a route it may not know yet (it
  // fetches the route's manifest ahead of a click), as its <Link> writes it.
  return <a {...rest} href={to} data-discover="true" {...(preventScrollReset ? { [KEEP_SCROLL]: '' } : {})} {...(replace ? { [REPLACE]: '' } : {})} />;
}

/** The click on an AppLink, as React Router's <Link> handles one; null when the browser should. */
export function appLinkTarget(event: MouseEvent, origin: string): { to: string; anchor: HTMLAnchorElement } | null {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return null;
  const anchor = event.target instanceof Element ? event.target.closest('a[data-discover]') : null;
  if (!anchor || !(anchor instanceof HTMLAnchorElement)) return null;
  if ((anchor.target && anchor.target !== '_self') || anchor.hasAttribute('download') || anchor.origin !== origin) return null;
  return { to: anchor.pathname + anchor.search + anchor.hash, anchor };
}

/** Client-side navigation for every AppLink of the document (call once, in the root layout). */
export function useAppLinks(): void {
  const navigate = useNavigate();
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      const hit = appLinkTarget(event, window.location.origin);
      if (!hit) return;
      event.preventDefault();
      const here = window.location.pathname + window.location.search + window.location.hash;
      void navigate(hit.to, {
        // As <Link>: a link to the page one is on replaces it.
        replace: hit.anchor.hasAttribute(REPLACE) || hit.to === here,
        preventScrollReset: hit.anchor.hasAttribute(KEEP_SCROLL),
      });
    };
    // React Router's <Link>s handle their clicks in React's listener on the document, which was
    // added first, and mark them handled (defaultPrevented): this one skips those.
    document.addEventListener('click', onClick);
    return () => document.removeEventListener('click', onClick);
  }, [navigate]);
}
