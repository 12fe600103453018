import { type BigIntStats, opendirSync, statSync } from 'node:fs';

/** Names kept at most (a table of 6–12 bytes per name); a larger directory is not listed. */
const MAX_NAMES = 1 << 20;
/** Listings read again after the directory changed, at most; then every name is looked up. */
const MAX_RELISTS = 16;

/** FNV-1a of a name's lowercase form, never 0 (the empty slot). */
function hashName(name: string): number {
  const s = name.toLowerCase();
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0 || 1;
}

/**
 * The names in a `--robots-dir`, as a set of hashes of their lowercase form: a name whose hash is
 * absent is surely not in the directory (on a case-insensitive file system too), so an origin without
 * a file costs a hash instead of a stat, which was most of the CPU of a frontier of distinct hosts. A
 * hash present (maybe a collision) means: look the file up. The listing is read again when the
 * directory's mtime has changed (checked by `refresh`), so files added during a run are found.
 */
export class DirNames {
  /** Open addressing, load ≤ 2/3; null: no listing (too large, unreadable, or changing too often). */
  private table: Uint32Array | null = null;
  private mask = 0;
  private mtimeNs = -1n;
  private relists = 0;

  constructor(private readonly root: string) {
    this.refresh();
  }

  /** Reads the listing again if the directory changed since it was read. */
  refresh(): void {
    if (this.relists > MAX_RELISTS) return;
    let st: BigIntStats | undefined;
    try {
      st = statSync(this.root, { bigint: true, throwIfNoEntry: false });
    } catch {}
    const mtimeNs = st?.mtimeNs ?? -2n;
    if (mtimeNs === this.mtimeNs) return;
    // Stat first, then list: a change made while listing shows as a newer mtime next time.
    this.mtimeNs = mtimeNs;
    if (++this.relists > MAX_RELISTS) this.table = null;
    else this.table = st === undefined ? null : this.list();
  }

  private list(): Uint32Array | null {
    const hashes: number[] = [];
    try {
      const dir = opendirSync(this.root, { bufferSize: 256 });
      try {
        for (let e = dir.readSync(); e !== null; e = dir.readSync()) {
          if (hashes.length === MAX_NAMES) return null;
          hashes.push(hashName(e.name));
        }
      } finally {
        dir.closeSync();
      }
    } catch {
      return null;
    }
    let size = 16;
    // Every thread that reads the directory holds its own table, all of it touched (hashes land anywhere).
    while (size < hashes.length * 1.5) size *= 2;
    const table = new Uint32Array(size);
    this.mask = size - 1;
    for (const h of hashes) {
      let i = h & this.mask;
      while (table[i] !== 0 && table[i] !== h) i = (i + 1) & this.mask;
      table[i] = h;
    }
    return table;
  }

  /** False only when no file of this name (in any letter case) was in the directory. */
  mayHold(name: string): boolean {
    if (this.table === null) return true;
    return this.holds(hashName(name));
  }

  /**
   * `mayHold(head.slice(0, len) + suffix)` without building the name, for ASCII names (a host and
   * `.txt`): the hash of an origin with no file was most of a frontier's cost once no stat was made.
   */
  mayHoldJoined(head: string, len: number, suffix: string): boolean {
    if (this.table === null) return true;
    let h = 0x811c9dc5;
    for (let i = 0; i < len + suffix.length; i++) {
      let c = i < len ? head.charCodeAt(i) : suffix.charCodeAt(i - len);
      // Beyond ASCII, lowercasing is Unicode's: let toLowerCase do it.
      if (c >= 0x80) return this.mayHold(head.slice(0, len) + suffix);
      if (c >= 65 && c <= 90) c += 32;
      h ^= c;
      h = Math.imul(h, 0x01000193);
    }
    return this.holds(h >>> 0 || 1);
  }

  private holds(h: number): boolean {
    const table = this.table!;
    for (let i = h & this.mask; table[i] !== 0; i = (i + 1) & this.mask) if (table[i] === h) return true;
    return false;
  }
}
