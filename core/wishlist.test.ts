import { describe, expect, it } from 'vitest';
import {
  addToFront,
  GUEST_VIEWS_LIMIT,
  isProductId,
  LIST_LIMITS,
  otherViews,
  parseIdList,
  parseProductId,
  recordGuestView,
  removeId,
  serializeIdList,
} from './wishlist';

describe('product ids', () => {
  it('takes positive integers that fit a database integer', () => {
    expect(parseProductId('12')).toBe(12);
    expect(parseProductId(' 7 ')).toBe(7);
    expect(parseProductId('2147483647')).toBe(2_147_483_647);
    for (const junk of ['', ' ', '0', '-3', '1.5', '12abc', 'abc', '2147483648', '99999999999', '1e3', '0x10'])
      expect(parseProductId(junk), junk).toBeNull();
    expect(isProductId(5)).toBe(true);
    expect(isProductId(0)).toBe(false);
    expect(isProductId(Number.NaN)).toBe(false);
    expect(isProductId('5')).toBe(false);
  });
});

describe('id lists', () => {
  it('reads a comma-separated list in order, each id once, junk ignored', () => {
    expect(parseIdList('3,1,2')).toEqual([3, 1, 2]);
    expect(parseIdList('3,,x,1,3, 2 ,-1,0')).toEqual([3, 1, 2]);
    expect(parseIdList('')).toEqual([]);
    expect(parseIdList(null)).toEqual([]);
    expect(parseIdList(undefined)).toEqual([]);
    expect(serializeIdList([3, 1, 2])).toBe('3,1,2');
  });

  it('keeps at most the limit', () => {
    const many = Array.from({ length: 150 }, (_, i) => i + 1).join(',');
    expect(parseIdList(many)).toHaveLength(LIST_LIMITS.wishlist);
    expect(parseIdList(many, 5)).toEqual([1, 2, 3, 4, 5]);
  });

  it('adds at the front, moving an id already there, and cuts the oldest', () => {
    expect(addToFront([1, 2, 3], 4, 10)).toEqual([4, 1, 2, 3]);
    expect(addToFront([1, 2, 3], 3, 10)).toEqual([3, 1, 2]);
    expect(addToFront([1, 2, 3], 4, 3)).toEqual([4, 1, 2]);
    expect(addToFront([1, 2], 0, 10)).toEqual([1, 2]);
  });

  it('removes an id, and leaves the list alone when it is not there', () => {
    expect(removeId([1, 2, 3], 2)).toEqual([1, 3]);
    expect(removeId([1, 2, 3], 9)).toEqual([1, 2, 3]);
  });
});

describe('guest views (SPEC §4 Views, §5)', () => {
  it('puts the latest view first, once', () => {
    let cookie: string | null = null;
    for (const id of [5, 6, 5, 7]) cookie = recordGuestView(cookie, id);
    expect(cookie).toBe('7,5,6');
  });

  it('keeps at most 20 views and drops junk from the cookie', () => {
    let cookie = 'x,,-1,3';
    for (let id = 100; id < 130; id++) cookie = recordGuestView(cookie, id);
    const ids = parseIdList(cookie, 100);
    expect(ids).toHaveLength(GUEST_VIEWS_LIMIT);
    expect(ids[0]).toBe(129);
    expect(ids).not.toContain(3);
  });

  it('ignores an invalid id to record', () => {
    expect(recordGuestView('1,2', 0)).toBe('1,2');
    expect(recordGuestView('1,2', Number.NaN)).toBe('1,2');
  });

  it('offers the other viewed products for the row, not the one on screen', () => {
    expect(otherViews([4, 3, 2, 1], 3)).toEqual([4, 2, 1]);
    expect(otherViews([4, 3, 2, 1], 3, 2)).toEqual([4, 2]);
    expect(otherViews([3], 3)).toEqual([]);
  });
});
