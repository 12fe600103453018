/** Above this many rules a rule set counts its hits in a Map instead of a counter per rule. */
const DENSE_MAX = 4096;

/**
 * Rows decided by each rule of one compiled rule set since the last report. A counter array (made on
 * the first hit) for ordinary rule sets, a Map for huge ones; `used` lists the rules hit, so a report
 * costs what was hit, not the size of the set.
 */
export class RuleHits {
  private counts: Int32Array | null = null;
  private map: Map<number, number> | null = null;
  private readonly used: number[] = [];

  constructor(private readonly size: number) {}

  add(idx: number): void {
    if (this.size <= DENSE_MAX) {
      if (this.counts === null) this.counts = new Int32Array(this.size);
      if (this.counts[idx]!++ === 0) this.used.push(idx);
      return;
    }
    if (this.map === null) this.map = new Map();
    const n = this.map.get(idx);
    if (n === undefined) {
      this.map.set(idx, 1);
      this.used.push(idx);
    } else this.map.set(idx, n + 1);
  }

  get empty(): boolean {
    return this.used.length === 0;
  }

  /** The [rule index, rows] pairs counted so far; resets the counts. */
  drain(): [number, number][] {
    const out: [number, number][] = [];
    for (const idx of this.used) {
      if (this.counts !== null) {
        out.push([idx, this.counts[idx]!]);
        this.counts[idx] = 0;
      } else {
        out.push([idx, this.map!.get(idx)!]);
      }
    }
    this.used.length = 0;
    this.map?.clear();
    return out;
  }
}
