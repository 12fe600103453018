import { describe, expect, it } from 'vitest';
import { PatternKind } from '../../src/core/pattern.js';
import { type BuildNode, buildTrie, computeMinRank } from '../../src/core/radix-trie.js';

const { Prefix, Exact, Wildcard } = PatternKind;

/** The trie as nested [label, rules, children]: label = the node's part of its key. */
function shape(node: BuildNode, parentDepth = 0): unknown {
  const rules = [node.firstPrefix, node.firstExact, ...node.wild].filter((r) => r < 99);
  return [node.key.slice(parentDepth, node.depth), rules, node.children.map((c) => shape(c, node.depth))];
}

describe('buildTrie', () => {
  it('makes a radix trie: one node per distinct prefix or branch point, edges sorted by char', () => {
    const root = buildTrie(
      ['/ab', '/ac', '/a', '/abc', '/b', ''],
      [Prefix, Prefix, Exact, Wildcard, Prefix, Wildcard],
      99,
    );
    expect(shape(root)).toEqual([
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
    const root = buildTrie(['/x', '/x', '/x', '/x', '/x'], [Prefix, Prefix, Wildcard, Exact, Wildcard], 99);
    const x = root.children[0]!;
    expect([x.firstPrefix, x.firstExact, x.wild]).toEqual([0, 3, [2, 4]]);
  });

  it('splits an edge where a new prefix leaves it', () => {
    const root = buildTrie(['/products/a', '/private'], [Prefix, Prefix], 99);
    expect(shape(root)).toEqual([
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
});

describe('computeMinRank', () => {
  it('gives every node the best rank in its subtree and lists parents before children', () => {
    const root = buildTrie(['/a/b', '/a', '/c'], [Prefix, Prefix, Prefix], 99);
    const order = computeMinRank(root);
    expect(order[0]).toBe(root);
    expect(root.minRank).toBe(0);
    for (const n of order)
      for (const c of n.children) expect(order.indexOf(c)).toBeGreaterThan(order.indexOf(n));
    const a = root.children[0]!.children[0]!;
    expect([a.key.slice(0, a.depth), a.minRank]).toEqual(['/a', 0]);
  });
});
