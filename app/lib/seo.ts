import type { ReviewListResponse } from '~/shared/reviews-contract';
import type { MetaDescriptor } from 'react-router';
import type { PageMeta } from '~/shared/contract';
import { truncateDescription } from '~/core/page-meta';
import { rootDataOf } from './root-data';

export const SITE_NAME = 'Vitrina';

/** Title, description, keywords, canonical link and Open Graph tags for one page (SPEC §2). */
export function seoTags(
  meta: PageMeta,
  siteUrl: string,
  extra: { image?: string | null; type?: string } = {},
): MetaDescriptor[] {
  const canonical = `${siteUrl}${meta.canonicalPath}`;
  const description = truncateDescription(meta.description);
  const tags: MetaDescriptor[] = [
    { title: meta.title },
    { name: 'description', content: description },
    { name: 'keywords', content: meta.keywords },
    { tagName: 'link', rel: 'canonical', href: canonical },
    { property: 'og:site_name', content: SITE_NAME },
    { property: 'og:locale', content: 'ru_RU' },
    { property: 'og:type', content: extra.type ?? 'website' },
    { property: 'og:title', content: meta.title },
    { property: 'og:description', content: description },
    { property: 'og:url', content: canonical },
  ];
  if (extra.image)
    tags.push({
      property: 'og:image',
      content: extra.image.startsWith('http') ? extra.image : `${siteUrl}${extra.image}`,
    });
  return tags;
}

/** The path a 404 was for, as the shopper typed it (React Router's location drops the slash). */
export function notFoundPath(errorData: unknown, fallback: string): string {
  const path = (errorData as { path?: unknown } | null)?.path;
  return typeof path === 'string' ? path : fallback;
}

export function notFoundTags(pathname: string): MetaDescriptor[] {
  return [{ title: `Page Not Found: ${pathname}` }, { name: 'robots', content: 'noindex' }];
}

interface MetaArgsLike {
  data: unknown;
  error?: unknown;
  location: { pathname: string };
  matches: ReadonlyArray<{ id: string; data?: unknown } | undefined>;
}

/** The meta export every page shares: its loader returns `meta` from the API. */
export function pageMetaTags(args: MetaArgsLike, extra?: { image?: string | null; type?: string }): MetaDescriptor[] {
  const meta = (args.data as { meta?: PageMeta } | undefined)?.meta;
  if (!meta) {
    const data = (args.error as { data?: unknown } | undefined)?.data;
    return notFoundTags(notFoundPath(data, args.location.pathname));
  }
  return seoTags(meta, rootDataOf(args.matches)?.siteUrl ?? '', extra);
}

// Structured data (schema.org JSON-LD) in the first HTML: React Router renders a
// `{ 'script:ld+json': ... }` meta descriptor as a <script type="application/ld+json">.

function absoluteUrl(siteUrl: string, pathOrUrl: string): string {
  return /^https?:\/\//.test(pathOrUrl) ? pathOrUrl : `${siteUrl}${pathOrUrl}`;
}

/** schema.org BreadcrumbList of a page's trail (Главная first). */
export function breadcrumbJsonLd(
  crumbs: ReadonlyArray<{ NAME: string; URL: string }>,
  siteUrl: string,
): MetaDescriptor {
  return {
    'script:ld+json': {
      '@context': 'https://schema.org',
      '@type': 'BreadcrumbList',
      itemListElement: crumbs.map((c, i) => ({
        '@type': 'ListItem',
        position: i + 1,
        name: c.NAME,
        item: absoluteUrl(siteUrl, c.URL),
      })),
    },
  };
}

export interface ProductJsonLdInput {
  name: string;
  description: string;
  /** The one canonical product path. */
  url: string;
  images: string[];
  sku: string | null;
  color: string | null;
  offers: ReadonlyArray<{ sku: string; price: number; availability: 'InStock' | 'PreOrder' | 'OutOfStock' }>;
  /** Published reviews (issue #32): AggregateRating and the shown Reviews, only when there are some. */
  reviews?: ReviewListResponse | null;
}

/** schema.org Product with one Offer per size, prices in RUB (roubles, as the API gives them). */
export function productJsonLd(product: ProductJsonLdInput, siteUrl: string): MetaDescriptor {
  const url = absoluteUrl(siteUrl, product.url);
  return {
    'script:ld+json': {
      '@context': 'https://schema.org',
      '@type': 'Product',
      name: product.name,
      description: product.description.replace(/\s+/g, ' ').trim(),
      url,
      image: product.images.map((src) => absoluteUrl(siteUrl, src)),
      ...(product.sku ? { sku: product.sku, mpn: product.sku } : {}),
      ...(product.color ? { color: product.color } : {}),
      brand: { '@type': 'Brand', name: SITE_NAME },
      ...reviewsJsonLd(product.reviews),
      offers: product.offers.map((o) => ({
        '@type': 'Offer',
        sku: o.sku,
        url,
        price: o.price.toFixed(2),
        priceCurrency: 'RUB',
        availability: `https://schema.org/${o.availability}`,
        itemCondition: 'https://schema.org/NewCondition',
      })),
    },
  };
}

/**
 * Google's review snippet rules: `aggregateRating` with `ratingValue` and `reviewCount`, each
 * `review` with an `author` (a Person, name under 100 characters) and a `reviewRating`; nothing
 * at all without published reviews.
 */
function reviewsJsonLd(reviews: ReviewListResponse | null | undefined): Record<string, unknown> {
  if (!reviews || reviews.summary.count === 0) return {};
  return {
    aggregateRating: {
      '@type': 'AggregateRating',
      ratingValue: reviews.summary.average,
      reviewCount: reviews.summary.count,
      bestRating: 5,
      worstRating: 1,
    },
    review: reviews.items.map((r) => ({
      '@type': 'Review',
      author: { '@type': 'Person', name: r.author.slice(0, 99) },
      datePublished: r.date,
      reviewBody: r.text,
      reviewRating: { '@type': 'Rating', ratingValue: r.rating, bestRating: 5, worstRating: 1 },
    })),
  };
}
