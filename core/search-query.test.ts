import { describe, expect, it } from 'vitest';
import { articlePrefix, prefixTsQuery, searchWords } from './search-query';

describe('search query', () => {
  it('keeps letters and digits, reads ё as е, at most six words', () => {
    expect(searchWords('Чёрное  пальто!')).toEqual(['черное', 'пальто']);
    expect(searchWords("') | & !:*")).toEqual([]);
    expect(searchWords('a b c d e f g h')).toHaveLength(6);
  });
  it('recognises article numbers only when typed as such', () => {
    expect(articlePrefix('VT-26-00153')).toBe('vt-26-00153');
    expect(articlePrefix('vt 26')).toBe('vt-26');
    expect(articlePrefix('vt_%')).toBeNull();
    expect(articlePrefix('пальто')).toBeNull();
  });
  it('makes the last word a prefix', () => {
    expect(prefixTsQuery(['черное', 'паль'])).toBe('черное & паль:*');
  });
});
