import { describe, expect, it } from 'vitest';
import { arrayOf } from '../../src/core/array-of.js';

describe('arrayOf', () => {
  it('holds f(i) at each index i, n of them', () => {
    const seen: number[] = [];
    const out = arrayOf(4, (i) => {
      seen.push(i);
      return `v${i}`;
    });
    expect(out).toEqual(['v0', 'v1', 'v2', 'v3']);
    expect(seen).toEqual([0, 1, 2, 3]);
    expect(arrayOf(0, () => 1)).toEqual([]);
  });
});
