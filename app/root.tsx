import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLocation,
  useNavigation,
} from 'react-router';
import { Suspense, useEffect, useMemo } from 'react';
import { AppLinks } from '~/app/lib/app-link';
import { HydrateLater, hydrateAllParts } from '~/app/lib/hydrate-later';
import { preload } from 'react-dom';
import type { Route } from './+types/root';
import { Header } from '~/app/components/shell/Header';
import { Footer } from '~/app/components/shell/Footer';
import { TabBar } from '~/app/components/shell/TabBar';
import { ChatWidget } from '~/app/components/widgets/ChatWidget';
import { LoadingBar } from '~/app/components/shell/LoadingBar';
import { ModalProvider } from '~/app/ui/ModalHost';
import { NotificationProvider } from '~/app/ui/Notifications';
import { NotFoundPage } from '~/app/ui/NotFoundPage';
import { notFoundPath, notFoundTags } from '~/app/lib/seo';
import { documentStyles, needsOrderStyles, orderStyles, orderStylesUrl } from '~/app/lib/document-styles';
import { useMetrika } from '~/app/lib/analytics';
import { useRootData, type RootData } from '~/app/lib/root-data';
import { ShopActionsProvider, type ShopActions } from '~/app/ui/shop-actions';
import { useQuickAdd } from '~/app/components/basket/quick-add';
import { useAuthModal } from '~/app/components/auth/auth-modal';
import { preloadProductPage } from '~/app/pages/catalog-parts';
import { SITE_DEFAULTS } from '~/shared/site-defaults';

// Every file scripts/subset-fonts.ts wrote (app/fonts/font-files.ts owns the list), as built URLs.
const FONT_URLS = Object.values(
  import.meta.glob<string>('./fonts/*.woff2', { query: '?url', import: 'default', eager: true }),
);

