import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TopCounter } from '../../../src/pipeline/figures/top-counter.js';

describe('TopCounter', () => {
  it('is exact while it holds every key', () => {
    const t = new TopCounter(10);
    for (const [k, n] of [
      ['a', 3],
      ['b', 5],
      ['a', 4],
      ['c', 1],
    ] as const)
      t.add(k, n);
    expect(t.top(2)).toEqual([
      { key: 'a', count: 7 },
      { key: 'b', count: 5 },
    ]);
    expect(t.dropBound).toBe(0);
  });

  it('keeps the tag of a key and lists the keys of one tag', () => {
    const t = new TopCounter(10);
    t.add('allow', 2, 1);
    t.add('deny', 3, 0);
    t.add('allow', 5, 1);
    t.add('other', 1, 1);
    expect(t.top(10, 1)).toEqual([
      { key: 'allow', count: 7 },
      { key: 'other', count: 1 },
    ]);
    expect(t.top(10, 0)).toEqual([{ key: 'deny', count: 3 }]);
    expect(t.top(1)).toEqual([{ key: 'allow', count: 7 }]);
  });

  it('keeps memory bounded and the heavy hitters on top, with an error bound', () => {
    const t = new TopCounter(5);
    for (let i = 0; i < 1000; i++) t.add(`k${i}`, 1);
    for (let r = 0; r < 50; r++) t.add('hot', 10);
    expect(t.top(1)[0]!.key).toBe('hot');
    expect(t.top(1)[0]!.count).toBeLessThanOrEqual(500);
    expect(t.top(1)[0]!.count).toBeGreaterThanOrEqual(500 - t.dropBound);
    expect(t.dropBound).toBeGreaterThan(0);
  });

  it('prunes to the same keys as sorting by count, the first held winning ties', () => {
    // Reference: the stable sort of every held entry by count, cut at `capacity`.
    const model = (capacity: number, adds: [string, number][]) => {
      const counts = new Map<string, number>();
      let dropBound = 0;
      for (const [k, n] of adds) {
        counts.set(k, (counts.get(k) ?? 0) + n);
        if (counts.size <= 2 * capacity) continue;
        const sorted = [...counts].sort((a, b) => b[1] - a[1]);
        for (const [key, c] of sorted.slice(capacity)) {
          dropBound = Math.max(dropBound, c);
          counts.delete(key);
        }
      }
      return { counts, dropBound };
    };
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 1, max: 4 })), {
          maxLength: 300,
        }),
        (capacity, raw) => {
          const adds = raw.map(([k, n]) => [`k${k}`, n] as [string, number]);
          const t = new TopCounter(capacity);
          for (const [k, n] of adds) t.add(k, n);
          const want = model(capacity, adds);
          const all = t.top(1_000);
          expect(new Map(all.map((e) => [e.key, e.count]))).toEqual(want.counts);
          expect(t.dropBound).toBe(want.dropBound);
        },
      ),
      { numRuns: 300 },
    );
  });
});
