/**
 * Counts keys and reports the largest counts with bounded memory: when more than 2×capacity keys are
 * held, only the top `capacity` are kept. A count is exact for a key that was never dropped; a key
 * dropped and seen again restarts, so its count is low by at most `dropBound` (the largest count ever
 * dropped). Counts are never over-reported; the summary says whether anything was dropped.
 */
export class TopCounter<T> {
  private readonly counts = new Map<string, { item: T; n: number }>();
  /** Largest count ever dropped (0: every figure is exact). */
  dropBound = 0;

  constructor(private readonly capacity = 5000) {}

  add(key: string, item: T, n: number): void {
    const e = this.counts.get(key);
    if (e !== undefined) e.n += n;
    else this.counts.set(key, { item, n });
    if (this.counts.size > 2 * this.capacity) this.prune();
  }

  private prune(): void {
    const sorted = [...this.counts.entries()].sort((a, b) => b[1].n - a[1].n);
    for (let i = this.capacity; i < sorted.length; i++) {
      const [key, e] = sorted[i]!;
      if (e.n > this.dropBound) this.dropBound = e.n;
      this.counts.delete(key);
    }
  }

  /** The `k` largest, largest first (ties by key). */
  top(k: number): { item: T; count: number }[] {
    return [...this.counts.entries()]
      .sort((a, b) => b[1].n - a[1].n || (a[0] < b[0] ? -1 : 1))
      .slice(0, k)
      .map(([, e]) => ({ item: e.item, count: e.n }));
  }
}
