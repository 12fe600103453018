import type Database from 'better-sqlite3';
import { OBSERVATION_INDEXES } from '../cache/schema.js';
import type { Capture } from './capture.js';
import { type Settled, versionsOf } from './rebuild-versions.js';
import { CaptureResolver, type ObservationRow } from './resolve-capture.js';

/**
 * Archive captures into the cache's observations, and each touched origin's versions rebuilt from all of
 * its observations. Live-fetched versions take part: before an origin is rebuilt, every version whose
 * first sighting (valid_from) or last confirmation (fetched_at) has no observation at that time becomes a
 * `fetch` observation there, with the version's evidence. Rebuilt versions have an observation at both
 * times, so importing again adds nothing and rebuilds the same versions.
 */

/** Distinct bodies remembered as written, which bounds the memory of the check. */
const MAX_BODIES_REMEMBERED = 1_000_000;
/** Origins rebuilt per transaction. */
const REBUILD_BATCH = 2048;

export interface RebuildStats {
  origins: number;
  versions: number;
  revisitsResolved: number;
  revisitsUnresolved: number;
  redirectsResolved: number;
  redirectsUnresolved: number;
  /** Why revisits found no capture to stand for, by reason (digests and URIs left out). */
  unresolvedReasons: Record<string, number>;
  /** The first unresolved revisits, with their source and reason. */
  unresolvedExamples: Array<{ source: string; reason: string }>;
}

/** The columns of an ObservationRow, in the order `observationRow` reads them. */
const OBSERVATION_COLUMNS = [
  'origin',
  'uri',
  'captured_at',
  'source',
  'kind',
  'outcome',
  'status',
  'error_code',
  'sha256',
  'bytes',
  'truncated',
  'etag',
  'last_modified',
  'final_url',
  'location',
  'payload_digest',
  'refers_to_uri',
  'refers_to_date',
  'expires_at',
] as const;

/** An observations row read as an array of OBSERVATION_COLUMNS. */
function observationRow(v: unknown[]): ObservationRow {
  return {
    origin: v[0],
    uri: v[1],
    captured_at: v[2],
    source: v[3],
    kind: v[4],
    outcome: v[5],
    status: v[6],
    error_code: v[7],
    sha256: v[8],
    bytes: v[9],
    truncated: v[10],
    etag: v[11],
    last_modified: v[12],
    final_url: v[13],
    location: v[14],
    payload_digest: v[15],
    refers_to_uri: v[16],
    refers_to_date: v[17],
    expires_at: v[18],
  } as ObservationRow;
}

export class ObservationStore {
  private readonly insertObs;
  private readonly insertBody;
  private readonly queue;
  private readonly addBatch: Database.Transaction<(captures: Capture[]) => number>;
  private readonly beginTx: Database.Statement;
  private readonly commitTx: Database.Statement;
  private readonly rollbackTx: Database.Statement;
  /** Bodies this store has written (a committed batch's bodies stay written). */
  private readonly bodiesStored = new Set<string>();

