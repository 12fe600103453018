// The compiled fast path: an agent's rules in decision order, their literal prefixes in a byte trie.
// A path walks the trie once; only rules whose literal prefix matched, and whose rank can still beat
// the best found so far, are tried. Nothing is allocated per path.

import { matchPieces } from './pattern.js';
import {
  CHILDREN,
  DEPTH,
  FIRST_CHILD,
  FIRST_EXACT,
  FIRST_PREFIX,
  FIRST_WILD,
  LABEL,
  MIN_RANK,
  NEXT,
  NONE,
  RadixTrie,
  SLOT,
  WILDS,
} from './radix-trie.js';
import type { OrderedRules } from './rule-order.js';
import { SplitRules } from './split-rules.js';

/** Nodes with at least this many children get a 128-entry table instead of a sorted edge list. */
const DENSE_MIN_CHILDREN = 12;
const NO_NODE = -1;
const DENSE = -2;
const NO_TAIL = 0x7fffffff;
/**
 * Per wildcard rule, inline in its node's list: rank, minimum length after the prefix, which piece to
 * look for first (the longest, when it is not the first piece; else -1: a native indexOf rejects most
 * non-matching rules at once), 1 if the pattern ends with `$`, and its pieces' range in `pieces`.
 */
const WILD_SIZE = 6;
/**
 * Each trie node is one block: [min rank in subtree, first Prefix rank here, first Exact rank here,
 * label length | INNER], then its label packed four chars to an int (patterns are ASCII once escaped).
 * Most nodes are leaves and end there. An INNER node (with wildcard rules or children) goes on with
 * [wildcard list end, shortest wildcard tail, edges end or DENSE, filter index or NO_FILTER], its
 * wildcard entries, then its edges. A Prefix rule at a node the path reaches always matches, so only the
 * node's best one matters; likewise Exact at the path's end. The trie is a radix trie: an edge's first
 * char selects the child, the child's label holds the rest of the edge. Blocks are laid out parents
 * first, so a walk reads a few adjacent cache lines.
 */
const HEAD_SIZE = 4;
const INNER_SIZE = 4;
const INNER = 1 << 30;
const LABEL_MASK = INNER - 1;
/**
 * A node with at least this many wildcard rules gets a filter: one RegExp alternation of each rule's
 * longest piece. One native search that finds none of them rejects the whole list, instead of one
 * indexOf per rule (real files list a dozen `/*…` rules at `/`).
 */
const FILTER_MIN_WILD = 4;
/** Longest filter source: small enough that compiling it is cheap and never hits a RegExp size limit. */
const FILTER_MAX_SOURCE = 2048;
const NO_FILTER = -1;
/** Shared by every index without filters (most): never written. */
const NO_FILTERS: RegExp[] = [];
/** Estimated bytes of a heap object's header and fields. */
const OBJECT_BYTES = 32;

/**
 * A RegExp source (no `u` flag) matching any of `pieces` literally. Pieces never contain `*` (they
 * were split at it), so the pieces are joined and escaped in two native calls, `*` becoming `|`.
 */
function alternation(pieces: readonly string[]): string {
  return pieces
    .join('*')
    .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
    .replaceAll('*', '|');
}

/** The second chars of prefixes that all start with '/' (as bits), or undefined. */
function leadChars(prefixes: readonly string[]): number[] | undefined {
  // Four plain numbers: a typed array would cost an ArrayBuffer and its backing store per rule set.
  const lead = [0, 0, 0, 0];
  for (const p of prefixes) {
    const c = p.length >= 2 && p.charCodeAt(0) === 47 ? p.charCodeAt(1) : 128;
    if (c >= 128) return undefined;
    lead[c >> 5]! |= 1 << (c & 31);
  }
  return lead;
}

/** Index in `pieces` of the longest of `pieces[first, last)` (the first one on ties). */
function longestPiece(pieces: readonly string[], first: number, last: number): number {
  let key = first;
  for (let i = first + 1; i < last; i++) if (pieces[i]!.length > pieces[key]!.length) key = i;
  return key;
}

/** The compiled table and what `decide` needs besides it; shared by every agent that selects the same groups. */
export interface RuleTable {
  /** Ranks the table indexes: [0, entries). */
  readonly entries: number;
  readonly t: Int32Array;
  /** The pieces after the first `*` of every wildcard rule, split at each further `*`, rule after rule. */
  readonly pieces: readonly string[];
  /** Wildcard-list filters of nodes (FILTER_MIN_WILD); `lastIndex` is set before each use. */
  readonly filters: readonly RegExp[];
}

/**
 * Everything `decide` reads, other than the wildcard pieces, lives in one Int32Array (trie nodes,
 * wildcard lists, edges, labels), so that a check touches a few cache lines even when consecutive
 * checks hit different hosts' indexes.
 */
