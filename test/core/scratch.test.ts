import { describe, expect, it } from 'vitest';
import { Scratch } from '../../src/core/scratch.js';

describe('Scratch', () => {
  it('gives the kept array while it is long enough, and keeps a longer one up to its limit', () => {
    const s = new Scratch((n) => new Int32Array(n), 4, 64);
    const first = s.get(3);
    expect(first).toHaveLength(4);
    expect(s.get(4)).toBe(first);
    // Grown by doubling, then kept for the next calls.
    const grown = s.get(5);
    expect(grown).toHaveLength(8);
    expect(s.get(2)).toBe(grown);
    expect(s.get(40)).toHaveLength(40);
    expect(s.get(40)).toBe(s.get(1));
  });

  it('does not keep an array past its limit, nor double past it', () => {
    const s = new Scratch((n) => new Float64Array(n), 48, 64);
    // Doubling 48 would pass the limit: only what is asked for beyond it.
    expect(s.get(60)).toHaveLength(64);
    const outsized = s.get(100);
    expect(outsized).toHaveLength(100);
    expect(s.get(100)).not.toBe(outsized);
    expect(s.get(64)).toHaveLength(64);
  });
});
