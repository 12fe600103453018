// Every rule's pattern split at its first `*` (see pattern.ts) for building a RuleIndex: literal prefixes
// for the trie, the rest as pieces. Kinds and offsets go to a scratch array every compile reuses.

import { ownString } from './bytes.js';
import { PatternKind } from './pattern.js';
import { Scratch } from './scratch.js';

/** Kept up to 48 KiB between compiles: a file with 50,000 rules should not pin its size. */
const scratch = new Scratch((n) => new Int32Array(n), 3 * 64 + 1, 12 * 1024);

/** Shared by every rule set without wildcard rules. */
const NO_PIECES: string[] = [];

export class SplitRules {
  readonly count: number;
  /** Per rule, the text before its first `*` (and before a trailing `$`). */
  readonly prefixes: string[];
  /** The pieces after the first `*` of every wildcard rule, split at each further `*`, rule after rule. */
  readonly pieces: string[];
  /**
   * Scratch, valid until the next split on this thread: [0, n) each rule's PatternKind, [n, 2n) 1 if
   * it ends with `$`, [2n, 3n] where each rule's pieces start in `pieces` (then where the last ends).
   */
  readonly meta: Int32Array;

  constructor(patterns: readonly string[]) {
    const n = patterns.length;
    const meta = scratch.get(3 * n + 1);
    const prefixes: string[] = new Array(n);
    let pieces = NO_PIECES;
    for (let r = 0; r < n; r++) {
      const pattern = patterns[r]!;
      const anchored = pattern.length > 0 && pattern.charCodeAt(pattern.length - 1) === 36;
      const end = anchored ? pattern.length - 1 : pattern.length;
      // A `*` is never the last char of an anchored pattern (that is its `$`).
      const star = pattern.indexOf('*');
      meta[n + r] = anchored ? 1 : 0;
      meta[2 * n + r] = pieces.length;
      if (star < 0) {
        prefixes[r] = anchored ? pattern.slice(0, end) : pattern;
        meta[r] = anchored ? PatternKind.Exact : PatternKind.Prefix;
        continue;
      }
      prefixes[r] = pattern.slice(0, star);
      meta[r] = PatternKind.Wildcard;
      if (pieces === NO_PIECES) pieces = [];
      // Own copies: the pieces would otherwise keep the whole robots.txt body alive.
      let from = star + 1;
      for (let next = pattern.indexOf('*', from); next >= 0; next = pattern.indexOf('*', from)) {
        pieces.push(ownString(pattern.slice(from, next)));
        from = next + 1;
      }
      pieces.push(ownString(pattern.slice(from, end)));
    }
    meta[3 * n] = pieces.length;
    this.count = n;
    this.prefixes = prefixes;
    // Exactly sized: the pieces are kept as long as the rule set, a pushed-to array keeps spare room.
    this.pieces = pieces === NO_PIECES ? pieces : pieces.slice();
    this.meta = meta;
  }

  anchored(r: number): number {
    return this.meta[this.count + r]!;
  }

  /** Where rule r's pieces start in `pieces`. */
  from(r: number): number {
    return this.meta[2 * this.count + r]!;
  }

  /** Where rule r's pieces end in `pieces`. */
  pieceEnd(r: number): number {
    return this.meta[2 * this.count + r + 1]!;
  }
}
