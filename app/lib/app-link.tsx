import { useEffect, useState, type ComponentProps } from 'react';
import { PrefetchPageLinks, useNavigate } from 'react-router';

// React Router's <Link> runs about ten hooks to resolve its address against the route tree
// (15 µs of server CPU each; a category page has ~100 of them in its menus, filters and cards).
// An AppLink is a plain <a> to an absolute address of the shop, with no hooks: one listener on
// the document (useAppLinks, in the root layout) makes it navigate on the client like a <Link>.
// `prefetch="intent"` works as on a <Link>: the one listener renders React Router's
// <PrefetchPageLinks> for the link hovered or focused for 100 ms. Links that need state, a
// relative address or an active class stay <Link>s and <NavLink>s.

const KEEP_SCROLL = 'data-keep-scroll';
const REPLACE = 'data-replace';
/** <Link prefetch="intent">'s delay: a pointer passing over a link does not fetch its page. */
const INTENT_DELAY_MS = 100;

export type AppLinkProps = Omit<ComponentProps<'a'>, 'href'> & {
  /** An absolute path of the shop, with its query and hash: "/catalog/woman/?sort=price". */
  to: string;
  /** Keep the scroll position (a filter changed on the same listing). */
  preventScrollReset?: boolean;
  /** Replace the current history entry instead of adding one. */
  replace?: boolean;
  /** Fetch the page's data and code when the link is hovered or focused (as <Link prefetch="intent">). */
  prefetch?: 'intent';
};

export function AppLink({ to, preventScrollReset, replace, prefetch, ...rest }: AppLinkProps) {
  // data-discover: React Router's own mark of a link to a route it may not know yet (it
  // fetches the route's manifest ahead of a click), as its <Link> writes it.
  return (
    <a
      {...rest}
      href={to}
      data-discover="true"
      data-keep-scroll={preventScrollReset ? '' : undefined}
      data-replace={replace ? '' : undefined}
      data-prefetch={prefetch}
    />
  );
}

/** The click on an AppLink, as React Router's <Link> handles one; null when the browser should. */
export function appLinkTarget(event: MouseEvent, origin: string): { to: string; anchor: HTMLAnchorElement } | null {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return null;
  const anchor = event.target instanceof Element ? event.target.closest('a[data-discover]') : null;
  if (!anchor || !(anchor instanceof HTMLAnchorElement)) return null;
  if ((anchor.target && anchor.target !== '_self') || anchor.hasAttribute('download') || anchor.origin !== origin) return null;
  return { to: anchor.pathname + anchor.search + anchor.hash, anchor };
}

/** The AppLink with prefetch="intent" an event happened on, and its address. */
function intentLink(event: Event): { anchor: HTMLAnchorElement; to: string } | null {
  const anchor = event.target instanceof Element ? event.target.closest('a[data-prefetch="intent"]') : null;
  if (!(anchor instanceof HTMLAnchorElement) || anchor.origin !== window.location.origin) return null;
  return { anchor, to: anchor.pathname + anchor.search };
}

/**
 * Client-side navigation and intent prefetching for every AppLink of the document: render once,
 * in the root layout.
 */
export function AppLinks() {
  const navigate = useNavigate();
  const [intent, setIntent] = useState<string | null>(null);
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
    let timer: ReturnType<typeof setTimeout> | undefined;
    let pending: HTMLAnchorElement | null = null;
    const onEnter = (event: Event) => {
      const hit = intentLink(event);
      if (!hit || hit.anchor === pending) return;
      clearTimeout(timer);
      pending = hit.anchor;
      timer = setTimeout(() => setIntent(hit.to), INTENT_DELAY_MS);
    };
    const onLeave = (event: Event) => {
      const hit = intentLink(event);
      // Moving between the link's own children is not leaving it.
      const next = event instanceof MouseEvent || event instanceof FocusEvent ? event.relatedTarget : null;
      if (!hit || (next instanceof Node && hit.anchor.contains(next))) return;
      clearTimeout(timer);
      pending = null;
      setIntent(null);
    };
    // React Router's <Link>s handle their clicks in React's listener on the document, which was
    // added first, and mark them handled (defaultPrevented): this one skips those.
    document.addEventListener('click', onClick);
    document.addEventListener('mouseover', onEnter);
    document.addEventListener('focusin', onEnter);
    document.addEventListener('touchstart', onEnter, { passive: true });
    document.addEventListener('mouseout', onLeave);
    document.addEventListener('focusout', onLeave);
    return () => {
      clearTimeout(timer);
      document.removeEventListener('click', onClick);
      document.removeEventListener('mouseover', onEnter);
      document.removeEventListener('focusin', onEnter);
      document.removeEventListener('touchstart', onEnter);
      document.removeEventListener('mouseout', onLeave);
      document.removeEventListener('focusout', onLeave);
    };
  }, [navigate]);
  return intent ? <PrefetchPageLinks page={intent} /> : null;
}
