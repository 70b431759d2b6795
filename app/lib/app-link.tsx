import {
  useEffect,
  useState,
  type ComponentProps,
  type ReactElement,
  type ReactNode,
  type SyntheticEvent,
} from 'react';
import { PrefetchPageLinks, useLocation, useNavigate } from 'react-router';

// React Router's <Link> runs about ten hooks to resolve its address against the route tree
// (15 µs of server CPU each; a category page has ~100 of them in its menus, filters and cards).
// An AppLink is a plain <a> to an absolute address of the shop, with no hooks: one listener on
// the document (<AppLinks />, in the root layout) makes it navigate on the client like a <Link>.
// Links that prefetch on intent (IntentLink, NavAppLink) are plain <a>s too, their intent handled
// for the whole document by <AppLinks /> (issue #33); links that need state or a relative address
// stay <Link>s.

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

/**
 * A plain <a> of the shop. On the server its attributes are copied key by key: object rest
 * (`{ to, ...rest }`) takes V8's slow path, about 2 µs a link, 0.4 ms of a category page's CPU
 * (issue #13). The browser gets the shorter form: its bytes count against the product page's
 * JavaScript limit, and it renders a page's links once, not on every request. A unit test holds
 * the two forms to the same HTML.
 */
export const AppLink: (props: AppLinkProps) => ReactElement = import.meta.env.SSR
  ? function AppLink(props) {
      const attributes: Record<string, unknown> = {};
      for (const key in props)
        if (key !== 'to' && key !== 'preventScrollReset' && key !== 'replace')
          attributes[key] = props[key as keyof AppLinkProps];
      attributes.href = props.to;
      // data-discover: React Router's own mark of a link to a route it may not know yet (it
      // fetches the route's manifest ahead of a click), as its <Link> writes it.
      attributes['data-discover'] = 'true';
      if (props.preventScrollReset) attributes[KEEP_SCROLL] = '';
      if (props.replace) attributes[REPLACE] = '';
      return <a {...attributes} />;
    }
  : function AppLink({ to, preventScrollReset, replace, ...rest }) {
      return (
        <a
          {...rest}
          href={to}
          data-discover="true"
          data-keep-scroll={preventScrollReset ? '' : undefined}
          data-replace={replace ? '' : undefined}
        />
      );
    };

// Prefetching on intent, as React Router's <Link prefetch="intent"> does it (100 ms of hover or
// focus, or a touch at once, then <PrefetchPageLinks> for the page's modules and data), but for
// the whole document in <AppLinks />: a listing's 24 cards, the section tiles and the header's
// links had a <Link> or <NavLink> each in the browser, about ten hooks and a URL parse apiece
// while hydrating (issue #33: ~30 ms of a throttled category page's hydration by profile). The
// handlers are React props, so the server's HTML is the same <a>.
const INTENT_DELAY_MS = 100;
let intentTimer: ReturnType<typeof setTimeout> | undefined;
let prefetchPage: ((page: string) => void) | null = null;
const pageOf = (a: HTMLAnchorElement) => a.pathname + a.search;
const intentHandlers = {
  onMouseEnter: (e: SyntheticEvent<HTMLAnchorElement>) => startIntent(pageOf(e.currentTarget), INTENT_DELAY_MS),
  onFocus: (e: SyntheticEvent<HTMLAnchorElement>) => startIntent(pageOf(e.currentTarget), INTENT_DELAY_MS),
  onTouchStart: (e: SyntheticEvent<HTMLAnchorElement>) => startIntent(pageOf(e.currentTarget), 0),
  onMouseLeave: () => clearTimeout(intentTimer),
  onBlur: () => clearTimeout(intentTimer),
};

function startIntent(page: string, delay: number) {
  clearTimeout(intentTimer);
  if (delay === 0) prefetchPage?.(page);
  else intentTimer = setTimeout(() => prefetchPage?.(page), delay);
}

