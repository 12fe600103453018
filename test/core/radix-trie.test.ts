import { describe, expect, it } from 'vitest';
import { PatternKind } from '../../src/core/pattern.js';
import {
  DEPTH,
  FIRST_CHILD,
  FIRST_EXACT,
  FIRST_PREFIX,
  FIRST_WILD,
  KEY,
  MIN_RANK,
  NEXT,
  NONE,
  RadixTrie,
} from '../../src/core/radix-trie.js';

const { Prefix, Exact, Wildcard } = PatternKind;

function childrenOf(trie: RadixTrie, node: number): number[] {
  const out: number[] = [];
  for (let c = trie.nodes[node + FIRST_CHILD]!; c !== NONE; c = trie.nodes[c + NEXT]!) out.push(c);
  return out;
}

function wildOf(trie: RadixTrie, node: number): number[] {
  const out: number[] = [];
  for (let r = trie.nodes[node + FIRST_WILD]!; r !== NONE; r = trie.wildNext[r]!) out.push(r);
  return out;
}

/** The node's key: what its path from the root spells. */
function keyOf(trie: RadixTrie, node: number): string {
  const key = trie.nodes[node + KEY]!;
  return key === NONE ? '' : trie.prefixes[key]!.slice(0, trie.nodes[node + DEPTH]);
}

/** The trie as nested [label, rules, children]: label = the node's part of its key. */
function shape(trie: RadixTrie, node = 0, parentDepth = 0): unknown {
  const t = trie.nodes;
  const rules = [t[node + FIRST_PREFIX]!, t[node + FIRST_EXACT]!, ...wildOf(trie, node)].filter(
    (r) => r < 99,
  );
  const depth = t[node + DEPTH]!;
  return [
    keyOf(trie, node).slice(parentDepth),
    rules,
    childrenOf(trie, node).map((c) => shape(trie, c, depth)),
  ];
}

describe('RadixTrie', () => {
  it('makes a radix trie: one node per distinct prefix or branch point, edges sorted by char', () => {
    const trie = new RadixTrie(
      ['/ab', '/ac', '/a', '/abc', '/b', ''],
      [Prefix, Prefix, Exact, Wildcard, Prefix, Wildcard],
      99,
    );
    expect(shape(trie)).toEqual([
      '',
      [5],
      [
        [
          '/',
          [],
          [
            [
              'a',
              [2],
              [
                ['b', [0], [['c', [3], []]]],
                ['c', [1], []],
              ],
            ],
            ['b', [4], []],
          ],
        ],
      ],
    ]);
  });

  it('keeps the first (best) rank per kind at a node and every wildcard in rank order', () => {
    const trie = new RadixTrie(
      ['/x', '/x', '/x', '/x', '/x'],
      [Prefix, Prefix, Wildcard, Exact, Wildcard],
      99,
    );
    const x = childrenOf(trie, 0)[0]!;
    expect([trie.nodes[x + FIRST_PREFIX], trie.nodes[x + FIRST_EXACT], wildOf(trie, x)]).toEqual([
      0,
      3,
      [2, 4],
    ]);
  });

  it('splits an edge where a new prefix leaves it', () => {
    const trie = new RadixTrie(['/products/a', '/private'], [Prefix, Prefix], 99);
    expect(shape(trie)).toEqual([
      '',
      [],
      [
        [
          '/pr',
          [],
          [
            ['ivate', [1], []],
            ['oducts/a', [0], []],
          ],
        ],
      ],
    ]);
  });

  it('reuses its arrays for the next trie with no trace of the last one', () => {
    // Its nodes take the same places as the next trie's, with other rules and children.
    new RadixTrie(['/f', '/g', '/h', '/z/a'], [Wildcard, Wildcard, Exact, Prefix], 99);
    const trie = new RadixTrie(['/z', '/y'], [Prefix, Wildcard], 99);
    expect(shape(trie)).toEqual([
      '',
      [],
      [
        [
          '/',
          [],
          [
            ['y', [1], []],
            ['z', [0], []],
          ],
        ],
      ],
    ]);
  });
});

describe('RadixTrie min ranks', () => {
  it('gives every node the best rank in its subtree and lists parents before children', () => {
    const trie = new RadixTrie(['/a/b', '/a', '/c'], [Prefix, Prefix, Prefix], 99);
    const order = Array.from(trie.order.subarray(0, trie.size));
    expect(order[0]).toBe(0);
    expect(order).toHaveLength(5);
    expect(trie.nodes[MIN_RANK]).toBe(0);
    for (const n of order)
      for (const c of childrenOf(trie, n)) expect(order.indexOf(c)).toBeGreaterThan(order.indexOf(n));
    const a = childrenOf(trie, childrenOf(trie, 0)[0]!)[0]!;
    expect([keyOf(trie, a), trie.nodes[a + MIN_RANK]]).toEqual(['/a', 0]);
    const c = childrenOf(trie, childrenOf(trie, 0)[0]!)[1]!;
    expect([keyOf(trie, c), trie.nodes[c + MIN_RANK]]).toEqual(['/c', 2]);
  });
});
