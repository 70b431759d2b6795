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

// Reading document.cookie is slow in Chrome (a copy of the whole string each time, about 0.7 ms
// on a throttled phone), and React asks every store subscriber for its snapshot when hydration
// commits: a listing's hearts and buy buttons read it dozens of times in one task (issue #33,
// 17 ms of the category page's longest task by profile). The string is read once a task; writes
// in this tab forget it at once (forgetCookieString), and anything else (a response's
// Set-Cookie, another tab) lands in a later task.
let cookieString: string | null = null;

/** document.cookie, read at most once a task (and again after this tab writes a cookie). */
export function documentCookie(): string {
  if (cookieString === null) {
    cookieString = document.cookie;
    queueMicrotask(forgetCookieString);
  }
  return cookieString;
}

/** Called after this tab writes document.cookie, before anything reads it again. */
export function forgetCookieString(): void {
  cookieString = null;
}

function snapshot(): ShopperCounts {
  const raw = documentCookie();
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
  // A guest's counts are the server's own object: React then has nothing to render again once
  // hydrated (the header and the tab bar read this store).
  const same = !value.loggedIn && value.basket === 0 && value.wishlist === 0;
  cached = { raw, value: same ? GUEST : value };
  return cached.value;
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
  forgetCookieString();
  window.dispatchEvent(new Event(EVENT));
}
