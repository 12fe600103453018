// What a compiled rule set tells about each rank (allowed, line, rule text), packed into one typed array
// and one string: a few bytes per rule instead of an object and a string each. RuleInfo objects are made
// on demand, for the few ranks a caller asks about.

import { isLatin1 } from './bytes.js';
import type { RuleInfo } from './types.js';

/** Estimated bytes of a JS object header and a typed array's or string's own overhead. */
const OBJECT_BYTES = 64;

const ALLOW = 'Allow: ';
const DISALLOW = 'Disallow: ';

export class RuleFacts {
  readonly count: number;
  /**
   * [0, n): line × 4 + 2 if the text lacks its `Allow: `/`Disallow: ` key (stored once, not per rule) + 1 if
   * Allow, read back unsigned (a line can reach 2^29); [n, 2n]: where each rank's text starts in `text`.
   */
  private readonly packed: Int32Array;
  /** Every rank's rule text, rank after rank. */
  private readonly text: string;
  /** Estimated bytes retained (a text with a char above U+00FF is stored at two bytes per char). */
  readonly byteSize: number;

  constructor(infos: readonly RuleInfo[]) {
    const n = infos.length;
    this.count = n;
    const packed = new Int32Array(2 * n + 1);
    const parts: string[] = new Array(n);
    let pos = 0;
    for (let r = 0; r < n; r++) {
      const info = infos[r]!;
      const key = info.allowed ? ALLOW : DISALLOW;
      const keyed = info.rule.startsWith(key);
      packed[r] = info.line * 4 + (keyed ? 2 : 0) + (info.allowed ? 1 : 0);
      packed[n + r] = pos;
      const text = keyed ? info.rule.slice(key.length) : info.rule;
      parts[r] = text;
      pos += text.length;
    }
    packed[2 * n] = pos;
    this.packed = packed;
    // join builds one flat string that shares nothing with the robots.txt body.
    this.text = parts.join('');
    this.byteSize = 2 * OBJECT_BYTES + packed.byteLength + (isLatin1(this.text) ? 1 : 2) * pos;
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
    return (m & 2) === 0 ? text : ((m & 1) === 1 ? ALLOW : DISALLOW) + text;
  }

  info(rank: number): RuleInfo {
    return { allowed: this.allowed(rank), line: this.line(rank), rule: this.rule(rank) };
  }
}
