import { data } from 'react-router';
import type { Route } from './+types/search';
import { CACHE_PUBLIC } from '../lib/route-data.server';
import { pageMetaTags } from '../lib/seo';

export const meta: Route.MetaFunction = (args) => [...pageMetaTags(args), { name: 'robots', content: 'noindex, follow' }];

export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const meta = await context.api.getPageMeta(url.pathname);
  return data({ meta, q: (url.searchParams.get('q') ?? '').trim().slice(0, 200) }, { headers: CACHE_PUBLIC });
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export default function Search({ loaderData }: Route.ComponentProps) {
  return (
    <article className="page">
      <h1 className="page__title">Поиск</h1>
      {loaderData.q ? <p className="page__lead">По запросу «{loaderData.q}»</p> : null}
    </article>
  );
}
