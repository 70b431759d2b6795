import { index, route, type RouteConfig } from '@react-router/dev/routes';
// React Router loads this file without the app's aliases: a relative import.
import { INFO_PAGES } from './lib/info-pages';

// SPEC §2 route list. Route modules load lazily in the browser (one chunk each).
export default [
  index('routes/home.tsx'),
  route('catalog/*', 'routes/catalog.tsx'),
  route('search', 'routes/search.tsx'),
  route('auth', 'routes/auth.tsx'),
  route('auth/email', 'routes/auth.tsx', { id: 'auth-email' }),
  route('personal', 'routes/personal.tsx'),
  // An order of the account (issue #26): ours, SPEC §2 has none; under /personal/ so never cached for guests.
  route('personal/orders/:id', 'routes/personal-order.tsx'),
  route('wishlist', 'routes/wishlist.tsx'),
  route('wishlist/toggle', 'routes/wishlist-toggle.tsx'),
  route('logout', 'routes/logout.tsx'),
  route('basket', 'routes/basket.tsx'),
  route('basket/submited', 'routes/basket-submitted.tsx'),
  route('basket/submited-order', 'routes/basket-submitted-order.tsx'),
  // Card payment (issue #12): the pay page, the same in a frame, the server's check, success, failure.
  route('basket/pay', 'routes/basket-pay.tsx'),
  route('basket/pay/frame', 'routes/basket-pay.tsx', { id: 'basket-pay-frame' }),
  route('basket/pay/check', 'routes/basket-pay-check.tsx'),
  route('basket/submited/cloud-payments', 'routes/basket-paid.tsx'),
  route('basket/bad', 'routes/basket-bad.tsx'),
  // An order cancelled unpaid: its lines back in the basket in one click (issue #26).
  route('basket/repeat', 'routes/basket-repeat.tsx'),
  // The newsletter letters' links (issue #26): confirm a subscription, unsubscribe (also one-click).
  route('newsletter/confirm', 'routes/newsletter.tsx', { id: 'newsletter-confirm' }),
  route('newsletter/unsubscribe', 'routes/newsletter.tsx', { id: 'newsletter-unsubscribe' }),
  route('blog', 'routes/blog.tsx'),
  route('blog/:slug', 'routes/blog-article.tsx'),
  ...INFO_PAGES.map((page) => route(page.path.slice(1, -1), 'routes/info-page.tsx', { id: `page:${page.path}` })),
  route('sitemap.xml', 'routes/sitemap.tsx', { id: 'sitemap-index' }),
  route('sitemaps/:name', 'routes/sitemap.tsx'),
  route('robots.txt', 'routes/robots.tsx'),
  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig;
