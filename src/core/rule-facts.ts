// What a compiled rule set tells about each rank (allowed, line, rule text), packed into one typed array
// and one string: a few bytes per rule instead of an object and a string each. RuleInfo objects are made
// on demand, for the few ranks a caller asks about.

import { isLatin1, ownString } from './bytes.js';
import type { RuleInfo } from './types.js';

/** Estimated bytes of a JS object header and a typed array's or string's own overhead. */
const OBJECT_BYTES = 64;

export const ALLOW_KEY = 'Allow: ';
export const DISALLOW_KEY = 'Disallow: ';

/** Whether the rule of `rank` allows, read from RuleFacts' `packed` (held by compiled rules: one load less a row). */
export function allowedIn(packed: Int32Array, rank: number): boolean {
  return (packed[rank]! & 1) === 1;
}

export class RuleFacts {
  readonly count: number;
  /**
   * [0, n): per rank, line × 4 + 2 if its text lacks its `Allow: `/`Disallow: ` key (the key its
   * `allowed` implies, stored once, not per rule) + 1 if it allows, read back unsigned (a line can reach
   * 2^29); [n, 2n]: where each rank's text starts in `text`. Written by RuleFactsWriter.
   */
  readonly packed: Int32Array;
  /**
   * Every rank's rule text (without its key when keyed), rank after rank, one byte a char (no char above
   * U+00FF: those texts are in `wide`); empty for the ranks in `wide`.
   */
  private readonly text: string;
  /**
   * The texts with a char above U+00FF, by rank, or null: apart, because one such char in the joined
   * text would store every rank's text at two bytes per char (a few rules of a large file usually).
   */
  private readonly wide: Map<number, string> | null;
  /** Estimated bytes retained (a text with a char above U+00FF is stored at two bytes per char). */
  readonly byteSize: number;

  /** See RuleFactsWriter, which lays `packed`, `text` and `wide` out. */
  constructor(packed: Int32Array, text: string, wide: Map<number, string> | null = null) {
    const n = (packed.length - 1) / 2;
    this.count = n;
    this.packed = packed;
    this.text = text;
    this.wide = wide;
    let size = 2 * OBJECT_BYTES + packed.byteLength + text.length;
    if (wide !== null) for (const w of wide.values()) size += OBJECT_BYTES + 2 * w.length;
    this.byteSize = size;
  }

  /** Facts of rule infos, rank after rank. */
  static of(infos: readonly RuleInfo[]): RuleFacts {
    const facts = new RuleFactsWriter(infos.length);
    for (const info of infos) {
      const key = info.allowed ? ALLOW_KEY : DISALLOW_KEY;
      const keyed = info.rule.startsWith(key);
      facts.add(info.allowed, info.line, keyed, keyed ? info.rule.slice(key.length) : info.rule);
    }
    return facts.done();
  }

  allowed(rank: number): boolean {
    return allowedIn(this.packed, rank);
  }

  line(rank: number): number {
    return this.packed[rank]! >>> 2;
  }

  /** The rank's rule text; a new slice per call, so callers that need it often keep it. */
  rule(rank: number): string {
    const n = this.count;
    const m = this.packed[rank]!;
    const text =
      (this.wide === null ? undefined : this.wide.get(rank)) ??
      this.text.slice(this.packed[n + rank]!, this.packed[n + rank + 1]!);
    return (m & 2) === 0 ? text : ((m & 1) === 1 ? ALLOW_KEY : DISALLOW_KEY) + text;
  }

  info(rank: number): RuleInfo {
    return { allowed: this.allowed(rank), line: this.line(rank), rule: this.rule(rank) };
  }
}

/** Lays out the facts of `count` ranks, added in rank order: the one place that knows RuleFacts' layout. */
export class RuleFactsWriter {
  private readonly packed: Int32Array;
  private readonly texts: string[];
  private rank = 0;
  private pos = 0;

  constructor(private readonly count: number) {
    this.packed = new Int32Array(2 * count + 1);
    this.texts = new Array(count);
  }

  /** The next rank's facts; `text` is its rule without the key `allowed` implies when `keyed`. */
  add(allowed: boolean, line: number, keyed: boolean, text: string): void {
    const r = this.rank++;
    this.packed[r] = line * 4 + (keyed ? 2 : 0) + (allowed ? 1 : 0);
    this.packed[this.count + r] = this.pos;
    this.texts[r] = text;
    this.pos += text.length;
  }

  done(): RuleFacts {
    this.packed[2 * this.count] = this.pos;
    // join builds one flat string that shares nothing with the robots.txt body.
    const joined = this.texts.join('');
    if (isLatin1(joined)) return new RuleFacts(this.packed, joined);
    // Texts with a char above U+00FF are kept apart (owned copies), the others joined as before.
    const n = this.count;
    const wide = new Map<number, string>();
    const narrow: string[] = [];
    let pos = 0;
    for (let r = 0; r < n; r++) {
      const t = this.texts[r]!;
      this.packed[n + r] = pos;
      if (isLatin1(t)) {
        narrow.push(t);
        pos += t.length;
      } else wide.set(r, ownString(t));
    }
    this.packed[2 * n] = pos;
    return new RuleFacts(this.packed, narrow.join(''), wide);
  }
}
