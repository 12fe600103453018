// Building the radix trie of the rules' literal prefixes (before it is laid out in a table).

import { PatternKind } from './pattern.js';

/** A radix-trie node while building: the node stands for `key.slice(0, depth)`. */
export interface BuildNode {
  key: string;
  depth: number;
  children: BuildNode[];
  firstPrefix: number;
  firstExact: number;
  wild: number[];
  minRank: number;
  /** Offset of the node's block in the table. */
  slot: number;
  /** Chars of the edge into this node after its first one. */
  labelLen: number;
}

/** Shared by every node until it gets a child or a wildcard rule (most nodes are leaves without one). */
const NONE: number[] & BuildNode[] = [];

function newNode(key: string, depth: number, none: number): BuildNode {
  return {
    key,
    depth,
    children: NONE,
    firstPrefix: none,
    firstExact: none,
    wild: NONE,
    minRank: none,
    slot: 0,
    labelLen: 0,
  };
}

/** The child of `node` whose edge starts with char `c`, or where it would be inserted (sorted by char). */
function childSlot(node: BuildNode, c: number): number {
  const kids = node.children;
  let i = 0;
  while (i < kids.length && kids[i]!.key.charCodeAt(node.depth) < c) i++;
  return i;
}

/** Inserts one literal prefix into a radix trie, splitting an edge where the prefix leaves it. */
function insertPrefix(root: BuildNode, prefix: string, none: number): BuildNode {
  let node = root;
  let d = 0;
  for (;;) {
    if (d === prefix.length) return node;
    const c = prefix.charCodeAt(d);
    const i = childSlot(node, c);
    const child = node.children[i];
    if (child === undefined || child.key.charCodeAt(d) !== c) {
      const leaf = newNode(prefix, prefix.length, none);
      if (node.children === NONE) node.children = [];
      node.children.splice(i, 0, leaf);
      return leaf;
    }
    let j = d + 1;
    while (j < child.depth && j < prefix.length && child.key.charCodeAt(j) === prefix.charCodeAt(j)) j++;
    if (j < child.depth) {
      const mid = newNode(child.key, j, none);
      mid.children = [child];
      node.children[i] = mid;
      node = mid;
    } else {
      node = child;
    }
    d = j;
  }
}

/** The radix trie of the rules' literal prefixes, each node holding the rules of its prefix. */
export function buildTrie(
  prefixes: readonly string[],
  kinds: readonly PatternKind[],
  none: number,
): BuildNode {
  const root = newNode('', 0, none);
  for (let r = 0; r < prefixes.length; r++) {
    const node = insertPrefix(root, prefixes[r]!, none);
    // Ranks arrive in ascending order, so the first rank seen per kind is the node's best.
    if (kinds[r] === PatternKind.Prefix) node.firstPrefix = Math.min(node.firstPrefix, r);
    else if (kinds[r] === PatternKind.Exact) node.firstExact = Math.min(node.firstExact, r);
    else if (node.wild === NONE) node.wild = [r];
    else node.wild.push(r);
  }
  return root;
}

/** Post-order: a node's min rank covers its own rules and its whole subtree. */
export function computeMinRank(root: BuildNode): BuildNode[] {
  const order: BuildNode[] = [];
  const todo = [root];
  while (todo.length > 0) {
    const b = todo.pop()!;
    order.push(b);
    for (const c of b.children) todo.push(c);
  }
  for (let i = order.length - 1; i >= 0; i--) {
    const b = order[i]!;
    let m = Math.min(b.firstPrefix, b.firstExact, b.wild[0] ?? b.minRank);
    for (const c of b.children) m = Math.min(m, c.minRank);
    b.minRank = m;
  }
  return order; // parents before children
}
