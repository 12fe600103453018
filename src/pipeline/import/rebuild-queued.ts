import type Database from 'better-sqlite3';
import { deferIndexes, restoreIndexes, VERSIONS_SHA256_INDEX } from '../cache/schema.js';
import { BatchedInsert } from './batched-insert.js';
import { type Settled, versionsOf } from './rebuild-versions.js';
import { CaptureResolver, type ObservationRow } from './resolve-capture.js';

/**
 * Rebuilds the versions of every origin in rebuild_queue from all of its observations, REBUILD_BATCH
 * origins per transaction, each batch dequeued in the transaction that writes its versions (so a killed
 * run leaves the rest queued). Live-fetched versions take part: before an origin is rebuilt, every
 * version whose first sighting (valid_from) or last confirmation (fetched_at) has no observation at that
 * time becomes a `fetch` observation there, with the version's evidence.
 */

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

/** Columns only a revisit or a redirect (outcome NULL until settled) is resolved with. */
const PENDING_ONLY = new Set(['kind', 'location', 'payload_digest', 'refers_to_uri', 'refers_to_date']);

/**
 * What the rebuild reads of each OBSERVATION_COLUMNS: a settled row leaves out what only resolving needs,
 * and final_url when it is the row's URI (which stands for it), so that most rows cost fewer strings.
 */
const LOADED_COLUMNS = OBSERVATION_COLUMNS.map((c) =>
  PENDING_ONLY.has(c)
    ? `CASE WHEN o.outcome IS NULL THEN o.${c} END`
    : c === 'final_url'
      ? 'nullif(o.final_url, o.uri)'
      : `o.${c}`,
);

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

export function rebuildQueued(db: Database.Database, onProgress: (done: number) => void): RebuildStats {
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
  // A capture stored by this run may settle another origin's revisit or redirect.
  db.prepare(
    `INSERT OR IGNORE INTO rebuild_queue (origin) SELECT DISTINCT origin FROM observations
       WHERE origin IS NOT NULL AND (kind = 'revisit' OR location IS NOT NULL)`,
  ).run();
  const resolver = new CaptureResolver(db);
  const next = db
    .prepare('SELECT origin FROM rebuild_queue WHERE origin > ? ORDER BY origin LIMIT ?')
    .pluck();
  // Of a batch's origins (the queue between two bounds), those with versions: most have none in a new cache.
  const withVersions = db
    .prepare(
      `SELECT origin FROM rebuild_queue q WHERE origin > ? AND origin <= ?
         AND EXISTS (SELECT 1 FROM versions v WHERE v.origin = q.origin)`,
    )
    .pluck();
  // Every observation of a batch's origins in one read, an origin's in time order. CROSS JOIN walks the
  // queue and looks each origin up: a range of observations' index may hold far more origins than are queued.
  // Rows as arrays, made objects here: better-sqlite3 builds a 19-key object per row far more slowly.
  const load = db
    .prepare(
      `SELECT ${LOADED_COLUMNS.join(', ')}
         FROM rebuild_queue q CROSS JOIN observations o ON o.origin = q.origin
         WHERE q.origin > ? AND q.origin <= ?
         ORDER BY q.origin, o.captured_at, o.source, o.uri`,
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
  const insertVersion = new BatchedInsert(
    db,
    `INSERT INTO versions (origin, outcome, robots_url, final_url, status, error_code, sha256, bytes,
       truncated, etag, last_modified, valid_from, valid_to, fetched_at, expires_at, source) VALUES`,
    16,
  );
  const dequeue = db.prepare('DELETE FROM rebuild_queue WHERE origin > ? AND origin <= ?');

  /** The origin's live-fetched versions become observations, so that its rebuild keeps them. */
  const observeLive = (origin: string) => {
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
  };

  const settle = (values: unknown[], settled: Settled[]) => {
    const row = observationRow(values);
    const r = resolver.resolve(row);
    if (!r.ok) {
      stats.revisitsUnresolved++;
      const reason = r.reason.replace(/ (with payload digest|of) \S+/, ' $1 …');
      stats.unresolvedReasons[reason] = (stats.unresolvedReasons[reason] ?? 0) + 1;
      if (stats.unresolvedExamples.length < 20)
        stats.unresolvedExamples.push({ source: row.source, reason: r.reason });
      return;
    }
    if (r.revisit) stats.revisitsResolved++;
    if (r.redirect === 'resolved') stats.redirectsResolved++;
    if (r.redirect === 'unresolved') stats.redirectsUnresolved++;
    settled.push(r.settled);
  };

  const writeVersions = (origin: string, settled: Settled[], hadVersions: boolean) => {
    // Rows queued before the delete are written first, so that each row gets the id it would one by one.
    if (hadVersions) {
      insertVersion.write();
      dropVersions.run(origin);
    }
    const versions = versionsOf(origin, settled);
    for (const v of versions) {
      insertVersion.queued.push(
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
      insertVersion.writeIfFull();
    }
    stats.versions += versions.length;
    stats.origins++;
  };

  // The batch is read, rebuilt and dequeued in one transaction: no origin queued meanwhile is dequeued unbuilt.
  const batch = db.transaction((after: string): string | null => {
    const origins = next.all(after, REBUILD_BATCH) as string[];
    if (origins.length === 0) return null;
    // What a failed batch left queued was rolled back with it.
    insertVersion.clear();
    const last = origins[origins.length - 1]!;
    const live = new Set(withVersions.all(after, last) as string[]);
    for (const origin of live) observeLive(origin);
    const rows = load.all(after, last) as unknown[][];
    let i = 0;
    for (const origin of origins) {
      const settled: Settled[] = [];
      // Rows come in the queue's order (both by origin), so each origin's rows follow the previous one's.
      for (; i < rows.length && rows[i]![0] === origin; i++) settle(rows[i]!, settled);
      writeVersions(origin, settled, live.has(origin));
    }
    if (i !== rows.length)
      throw new Error(`rebuild: observations of ${String(rows[i]![0])} out of the queue's order`);
    insertVersion.write();
    dequeue.run(after, last);
    return last;
  });
  // A new cache: versions' index by body is built once over the rebuilt rows.
  const deferred = deferIndexes(db, 'versions', [VERSIONS_SHA256_INDEX]);
  try {
    for (let after: string | null = ''; after !== null; ) {
      after = batch.immediate(after);
      if (after !== null) onProgress(stats.origins);
    }
  } finally {
    if (deferred) restoreIndexes(db);
  }
  return stats;
}
