import type { Route } from './+types/not-found';
import { notFound } from '~/app/lib/route-data.server';
import { NotFoundPage } from '~/app/ui/NotFoundPage';

export async function loader({ context, request }: Route.LoaderArgs) {
  return notFound(context, request);
}

export default function NotFound() {
  return <NotFoundPage />;
}
