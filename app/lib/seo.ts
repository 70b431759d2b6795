import type { MetaDescriptor } from 'react-router';
import type { PageMeta } from '../../api/contract';
import { truncateDescription } from '../../core/page-meta';

export const SITE_NAME = 'Vitrina';

/** Title, description, keywords, canonical link and Open Graph tags for one page (SPEC §2). */
export function seoTags(meta: PageMeta, siteUrl: string, extra: { image?: string | null; type?: string } = {}): MetaDescriptor[] {
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
  if (extra.image) tags.push({ property: 'og:image', content: extra.image.startsWith('http') ? extra.image : `${siteUrl}${extra.image}` });
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
  const root = args.matches.find((m) => m?.id === 'root')?.data as { siteUrl?: string } | undefined;
  return seoTags(meta, root?.siteUrl ?? '', extra);
}
