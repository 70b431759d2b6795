import type { Route } from './+types/wishlist-toggle';
import { ApiRequestError } from '~/shared/api-client';
import { parseProductId } from '~/core/wishlist';
import { clearSessionCookies, getShopper } from '~/app/lib/session.server';
import type { ToggleAnswer } from '~/app/lib/favourites';
import { CACHE_PRIVATE as NO_STORE, loggedOut } from '~/app/lib/route-data.server';

// POST /wishlist/toggle/ (intent add | remove | view, id): a customer's favourite or view,
// changed through the product API with the session token the browser never sees. Answers the
// list after the change as { ids } (the browser syncs the `favourites` or `views` cookie from
// it); a guest or a dead session gets 401 { loggedOut } and the shell's login mark is cleared.

const INTENTS = { add: ['wishlist', 'add'], remove: ['wishlist', 'remove'], view: ['watched', 'add'] } as const;

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = String(form.get('intent') ?? '');
  const id = parseProductId(String(form.get('id') ?? ''));
  if (!Object.hasOwn(INTENTS, intent) || id === null)
    return Response.json({ error: 'Неверный запрос' }, { status: 400, headers: NO_STORE });
  const [mode, change] = INTENTS[intent as keyof typeof INTENTS];

  const shopper = await getShopper(request, context.api);
  const refused = () => {
    const headers = new Headers(NO_STORE);
    for (const c of clearSessionCookies()) headers.append('Set-Cookie', c);
    return loggedOut('Войдите, чтобы сохранять избранное', headers);
  };
  if (!shopper) return refused();
  try {
    const answer = await context.api.wishlist({ mode, action: change, token: shopper.token, ids: [id] });
    const ids = answer.ITEMS.map((item) => item.ID);
    // The browser writes the cookie from `ids` (app/lib/favourites.ts): it knows whether a later change is on its way.
    return Response.json({ ids } satisfies ToggleAnswer, { headers: NO_STORE });
  } catch (err) {
    if (err instanceof ApiRequestError && err.status === 401) return refused();
    throw err;
  }
}

export function loader() {
  return new Response(null, { status: 405, headers: { Allow: 'POST' } });
}
