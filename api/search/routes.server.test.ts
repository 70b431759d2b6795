import { describe, expect, it } from 'vitest';
import { SearchQuery } from './routes.server';

describe('the search query', () => {
  const limit = (value: unknown) => SearchQuery.parse({ limit: value }).limit;

  it('clamps the limit to 1..48', () => {
    expect(limit('0')).toBe(1);
    expect(limit('1')).toBe(1);
    expect(limit('12')).toBe(12);
    expect(limit('48')).toBe(48);
    expect(limit('49')).toBe(48);
    expect(limit('99')).toBe(48);
  });

  it('takes the default for junk, long numbers and no value', () => {
    for (const junk of ['', 'abc', '-5', '1.5', '100', '0000', ' 7', undefined]) expect(limit(junk)).toBeUndefined();
  });

  it('reads the last of repeated values, as every query field does', () => {
    expect(limit(['5', '30'])).toBe(30);
  });
});
