import type { Database, Statement } from 'better-sqlite3';

/**
 * An INSERT whose rows are written ROWS_PER_STATEMENT per statement: for rows of a few hundred bytes,
 * running a statement (binding, stepping, resetting) costs about as much as storing its row. Rows of one
 * statement get their rowids in order, as if inserted one by one.
 */

/** Rows written by one statement. */
export const ROWS_PER_STATEMENT = 32;

export class BatchedInsert {
  /** The values of the rows not yet written, row after row: callers push a row's `width` values. */
  readonly queued: unknown[] = [];
  private readonly one: Statement;
  private readonly many: Statement;
  private readonly full: number;

  /** `insert`: `INSERT … INTO table (columns) VALUES`, to be followed by the rows' placeholders. */
  constructor(
    db: Database,
    insert: string,
    private readonly width: number,
  ) {
    const row = `(${Array.from({ length: width }, () => '?').join(', ')})`;
    this.one = db.prepare(`${insert} ${row}`);
    this.many = db.prepare(`${insert} ${Array.from({ length: ROWS_PER_STATEMENT }, () => row).join(', ')}`);
    this.full = ROWS_PER_STATEMENT * width;
  }

  /** Writes the queued rows once they fill a statement; returns how many rows were inserted. */
  writeIfFull(): number {
    return this.queued.length >= this.full ? this.write() : 0;
  }

  /** Writes every queued row; returns how many were inserted (an OR IGNORE insert skips some). */
  write(): number {
    const q = this.queued;
    let changes = 0;
    if (q.length === this.full) changes = this.many.run(q).changes;
    else
      for (let i = 0; i < q.length; i += this.width)
        changes += this.one.run(q.slice(i, i + this.width)).changes;
    q.length = 0;
    return changes;
  }

  /** Forgets the queued rows (their transaction is rolled back). */
  clear(): void {
    this.queued.length = 0;
  }
}
