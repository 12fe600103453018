/** Records per generation; two generations are kept, so between `CAPACITY` and twice that are remembered. */
const CAPACITY = 1 << 16;
/** Open addressing at load ≤ 1/2. */
const SLOTS = CAPACITY * 2;
/** Host bytes per generation (32 per host on average before the generation is full). */
const ARENA_BYTES = CAPACITY * 32;
/** Longer hosts are not remembered here (DNS names end at 253). */
const MAX_HOST = 255;
/** The id `delete` leaves on a record: the origin is not in the table. */
const FORGOTTEN = 0xff;

/** One table of origins and their small ids, with the host bytes it compares keys against. */
class Generation {
  /** Record index + 1 per slot; 0 is empty. */
  readonly slotRec = new Int32Array(SLOTS);
  readonly slotHash = new Uint32Array(SLOTS);
  /** Per record: port << 9 | scheme << 8 | id. */
  readonly meta = new Int32Array(CAPACITY);
  readonly off = new Uint32Array(CAPACITY);
  readonly len = new Uint8Array(CAPACITY);
  readonly arena = new Uint8Array(ARENA_BYTES);
  count = 0;
  used = 0;

  clear(): void {
    this.slotRec.fill(0);
    this.count = 0;
    this.used = 0;
  }

  /** The record of the origin, or -1. */
  find(h: number, key: number, host: string): number {
    const mask = SLOTS - 1;
    for (let s = h & mask; ; s = (s + 1) & mask) {
      const r = this.slotRec[s]! - 1;
      if (r < 0) return -1;
      if (this.slotHash[s] === h && (this.meta[r]! & ~0xff) === key && this.sameHost(r, host)) return r;
    }
  }

  private sameHost(r: number, host: string): boolean {
    const n = host.length;
    if (this.len[r] !== n) return false;
    const a = this.arena;
    const o = this.off[r]!;
    for (let i = 0; i < n; i++) if (a[o + i] !== host.charCodeAt(i)) return false;
    return true;
  }

  /** False when this generation is full (records or host bytes). */
  add(h: number, key: number, host: string, id: number): boolean {
    const n = host.length;
    if (this.count === CAPACITY || this.used + n > ARENA_BYTES) return false;
    const r = this.count++;
    this.meta[r] = key | id;
    this.off[r] = this.used;
    this.len[r] = n;
    for (let i = 0; i < n; i++) this.arena[this.used + i] = host.charCodeAt(i);
    this.used += n;
    const mask = SLOTS - 1;
    let s = h & mask;
    while (this.slotRec[s] !== 0) s = (s + 1) & mask;
    this.slotRec[s] = r + 1;
    this.slotHash[s] = h;
    return true;
  }

  setId(r: number, id: number): void {
    this.meta[r] = (this.meta[r]! & ~0xff) | id;
  }
}

function idOf(meta: number): number {
  const id = meta & 0xff;
  return id === FORGOTTEN ? -1 : id;
}

/** The hash of an origin: FNV-1a of the host, then its port and scheme, finished by a mixer. */
function hashOrigin(host: string, key: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < host.length; i++) {
    h ^= host.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h = Math.imul(h ^ key, 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h >>> 0;
}

/**
 * Origins whose every row gets the same verdict text (no robots.txt, or not cached: allowed, no counter
 * to keep), each as a small id: typed arrays and a byte arena hold them, not an object and strings per
 * origin, so a frontier of millions of distinct hosts without files creates no garbage that outlives a
 * batch. Keys are compared in full (no false hit). Two generations: when the current one is full the
 * previous one is dropped at once; a hit in the previous one is copied forward, so origins in use stay.
 */
export class FixedOrigins {
  private current = new Generation();
  private previous = new Generation();

  /** The id remembered for the origin, or -1. */
  get(scheme: 'http' | 'https', host: string, port: number): number {
    const key = port * 512 + (scheme === 'https' ? 256 : 0);
    const h = hashOrigin(host, key);
    const cur = this.current;
    const r = cur.find(h, key, host);
    if (r >= 0) return idOf(cur.meta[r]!);
    if (this.previous.count === 0) return -1;
    const q = this.previous.find(h, key, host);
    if (q < 0) return -1;
    const id = this.previous.meta[q]! & 0xff;
    this.insert(h, key, host, id);
    return idOf(id);
  }

  /** Remembers the origin's id (0..254); a host this table cannot hold is not remembered. */
  set(scheme: 'http' | 'https', host: string, port: number, id: number): void {
    if (host.length > MAX_HOST) return;
    for (let i = 0; i < host.length; i++) if (host.charCodeAt(i) > 0xff) return;
    const key = port * 512 + (scheme === 'https' ? 256 : 0);
    const h = hashOrigin(host, key);
    const r = this.current.find(h, key, host);
    if (r >= 0) this.current.setId(r, id);
    else this.insert(h, key, host, id);
  }

  /** Forgets the origin (its policy is no longer a fixed one). */
  delete(scheme: 'http' | 'https', host: string, port: number): void {
    const key = port * 512 + (scheme === 'https' ? 256 : 0);
    const h = hashOrigin(host, key);
    for (const g of [this.current, this.previous]) {
      const r = g.find(h, key, host);
      if (r >= 0) g.setId(r, FORGOTTEN);
    }
  }

  private insert(h: number, key: number, host: string, id: number): void {
    if (this.current.add(h, key, host, id)) return;
    const spare = this.previous;
    spare.clear();
    this.previous = this.current;
    this.current = spare;
    this.current.add(h, key, host, id);
  }
}
