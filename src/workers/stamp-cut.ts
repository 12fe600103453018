/**
 * Which stamps to drop to forget `want` of the given items, least recently used first, without sorting
 * them: stamps are small integers (one per unit of work), so a count per stamp finds the cut in linear
 * time. Items with a stamp below `below` go; of those at `below` itself, `atBelow` go.
 */
export function stampCut(
  stamps: Int32Array,
  count: number,
  want: number,
): { below: number; atBelow: number } {
  if (count === 0 || want <= 0) return { below: -1, atBelow: 0 };
  let min = stamps[0]!;
  let max = min;
  for (let i = 1; i < count; i++) {
    const s = stamps[i]!;
    if (s < min) min = s;
    else if (s > max) max = s;
  }
  const perStamp = new Int32Array(max - min + 1);
  for (let i = 0; i < count; i++) perStamp[stamps[i]! - min]!++;
  let left = Math.min(want, count);
  for (let k = 0; k < perStamp.length; k++) {
    const n = perStamp[k]!;
    if (n >= left) return { below: min + k, atBelow: left };
    left -= n;
  }
  return { below: max + 1, atBelow: 0 };
}
