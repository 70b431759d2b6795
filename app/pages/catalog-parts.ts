import { lazyPart } from '~/app/lib/lazy-part';

// The catalogue route's two pages (app/routes/catalog.tsx): a product page does not download the
// listing's code, nor a listing the product page's; each is a chunk of its own, which the server
// preloads with the route's (app/lib/lazy-part.tsx). Here, apart from the route, so that a product
// card can start loading the product page's chunk when the shopper points at it or focuses it,
// alongside the data its link prefetches, not after (the root hands preloadProductPage to the
// cards: app/ui/shop-actions.tsx).
export const ProductPage = lazyPart('app/pages/ProductPage.tsx', () =>
  import('./ProductPage').then((m) => m.ProductPage),
);
export const CategoryPage = lazyPart('app/pages/CategoryPage.tsx', () =>
  import('./CategoryPage').then((m) => m.CategoryPage),
);

/** Starts loading the product page's code (a later call returns the same load). */
export function preloadProductPage(): void {
  // A failed load is asked again by the page's render (lazy-part.tsx): nothing to report here.
  ProductPage.preload().catch(() => {});
}
