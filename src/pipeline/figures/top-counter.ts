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

  /**
   * Keeps the `capacity` largest counts, the first held among equal ones (as a stable sort would): the
   * cut is found by selection over a typed array, not by sorting every entry (a frontier reports a new
   * host per row, so this runs every `capacity` new keys).
   */
  private prune(): void {
    const n = this.counts.size;
    const values = new Float64Array(n);
    let i = 0;
    for (const e of this.counts.values()) values[i++] = e.n;
    const cut = kthLargest(values, this.capacity);
    let above = 0;
    for (const e of this.counts.values()) if (e.n > cut) above++;
    let tiesKept = this.capacity - above;
    for (const [key, e] of this.counts) {
      if (e.n > cut) continue;
      if (e.n === cut && tiesKept > 0) {
        tiesKept--;
        continue;
      }
      if (e.n > this.dropBound) this.dropBound = e.n;
      this.counts.delete(key);
    }
  }

  /** The `k` largest, largest first (ties by key); with `keep`, the `k` largest of the items it keeps. */
  top(k: number, keep?: (item: T) => boolean): { item: T; count: number }[] {
    const entries = [...this.counts.entries()];
    return (keep === undefined ? entries : entries.filter(([, e]) => keep(e.item)))
      .sort((a, b) => b[1].n - a[1].n || (a[0] < b[0] ? -1 : 1))
      .slice(0, k)
      .map(([, e]) => ({ item: e.item, count: e.n }));
  }
}

/** The k-th largest value (1-based) of `a`, which is reordered (quickselect, Hoare partition). */
function kthLargest(a: Float64Array, k: number): number {
  let lo = 0;
  let hi = a.length - 1;
  const want = k - 1;
  while (lo < hi) {
    const pivot = a[(lo + hi) >>> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! > pivot) i++;
      while (a[j]! < pivot) j--;
      if (i <= j) {
        const t = a[i]!;
        a[i] = a[j]!;
        a[j] = t;
        i++;
        j--;
      }
    }
    if (want <= j) hi = j;
    else if (want >= i) lo = i;
    else break;
  }
  return a[want]!;
}
