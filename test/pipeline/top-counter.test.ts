import { describe, expect, it } from 'vitest';
import { TopCounter } from '../../src/pipeline/top-counter.js';

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
});