  constructor(readonly db: Database.Database) {
    // An import writes far more than a fetch run: checkpoint every 64 MiB of WAL, not every 4 MiB.
    db.pragma('wal_autocheckpoint = 16384');
    // A run killed after deferIndexes left observations without them.
    this.restoreIndexes();
    this.insertObs = db.prepare(
      `INSERT OR IGNORE INTO observations (origin, uri, captured_at, source, kind, outcome, status, error_code,
         sha256, bytes, truncated, etag, last_modified, final_url, location, payload_digest, refers_to_uri,
         refers_to_date, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.insertBody = db.prepare('INSERT OR IGNORE INTO bodies (sha256, body) VALUES (?, ?)');
    this.queue = db.prepare('INSERT OR IGNORE INTO rebuild_queue (origin) VALUES (?)');
    this.addBatch = db.transaction((captures: Capture[]) => {
      let added = 0;
      for (const c of captures) if (this.addOne(c)) added++;
      return added;
    });
    this.beginTx = db.prepare('BEGIN IMMEDIATE');
    this.commitTx = db.prepare('COMMIT');
    this.rollbackTx = db.prepare('ROLLBACK');
  }

  /** Stores one capture inside the transaction `begin` opened; true when it was new. */
  addOne(c: Capture): boolean {
    // Many sites serve the same file: each body crosses into SQLite once per run.
    if (c.body !== null && c.sha256 !== null && !this.bodiesStored.has(c.sha256)) {
      this.insertBody.run(c.sha256, c.body);
      if (this.bodiesStored.size < MAX_BODIES_REMEMBERED) this.bodiesStored.add(c.sha256);
    }
    const r = this.insertObs.run(
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
    if (r.changes === 0) return false;
    if (c.origin !== null) this.queue.run(c.origin);
    return true;
  }

  /** Opens the write transaction captures are added in, one by one, as they are read. */
  begin(): void {
    this.beginTx.run();
  }

  commit(): void {
    this.commitTx.run();
  }

  /** Drops what was added since `begin`, if a transaction is open. */
  rollback(): void {
    if (this.db.inTransaction) this.rollbackTx.run();
  }

  /**
   * Drops the secondary indexes of observations when the table is empty: creating them once over every
   * row costs less than a B-tree insert per row. The rebuild creates them again before it reads, and so
   * does the next store opened on the file if this process dies first. True when they were dropped.
   */
  deferIndexes(): boolean {
    const db = this.db;
    const drop = db.transaction(() => {
      if (db.prepare('SELECT 1 FROM observations LIMIT 1').get() !== undefined) return false;
      for (const index of OBSERVATION_INDEXES) db.exec(`DROP INDEX IF EXISTS ${index.name}`);
      return true;
    });
    return drop.immediate();
  }

  /** Creates the secondary indexes of observations that deferIndexes dropped, with the schema's own SQL. */
  restoreIndexes(): void {
    const db = this.db;
    const present = new Set(
      db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'observations'")
        .pluck()
        .all(),
    );
    const missing = OBSERVATION_INDEXES.filter((index) => !present.has(index.name));
    if (missing.length === 0) return;
    const create = db.transaction(() => {
      // IF NOT EXISTS: another process may have created them since; SQLite stores the SQL without it.
      for (const index of missing) db.exec(index.sql.replace('CREATE INDEX', 'CREATE INDEX IF NOT EXISTS'));
    });
    create.immediate();
  }

  /** Stores captures in one transaction; returns how many were new (a capture already stored is skipped). */
  add(captures: Capture[]): number {
    return captures.length === 0 ? 0 : this.addBatch.immediate(captures);
  }

  /** Rebuilds the versions of every queued origin, and of every origin a revisit or redirect may now settle. */
  rebuildQueued(onProgress: (done: number) => void = () => {}): RebuildStats {
    const db = this.db;
    const stats: RebuildStats = {
      origins: 0,
      versions: 0,
      revisitsResolved: 0,
      revisitsUnresolved: 0,
      redirectsResolved: 0,
      redirectsUnresolved: 0,
      unresolvedReasons: {},
      unresolvedExamples: [],
    };
    this.restoreIndexes();
    // A capture stored by this run may settle another origin's revisit or redirect.
    db.prepare(
      `INSERT OR IGNORE INTO rebuild_queue (origin) SELECT DISTINCT origin FROM observations
         WHERE origin IS NOT NULL AND (kind = 'revisit' OR location IS NOT NULL)`,
    ).run();
    const resolver = new CaptureResolver(db);
    const next = db.prepare('SELECT origin FROM rebuild_queue WHERE origin > ? ORDER BY origin LIMIT ?');
    // Rows as arrays, made objects here: better-sqlite3 builds a 19-key object per row far more slowly.
    const load = db
      .prepare(
        `SELECT ${OBSERVATION_COLUMNS.join(', ')} FROM observations WHERE origin = ?
           ORDER BY captured_at, source, uri`,
      )
      .raw();
    const liveVersions = db.prepare(
      `SELECT v.* FROM versions v WHERE v.origin = ? AND (
         NOT EXISTS (SELECT 1 FROM observations o WHERE o.origin = v.origin AND o.captured_at = v.valid_from)
         OR NOT EXISTS (SELECT 1 FROM observations o WHERE o.origin = v.origin AND o.captured_at = v.fetched_at))`,
    );
    const hasAt = db.prepare('SELECT 1 FROM observations WHERE origin = ? AND captured_at = ?');
    const insertLive = db.prepare(
      `INSERT OR IGNORE INTO observations (origin, uri, captured_at, source, kind, outcome, status, error_code,
         sha256, bytes, truncated, etag, last_modified, final_url, expires_at)
       VALUES (?, ?, ?, 'fetch', 'fetch', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const dropVersions = db.prepare('DELETE FROM versions WHERE origin = ?');
    const insertVersion = db.prepare(
      `INSERT INTO versions (origin, outcome, robots_url, final_url, status, error_code, sha256, bytes,
         truncated, etag, last_modified, valid_from, valid_to, fetched_at, expires_at, source)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const dequeue = db.prepare('DELETE FROM rebuild_queue WHERE origin = ?');

    const rebuildOne = (origin: string) => {
      for (const v of liveVersions.all(origin) as Array<Record<string, never>>) {
        for (const at of [v.valid_from as number, v.fetched_at as number]) {
          if (hasAt.get(origin, at) !== undefined) continue;
          const expires = at === v.fetched_at ? v.expires_at : at;
          insertLive.run(
            origin,
            v.robots_url,
            at,
            v.outcome,
            v.status,
            v.error_code,
            v.sha256,
            v.bytes,
            v.truncated,
            v.etag,
            v.last_modified,
            v.final_url,
            expires,
          );
        }
      }
      const settled: Settled[] = [];
      for (const values of load.all(origin) as unknown[][]) {
        const row = observationRow(values);
        const r = resolver.resolve(row);
        if (!r.ok) {
          stats.revisitsUnresolved++;
          const reason = r.reason.replace(/ (with payload digest|of) \S+/, ' $1 …');
          stats.unresolvedReasons[reason] = (stats.unresolvedReasons[reason] ?? 0) + 1;
          if (stats.unresolvedExamples.length < 20)
            stats.unresolvedExamples.push({ source: row.source, reason: r.reason });
          continue;
        }
        if (r.revisit) stats.revisitsResolved++;
        if (r.redirect === 'resolved') stats.redirectsResolved++;
        if (r.redirect === 'unresolved') stats.redirectsUnresolved++;
        settled.push(r.settled);
      }
      dropVersions.run(origin);
      const versions = versionsOf(origin, settled);
      for (const v of versions) {
        insertVersion.run(
          v.origin,
          v.outcome,
          v.robotsUrl,
          v.finalUrl,
          v.status,
          v.errorCode,
          v.sha256,
          v.bytes,
          v.truncated,
          v.etag,
          v.lastModified,
          v.validFrom,
          v.validTo,
          v.fetchedAt,
          v.expiresAt,
          v.source,
        );
      }
      stats.versions += versions.length;
      dequeue.run(origin);
      stats.origins++;
    };
    const batch = db.transaction((origins: string[]) => {
      for (const o of origins) rebuildOne(o);
    });
    let after = '';
    for (;;) {
      const origins = (next.all(after, REBUILD_BATCH) as Array<{ origin: string }>).map((r) => r.origin);
      if (origins.length === 0) break;
      batch.immediate(origins);
      after = origins[origins.length - 1]!;
      onProgress(stats.origins);
    }
    return stats;
  }
}
