import { useSyncExternalStore } from 'react';
import { COOKIE, readCookie } from '~/shared/cookies';
import { GUEST_VIEWS_LIMIT, LIST_LIMITS, parseIdList, recordGuestView, serializeIdList } from '~/core/wishlist';
import { announceCookieChange, documentCookie, subscribeToCookies } from './shopper-state';

// SPEC §4 Favourites and Views in the browser. The `favourites` cookie mirrors a customer's
// list on the server (the header and tab-bar counts and the hearts read it); the `views`
// cookie is a guest's own list, and a customer's mirror. Both: comma-separated ids, latest
// first, not HttpOnly, 30 days. Changes to a customer's lists go through the storefront's
// server (/wishlist/toggle/), which holds the session token.

export const LIST_COOKIE_MAX_AGE = 30 * 24 * 60 * 60;

/** Where the browser asks the storefront's server to change a customer's lists. */
export const WISHLIST_TOGGLE_PATH = '/wishlist/toggle/';

export type ToggleIntent = 'add' | 'remove' | 'view';

/** What /wishlist/toggle/ answers: the list after the change, or that the session is gone. */
export type ToggleAnswer = { ids: number[] } | { error: string; loggedOut: true };

interface ListsSnapshot {
  loggedIn: boolean;
  favourites: number[];
  views: number[];
}

let cached: { raw: string; value: ListsSnapshot } | null = null;

function snapshot(): ListsSnapshot {
  const raw = documentCookie();
  if (cached?.raw === raw) return cached.value;
  const value = {
    loggedIn: readCookie(raw, COOKIE.loggedIn) === '1',
    favourites: parseIdList(readCookie(raw, COOKIE.favourites), LIST_LIMITS.wishlist),
    views: parseIdList(readCookie(raw, COOKIE.views), LIST_LIMITS.watched),
  };
  cached = { raw, value };
  return value;
}

/** The lists as the browser's cookies hold them; null during server rendering and hydration (guest pages are one cacheable page). */
export function useLists(): ListsSnapshot | null {
  return useSyncExternalStore(subscribeToCookies, snapshot, () => null);
}

/** The lists now (event handlers and effects only). */
export function currentLists(): ListsSnapshot {
  return snapshot();
}

export function writeListCookie(name: typeof COOKIE.favourites | typeof COOKIE.views, ids: readonly number[]): void {
  const attributes = ids.length
    ? `Path=/; Max-Age=${LIST_COOKIE_MAX_AGE}; SameSite=Lax`
    : 'Path=/; Max-Age=0; SameSite=Lax';
  document.cookie = `${name}=${encodeURIComponent(serializeIdList(ids))}; ${attributes}`;
  announceCookieChange();
}

// Changes go to the server one at a time, in the order made: an earlier answer can never land
// after a later one. The cookie takes the server's list only when no other change of that list
// is waiting, so a quick second press is not undone on screen by the first one's answer.
let queue: Promise<unknown> = Promise.resolve();
const waiting = { [COOKIE.favourites]: 0, [COOKIE.views]: 0 };

async function send(intent: ToggleIntent, id: number): Promise<ToggleAnswer> {
  const res = await fetch(WISHLIST_TOGGLE_PATH, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ intent, id: String(id) }).toString(),
    credentials: 'same-origin',
  });
  if (res.status !== 200 && res.status !== 401) throw new Error(`wishlist change: ${res.status}`);
  return (await res.json()) as ToggleAnswer;
}

/** Asks the storefront's server to change the customer's list and syncs its cookie; throws on a network or server failure. */
export function postListChange(intent: ToggleIntent, id: number): Promise<ToggleAnswer> {
  const cookie = intent === 'view' ? COOKIE.views : COOKIE.favourites;
  waiting[cookie] += 1;
  const run = queue
    .then(() => send(intent, id))
    .finally(() => {
      waiting[cookie] -= 1;
    })
    .then((answer) => {
      if ('ids' in answer && waiting[cookie] === 0) writeListCookie(cookie, answer.ids);
      // A dead session: the answer cleared the login mark; the shell shows a guest.
      else announceCookieChange();
      return answer;
    });
  queue = run.catch(() => undefined);
  return run;
}

/**
 * SPEC §4 Views: records that the product is on screen and answers the viewed ids, latest
 * first. A customer's view goes to the server (and comes back as the `views` cookie); a guest's
 * stays in the cookie. Never throws: a failed server call keeps the view locally.
 */
export async function recordView(id: number): Promise<number[]> {
  if (snapshot().loggedIn) {
    try {
      const answer = await postListChange('view', id);
      if ('ids' in answer) return answer.ids;
    } catch (err) {
      console.warn('the view was not saved to the account', err);
    }
  }
  const next = parseIdList(recordGuestView(readCookie(document.cookie, COOKIE.views), id), GUEST_VIEWS_LIMIT);
  writeListCookie(COOKIE.views, next);
  return next;
}
