import { data } from 'react-router';
import type { Route } from './+types/auth';
import { CACHE_PRIVATE } from '~/app/lib/route-data.server';
import { pageMetaTags } from '~/app/lib/seo';

export const meta: Route.MetaFunction = (args) => pageMetaTags(args);

export async function loader({ context, request }: Route.LoaderArgs) {
  const { pathname } = new URL(request.url);
  const meta = await context.api.getPageMeta(pathname);
  return data({ meta, byEmail: pathname.startsWith('/auth/email') }, { headers: CACHE_PRIVATE });
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export default function Auth({ loaderData }: Route.ComponentProps) {
  return (
    <article className="page page--narrow">
      <h1 className="page__title">{loaderData.byEmail ? 'Вход по e-mail' : 'Вход'}</h1>
    </article>
  );
}
