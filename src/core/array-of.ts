/**
 * `[f(0), …, f(n - 1)]`, always a holey array: where `Array.prototype.map` made a packed one until its
 * caller was optimized and a holey one after (an optimized map allocates the whole array first), and every
 * function reading those arrays was compiled again for the other shape.
 */
export function arrayOf<T>(n: number, f: (i: number) => T): T[] {
  const out = new Array<T>(n);
  for (let i = 0; i < n; i++) out[i] = f(i);
  return out;
}
