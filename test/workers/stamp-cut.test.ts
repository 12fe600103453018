import { describe, expect, it } from 'vitest';
import { stampCut } from '../../src/workers/stamp-cut.js';

/** What a stable sort by stamp would drop first: the `want` least recent, ties in order given. */
function bySort(stamps: number[], want: number): number[] {
  return stamps
    .map((s, i) => [s, i] as const)
    .sort((a, b) => a[0] - b[0])
    .slice(0, want)
    .map(([, i]) => i)
    .sort((a, b) => a - b);
}

function byCut(stamps: number[], want: number): number[] {
  const { below, atBelow } = stampCut(Int32Array.from(stamps), stamps.length, want);
  let at = atBelow;
  return stamps.flatMap((s, i) => (s < below || (s === below && at-- > 0) ? [i] : []));
}

describe('stampCut', () => {
  it('drops the same items a stable sort by stamp would, for any number wanted', () => {
    const stamps = [7, 3, 3, 9, 1, 3, 7, 7, 2, 9, 1, 5];
    for (let want = 0; want <= stamps.length + 1; want++)
      expect(byCut(stamps, want), `${want}`).toEqual(bySort(stamps, want));
  });

  it('drops nothing from nothing', () => {
    expect(byCut([], 3)).toEqual([]);
  });
});
