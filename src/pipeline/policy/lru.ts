/** A least-recently-used map bounded by entries and by a total cost (e.g. estimated bytes). */
export class Lru<V> {
  private readonly map = new Map<string, { value: V; cost: number }>();
  private total = 0;

  constructor(
    private readonly maxCost: number,
    private readonly maxEntries: number,
  ) {}

  get size(): number {
    return this.map.size;
  }

  get cost(): number {
    return this.total;
  }

  /** The value, marked most recently used. */
  get(key: string): V | undefined {
    const e = this.map.get(key);
    if (e === undefined) return undefined;
    this.map.delete(key);
    this.map.set(key, e);
    return e.value;
  }

  /** The value without touching its recency. */
  peek(key: string): V | undefined {
    return this.map.get(key)?.value;
  }

  has(key: string): boolean {
    return this.map.has(key);
  }

  /** Inserts or replaces; then evicts the least recently used until within bounds (never the new one). */
  set(key: string, value: V, cost = 1): void {
    const old = this.map.get(key);
    if (old !== undefined) {
      this.total -= old.cost;
      this.map.delete(key);
    }
    this.map.set(key, { value, cost });
    this.total += cost;
    for (const [k, e] of this.map) {
      if ((this.total <= this.maxCost && this.map.size <= this.maxEntries) || k === key) break;
      this.map.delete(k);
      this.total -= e.cost;
    }
  }

  delete(key: string): void {
    const e = this.map.get(key);
    if (e === undefined) return;
    this.map.delete(key);
    this.total -= e.cost;
  }

  clear(): void {
    this.map.clear();
    this.total = 0;
  }
}
