import { data } from 'react-router';
import type { Route } from './+types/blog-article';
import { BLOG_ARTICLES } from '../lib/blog';
import { CACHE_PUBLIC, notFound } from '../lib/route-data.server';
import { pageMetaTags } from '../lib/seo';

export const meta: Route.MetaFunction = (args) => pageMetaTags(args, { type: 'article' });

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const article = BLOG_ARTICLES.find((a) => a.slug === params.slug);
  if (!article) return notFound(context, request);
  const meta = await context.api.getPageMeta(new URL(request.url).pathname);
  return data({ meta, title: article.title }, { headers: CACHE_PUBLIC });
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export default function BlogArticle({ loaderData }: Route.ComponentProps) {
  return (
    <article className="page">
      <h1 className="page__title">{loaderData.title}</h1>
    </article>
  );
}
