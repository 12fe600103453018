/**
 * A set of 64-bit fingerprints (two 32-bit halves) in typed arrays: no object per member, so counting
 * distinct keys costs no garbage. Open addressing; it doubles up to `maxBits` slots, and once that is 70 %
 * full it starts over empty (`exact` then false: a key seen before counts again).
 */
export class FingerprintSet {
  private lo: Int32Array;
  private hi: Int32Array;
  private mask: number;
  size = 0;
  exact = true;
  /** Times the set started over. */
  generation = 0;

  constructor(
    private readonly maxBits = 22,
    startBits = 12,
  ) {
    const bits = Math.min(startBits, maxBits);
    this.lo = new Int32Array(1 << bits);
    this.hi = new Int32Array(1 << bits);
    this.mask = (1 << bits) - 1;
  }

  /** Adds the fingerprint (a, b); true when it was not there. */
  add(a: number, b: number): boolean {
    const x = a | 0;
    let y = b | 0;
    // (0, 0) marks an empty slot.
    if (x === 0 && y === 0) y = 1;
    const lo = this.lo;
    const hi = this.hi;
    let i = (x ^ (y >>> 7)) & this.mask;
    for (;;) {
      const u = lo[i]!;
      const v = hi[i]!;
      if (u === x && v === y) return false;
      if (u === 0 && v === 0) break;
      i = (i + 1) & this.mask;
    }
    lo[i] = x;
    hi[i] = y;
    this.size++;
    if (this.size * 10 > (this.mask + 1) * 7) this.grow();
    return true;
  }

  private grow(): void {
    const slots = this.mask + 1;
    if (slots >= 1 << this.maxBits) {
      this.lo.fill(0);
      this.hi.fill(0);
      this.size = 0;
      this.exact = false;
      this.generation++;
      return;
    }
    const oldLo = this.lo;
    const oldHi = this.hi;
    this.lo = new Int32Array(slots * 2);
    this.hi = new Int32Array(slots * 2);
    this.mask = slots * 2 - 1;
    this.size = 0;
    for (let i = 0; i < slots; i++) {
      if (oldLo[i] !== 0 || oldHi[i] !== 0) this.add(oldLo[i]!, oldHi[i]!);
    }
  }
}

/** Two independent 32-bit hashes of a string's char codes (FNV-1a, and a multiply-rotate one). */
export function hashPair(s: string, out: Int32Array): void {
  hashPairRange(s, 0, s.length, out);
}

/** hashPair of `s.slice(start, end)`, without the slice. */
export function hashPairRange(s: string, start: number, end: number, out: Int32Array): void {
  let a = 0x811c9dc5;
  let b = 0x9e3779b9;
  for (let i = start; i < end; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul((b << 5) | (b >>> 27), 0x2545f491) ^ c;
  }
  out[0] = a;
  out[1] = Math.imul(b ^ (b >>> 15), 0x85ebca6b) ^ (end - start);
}
