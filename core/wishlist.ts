// SPEC §4 Favourites and Views: lists of product ids, latest first, without duplicates. The
// same rules hold for the customer's lists on the server (wishlist, watched) and the guest's
// `views` cookie; SPEC §5: empty or invalid ids are ignored, never an error.

export type ListMode = 'wishlist' | 'watched';

/** How many ids each list keeps on the server: the oldest fall off the end. */
export const LIST_LIMITS: Record<ListMode, number> = { wishlist: 100, watched: 30 };

/** How many views a guest's `views` cookie keeps. */
export const GUEST_VIEWS_LIMIT = 20;

/** Products the 'Вы смотрели' row shows at most. */
export const VIEWED_ROW_SIZE = 12;

/** The largest id a PostgreSQL integer holds: anything above cannot be a product. */
const MAX_PRODUCT_ID = 2_147_483_647;

/** A positive integer that fits a product id. */
export function isProductId(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 && value <= MAX_PRODUCT_ID;
}

/** One id from text ('12', ' 12 '); null for anything else ('', '1.5', '-3', '12abc', '007' is 7). */
export function parseProductId(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d{1,10}$/.test(trimmed)) return null;
  const id = Number(trimmed);
  return isProductId(id) ? id : null;
}

/** A comma-separated id list ('3,1,2'): valid ids in order, each once, at most `limit`. */
export function parseIdList(value: string | null | undefined, limit: number = LIST_LIMITS.wishlist): number[] {
  if (!value) return [];
  const out: number[] = [];
  const seen = new Set<number>();
  // A bounded scan: a huge cookie or query costs no more than the ids it can keep.
  for (const part of value.split(',', limit * 4)) {
    const id = parseProductId(part);
    if (id === null || seen.has(id)) continue;
    seen.add(id);
    out.push(id);
    if (out.length >= limit) break;
  }
  return out;
}

export function serializeIdList(ids: readonly number[]): string {
  return ids.join(',');
}

/** The list with `id` first (moved there when it was already in), cut to `limit`. */
export function addToFront(ids: readonly number[], id: number, limit: number): number[] {
  if (!isProductId(id)) return ids.slice(0, limit);
  return [id, ...ids.filter((x) => x !== id)].slice(0, limit);
}

export function removeId(ids: readonly number[], id: number): number[] {
  return ids.filter((x) => x !== id);
}

/** The guest's `views` cookie after viewing `id`: latest first, no duplicates, at most 20, junk dropped. */
export function recordGuestView(cookie: string | null | undefined, id: number): string {
  return serializeIdList(addToFront(parseIdList(cookie, GUEST_VIEWS_LIMIT), id, GUEST_VIEWS_LIMIT));
}

/** What the 'Вы смотрели' row asks for: the viewed products other than the one on screen. */
export function otherViews(ids: readonly number[], currentId: number, size: number = VIEWED_ROW_SIZE): number[] {
  return ids.filter((id) => id !== currentId).slice(0, size);
}
