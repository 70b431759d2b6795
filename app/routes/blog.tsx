import { data, Link } from 'react-router';
import type { Route } from './+types/blog';
import { BLOG_ARTICLES } from '../lib/blog';
import { CACHE_PUBLIC } from '../lib/route-data.server';
import { pageMetaTags } from '../lib/seo';

export const meta: Route.MetaFunction = (args) => pageMetaTags(args);

export async function loader({ context, request }: Route.LoaderArgs) {
  const meta = await context.api.getPageMeta(new URL(request.url).pathname);
  return data({ meta }, { headers: CACHE_PUBLIC });
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export default function Blog() {
  return (
    <article className="page">
      <h1 className="page__title">Блог</h1>
      <ul className="link-list">
        {BLOG_ARTICLES.map((a) => (
          <li key={a.slug}>
            <Link to={`/blog/${a.slug}/`}>{a.title}</Link>
          </li>
        ))}
      </ul>
    </article>
  );
}
