import { useSyncExternalStore } from 'react';
import { COOKIE, countIds, readCookie } from '~/shared/cookies';
import { countBasketItems, parseCartCookie, parsePreordersCookie } from '~/core/basket-cookie';

// What is personal in the shell (logged in, basket and wishlist counts) is read from cookies
// in the browser after hydration, so the server can render one cacheable guest page for all.

export interface ShopperCounts {
  loggedIn: boolean;
  basket: number;
  wishlist: number;
}

const GUEST: ShopperCounts = { loggedIn: false, basket: 0, wishlist: 0 };
const EVENT = 'vitrina:cookies';
let cached: { raw: string; value: ShopperCounts } | null = null;

function snapshot(): ShopperCounts {
  const raw = document.cookie;
  if (cached?.raw === raw) return cached.value;
  // The token itself is HttpOnly: the shell reads the non-secret mark set beside it.
  const loggedIn = readCookie(raw, COOKIE.loggedIn) === '1';
  const value = {
    loggedIn,
    // SPEC §4: pre-orders count, the gift garment cover never does.
    basket: countBasketItems(
      parseCartCookie(readCookie(raw, COOKIE.cart)),
      parsePreordersCookie(readCookie(raw, COOKIE.preorders)),
    ),
    wishlist: loggedIn ? countIds(readCookie(raw, COOKIE.favourites)) : 0,
  };
  cached = { raw, value };
  return value;
}

/** Calls onChange whenever the shop's cookies may have changed (this tab wrote them, or the window regained focus). */
export function subscribeToCookies(onChange: () => void): () => void {
  window.addEventListener(EVENT, onChange);
  window.addEventListener('focus', onChange);
  return () => {
    window.removeEventListener(EVENT, onChange);
    window.removeEventListener('focus', onChange);
  };
}

export function useShopperCounts(): ShopperCounts {
  return useSyncExternalStore(subscribeToCookies, snapshot, () => GUEST);
}

/** Code that changes the shop's cookies calls this so the shell updates at once. */
export function announceCookieChange(): void {
  window.dispatchEvent(new Event(EVENT));
}
