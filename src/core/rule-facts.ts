// What a compiled rule set tells about each rank (allowed, line, rule text), packed into one typed array
// and one string: a few bytes per rule instead of an object and a string each. RuleInfo objects are made
// on demand, for the few ranks a caller asks about.

import { isLatin1 } from './bytes.js';
import type { RuleInfo } from './types.js';

/** Estimated bytes of a JS object header and a typed array's or string's own overhead. */
const OBJECT_BYTES = 64;

export const ALLOW_KEY = 'Allow: ';
export const DISALLOW_KEY = 'Disallow: ';

export class RuleFacts {
  readonly count: number;
  /**
   * [0, n): `word(allowed, line, keyed)` by rank, read back unsigned (a line can reach 2^29); [n, 2n]:
   * where each rank's text starts in `text`.
   */
  private readonly packed: Int32Array;
  /** Every rank's rule text (without its key when keyed), rank after rank. */
  private readonly text: string;
  /** Estimated bytes retained (a text with a char above U+00FF is stored at two bytes per char). */
  readonly byteSize: number;

  /** `text` must be flat and share nothing with a robots.txt body (a join or a concatenation read once). */
  constructor(packed: Int32Array, text: string) {
    const n = (packed.length - 1) / 2;
    this.count = n;
    this.packed = packed;
    this.text = text;
    this.byteSize = 2 * OBJECT_BYTES + packed.byteLength + (isLatin1(text) ? 1 : 2) * packed[2 * n]!;
  }

  /**
   * A rank's first word: line × 4 + 2 if its text lacks its `Allow: `/`Disallow: ` key (the key its
   * `allowed` implies, stored once, not per rule) + 1 if it allows.
   */
  static word(allowed: boolean, line: number, keyed: boolean): number {
    return line * 4 + (keyed ? 2 : 0) + (allowed ? 1 : 0);
  }

  /** Facts of rule infos, rank after rank. */
  static of(infos: readonly RuleInfo[]): RuleFacts {
    const n = infos.length;
    const packed = new Int32Array(2 * n + 1);
    const parts: string[] = new Array(n);
    let pos = 0;
    for (let r = 0; r < n; r++) {
      const info = infos[r]!;
      const key = info.allowed ? ALLOW_KEY : DISALLOW_KEY;
      const keyed = info.rule.startsWith(key);
      packed[r] = RuleFacts.word(info.allowed, info.line, keyed);
      packed[n + r] = pos;
      const text = keyed ? info.rule.slice(key.length) : info.rule;
      parts[r] = text;
      pos += text.length;
    }
    packed[2 * n] = pos;
    // join builds one flat string that shares nothing with the robots.txt body.
    return new RuleFacts(packed, parts.join(''));
  }

  allowed(rank: number): boolean {
    return (this.packed[rank]! & 1) === 1;
  }

  line(rank: number): number {
    return this.packed[rank]! >>> 2;
  }

  /** The rank's rule text; a new slice per call, so callers that need it often keep it. */
  rule(rank: number): string {
    const n = this.count;
    const m = this.packed[rank]!;
    const text = this.text.slice(this.packed[n + rank]!, this.packed[n + rank + 1]!);
    return (m & 2) === 0 ? text : ((m & 1) === 1 ? ALLOW_KEY : DISALLOW_KEY) + text;
  }

  info(rank: number): RuleInfo {
    return { allowed: this.allowed(rank), line: this.line(rank), rule: this.rule(rank) };
  }
}
