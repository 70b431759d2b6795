import { useCallback } from 'react';
import { COOKIE } from '~/shared/cookies';
import { addToFront, LIST_LIMITS, removeId } from '~/core/wishlist';
import { currentLists, postListChange, useLists, writeListCookie } from '~/app/lib/favourites';
import { useNotify } from './Notifications';
import { HeartIcon } from './icons';
import { useShopActions } from './shop-actions';

export const FAVOURITE_TEXT = {
  add: 'Добавить в избранное',
  remove: 'Удалить из избранного',
  failed: 'Не удалось изменить избранное. Попробуйте ещё раз.',
} as const;

/**
 * SPEC §4 Favourites: a guest is sent to the auth modal; a customer's heart changes at once
 * (the cookie, so every heart and the header count follow), then the server's list replaces it.
 * A failure puts the list back. `wanted`: set (true) or clear (false) rather than flip.
 */
export function useFavouriteToggle(): (productId: number, wanted?: boolean) => Promise<void> {
  const { logIn } = useShopActions();
  const notify = useNotify();
  return useCallback(
    async (productId: number, wanted?: boolean) => {
      const { loggedIn, favourites: before } = currentLists();
      if (!loggedIn) {
        // The login finishes what the heart asked for: adding it.
        await logIn(wanted === false ? undefined : productId);
        return;
      }
      const adding = wanted ?? !before.includes(productId);
      writeListCookie(
        COOKIE.favourites,
        adding ? addToFront(before, productId, LIST_LIMITS.wishlist) : removeId(before, productId),
      );
      try {
        const answer = await postListChange(adding ? 'add' : 'remove', productId);
        if ('loggedOut' in answer) await logIn(adding ? productId : undefined);
      } catch (err) {
        console.warn('favourite not changed', err);
        writeListCookie(COOKIE.favourites, before);
        notify({ text: FAVOURITE_TEXT.failed });
      }
    },
    [logIn, notify],
  );
}

/** The heart of a product card or page: pressed when the product is among the customer's favourites. */
export function FavouriteButton({
  productId,
  className = '',
  size = 22,
}: {
  productId: number;
  className?: string;
  size?: number;
}) {
  const lists = useLists();
  const toggle = useFavouriteToggle();
  const pressed = Boolean(lists?.loggedIn && lists.favourites.includes(productId));
  const label = pressed ? FAVOURITE_TEXT.remove : FAVOURITE_TEXT.add;
  return (
    <button
      type="button"
      className={`fav ${className}`.trim()}
      aria-pressed={pressed}
      aria-label={label}
      title={label}
      onClick={() => void toggle(productId)}
    >
      <HeartIcon size={size} />
    </button>
  );
}
