/**
 * A copy of `s` that holds no reference to the text it was cut from. V8 keeps a whole parent string
 * alive for every slice of it: a cell kept past its batch (a waiting row, a counter's key) would keep
 * the file's chunk it came from.
 */
export function detached(s: string): string {
  // V8 copies slices this short anyway.
  return s.length < 13 ? s : Buffer.from(s, 'latin1').toString('latin1');
}
