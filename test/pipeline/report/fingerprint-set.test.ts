import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FingerprintSet, hashPair } from '../../../src/pipeline/report/fingerprint-set.js';

describe('FingerprintSet', () => {
  it('answers as a Set of the pairs does, through its growth', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: -4, max: 4 }), fc.integer({ min: -3, max: 3 })), {
          maxLength: 200,
        }),
        (pairs) => {
          const set = new FingerprintSet(10, 2);
          const truth = new Set<string>();
          for (const [a, b] of pairs) {
            // (0, 0) and (0, 1) are one fingerprint: (0, 0) marks an empty slot.
            const key = a === 0 && b === 0 ? '0,1' : `${a},${b}`;
            expect(set.add(a, b)).toBe(!truth.has(key));
            truth.add(key);
          }
          expect(set.size).toBe(truth.size);
          expect(set.exact).toBe(true);
        },
      ),
    );
  });

  it('starts over once full, and says so', () => {
    const set = new FingerprintSet(3, 3);
    for (let i = 1; i <= 6; i++) set.add(i, i);
    expect(set.exact).toBe(false);
    expect(set.add(1, 1)).toBe(true);
  });

  it('hashes strings into two halves that differ for near strings', () => {
    const a = new Int32Array(2);
    const b = new Int32Array(2);
    hashPair('https://a.example', a);
    hashPair('https://b.example', b);
    expect([a[0] === b[0], a[1] === b[1]]).toEqual([false, false]);
  });
});
