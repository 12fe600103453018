import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TopCounter } from '../../../src/pipeline/figures/top-counter.js';

describe('TopCounter', () => {
  it('is exact while it holds every key', () => {
    const t = new TopCounter<string>(10);
    for (const [k, n] of [
      ['a', 3],
      ['b', 5],
      ['a', 4],
      ['c', 1],
    ] as const)
      t.add(k, k, n);
    expect(t.top(2)).toEqual([
      { item: 'a', count: 7 },
      { item: 'b', count: 5 },
    ]);
    expect(t.dropBound).toBe(0);
  });

  it('keeps memory bounded and the heavy hitters on top, with an error bound', () => {
    const t = new TopCounter<string>(5);
    for (let i = 0; i < 1000; i++) t.add(`k${i}`, `k${i}`, 1);
    for (let r = 0; r < 50; r++) t.add('hot', 'hot', 10);
    expect(t.top(1)[0]!.item).toBe('hot');
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
          const t = new TopCounter<string>(capacity);
          for (const [k, n] of adds) t.add(k, k, n);
          const want = model(capacity, adds);
          const all = t.top(1_000);
          expect(new Map(all.map((e) => [e.item, e.count]))).toEqual(want.counts);
          expect(t.dropBound).toBe(want.dropBound);
        },
      ),
      { numRuns: 300 },
    );
  });
});
