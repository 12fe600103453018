// A typed array that one step of compiling reuses from one compile to the next: compiles run one at a
// time on a thread, so the step allocates nothing per compile unless its input outgrows the array.

/**
 * The array a step works in: at least the length asked for, valid until the step's next call. A longer
 * one replaces it, kept only up to `keepAtMost` elements (a huge file should not pin its size).
 */
export class Scratch<T extends Int32Array | Float64Array> {
  private kept: T;

  constructor(
    private readonly make: (length: number) => T,
    initial: number,
    private readonly keepAtMost: number,
  ) {
    this.kept = make(initial);
  }

  get(length: number): T {
    if (this.kept.length >= length) return this.kept;
    // Doubling spares regrowing by small steps; past what is kept, only what is asked.
    const a = this.make(Math.max(length, Math.min(2 * this.kept.length, this.keepAtMost)));
    if (a.length <= this.keepAtMost) this.kept = a;
    return a;
  }
}
