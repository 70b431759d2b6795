import type { Route } from './+types/not-found';
import { notFound } from '~/app/lib/route-data.server';
import { NotFoundPage } from '~/app/components/NotFoundPage';

export async function loader({ context, request }: Route.LoaderArgs) {
  return notFound(context, request);
}

export default function NotFound() {
  return <NotFoundPage />;
}
