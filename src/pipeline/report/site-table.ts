import type { Held } from './top-tally.js';

/**
 * What the report remembers of a recent site, found by the site's 64-bit fingerprint: its own string and
 * the entries its rows last counted in each top list, so that a site's rows are counted without building a
 * key or looking one up in a list's large map. Only a cache: every figure lives in the lists.
 */
export interface SiteState {
  site: string;
  a: number;
  b: number;
  /** Key of the outcome last counted for the site ('' for none yet). */
  outcomeKey: string;
  bySite: Held<{ site: string }> | null;
  problem: Held<unknown> | null;
  /** Outcome key `problem` was counted under. */
  problemKey: string;
}

export function newSiteState(site: string, a: number, b: number): SiteState {
  return { site, a, b, outcomeKey: '', bySite: null, problem: null, problemKey: '' };
}

/**
 * Site states by fingerprint, at most `capacity` of them: open addressing over typed arrays. When full it
 * starts over empty (states are a cache), so memory stays bounded however many sites a file names.
 */
export class SiteTable {
  private readonly lo: Int32Array;
  private readonly hi: Int32Array;
  /** Index + 1 into `states` (0: empty slot). */
  private readonly index: Int32Array;
  private readonly mask: number;
  private states: SiteState[] = [];

  constructor(private readonly capacity = 1 << 15) {
    // A power of 2, at least twice the states held: probes always reach an empty slot.
    let slots = 2;
    while (slots < capacity * 2) slots *= 2;
    this.lo = new Int32Array(slots);
    this.hi = new Int32Array(slots);
    this.index = new Int32Array(slots);
    this.mask = slots - 1;
  }

  /** The state of fingerprint (a, b), or undefined. */
  find(a: number, b: number): SiteState | undefined {
    const index = this.index;
    let i = (a ^ (b >>> 11)) & this.mask;
    for (;;) {
      const k = index[i]!;
      if (k === 0) return undefined;
      if (this.lo[i] === a && this.hi[i] === b) return this.states[k - 1];
      i = (i + 1) & this.mask;
    }
  }

  /** Adds the state of a fingerprint `find` did not know. */
  insert(state: SiteState): void {
    if (this.states.length >= this.capacity) this.clear();
    const a = state.a;
    const b = state.b;
    let i = (a ^ (b >>> 11)) & this.mask;
    while (this.index[i] !== 0) i = (i + 1) & this.mask;
    this.states.push(state);
    this.lo[i] = a;
    this.hi[i] = b;
    this.index[i] = this.states.length;
  }

  clear(): void {
    this.index.fill(0);
    this.states = [];
  }
}
