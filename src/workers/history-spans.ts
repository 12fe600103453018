import type { OriginEntry } from './origin-entry.js';

/** Doubles the slab starts with. */
const FIRST_SIZE = 4096;

/**
 * The times of the histories a worker's origin entries pick from, all in one Float64Array: an entry keeps
 * the array (`spanData`), its history's offset in it (`spanAt`) and version count (`spanN`): first-seen
 * times at [at, at + n), last-seen times at [at + n, at + 2n). A row's pick then loads one cache line of the
 * slab after its entry, where the history object, its arrays and their elements were a chain of loads that
 * mostly missed the cache. Spans of entries let go of are holes until the slab is full; then the live
 * spans move to a new array twice their size (an entry let go of that a batch in flight still holds keeps
 * the old array, and reads it right).
 */
export class HistorySpans {
  private data = new Float64Array(FIRST_SIZE);
  private used = 0;

  /**
   * Files the first-seen and last-seen times of `e`'s versions (one each per version) as its span;
   * `entries` lists every live entry with a span, should the slab be full.
   */
  add(
    e: OriginEntry,
    from: readonly number[],
    lastSeen: readonly number[],
    entries: () => OriginEntry[],
  ): void {
    const n = from.length;
    if (this.used + 2 * n > this.data.length) this.compact(entries(), 2 * n);
    const data = this.data;
    const at = this.used;
    for (let v = 0; v < n; v++) {
      data[at + v] = from[v]!;
      data[at + n + v] = lastSeen[v]!;
    }
    this.used += 2 * n;
    e.spanData = data;
    e.spanAt = at;
    e.spanN = n;
  }

  /** The entry's span is no longer picked from (the entry was let go of). */
  release(e: OriginEntry): void {
    e.spanData = null;
    e.spanAt = -1;
  }

  /** Moves the spans of `entries` to a new array with room for `need` more, and updates their offsets. */
  private compact(entries: readonly OriginEntry[], need: number): void {
    let live = 0;
    for (const e of entries) live += 2 * e.spanN;
    const next = new Float64Array(Math.max(FIRST_SIZE, 2 * (live + need)));
    let at = 0;
    for (const e of entries) {
      const len = 2 * e.spanN;
      next.set(e.spanData!.subarray(e.spanAt, e.spanAt + len), at);
      e.spanData = next;
      e.spanAt = at;
      at += len;
    }
    this.data = next;
    this.used = at;
  }
}
