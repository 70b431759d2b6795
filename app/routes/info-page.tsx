import { data } from 'react-router';
import type { Route } from './+types/info-page';
import { findInfoPage } from '../lib/info-pages';
import { CACHE_PRIVATE, CACHE_PUBLIC, notFound } from '../lib/route-data.server';
import { pageMetaTags } from '../lib/seo';

export const meta: Route.MetaFunction = (args) => pageMetaTags(args);

export async function loader({ context, request }: Route.LoaderArgs) {
  const { pathname } = new URL(request.url);
  const page = findInfoPage(pathname);
  if (!page) return notFound(context, request);
  const meta = await context.api.getPageMeta(pathname);
  return data({ meta, heading: page.heading }, { headers: page.personal ? CACHE_PRIVATE : CACHE_PUBLIC });
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export default function InfoPage({ loaderData }: Route.ComponentProps) {
  return (
    <article className="page">
      <h1 className="page__title">{loaderData.heading}</h1>
    </article>
  );
}
