/**
 * A least-recently-used cache bounded by entries and by a size the caller computes. Written
 * here rather than taken from `lru-cache`: that package adds 19 KB to the widgets' hot-path
 * bundles (responses/create stays under its 250 KB budget only without it), and a Map in
 * insertion order is all this needs.
 */
export class BoundedCache<K, V> {
  private readonly entries = new Map<K, { value: V; size: number }>();
  private totalSize = 0;

  constructor(private readonly limits: { maxEntries: number; maxSize: number; sizeOf: (value: V, key: K) => number }) {}

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    // Moved to the end: the most recently used.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: K, value: V): void {
    const size = this.limits.sizeOf(value, key);
    if (size > this.limits.maxSize) return;
    const previous = this.entries.get(key);
    if (previous) {
      this.entries.delete(key);
      this.totalSize -= previous.size;
    }
    this.entries.set(key, { value, size });
    this.totalSize += size;
    for (const [oldest, entry] of this.entries) {
      if (this.entries.size <= this.limits.maxEntries && this.totalSize <= this.limits.maxSize) break;
      this.entries.delete(oldest);
      this.totalSize -= entry.size;
    }
  }

  delete(key: K): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.totalSize -= entry.size;
  }

  clear(): void {
    this.entries.clear();
    this.totalSize = 0;
  }

  get size(): number {
    return this.entries.size;
  }
}
