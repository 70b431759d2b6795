// A least-recently-used map bounded by bytes, for what the server keeps in memory (guest pages,
// kept API answers, rendered card markup). `lru-cache` is not a declared dependency of this
// project (only old copies come with dev tools), so this small one stands in for it.

export class ByteLru<V extends { bytes: number }> {
  private readonly map = new Map<string, V>();
  private total = 0;

  constructor(readonly maxBytes: number) {}

  get bytes(): number {
    return this.total;
  }

  get size(): number {
    return this.map.size;
  }

  /** The value, now the most recently used. */
  get(key: string): V | undefined {
    const value = this.map.get(key);
    if (value === undefined) return undefined;
    this.map.delete(key);
    this.map.set(key, value);
    return value;
  }

  /** Stores the value, evicting the least recently used until the bound holds; false when it alone is too big. */
  set(key: string, value: V): boolean {
    this.delete(key);
    // One page never takes more than a quarter of the cache.
    if (value.bytes > this.maxBytes / 4) return false;
    this.map.set(key, value);
    this.total += value.bytes;
    for (const [oldKey, old] of this.map) {
      if (this.total <= this.maxBytes) break;
      this.map.delete(oldKey);
      this.total -= old.bytes;
    }
    return true;
  }

  delete(key: string): void {
    const value = this.map.get(key);
    if (value === undefined) return;
    this.map.delete(key);
    this.total -= value.bytes;
  }

  clear(): void {
    this.map.clear();
    this.total = 0;
  }
}
