import { describe, expect, it } from 'vitest';
import { linksUnderSection, opensUnder, sectionScope } from './catalog-scope';

const coat = { sectionId: 5, isNew: false, onSale: false };

describe('sectionScope', () => {
  it('follows the section kind', () => {
    expect(sectionScope({ id: 0, kind: 'all' }, [])).toEqual({ sectionIds: null });
    expect(sectionScope({ id: 1, kind: 'new' }, [])).toEqual({ sectionIds: null, isNew: true });
    expect(sectionScope({ id: 2, kind: 'sale' }, [])).toEqual({ sectionIds: null, onSale: true });
    expect(sectionScope({ id: 3, kind: 'category' }, [5, 6])).toEqual({ sectionIds: new Set([3, 5, 6]) });
  });
});

describe('opensUnder', () => {
  it('opens a product under its own section and the whole catalogue only', () => {
    expect(opensUnder({ id: 5, kind: 'category' }, coat)).toBe(true);
    expect(opensUnder({ id: 0, kind: 'all' }, coat)).toBe(true);
    expect(opensUnder({ id: 6, kind: 'category' }, coat)).toBe(false);
  });
  it('opens under sale only when on sale, under the new collection only when new', () => {
    expect(opensUnder({ id: 2, kind: 'sale' }, coat)).toBe(false);
    expect(opensUnder({ id: 2, kind: 'sale' }, { ...coat, onSale: true })).toBe(true);
    expect(opensUnder({ id: 1, kind: 'new' }, coat)).toBe(false);
    expect(opensUnder({ id: 1, kind: 'new' }, { ...coat, isNew: true })).toBe(true);
  });
  it('keeps links inside the whole catalogue and the new collection', () => {
    expect(linksUnderSection({ id: 0, kind: 'all' })).toBe(true);
    expect(linksUnderSection({ id: 1, kind: 'new' })).toBe(true);
    expect(linksUnderSection({ id: 2, kind: 'sale' })).toBe(false);
    expect(linksUnderSection({ id: 3, kind: 'category' })).toBe(false);
  });
});
