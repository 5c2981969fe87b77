// A least-recently-used cache bounded in bytes, not entries: a thousand
// one-megabyte pages must not fit where a thousand tiny ones do.

interface Entry<V> {
  value: V;
  bytes: number;
}

export class ByteLru<V> {
  private entries = new Map<string, Entry<V>>(); // oldest first
  private total = 0;

  /** `sizeOf` is asked again by update(), e.g. after a compressed variant was added. */
  constructor(
    readonly maxBytes: number,
    private readonly sizeOf: (value: V) => number,
  ) {}

  get bytes(): number {
    return this.total;
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key); // most recently used last
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Keeps `value` unless it alone is larger than the whole budget; evicts the oldest to fit. */
  set(key: string, value: V): void {
    this.delete(key);
    const bytes = this.sizeOf(value) + key.length;
    if (bytes > this.maxBytes) return;
    this.entries.set(key, { value, bytes });
    this.total += bytes;
    this.evict();
  }

  /** Measures `key`'s value again (it grew) and evicts to stay within budget. */
  update(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.total -= entry.bytes;
    entry.bytes = this.sizeOf(entry.value) + key.length;
    this.total += entry.bytes;
    this.evict();
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.total -= entry.bytes;
  }

  clear(): void {
    this.entries.clear();
    this.total = 0;
  }

  private evict(): void {
    for (const [key, entry] of this.entries) {
      if (this.total <= this.maxBytes) break;
      this.entries.delete(key);
      this.total -= entry.bytes;
    }
  }
}
