import { data, Link } from 'react-router';
import type { Route } from './+types/wishlist';
import { COOKIE } from '~/shared/cookies';
import { requireShopper } from '~/app/lib/session.server';
import { CACHE_PRIVATE } from '~/app/lib/route-data.server';
import { pageMetaTags } from '~/app/lib/seo';
import { listCookie } from '~/app/lib/wishlist.server';
import { useLists } from '~/app/lib/favourites';
import { ProductCard } from '~/app/ui/ProductCard';
import { useFavouriteToggle } from '~/app/ui/FavouriteButton';
import { goodsCount } from '~/app/components/catalog/listing-url';

// SPEC §2 /wishlist/ (customers only): the saved products as cards, latest first, each with
// the quick add to basket and a way to remove it. The loader also syncs the `favourites`
// cookie with the account, so the counts are right on any device the customer logs in on.

export const meta: Route.MetaFunction = (args) => [
  ...pageMetaTags(args),
  { name: 'robots', content: 'noindex, nofollow' },
];

export async function loader({ context, request }: Route.LoaderArgs) {
  const shopper = await requireShopper(request, context.api);
  const [meta, saved] = await Promise.all([
    context.api.getPageMeta(new URL(request.url).pathname),
    context.api.wishlist({ mode: 'wishlist', token: shopper.token }),
  ]);
  const headers = new Headers(CACHE_PRIVATE);
  headers.append(
    'Set-Cookie',
    listCookie(
      COOKIE.favourites,
      saved.ITEMS.map((item) => item.ID),
      context.siteUrl,
    ),
  );
  return data({ meta, items: saved.ITEMS }, { headers });
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export default function Wishlist({ loaderData }: Route.ComponentProps) {
  const lists = useLists();
  const toggle = useFavouriteToggle();
  // After hydration the cookie is the live list: a removed card goes at once.
  const items = lists ? loaderData.items.filter((item) => lists.favourites.includes(item.ID)) : loaderData.items;
  return (
    <article className="page wishlist">
      <h1 className="page__title">Избранное</h1>
      {items.length ? (
        <>
          <p className="wishlist__count">{goodsCount(items.length)}</p>
          <ul className="grid wishlist__grid">
            {items.map((item, i) => (
              <li key={item.ID} className="wishlist__item">
                <ProductCard item={item} quickAdd eager={i < 4} />
                <button
                  type="button"
                  className="link-button wishlist__remove"
                  aria-label={`Удалить «${item.NAME}» из избранного`}
                  onClick={() => void toggle(item.ID, false)}
                >
                  Удалить
                </button>
              </li>
            ))}
          </ul>
        </>
      ) : (
        <div className="wishlist__empty">
          <p className="wishlist__empty-title">В избранном пока ничего нет</p>
          <p>Нажмите на сердечко на карточке товара, чтобы сохранить понравившуюся модель.</p>
          <Link to="/catalog/" className="button">
            Перейти в каталог
          </Link>
        </div>
      )}
    </article>
  );
}