export const links: Route.LinksFunction = () => [{ rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' }];

export async function loader({ context }: Route.LoaderArgs) {
  // The menu is deferred-safe: a failing API must not take the whole shop down.
  const [menu, site] = await Promise.all([
    context.api.getMenu().then(
      (r) => r.SECTIONS,
      (err: unknown) => {
        context.log.error({ err }, 'menu failed to load');
        return [];
      },
    ),
    // The site's texts: today's defaults when they cannot be read, never a broken shop.
    context.api.getSiteSettings().catch((err: unknown) => {
      context.log.error({ err }, "site's texts failed to load");
      return SITE_DEFAULTS;
    }),
  ]);
  return { menu, site, siteUrl: context.siteUrl, env: context.publicEnv } satisfies RootData;
}

// The menu changes rarely: do not reload it on every navigation.
export function shouldRevalidate() {
  return false;
}

export function meta({ error, location }: Route.MetaArgs) {
  if (isRouteErrorResponse(error) && error.status === 404)
    return notFoundTags(notFoundPath(error.data, location.pathname));
  return [];
}

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRootData();
  // Every face a page sets (app/fonts: cut to the shop's characters, about 60 KB together),
  // fetched first of all, ahead of photos and scripts, so they make the first paint (fonts.css:
  // display optional). React writes font preloads at the very top of the head.
  for (const href of FONT_URLS) preload(href, { as: 'font', type: 'font/woff2', crossOrigin: 'anonymous' });
  const { pathname } = useLocation();
  // A client-side navigation to a basket or account page fetches their stylesheet alongside the
  // page's data, so it is there when the page is ready to show (OrderStyles).
  const next = useNavigation().location;
  if (next && needsOrderStyles(next.pathname) && !hasInlineOrderStyles()) preload(orderStylesUrl, { as: 'style' });
  // The page's one "hydrated" signal (browser tests wait for html[data-hydrated="true"]): an
  // effect of the outermost component runs after the effects of everything it renders, and the
  // page, in a boundary of its own, counts its own (HydrationMark).
  useEffect(() => {
    layoutCommitted = true;
    hydrationPartDone();
  }, []);
  // Rendered again after its first commit: a navigation, a fetcher or a revalidation is on its
  // way down the tree, so the parts still waiting to hydrate (the footer) hydrate now, before it
  // reaches them (app/lib/hydrate-later.tsx).
  if (layoutCommitted) hydrateAllParts();
  // Yandex Metrika, when PUBLIC_METRIKA_ID is set: loaded after hydration, never before.
  useMetrika();
  return (
    <html lang="ru">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover" />
        <meta name="theme-color" content="#ffffff" />
        {/* A style resource: React writes it at the top of the head and, in the browser, leaves
            the server's copy in place (documentStyles is null there). */}
        {documentStyles !== null && (
          <style href="vitrina-styles" precedence="default">
            {documentStyles}
          </style>
        )}
        {needsOrderStyles(pathname) && <OrderStyles />}
        <Meta />
        <Links />
      </head>
      <body>
        <NotificationProvider>
          <ModalProvider>
            <ShopActionsHost>
              <LoadingBar />
              <a className="skip-link" href="#main">
                К содержанию
              </a>
              <Header menu={data?.menu ?? []} site={data?.site ?? SITE_DEFAULTS} />
              {/* Suspense boundaries (no fallback: the server writes them complete) split hydration:
                  React commits the shell first, then hydrates and commits the page and the footer
                  each in a task of its own (and at once any of them the shopper touches first),
                  instead of one commit of the whole document (issue #33: the longest task). */}
              <main id="main" className="main">
                <Suspense>
                  {children}
                  <HydrationMark />
                </Suspense>
              </main>
              {/* Below every page's first screen: hydrated when it nears the viewport or the shopper
                  first does anything (app/lib/hydrate-later.tsx). */}
              <HydrateLater find={findFooter}>
                <Footer shops={data?.site.shops ?? SITE_DEFAULTS.shops} />
              </HydrateLater>
              <TabBar />
              <ChatWidget
                chatUrl={data?.site.chat.url || data?.env.PUBLIC_CHAT_URL}
                chat={data?.site.chat ?? SITE_DEFAULTS.chat}
              />
            </ShopActionsHost>
          </ModalProvider>
        </NotificationProvider>
        {/* Client-side navigation for the plain links of the shell, filters and cards. */}
        <AppLinks />
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

// The document is marked hydrated (what browser tests wait for, and what tells the home page's
// first render from a Back) once the layout and the page's boundary have committed.
let hydrationParts = 2;
let layoutCommitted = false;
function hydrationPartDone() {
  hydrationParts -= 1;
  if (hydrationParts === 0) document.documentElement.dataset.hydrated = 'true';
}
const findFooter = () => document.querySelector('footer.footer');

/** Counts its boundary's first commit towards the document's hydrated mark; writes nothing. */
function HydrationMark() {
  useEffect(hydrationPartDone, []);
  return null;
}

/** What app/ui/'s shared pieces start in the features (app/ui/shop-actions.tsx): composed here, in one place. */
function ShopActionsHost({ children }: { children: React.ReactNode }) {
  const quickAdd = useQuickAdd();
  const logIn = useAuthModal();
  const actions = useMemo<ShopActions>(() => ({ quickAdd, logIn, preloadProductPage }), [quickAdd, logIn]);
  return <ShopActionsProvider value={actions}>{children}</ShopActionsProvider>;
}

/** Whether this document came with orders.css inline (React merges style resources of one precedence). */
function hasInlineOrderStyles(): boolean {
  return typeof document !== 'undefined' && document.querySelector('style[data-href~="vitrina-orders"]') !== null;
}

/**
 * orders.css, after shop.css: inline in the server's document; in the browser, nothing when the
 * document has it inline, else the built file as a stylesheet resource, which React loads
 * before it commits the navigation (no unstyled frame) and keeps for the rest of the visit.
 */
function OrderStyles() {
  if (orderStyles !== null) {
    return (
      <style href="vitrina-orders" precedence="default">
        {orderStyles}
      </style>
    );
  }
  if (hasInlineOrderStyles()) return null;
  return <link rel="stylesheet" href={orderStylesUrl} precedence="default" />;
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const location = useLocation();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  // The server logged it (app/entry.server.tsx handleError); a development browser shows it too.
  // eslint-disable-next-line no-console -- the browser's console, in development only
  if (import.meta.env.DEV && typeof window !== 'undefined') console.error(error);
  return (
    <section className="not-found">
      <h1 className="not-found__title">Что-то пошло не так</h1>
      <p className="not-found__text">Произошла ошибка на сервере. Пожалуйста, попробуйте позже.</p>
      <a href={location.pathname} className="button">
        Обновить страницу
      </a>
    </section>
  );
}
