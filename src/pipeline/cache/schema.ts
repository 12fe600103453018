import type { Database } from 'better-sqlite3';
import { RobotsAuditError } from '../../core/errors.js';

/**
 * The policy cache schema and its migrations. Each migration runs in the same IMMEDIATE transaction as
 * the version bump, so a crash mid-migration leaves the previous version intact.
 *
 * versions: one row per version of an origin's policy. The current one has valid_to NULL; when the body
 *   or status changes, the current row gets valid_to = the time the change was first seen and a new row
 *   starts (valid_from = that time). fetched_at is the last time the version was confirmed (fetch or 304).
 * bodies: robots.txt bodies by sha256, shared by every version (and origin) with the same bytes.
 * versions.source (2): where a version's first sighting came from: 'fetch' (NULL in rows written before
 *   it existed) or an archive capture `warc:<file name>@<offset>`.
 * observations (2): every capture imported from an archive (and, once an import has touched its origin,
 *   every live fetch as the versions recorded it), from which `import` rebuilds an origin's versions.
 *   origin is NULL for a capture kept only as the target of a redirect. outcome is NULL until a revisit
 *   or a redirect is resolved (at rebuild time, against every capture stored).
 * rebuild_queue (2): origins whose observations changed and whose versions are not yet rebuilt from them
 *   (written in the same transaction as the observations, so a killed import leaves them queued).
 */

/**
 * The secondary indexes of observations, as the schema creates them: an import into an empty table
 * drops them and creates them again once its captures are in (see ObservationStore).
 */
export const OBSERVATION_INDEXES: ReadonlyArray<{ name: string; sql: string }> = [
  {
    name: 'observations_origin',
    sql: 'CREATE INDEX observations_origin ON observations (origin, captured_at) WHERE origin IS NOT NULL',
  },
  {
    name: 'observations_digest',
    sql: 'CREATE INDEX observations_digest ON observations (payload_digest) WHERE payload_digest IS NOT NULL',
  },
  {
    name: 'observations_sha256',
    sql: 'CREATE INDEX observations_sha256 ON observations (sha256) WHERE sha256 IS NOT NULL',
  },
];

/** The index of versions by body: a rebuild into an empty versions table builds it once after its rows. */
export const VERSIONS_SHA256_INDEX = {
  name: 'versions_sha256',
  sql: 'CREATE INDEX versions_sha256 ON versions (sha256) WHERE sha256 IS NOT NULL',
} as const;

/** Every index an import may drop while it writes, to be created once after. */
const DEFERRABLE_INDEXES = [...OBSERVATION_INDEXES, VERSIONS_SHA256_INDEX];

/**
 * Drops `indexes` of `table` when the table is empty, so that a bulk write creates each once over every
 * row instead of a B-tree insert per row; `restoreIndexes` creates them again (after the write, or when a
 * run killed meanwhile left them dropped). True when they were dropped.
 */
export function deferIndexes(
  db: Database,
  table: 'observations' | 'versions',
  indexes: ReadonlyArray<{ name: string }>,
): boolean {
  const drop = db.transaction(() => {
    if (db.prepare(`SELECT 1 FROM ${table} LIMIT 1`).get() !== undefined) return false;
    for (const index of indexes) db.exec(`DROP INDEX IF EXISTS ${index.name}`);
    return true;
  });
  return drop.immediate();
}

/**
 * Creates the deferrable indexes that are missing (an import killed while they were dropped), with the
 * schema's own SQL.
 */
export function restoreIndexes(db: Database): void {
  const present = new Set(db.prepare("SELECT name FROM sqlite_master WHERE type = 'index'").pluck().all());
  const missing = DEFERRABLE_INDEXES.filter((index) => !present.has(index.name));
  if (missing.length === 0) return;
  const create = db.transaction(() => {
    // IF NOT EXISTS: another process may have created them since; SQLite stores the SQL without it.
    for (const index of missing) db.exec(index.sql.replace('CREATE INDEX', 'CREATE INDEX IF NOT EXISTS'));
  });
  create.immediate();
}

const MIGRATIONS: ReadonlyArray<(db: Database) => void> = [
  // 1: initial schema
  (db) => {
    db.exec(`
      CREATE TABLE bodies (
        sha256 TEXT PRIMARY KEY,
        body BLOB NOT NULL
      );
      CREATE TABLE versions (
        id INTEGER PRIMARY KEY,
        origin TEXT NOT NULL,
        outcome TEXT NOT NULL CHECK (outcome IN ('parsed', 'unavailable', 'unreachable')),
        robots_url TEXT NOT NULL,
        final_url TEXT,
        status INTEGER,
        error_code TEXT,
        sha256 TEXT REFERENCES bodies (sha256),
        bytes INTEGER NOT NULL,
        truncated INTEGER NOT NULL,
        etag TEXT,
        last_modified TEXT,
        valid_from INTEGER NOT NULL,
        valid_to INTEGER,
        fetched_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL,
        CHECK (valid_to IS NULL OR valid_to >= valid_from)
      );
      CREATE UNIQUE INDEX versions_current ON versions (origin) WHERE valid_to IS NULL;
      CREATE INDEX versions_history ON versions (origin, valid_from);
      ${VERSIONS_SHA256_INDEX.sql};
    `);
  },
  // 2: where each version came from, and the archive captures versions are rebuilt from
  (db) => {
    db.exec(`
      ALTER TABLE versions ADD COLUMN source TEXT;
      CREATE TABLE observations (
        id INTEGER PRIMARY KEY,
        origin TEXT,
        uri TEXT NOT NULL,
        captured_at INTEGER NOT NULL,
        source TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('response', 'revisit', 'fetch')),
        outcome TEXT CHECK (outcome IN ('parsed', 'unavailable', 'unreachable')),
        status INTEGER,
        error_code TEXT,
        sha256 TEXT,
        bytes INTEGER NOT NULL,
        truncated INTEGER NOT NULL,
        etag TEXT,
        last_modified TEXT,
        final_url TEXT,
        location TEXT,
        payload_digest TEXT,
        refers_to_uri TEXT,
        refers_to_date INTEGER,
        expires_at INTEGER NOT NULL,
        UNIQUE (uri, captured_at, source)
      );
      ${OBSERVATION_INDEXES.map((i) => `${i.sql};`).join('\n      ')}
      CREATE TABLE rebuild_queue (origin TEXT PRIMARY KEY) WITHOUT ROWID;
    `);
  },
];

/** The schema version this build writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;

function currentVersion(db: Database): number {
  const table = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'")
    .get();
  if (table === undefined) return 0;
  const row = db.prepare('SELECT version FROM schema_version').get() as { version: number } | undefined;
  return row?.version ?? 0;
}

/** Brings the schema up to SCHEMA_VERSION; refuses a file written by a newer build. */
export function migrate(db: Database, path: string): number {
  const run = db.transaction(() => {
    const from = currentVersion(db);
    if (from > SCHEMA_VERSION) {
      throw new RobotsAuditError(
        'ERR_CACHE_VERSION',
        `Cache ${path} has schema version ${from}, newer than this robots-audit understands (${SCHEMA_VERSION})`,
        { path },
      );
    }
    if (from === SCHEMA_VERSION) return from;
    if (from === 0) db.exec('CREATE TABLE schema_version (version INTEGER NOT NULL)');
    for (let v = from; v < SCHEMA_VERSION; v++) MIGRATIONS[v]!(db);
    db.prepare('DELETE FROM schema_version').run();
    db.prepare('INSERT INTO schema_version (version) VALUES (?)').run(SCHEMA_VERSION);
    return SCHEMA_VERSION;
  });
  return run.immediate();
}
