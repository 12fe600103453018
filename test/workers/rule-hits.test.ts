import { describe, expect, it } from 'vitest';
import { RuleHits } from '../../src/workers/rule-hits.js';

describe('RuleHits', () => {
  for (const size of [10, 100_000]) {
    it(`counts hits per rule and resets on drain (${size} rules)`, () => {
      const h = new RuleHits(size);
      expect(h.empty).toBe(true);
      for (const idx of [3, 7, 3, 3, 9]) h.add(idx);
      expect(h.empty).toBe(false);
      expect(h.drain().sort((a, b) => a[0] - b[0])).toEqual([
        [3, 3],
        [7, 1],
        [9, 1],
      ]);
      expect(h.empty).toBe(true);
      h.add(7);
      expect(h.drain()).toEqual([[7, 1]]);
    });
  }

  for (const size of [40, 100_000]) {
    it(`keeps counts and first-hit order past the short list (${size} rules)`, () => {
      const h = new RuleHits(size);
      const order = [5, 2, 11, 0, 30, 7, 19, 3, 25, 1, 12];
      for (const idx of order) h.add(idx);
      h.add(11);
      h.add(25);
      h.add(25);
      expect(h.drain()).toEqual(order.map((idx) => [idx, idx === 11 ? 2 : idx === 25 ? 3 : 1]));
      expect(h.empty).toBe(true);
      h.add(30);
      h.add(30);
      expect(h.drain()).toEqual([[30, 2]]);
    });
  }
});
