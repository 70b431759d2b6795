import { data, redirect, useLocation, type ShouldRevalidateFunctionArgs } from 'react-router';
import type { Route } from './+types/catalog';
import type { CatalogListItem, CatalogSectionResponse } from '~/shared/contract';
import { CACHE_PUBLIC, notFound, orNull } from '~/app/lib/route-data.server';
import { breadcrumbJsonLd, pageMetaTags, productJsonLd } from '~/app/lib/seo';
import {
  buildCatalogPath,
  DEFAULT_SORT,
  parseCatalogPath,
  parseOfferParam,
  parsePageNumber,
  parseSort,
  withPrice,
} from '~/core/catalog-filter';
import { parseMasked } from '~/core/number-mask';
import { availabilityOf } from '~/core/size-selection';
import { listingHref } from '~/app/components/catalog/listing-url';
import { isLoadMoreStep } from '~/core/listing-query';
import { productPhotos, propertyText } from '~/app/components/product/product-data';
import { CategoryPage, ProductPage } from '~/app/pages/catalog-parts';
import { rootDataOf } from '~/app/lib/root-data';

// SPEC §4 Catalogue page: one route for /catalog/*; the API's answer says whether the address
// is a listing (ITEMS) or a product (ITEM). Filter values are real links to filter URLs, so a
// listing works and is crawlable without JavaScript; the client enhances them.
// A listing and a product page are page parts of their own (app/pages/catalog-parts.ts).

export const meta: Route.MetaFunction = (args) => {
  const loaded = args.data;
  const siteUrl = rootDataOf(args.matches)?.siteUrl ?? '';
  if (!loaded) return pageMetaTags(args);
  if (loaded.kind === 'listing')
    return [
      ...pageMetaTags(args),
      breadcrumbJsonLd([{ NAME: 'Главная', URL: '/' }, ...loaded.listing.BREADCRUMBS], siteUrl),
    ];
  const item = loaded.product.ITEM;
  const photos = productPhotos(item);
  const article = propertyText(item.PROPERTIES, 'CML2_ARTICLE');
  return [
    ...pageMetaTags(args, { image: photos[0]?.FULL ?? null, type: 'product' }),
    productJsonLd(
      {
        name: item.NAME,
        description: item.DESCRIPTION || loaded.meta.description,
        url: item.DETAIL_PAGE_URL,
        images: photos.map((p) => p.FULL),
        sku: article,
        color: item.COLOR || null,
        offers: item.OFFERS.map((o) => ({
          sku: article ? `${article}-${o.SIZE_ID}` : String(o.ID),
          price: o.PRICE,
          availability: { 'in-stock': 'InStock', preorder: 'PreOrder', unavailable: 'OutOfStock' }[
            availabilityOf(o)
          ] as 'InStock' | 'PreOrder' | 'OutOfStock',
        })),
        reviews: loaded.reviews,
      },
      siteUrl,
    ),
    breadcrumbJsonLd(
      [{ NAME: 'Главная', URL: '/' }, ...loaded.product.BREADCRUMBS, { NAME: item.NAME, URL: item.DETAIL_PAGE_URL }],
      siteUrl,
    ),
  ];
};

