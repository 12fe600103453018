import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ageBucket, type History, pickVersion, versionAt } from '../../src/workers/history.js';
import type { OriginEntry } from '../../src/workers/origin-store.js';

/** A history of `from` times (sorted) with last-seen times, and no entries (only times are read here). */
function history(from: number[], seenAfter: number[], unresolved: boolean[]): History {
  return {
    from: Float64Array.from(from),
    lastSeen: Float64Array.from(from.map((f, i) => f + seenAfter[i]!)),
    versions: [] as OriginEntry[],
    unresolved: Uint8Array.from(unresolved.map((u) => (u ? 1 : 0))),
  };
}

describe('history', () => {
  it('picks the version a scan of every version would pick, or the reason there is none (property)', () => {
    fc.assert(
      fc.property(
        fc
          .uniqueArray(fc.integer({ min: 0, max: 1000 }), { maxLength: 12 })
          .map((a) => a.sort((x, y) => x - y)),
        fc.array(fc.integer({ min: 0, max: 300 }), { minLength: 12, maxLength: 12 }),
        fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }),
        fc.integer({ min: -50, max: 1400 }),
        fc.oneof(fc.constant(Number.POSITIVE_INFINITY), fc.integer({ min: 0, max: 400 })),
        (from, seen, unresolved, t, maxAge) => {
          const h = history(from, seen, unresolved.slice(0, from.length));
          let brute = -1;
          for (let v = 0; v < from.length; v++) if (from[v]! <= t) brute = v;
          expect(versionAt(h, t)).toBe(brute);
          const picked = pickVersion(h, t, maxAge);
          if (from.length === 0) expect(picked).toBe('no_versions');
          else if (brute < 0) expect(picked).toBe('before_first_version');
          else if (Math.max(0, t - (from[brute]! + seen[brute]!)) > maxAge) expect(picked).toBe('too_old');
          else if (unresolved[brute]) expect(picked).toBe('redirect_unresolved');
          else expect(picked).toBe(brute);
        },
      ),
    );
  });

  it('buckets ages by whole days, a day itself in the first bucket', () => {
    const day = 86_400_000;
    expect([0, day, day + 1, 7 * day, 30 * day + 1, 365 * day, 366 * day].map(ageBucket)).toEqual([
      0, 0, 1, 1, 3, 3, 4,
    ]);
  });
});
