import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { detached } from './detached.js';
import type { VerdictRow } from './verdict-reader.js';

/**
 * Pairs the rows of two files by key in flat memory. Rows wait in a bounded in-memory table until
 * the other file's row of the same key arrives (files in about the same order pair there, at once);
 * past the budget the oldest waiting rows of both files go to a temporary SQLite file, where the rest
 * are paired by key at the end. A key seen several times pairs occurrences in file order (first with
 * first); the surplus of either file is counted as rows only in that file.
 */

export const OLD = 0;
export const NEW = 1;
export type Side = typeof OLD | typeof NEW;

export type PairHandler = (o: VerdictRow, n: VerdictRow) => void;

/** Default number of rows held waiting in memory (both files together). */
export const MEMORY_ROWS = 20_000;

/** Rows waiting, by key: each packed as JSON (`[record, input, ...cells]`), one string per row. */
type Waiting = Map<string, string | string[]>;

const SPILL_PREFIX = 'robots-audit-diff-';

/** Removes the spill directories of runs whose process no longer exists (SIGKILL, out of memory). */
function removeStaleSpills(dir: string): void {
  let names: string[] = [];
  try {
    names = readdirSync(dir).filter((n) => n.startsWith(SPILL_PREFIX));
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number.parseInt(name.slice(SPILL_PREFIX.length), 10);
    if (!Number.isInteger(pid) || pid === process.pid || alive(pid)) continue;
    rmSync(path.join(dir, name), { recursive: true, force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but is another user's.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function pack(side: Side, row: VerdictRow): string {
  // OLD's input columns are never written: only NEW's rows are.
  return JSON.stringify([row.record, side === OLD ? '' : row.input, ...row.cells]);
}

export class KeyMatcher {
  private readonly waiting: [Waiting, Waiting] = [new Map(), new Map()];
  private held = 0;
  private db: Database.Database | null = null;
  private dir: string | null = null;
  private insert: Database.Statement | null = null;
  private seq = 0;
  only: [number, number] = [0, 0];
  spilled = 0;

  constructor(
    private readonly onPair: PairHandler,
    private readonly memoryRows = MEMORY_ROWS,
    private readonly tempDir = tmpdir(),
  ) {}

  add(side: Side, key: string, row: VerdictRow): void {
    const other = this.waiting[1 - side]!;
    const match = other.get(key);
    if (match !== undefined) {
      let partner: string;
      if (Array.isArray(match)) {
        partner = match.shift()!;
        if (match.length === 1) other.set(key, match[0]!);
      } else {
        partner = match;
        other.delete(key);
      }
      this.held--;
      if (side === OLD) this.onPair(row, unpack(partner));
      else this.onPair(unpack(partner), row);
      return;
    }
    const mine = this.waiting[side]!;
    const had = mine.get(key);
    const packed = pack(side, row);
    if (had === undefined) mine.set(detached(key), packed);
    else if (Array.isArray(had)) had.push(packed);
    else mine.set(key, [had, packed]);
    if (++this.held > this.memoryRows) this.spill(this.memoryRows >> 1);
  }

  private open(): Database.Database {
    if (this.db !== null) return this.db;
    removeStaleSpills(this.tempDir);
    this.dir = mkdtempSync(path.join(this.tempDir, `${SPILL_PREFIX}${process.pid}-`));
    const db = new Database(path.join(this.dir, 'pending.sqlite'));
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.pragma('cache_size = -16384');
    db.pragma('temp_store = FILE');
    db.exec('CREATE TABLE pending (side INTEGER, key TEXT, seq INTEGER, data TEXT)');
    this.insert = db.prepare('INSERT INTO pending VALUES (?, ?, ?, ?)');
    this.db = db;
    return db;
  }

  /** Moves the `n` longest-waiting rows (oldest keys first, both files) to SQLite. */
  private spill(n: number, all = false): void {
    const db = this.open();
    const insert = this.insert!;
    let left = n;
    db.transaction(() => {
      for (const side of [OLD, NEW] as const) {
        const map = this.waiting[side]!;
        const keys = this.waiting[0]!.size + this.waiting[1]!.size;
        let quota = all ? Number.POSITIVE_INFINITY : Math.ceil((left * map.size) / Math.max(1, keys));
        for (const [key, rows] of map) {
          if (quota <= 0) break;
          for (const packed of Array.isArray(rows) ? rows : [rows]) {
            insert.run(side, key, this.seq++, packed);
            this.held--;
            this.spilled++;
            quota--;
            left--;
          }
          map.delete(key);
        }
      }
    })();
  }

  /** Nothing is waiting: the next two rows of the same key pair with each other. */
  get idle(): boolean {
    return this.held === 0 && this.db === null;
  }

  /**
   * Pairs what is left: in SQLite when anything was spilled (both files' rows read in key order and
   * merged), else what waits is only in its file.
   */
  async finish(drain: () => Promise<void>): Promise<void> {
    if (this.db === null) {
      for (const side of [OLD, NEW] as const) {
        for (const rows of this.waiting[side]!.values()) {
          this.only[side] += Array.isArray(rows) ? rows.length : 1;
        }
      }
      return;
    }
    this.spill(this.held, true);
    // No index: each side is sorted by SQLite's external sorter and read in order, never looked up row by row.
    // A second connection reads NEW's rows while the first reads OLD's (one connection runs one query).
    const other = new Database(this.db.name, { readonly: true });
    try {
      const query = 'SELECT key, data FROM pending WHERE side = ? ORDER BY key, seq';
      const olds = this.db.prepare(query).iterate(OLD) as IterableIterator<KeyedData>;
      const news = other.prepare(query).iterate(NEW) as IterableIterator<KeyedData>;
      let paired = 0;
      let o = olds.next();
      let n = news.next();
      while (!o.done && !n.done) {
        // SQLite orders TEXT by its UTF-8 bytes: for latin1 keys that is the order of JS strings too.
        if (o.value.key < n.value.key) {
          this.only[OLD]++;
          o = olds.next();
        } else if (o.value.key > n.value.key) {
          this.only[NEW]++;
          n = news.next();
        } else {
          this.onPair(unpack(o.value.data), unpack(n.value.data));
          if (++paired % 1024 === 0) await drain();
          o = olds.next();
          n = news.next();
        }
      }
      for (; !o.done; o = olds.next()) this.only[OLD]++;
      for (; !n.done; n = news.next()) this.only[NEW]++;
    } finally {
      other.close();
    }
  }

  /** Removes the temporary SQLite file. */
  close(): void {
    this.db?.close();
    this.db = null;
    if (this.dir !== null) rmSync(this.dir, { recursive: true, force: true });
    this.dir = null;
  }
}

interface KeyedData {
  key: string;
  data: string;
}

function unpack(data: string): VerdictRow {
  const [record, input, ...cells] = JSON.parse(data) as [number, string, ...string[]];
  return { record, input, cells };
}
