/** Above this many rules a rule set counts its hits in a Map instead of a counter per rule. */
const DENSE_MAX = 4096;
/**
 * Distinct rules counted in a short list before a counter per rule is made: on a frontier most origins
 * get a few rows, and a counter array sized by the rule set was most of an origin's memory.
 */
const FEW_MAX = 8;

/**
 * Rows decided by each rule of one compiled rule set since the last report: a short list of [rule,
 * rows] pairs for the first few rules hit, then a counter array for ordinary rule sets, a Map for huge
 * ones, with `used` listing the rules hit in first-hit order; a report costs what was hit, not the size
 * of the set.
 */
export class RuleHits {
  /** [rule index, rows] pairs, exactly sized (a grown array keeps room for 17 more); null: none yet. */
  private few: number[] | null = null;
  private counts: Int32Array | null = null;
  private map: Map<number, number> | null = null;
  private used: number[] | null = null;

  constructor(private readonly size: number) {}

  add(idx: number): void {
    if (this.used === null) {
      const few = this.few;
      if (few === null) {
        this.few = [idx, 1];
        return;
      }
      for (let j = 0; j < few.length; j += 2) {
        if (few[j] === idx) {
          few[j + 1]!++;
          return;
        }
      }
      if (few.length < 2 * FEW_MAX) {
        this.few = [...few, idx, 1];
        return;
      }
      this.spread(few);
    }
    if (this.counts !== null) {
      if (this.counts[idx]!++ === 0) this.used!.push(idx);
      return;
    }
    const map = this.map!;
    const n = map.get(idx);
    if (n === undefined) {
      map.set(idx, 1);
      this.used!.push(idx);
    } else map.set(idx, n + 1);
  }

  /** Moves the short list's counts into a counter array or a Map. */
  private spread(few: number[]): void {
    const used: number[] = [];
    if (this.size <= DENSE_MAX) this.counts = new Int32Array(this.size);
    else this.map = new Map();
    for (let j = 0; j < few.length; j += 2) {
      used.push(few[j]!);
      if (this.counts !== null) this.counts[few[j]!] = few[j + 1]!;
      else this.map!.set(few[j]!, few[j + 1]!);
    }
    this.used = used;
    this.few = null;
  }

  get empty(): boolean {
    return this.used === null ? this.few === null : this.used.length === 0;
  }

  /** The [rule index, rows] pairs counted so far; resets the counts. */
  drain(): [number, number][] {
    const out: [number, number][] = [];
    const few = this.few;
    if (few !== null) {
      for (let j = 0; j < few.length; j += 2) out.push([few[j]!, few[j + 1]!]);
      this.few = null;
      return out;
    }
    const used = this.used;
    if (used === null) return out;
    for (const idx of used) {
      if (this.counts !== null) {
        out.push([idx, this.counts[idx]!]);
        this.counts[idx] = 0;
      } else {
        out.push([idx, this.map!.get(idx)!]);
      }
    }
    used.length = 0;
    this.map?.clear();
    return out;
  }
}