export class RuleIndex implements RuleTable {
  readonly entries: number;
  readonly t: Int32Array;
  readonly pieces: string[];
  /** Shared NO_FILTERS until the first filter, then exactly sized. */
  filters: RegExp[] = NO_FILTERS;
  /** Estimated bytes retained. */
  readonly byteSize: number;
  /**
   * When every literal prefix starts with '/' and a second ASCII char, `lead` has the bit of each such
   * second char (4 × 32 bits): a path whose first two chars are not among them matches nothing, which
   * `decide` can tell without reading the table. Undefined when some prefix is shorter or different.
   */
  readonly lead: readonly number[] | undefined;

  constructor(ordered: OrderedRules) {
    const n = ordered.patterns.length;
    this.entries = n;
    const split = new SplitRules(ordered.patterns);
    this.pieces = split.pieces;
    this.lead = leadChars(split.prefixes);
    // The kinds are the first n ints of the split's meta.
    this.t = this.layOut(new RadixTrie(split.prefixes, split.meta, n), split);
    // A pushed-to array keeps room for 17 elements, kept as long as the set.
    if (this.filters !== NO_FILTERS) this.filters = this.filters.slice();
    let bytes = OBJECT_BYTES * (2 + this.pieces.length + this.filters.length) + this.t.byteLength;
    for (const p of this.pieces) bytes += p.length;
    // A compiled RegExp keeps its source, bytecode and native code: a few times its source.
    for (const f of this.filters) bytes += 4 * f.source.length;
    this.byteSize = bytes;
  }

  /** The table: every trie node's block, parents first (see HEAD_SIZE). */
  private layOut(trie: RadixTrie, split: SplitRules): Int32Array {
    const { nodes, order } = trie;
    for (let i = 0; i < trie.size; i++) {
      const b = order[i]!;
      for (let c = nodes[b + FIRST_CHILD]!; c !== NONE; c = nodes[c + NEXT]!) {
        nodes[c + LABEL] = nodes[c + DEPTH]! - nodes[b + DEPTH]! - 1;
      }
    }
    let size = 0;
    for (let i = 0; i < trie.size; i++) {
      const b = order[i]!;
      nodes[b + SLOT] = size;
      size += HEAD_SIZE + ((nodes[b + LABEL]! + 3) >> 2);
      const children = nodes[b + CHILDREN]!;
      if (children === 0 && nodes[b + WILDS] === 0) continue;
      const edges = children >= DENSE_MIN_CHILDREN ? 128 : 2 * children;
      size += INNER_SIZE + nodes[b + WILDS]! * WILD_SIZE + edges;
    }
    const t = new Int32Array(size);
    for (let i = 0; i < trie.size; i++) {
      const b = order[i]!;
      const o = nodes[b + SLOT]!;
      const labelLen = nodes[b + LABEL]!;
      const inner = nodes[b + CHILDREN]! > 0 || nodes[b + WILDS]! > 0;
      t[o] = nodes[b + MIN_RANK]!;
      t[o + 1] = nodes[b + FIRST_PREFIX]!;
      t[o + 2] = nodes[b + FIRST_EXACT]!;
      t[o + 3] = labelLen | (inner ? INNER : 0);
      const from = nodes[b + DEPTH]! - labelLen;
      for (let j = 0; j < labelLen; j++) {
        t[o + HEAD_SIZE + (j >> 2)]! |= (trie.charAt(b, from + j) & 0xff) << ((j & 3) << 3);
      }
      if (inner) this.layOutInner(t, trie, b, o + HEAD_SIZE + ((labelLen + 3) >> 2), split);
    }
    return t;
  }

  /** An inner node's part from `x`: its wildcard list, then its edges. */
  private layOutInner(t: Int32Array, trie: RadixTrie, b: number, x: number, split: SplitRules): void {
    const pieces = split.pieces;
    const { nodes, wildNext } = trie;
    let pos = x + INNER_SIZE;
    let minTail = NO_TAIL;
    for (let r = nodes[b + FIRST_WILD]!; r !== NONE; r = wildNext[r]!) {
      const first = split.from(r);
      const last = split.pieceEnd(r);
      let tail = 0;
      for (let k = first; k < last; k++) tail += pieces[k]!.length;
      // Scanning for the longest piece first saves work unless it is the first piece anyway.
      const longest = longestPiece(pieces, first, last);
      const key = longest === first || pieces[longest]!.length === 0 ? -1 : longest;
      t[pos] = r;
      t[pos + 1] = tail;
      t[pos + 2] = key;
      t[pos + 3] = split.anchored(r);
      t[pos + 4] = first;
      t[pos + 5] = last;
      minTail = Math.min(minTail, tail);
      pos += WILD_SIZE;
    }
    t[x] = pos;
    t[x + 1] = minTail;
    const depth = nodes[b + DEPTH]!;
    if (nodes[b + CHILDREN]! >= DENSE_MIN_CHILDREN) {
      t.fill(NO_NODE, pos, pos + 128);
      for (let c = nodes[b + FIRST_CHILD]!; c !== NONE; c = nodes[c + NEXT]!) {
        const ch = trie.charAt(c, depth);
        if (ch < 128) t[pos + ch] = nodes[c + SLOT]!; // patterns are ASCII once escaped
      }
      t[x + 2] = DENSE;
    } else {
      // Children are linked in key order, so the edge list is sorted by char.
      for (let c = nodes[b + FIRST_CHILD]!; c !== NONE; c = nodes[c + NEXT]!) {
        t[pos++] = trie.charAt(c, depth);
        t[pos++] = nodes[c + SLOT]!;
      }
      t[x + 2] = pos;
    }
    t[x + 3] = this.filterOf(trie, b, split);
  }

