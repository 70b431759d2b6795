import { data } from 'react-router';
import type { Route } from './+types/wishlist';
import { requireShopper } from '~/app/lib/session.server';
import { CACHE_PRIVATE } from '~/app/lib/route-data.server';
import { pageMetaTags } from '~/app/lib/seo';

export const meta: Route.MetaFunction = (args) => pageMetaTags(args);

export async function loader({ context, request }: Route.LoaderArgs) {
  await requireShopper(request, context.api);
  const meta = await context.api.getPageMeta(new URL(request.url).pathname);
  return data({ meta }, { headers: CACHE_PRIVATE });
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export default function Wishlist() {
  return (
    <article className="page">
      <h1 className="page__title">Избранное</h1>
    </article>
  );
}
