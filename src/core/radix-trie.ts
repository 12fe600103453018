// Building the radix trie of the rules' literal prefixes (before it is laid out in a table). Nodes live
// in typed arrays that every compile on the thread reuses: building makes no object or array per node.

import { PatternKind } from './pattern.js';
import { Scratch } from './scratch.js';

/**
 * A node's fields, NODE_SIZE ints from `node` in `RadixTrie.nodes`. The node stands for
 * `prefixes[KEY].slice(0, DEPTH)` (KEY is -1 for the root, whose key is empty).
 */
export const KEY = 0;
export const DEPTH = 1;
/** First child (children are linked in ascending order of their edge's first char), or NONE. */
export const FIRST_CHILD = 2;
/** Next sibling, or NONE. */
export const NEXT = 3;
export const CHILDREN = 4;
export const FIRST_PREFIX = 5;
export const FIRST_EXACT = 6;
/** The node's wildcard ranks, ascending, linked through `RadixTrie.wildNext`; NONE when none. */
export const FIRST_WILD = 7;
export const LAST_WILD = 8;
export const WILDS = 9;
export const MIN_RANK = 10;
/** Offset of the node's block in the table (set when it is laid out). */
export const SLOT = 11;
/** Chars of the edge into this node after its first one (set when it is laid out). */
export const LABEL = 12;
const NODE_SIZE = 13;
export const NONE = -1;

/** Largest scratch array kept between compiles (256 KiB): a huge file should not pin its trie's size. */
const SCRATCH_KEEP = 1 << 16;
const nodeScratch = new Scratch((n) => new Int32Array(n), 64 * NODE_SIZE, SCRATCH_KEEP);
const rankScratch = new Scratch((n) => new Int32Array(n), 64, SCRATCH_KEEP);
const orderScratch = new Scratch((n) => new Int32Array(n), 128, SCRATCH_KEEP);

/**
 * The radix trie of the rules' literal prefixes, each node holding the rules of its prefix. Its arrays
 * are scratch: valid until the next trie is built on this thread.
 */
export class RadixTrie {
  readonly prefixes: readonly string[];
  readonly nodes: Int32Array;
  /** Per rank, the next wildcard rank of its node, or NONE. */
  readonly wildNext: Int32Array;
  /** Node offsets, parents before children: `order[0, size)`. */
  readonly order: Int32Array;
  size = 0;
  private readonly none: number;
  private used = 0;

  /** `kinds[r]` is rank r's PatternKind for r below `prefixes.length`. */
  constructor(prefixes: readonly string[], kinds: ArrayLike<number>, none: number) {
    const n = prefixes.length;
    // Each prefix adds at most two nodes: its own and one where it leaves an edge.
    const capacity = 2 * n + 1;
    this.prefixes = prefixes;
    this.none = none;
    this.nodes = nodeScratch.get(capacity * NODE_SIZE);
    this.wildNext = rankScratch.get(n);
    this.order = orderScratch.get(2 * capacity);
    const t = this.nodes;
    const root = this.newNode(NONE, 0);
    for (let r = 0; r < n; r++) {
      const node = this.insert(prefixes[r]!, r);
      // Ranks arrive in ascending order, so the first rank seen per kind is the node's best.
      if (kinds[r] === PatternKind.Prefix) t[node + FIRST_PREFIX] = Math.min(t[node + FIRST_PREFIX]!, r);
      else if (kinds[r] === PatternKind.Exact) t[node + FIRST_EXACT] = Math.min(t[node + FIRST_EXACT]!, r);
      else {
        this.wildNext[r] = NONE;
        if (t[node + WILDS] === 0) t[node + FIRST_WILD] = r;
        else this.wildNext[t[node + LAST_WILD]!] = r;
        t[node + LAST_WILD] = r;
        t[node + WILDS]!++;
      }
    }
    this.computeMinRank(root);
  }

  /** Char `d` of the node's key. */
  charAt(node: number, d: number): number {
    return this.prefixes[this.nodes[node + KEY]!]!.charCodeAt(d);
  }

  private newNode(key: number, depth: number): number {
    const o = this.used;
    this.used += NODE_SIZE;
    const t = this.nodes;
    t[o + KEY] = key;
    t[o + DEPTH] = depth;
    t[o + FIRST_CHILD] = NONE;
    t[o + NEXT] = NONE;
    t[o + CHILDREN] = 0;
    t[o + FIRST_PREFIX] = this.none;
    t[o + FIRST_EXACT] = this.none;
    t[o + FIRST_WILD] = NONE;
    t[o + LAST_WILD] = NONE;
    t[o + WILDS] = 0;
    t[o + MIN_RANK] = this.none;
    t[o + SLOT] = 0;
    t[o + LABEL] = 0;
    return o;
  }

  /** Inserts rank `r`'s literal prefix, splitting an edge where the prefix leaves it; returns its node. */
  private insert(prefix: string, r: number): number {
    const t = this.nodes;
    let node = 0;
    let d = 0;
    for (;;) {
      if (d === prefix.length) return node;
      const c = prefix.charCodeAt(d);
      // The child whose edge starts with c, or where it goes (children are sorted by char).
      let prev = NONE;
      let child = t[node + FIRST_CHILD]!;
      while (child !== NONE && this.charAt(child, d) < c) {
        prev = child;
        child = t[child + NEXT]!;
      }
      if (child === NONE || this.charAt(child, d) !== c) {
        const leaf = this.newNode(r, prefix.length);
        t[leaf + NEXT] = child;
        this.link(node, prev, leaf);
        t[node + CHILDREN]!++;
        return leaf;
      }
      const key = this.prefixes[t[child + KEY]!]!;
      const depth = t[child + DEPTH]!;
      let j = d + 1;
      while (j < depth && j < prefix.length && key.charCodeAt(j) === prefix.charCodeAt(j)) j++;
      if (j < depth) {
        const mid = this.newNode(t[child + KEY]!, j);
        t[mid + FIRST_CHILD] = child;
        t[mid + CHILDREN] = 1;
        t[mid + NEXT] = t[child + NEXT]!;
        t[child + NEXT] = NONE;
        this.link(node, prev, mid);
        node = mid;
      } else {
        node = child;
      }
      d = j;
    }
  }

  /** Puts `child` after `prev` (or first) in `node`'s child list. */
  private link(node: number, prev: number, child: number): void {
    if (prev === NONE) this.nodes[node + FIRST_CHILD] = child;
    else this.nodes[prev + NEXT] = child;
  }

  /** Post-order: a node's min rank covers its own rules and its whole subtree. */
  private computeMinRank(root: number): void {
    const t = this.nodes;
    const order = this.order;
    // The stack of nodes to visit sits after the order: the two never hold more than all nodes.
    const stackBase = order.length >> 1;
    let top = stackBase;
    order[top++] = root;
    let size = 0;
    while (top > stackBase) {
      const b = order[--top]!;
      order[size++] = b;
      for (let c = t[b + FIRST_CHILD]!; c !== NONE; c = t[c + NEXT]!) order[top++] = c;
    }
    this.size = size;
    for (let i = size - 1; i >= 0; i--) {
      const b = order[i]!;
      let m = Math.min(
        t[b + FIRST_PREFIX]!,
        t[b + FIRST_EXACT]!,
        t[b + WILDS] === 0 ? t[b + MIN_RANK]! : t[b + FIRST_WILD]!,
      );
      for (let c = t[b + FIRST_CHILD]!; c !== NONE; c = t[c + NEXT]!) m = Math.min(m, t[c + MIN_RANK]!);
      t[b + MIN_RANK] = m;
    }
  }
}