export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  // The price form without JavaScript sends ?price_from=&price_to=: answer with the filter URL.
  const priceTarget = priceFormTarget(url);
  if (priceTarget) throw redirect(priceTarget, 303);

  // SPEC §2: /catalog/ is shown internally as /catalog/all/.
  const path = url.pathname === '/catalog/' ? '/catalog/all/' : url.pathname;
  const sort = parseSort(url.searchParams.get('sort'));
  const pageNo = parsePageNumber(url.searchParams.get('PAGEN_1'));
  const offer = url.searchParams.get('offer');
  const parsed = parseCatalogPath(path);
  const sectionPath = parsed.kind === 'listing' ? parsed.sectionPath : path;
  // A reloaded or shared "Показать ещё" address shows the pages up to it (the last few).
  let firstPage = Math.max(1, pageNo - RESTORED_PAGES + 1);
  const pageNumbers = Array.from({ length: pageNo - firstPage + 1 }, (_, i) => firstPage + i);

  const [pages, listingMeta] = await Promise.all([
    Promise.all(
      pageNumbers.map((n) =>
        context.api.getCatalogPage(path, {
          sort: sort === DEFAULT_SORT ? undefined : sort,
          PAGEN_1: n > 1 ? n : undefined,
          offer: parseOfferParam(offer) ?? undefined,
        }),
      ),
    ),
    context.api.getPageMeta(sectionPath === '/catalog/all/' ? '/catalog/' : sectionPath),
  ]);
  const last = pages[pages.length - 1];
  if (!last) return notFound(context, request);

  if ('ITEM' in last) {
    // Products: the generic product template with the name, under the one canonical address.
    // Reviews are public (issue #32): the first page is part of the cached page; a page without them still shows.
    const [meta, reviews] = await Promise.all([
      context.api.getPageMeta(last.ITEM.DETAIL_PAGE_URL, last.ITEM.NAME),
      orNull(context.log, 'product reviews', context.api.getReviews(last.ITEM.ID)),
    ]);
    return data({ kind: 'product' as const, product: last, meta, reviews }, { headers: CACHE_PUBLIC });
  }

  let listings = pages.filter((p): p is CatalogSectionResponse => p !== null && 'ITEMS' in p);
  const pageCount = last.NAV_STRING.PAGE_COUNT;
  if (pageNo > pageCount && !listings.some((p) => p.ITEMS.length > 0) && last.NAV_STRING.ITEMS_COUNT > 0) {
    // An address past the end (the listing got shorter since it was shared): its last pages.
    const tail = Array.from(
      { length: Math.min(RESTORED_PAGES, pageCount) },
      (_, i) => pageCount - Math.min(RESTORED_PAGES, pageCount) + 1 + i,
    );
    const again = await Promise.all(
      tail.map((n) =>
        context.api.getCatalogPage(path, {
          sort: sort === DEFAULT_SORT ? undefined : sort,
          PAGEN_1: n > 1 ? n : undefined,
        }),
      ),
    );
    listings = again.filter((p): p is CatalogSectionResponse => p !== null && 'ITEMS' in p);
    firstPage = tail[0] ?? 1;
  }
  const seen = new Set<number>();
  const items: CatalogListItem[] = [];
  for (const item of listings.flatMap((p) => p.ITEMS)) {
    if (seen.has(item.ID)) continue;
    seen.add(item.ID);
    items.push(item);
  }
  const listing: CatalogSectionResponse = {
    ...last,
    ITEMS: items,
    NAV_STRING: { ...last.NAV_STRING, CURRENT_PAGE: Math.min(pageNo, pageCount) },
  };
  // A filtered listing is its own page: its canonical link is the filter URL (never sort or page).
  const meta = { ...listingMeta, canonicalPath: last.CANONICAL_URL };
  return data(
    {
      kind: 'listing' as const,
      listing,
      firstPage,
      sort,
      apiPath: path,
      sectionPath: parsed.kind === 'listing' ? parsed.sectionPath : path,
      meta,
    },
    { headers: CACHE_PUBLIC },
  );
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

// "Показать ещё" moves the address to the next page after the items are on screen: no reload.
export function shouldRevalidate({
  currentUrl,
  nextUrl,
  formMethod,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  if (!formMethod && isLoadMoreStep(currentUrl, nextUrl)) return false;
  return defaultShouldRevalidate;
}

export default function Catalog({ loaderData }: Route.ComponentProps) {
  const { pathname } = useLocation();
  // SPEC §4: page state resets on each navigation: each page is keyed by its address.
  if (loaderData.kind === 'product')
    return (
      <ProductPage.Part
        key={pathname}
        product={loaderData.product}
        meta={loaderData.meta}
        reviews={loaderData.reviews}
      />
    );
  return (
    <CategoryPage.Part
      // Filters of one section keep the page (an open filter sheet stays open); another section starts afresh.
      key={loaderData.sectionPath}
      listing={loaderData.listing}
      meta={loaderData.meta}
      sort={loaderData.sort}
      firstPage={loaderData.firstPage}
      apiPath={loaderData.apiPath}
    />
  );
}

/** How many pages a "Показать ещё" address brings back at most. */
const RESTORED_PAGES = 5;

function priceFormTarget(url: URL): string | null {
  if (!url.searchParams.has('price_from') && !url.searchParams.has('price_to')) return null;
  const parsed = parseCatalogPath(url.pathname);
  if (parsed.kind !== 'listing') return null;
  const from = parseMasked(url.searchParams.get('price_from') ?? '');
  const to = parseMasked(url.searchParams.get('price_to') ?? '');
  const path = buildCatalogPath(parsed.sectionPath, withPrice(parsed.filter, from, to));
  return listingHref(path, parseSort(url.searchParams.get('sort')));
}