  /** Index of a new filter for a node's wildcard rules, or NO_FILTER (too few, or one has no piece). */
  private filterOf(trie: RadixTrie, b: number, split: SplitRules): number {
    if (trie.nodes[b + WILDS]! < FILTER_MIN_WILD) return NO_FILTER;
    const keys: string[] = [];
    let size = 0;
    for (let r = trie.nodes[b + FIRST_WILD]!; r !== NONE; r = trie.wildNext[r]!) {
      const longest = this.pieces[longestPiece(this.pieces, split.from(r), split.pieceEnd(r))]!;
      if (longest.length === 0) return NO_FILTER;
      size += 2 * longest.length + 1; // escaping at most doubles a piece
      if (size > FILTER_MAX_SOURCE) return NO_FILTER;
      keys.push(longest);
    }
    if (this.filters === NO_FILTERS) this.filters = [];
    this.filters.push(new RegExp(alternation(keys), 'g'));
    return this.filters.length - 1;
  }

  /** Rank of the deciding entry for a path+query, or -1 when none matches. */
  decide(path: string): number {
    return decideIn(this, path, 0, path.length);
  }
}

/**
 * Rank of the deciding entry for the path+query `s[start, end)`, or -1 when none matches. Taking a
 * span lets a URL be matched in place, without slicing out its path.
 */
export function decideIn(table: RuleTable, s: string, start: number, end: number): number {
  const t = table.t;
  const count = table.entries;
  const len = end - start;
  let best = count;
  let node = 0;
  let d = 0;
  for (;;) {
    if (t[node]! >= best) break;
    if (t[node + 1]! < best) best = t[node + 1]!;
    if (d === len && t[node + 2]! < best) best = t[node + 2]!;
    const head = t[node + 3]!;
    if (head < INNER) break; // a leaf: nothing below it
    const x = node + HEAD_SIZE + (((head & LABEL_MASK) + 3) >> 2);
    const wildEnd = t[x]!;
    let k = x + INNER_SIZE;
    if (k < wildEnd && t[k]! < best && len - d >= t[x + 1]!) {
      const f = t[x + 3]!;
      if (f !== NO_FILTER) {
        const filter = table.filters[f]!;
        filter.lastIndex = start + d;
        // A piece found only past `end` lets the rules be tried, which then reject the path.
        if (!filter.test(s)) k = wildEnd;
      }
      for (; k < wildEnd; k += WILD_SIZE) {
        const r = t[k]!;
        if (r >= best) break;
        if (len - d < t[k + 1]!) continue;
        const pieces = table.pieces;
        const key = t[k + 2]!;
        if (key >= 0) {
          const piece = pieces[key]!;
          const at = s.indexOf(piece, start + d);
          if (at < 0 || at + piece.length > end) continue;
        }
        if (matchPieces(s, start + d, end, pieces, t[k + 4]!, t[k + 5]!, t[k + 3] === 1)) {
          best = r;
          break;
        }
      }
    }
    if (d === len) break;
    const c = s.charCodeAt(start + d);
    const edgesEnd = t[x + 2]!;
    let next = NO_NODE;
    if (edgesEnd === DENSE) {
      if (c < 128) next = t[wildEnd + c]!;
    } else {
      for (let e = wildEnd; e < edgesEnd; e += 2) {
        const ch = t[e]!;
        if (ch >= c) {
          if (ch === c) next = t[e + 1]!;
          break;
        }
      }
    }
    if (next === NO_NODE) break;
    const labelLen = t[next + 3]! & LABEL_MASK;
    if (labelLen > 0) {
      // The path must spell the rest of the edge; no rule hangs inside it.
      if (len - d - 1 < labelLen) break;
      const label = next + HEAD_SIZE;
      const p = start + d + 1;
      let j = 0;
      while (j < labelLen && ((t[label + (j >> 2)]! >>> ((j & 3) << 3)) & 0xff) === s.charCodeAt(p + j)) j++;
      if (j < labelLen) break;
    }
    node = next;
    d += 1 + labelLen;
  }
  return best === count ? -1 : best;
}
