import { describe, expect, it } from 'vitest';
import { ByteLru } from './byte-lru';

describe('ByteLru', () => {
  it('evicts the least recently used until the byte bound holds', () => {
    const lru = new ByteLru<{ bytes: number }>(100);
    lru.set('a', { bytes: 20 });
    lru.set('b', { bytes: 20 });
    lru.set('c', { bytes: 20 });
    lru.get('a');
    lru.set('d', { bytes: 20 });
    lru.set('e', { bytes: 25 });
    expect(lru.bytes).toBeLessThanOrEqual(100);
    expect(lru.get('b')).toBeUndefined();
    expect(lru.get('a')).toBeDefined();
    expect(lru.set('huge', { bytes: 26 })).toBe(false);
  });
});
