import type Database from 'better-sqlite3';
import { deferIndexes, OBSERVATION_INDEXES, restoreIndexes } from '../cache/schema.js';
import { BatchedInsert } from './batched-insert.js';
import type { Capture } from './capture.js';
import { type RebuildStats, rebuildQueued } from './rebuild-queued.js';

export type { RebuildStats };

/**
 * Archive captures into the cache's observations, and each touched origin's versions rebuilt from all of
 * its observations. Live-fetched versions take part: before an origin is rebuilt, every version whose
 * first sighting (valid_from) or last confirmation (fetched_at) has no observation at that time becomes a
 * `fetch` observation there, with the version's evidence. Rebuilt versions have an observation at both
 * times, so importing again adds nothing and rebuilds the same versions.
 */

/** Distinct bodies remembered as written, which bounds the memory of the check. */
const MAX_BODIES_REMEMBERED = 1_000_000;
/** The values an observations row is written with, per capture. */
const VALUES_PER_ROW = 19;

export class ObservationStore {
  private readonly insertObs: BatchedInsert;
  /** Observations written since `begin` that were new (a capture already stored is ignored). */
  private added = 0;
  private readonly insertBody;
  private readonly lastId: Database.Statement;
  private readonly queueNew: Database.Statement;
  private readonly beginTx: Database.Statement;
  private readonly commitTx: Database.Statement;
  private readonly rollbackTx: Database.Statement;
  /** Bodies this store has written (a committed batch's bodies stay written). */
  private readonly bodiesStored = new Set<string>();
  /** The largest observation id when the open transaction began: rows after it are the transaction's. */
  private idBefore = 0;

  constructor(readonly db: Database.Database) {
    // An import writes far more than a fetch run: checkpoint every 64 MiB of WAL, not every 4 MiB.
    db.pragma('wal_autocheckpoint = 16384');
    // A run killed after deferIndexes left observations without them.
    this.restoreIndexes();
    this.insertObs = new BatchedInsert(
      db,
      `INSERT OR IGNORE INTO observations (origin, uri, captured_at, source, kind, outcome, status, error_code,
         sha256, bytes, truncated, etag, last_modified, final_url, location, payload_digest, refers_to_uri,
         refers_to_date, expires_at) VALUES`,
      VALUES_PER_ROW,
    );
    this.insertBody = db.prepare('INSERT OR IGNORE INTO bodies (sha256, body) VALUES (?, ?)');
    this.lastId = db.prepare('SELECT coalesce(max(id), 0) FROM observations').pluck();
    // The origins of a transaction's new observations, queued in one statement before it commits.
    this.queueNew = db.prepare(
      'INSERT OR IGNORE INTO rebuild_queue (origin) SELECT origin FROM observations WHERE id > ? AND origin IS NOT NULL',
    );
    this.beginTx = db.prepare('BEGIN IMMEDIATE');
    this.commitTx = db.prepare('COMMIT');
    this.rollbackTx = db.prepare('ROLLBACK');
  }

  /**
   * Stores one capture inside the transaction `begin` opened (its origin queued by `commit`). Its body is
   * written now; its observation with the next captures (see BatchedInsert), or at `commit`.
   */
  addOne(c: Capture): void {
    // Many sites serve the same file: each body crosses into SQLite once per run.
    if (c.body !== null && c.sha256 !== null && !this.bodiesStored.has(c.sha256)) {
      this.insertBody.run(c.sha256, c.body);
      if (this.bodiesStored.size < MAX_BODIES_REMEMBERED) this.bodiesStored.add(c.sha256);
    }
    this.insertObs.queued.push(
      c.origin,
      c.uri,
      c.capturedAt,
      c.source,
      c.kind,
      c.outcome,
      c.status,
      c.errorCode,
      c.sha256,
      c.bytes,
      c.truncated ? 1 : 0,
      c.etag,
      c.lastModified,
      c.uri,
      c.location,
      c.payloadDigest,
      c.refersToUri,
      c.refersToDate,
      c.capturedAt,
    );
    this.added += this.insertObs.writeIfFull();
  }

  /** Opens the write transaction captures are added in, one by one, as they are read. */
  begin(): void {
    this.beginTx.run();
    this.insertObs.clear();
    this.added = 0;
    // A new row's id is one more than the largest: every row added from here on has a larger one.
    this.idBefore = this.lastId.get() as number;
  }

  /** Queues the origins of the transaction's new observations, then commits; returns how many were new. */
  commit(): number {
    this.added += this.insertObs.write();
    this.queueNew.run(this.idBefore);
    this.commitTx.run();
    return this.added;
  }

  /** Drops what was added since `begin`, if a transaction is open. */
  rollback(): void {
    this.insertObs.clear();
    if (this.db.inTransaction) this.rollbackTx.run();
  }

  /**
   * Drops the secondary indexes of observations when the table is empty (see schema's deferIndexes). The
   * rebuild creates them again before it reads, and so does the next store opened on the file if this
   * process dies first. True when they were dropped.
   */
  deferIndexes(): boolean {
    return deferIndexes(this.db, 'observations', OBSERVATION_INDEXES);
  }

  /** Creates the indexes that deferIndexes (or a rebuild) dropped, with the schema's own SQL. */
  restoreIndexes(): void {
    restoreIndexes(this.db);
  }

  /** Stores captures in one transaction; returns how many were new (a capture already stored is skipped). */
  add(captures: Capture[]): number {
    if (captures.length === 0) return 0;
    this.begin();
    try {
      for (const c of captures) this.addOne(c);
      return this.commit();
    } catch (err) {
      this.rollback();
      throw err;
    }
  }

  /** Rebuilds the versions of every queued origin, and of every origin a revisit or redirect may now settle. */
  rebuildQueued(onProgress: (done: number) => void = () => {}): RebuildStats {
    this.restoreIndexes();
    return rebuildQueued(this.db, onProgress);
  }
}
