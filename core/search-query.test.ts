import { describe, expect, it } from 'vitest';
import { articleFragment, articlePrefix, prefixTsQuery, searchWords, splitSizes, switchLayout } from './search-query';
import { sizeIdsOfWord } from './sizes';

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
  it('reads digits and dashes as part of an article number, from three digits', () => {
    expect(articleFragment('00081')).toBe('00081');
    expect(articleFragment(' 26-00081 ')).toBe('26-00081');
    expect(articleFragment('26 00081')).toBe('26-00081');
    expect(articleFragment('46')).toBeNull();
    expect(articleFragment('брюки 460')).toBeNull();
    expect(articleFragment('%081')).toBeNull();
  });
  it('switches a query typed with the Latin layout to the Russian one', () => {
    expect(switchLayout('gfkmnj')).toBe('пальто');
    expect(switchLayout(',h.rb 46')).toBe('брюки 46');
    expect(switchLayout('GKFNMT')).toBe('ПЛАТЬЕ');
    expect(switchLayout(';frtn')).toBe('жакет');
    expect(switchLayout('пальто')).toBeNull();
  });
  it('takes sizes out of the words, only with something else to look for', () => {
    const known = (w: string) => sizeIdsOfWord(w).filter((id) => ['44', '46', 'obuv-37'].includes(id));
    expect(splitSizes(['брюки', '46'], known)).toEqual({ words: ['брюки'], sizes: ['46'] });
    expect(splitSizes(['ботинки', '37'], known)).toEqual({ words: ['ботинки'], sizes: ['obuv-37'] });
    expect(splitSizes(['платье', 's', '46'], known)).toEqual({ words: ['платье'], sizes: ['44', '46'] });
    // A size no product has is a word like any other; sizes alone are left as they are.
    expect(splitSizes(['брюки', '60'], known)).toEqual({ words: ['брюки', '60'], sizes: [] });
    expect(splitSizes(['46'], known)).toEqual({ words: ['46'], sizes: [] });
  });
  it('makes the last word a prefix', () => {
    expect(prefixTsQuery(['черное', 'паль'])).toBe('черное & паль:*');
  });
});