/**
 * A link that prefetches its page on intent (pointer, focus, touch) in the browser, as React
 * Router's <Link prefetch="intent">; on the server, where no intent comes, the same <a> written by
 * AppLink (product cards: 24 a listing). In the browser too a plain <a> whose intent handlers
 * tell <AppLinks /> which page to prefetch, and whose clicks AppLinks turns into navigations.
 */
export const IntentLink: (props: Omit<AppLinkProps, 'preventScrollReset' | 'replace'>) => ReactElement = import.meta.env
  .SSR
  ? AppLink
  : function IntentLink({ to, ...rest }) {
      return <a {...rest} href={to} data-discover="true" {...intentHandlers} />;
    };

/**
 * Whether a <NavLink to={to}> is active at this pathname, by React Router's own rule (case
 * insensitive; the page itself or any page under it; a trailing slash of `to` does not count).
 */
export function isNavLinkActive(pathname: string, to: string): boolean {
  const here = pathname.toLowerCase();
  const target = to.toLowerCase();
  const endSlash = target !== '/' && target.endsWith('/') ? target.length - 1 : target.length;
  return here === target || (here.startsWith(target) && here.charAt(endSlash) === '/');
}

type NavAppLinkProps = { to: string; className: string; prefetch?: 'intent'; children: ReactNode };

/**
 * The shell's menu links with an active state (the header's sections, the tab bar): the <a> a
 * <NavLink> writes (its `active` class and `aria-current`) with one hook instead of NavLink's and
 * Link's dozen, about 30 µs a link on the server (issue #13); in the browser too (issue #33), its
 * clicks handled by <AppLinks /> and, with `prefetch="intent"`, its intent as IntentLink's.
 */
export function NavAppLink({ to, className, prefetch, children }: NavAppLinkProps) {
  const active = isNavLinkActive(useLocation().pathname, to);
  return (
    <a
      aria-current={active ? 'page' : undefined}
      className={active ? `${className} active` : className}
      href={to}
      data-discover="true"
      {...(!import.meta.env.SSR && prefetch === 'intent' ? intentHandlers : undefined)}
    >
      {children}
    </a>
  );
}

/** Client-side navigation for every AppLink of the document: render once, in the root layout. */
export function AppLinks() {
  const navigate = useNavigate();
  // The pages prefetched on intent (the last few: a prefetch once started is left to finish).
  const [intents, setIntents] = useState<readonly string[]>([]);
  useEffect(() => {
    prefetchPage = (page) => setIntents((pages) => (pages.includes(page) ? pages : [...pages.slice(-3), page]));
    return () => {
      prefetchPage = null;
    };
  }, []);
  useEffect(() => {
    // As React Router's <Link>: a plain left click (no modifier, no other target, no download).
    // Its <Link>s handle their clicks in React's listener on the document, which was added first,
    // and mark them handled (defaultPrevented): this skips those.
    const onClick = (e: MouseEvent) => {
      // data-discover marks the shop's own links only (AppLink's and <Link>'s): same origin.
      const anchor = (e.target as Element | null)?.closest?.<HTMLAnchorElement>('a[data-discover]');
      if (!anchor || e.defaultPrevented || e.button || e.metaKey || e.altKey || e.ctrlKey || e.shiftKey) return;
      if ((anchor.target && anchor.target !== '_self') || anchor.hasAttribute('download')) return;
      e.preventDefault();
      const to = anchor.pathname + anchor.search + anchor.hash;
      const { pathname, search, hash } = window.location;
      void navigate(to, {
        // A link to the page one is on replaces it.
        replace: anchor.hasAttribute(REPLACE) || to === pathname + search + hash,
        preventScrollReset: anchor.hasAttribute(KEEP_SCROLL),
      });
    };
    document.addEventListener('click', onClick);
    return () => document.removeEventListener('click', onClick);
  }, [navigate]);
  return intents.map((page) => <PrefetchPageLinks key={page} page={page} />);
}
