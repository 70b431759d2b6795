import { isRouteErrorResponse, Links, Meta, Outlet, Scripts, ScrollRestoration, useLocation, useRouteLoaderData } from 'react-router';
import type { Route } from './+types/root';
// All styles end up in one stylesheet (vite.config.ts cssCodeSplit: false); base styles first.
import './styles/app.css';
import manropeCyrillic from '@fontsource-variable/manrope/files/manrope-cyrillic-wght-normal.woff2?url';
import manropeLatin from '@fontsource-variable/manrope/files/manrope-latin-wght-normal.woff2?url';
import cormorantCyrillic from '@fontsource/cormorant-garamond/files/cormorant-garamond-cyrillic-500-normal.woff2?url';
import { Header } from './components/shell/Header';
import { Footer } from './components/shell/Footer';
import { TabBar } from './components/shell/TabBar';
import { ChatWidget } from './components/widgets/ChatWidget';
import { LoadingBar } from './components/shell/LoadingBar';
import { ModalProvider } from './components/shell/ModalHost';
import { NotificationProvider } from './components/shell/Notifications';
import { NotFoundPage } from './components/NotFoundPage';
import { notFoundPath, notFoundTags } from './lib/seo';

export const links: Route.LinksFunction = () => [
  // The faces most text is set in (Cyrillic letters; digits and sizes are Latin), fetched
  // alongside the CSS so they make the first paint (fonts.css: display optional).
  { rel: 'preload', href: manropeCyrillic, as: 'font', type: 'font/woff2', crossOrigin: 'anonymous' },
  { rel: 'preload', href: manropeLatin, as: 'font', type: 'font/woff2', crossOrigin: 'anonymous' },
  { rel: 'preload', href: cormorantCyrillic, as: 'font', type: 'font/woff2', crossOrigin: 'anonymous' },
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
];

export async function loader({ context }: Route.LoaderArgs) {
  // The menu is deferred-safe: a failing API must not take the whole shop down.
  const menu = await context.api.getMenu().then(
    (r) => r.SECTIONS,
    (err: unknown) => {
      console.error('menu failed to load', err);
      return [];
    },
  );
  return { menu, siteUrl: context.siteUrl, env: context.publicEnv };
}

// The menu changes rarely: do not reload it on every navigation.
export function shouldRevalidate() {
  return false;
}

export function meta({ error, location }: Route.MetaArgs) {
  if (isRouteErrorResponse(error) && error.status === 404) return notFoundTags(notFoundPath(error.data, location.pathname));
  return [];
}

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRouteLoaderData<typeof loader>('root');
  return (
    <html lang="ru">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover" />
        <meta name="theme-color" content="#ffffff" />
        <Meta />
        <Links />
      </head>
      <body>
        <NotificationProvider>
          <ModalProvider>
            <LoadingBar />
            <a className="skip-link" href="#main">
              К содержанию
            </a>
            <Header menu={data?.menu ?? []} />
            <main id="main" className="main">
              {children}
            </main>
            <Footer />
            <TabBar />
            <ChatWidget />
          </ModalProvider>
        </NotificationProvider>
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const location = useLocation();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  if (typeof window === 'undefined' || import.meta.env.DEV) console.error(error);
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
