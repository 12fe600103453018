/** The rows of a held value (rows × 2 + tag). */
function rowsOf(v: number): number {
  return Math.floor(v / 2);
}

/**
 * Counts keys and reports the largest counts with bounded memory: when more than 2×capacity keys are
 * held, only the top `capacity` are kept. A count is exact for a key that was never dropped; a key
 * dropped and seen again restarts, so its count is low by at most `dropBound` (the largest count ever
 * dropped). Counts are never over-reported; the summary says whether anything was dropped. A key holds
 * a number only (its count, and a one-bit tag the first add gave it): what it stands for is read back
 * from the key, so that no object per key is kept (four agents' counters held ≈ 10k keys each).
 */
export class TopCounter {
  /** By key: rows × 2 + tag. */
  private readonly counts = new Map<string, number>();
  /** Largest count ever dropped (0: every figure is exact). */
  dropBound = 0;

  constructor(private readonly capacity = 5000) {}

  /** Adds `n` rows to `key`; a new key keeps `tag` (0 or 1) until it is dropped. */
  add(key: string, n: number, tag: 0 | 1 = 0): void {
    const v = this.counts.get(key);
    this.counts.set(key, v === undefined ? n * 2 + tag : v + n * 2);
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
    for (const v of this.counts.values()) values[i++] = rowsOf(v);
    const cut = kthLargest(values, this.capacity);
    let above = 0;
    for (const v of this.counts.values()) if (rowsOf(v) > cut) above++;
    let tiesKept = this.capacity - above;
    for (const [key, v] of this.counts) {
      const rows = rowsOf(v);
      if (rows > cut) continue;
      if (rows === cut && tiesKept > 0) {
        tiesKept--;
        continue;
      }
      if (rows > this.dropBound) this.dropBound = rows;
      this.counts.delete(key);
    }
  }

  /** The `k` largest, largest first (ties by key); with `tag`, the `k` largest of the keys with that tag. */
  top(k: number, tag?: 0 | 1): { key: string; count: number }[] {
    const entries = [...this.counts.entries()];
    return (tag === undefined ? entries : entries.filter(([, v]) => v % 2 === tag))
      .sort((a, b) => rowsOf(b[1]) - rowsOf(a[1]) || (a[0] < b[0] ? -1 : 1))
      .slice(0, k)
      .map(([key, v]) => ({ key, count: rowsOf(v) }));
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
