import { RobotsAuditError } from '../../core/errors.js';
import { MAX_REDIRECTS } from '../fetch/redirect-location.js';
import { REDIRECT_WINDOW_MS } from '../import/resolve-capture.js';
import type { CachedVersion } from './cache-types.js';
import { fromRow, type PolicyCache } from './policy-cache.js';
import { restoreIndexes, SCHEMA_VERSION } from './schema.js';

/** `robots-audit cache stats|show|export|prune`: reading and trimming a policy cache. */

export interface CacheStats {
  path: string;
  schemaVersion: number;
  /** Origins with a current version. */
  origins: number;
  /** Current versions by outcome. */
  outcomes: { parsed: number; unavailable: number; unreachable: number };
  /** Current versions confirmed within `maxAge`. */
  fresh: number;
  expired: number;
  /** All versions, history included. */
  versions: number;
  /** Distinct bodies stored, and their total bytes. */
  bodies: number;
  bodyBytes: number;
  /** Oldest and newest confirmation of a current version (epoch ms), or null when empty. */
  oldestFetchedAt: number | null;
  newestFetchedAt: number | null;
  /** Size of the database file in bytes (pages in use and free). */
  fileBytes: number;
}

export function cacheStats(cache: PolicyCache, now: number, maxAgeMs: number): CacheStats {
  cache.flush();
  const db = cache.db;
  const outcomes = { parsed: 0, unavailable: 0, unreachable: 0 };
  const rows = db
    .prepare('SELECT outcome, count(*) AS n FROM versions WHERE valid_to IS NULL GROUP BY outcome')
    .all() as Array<{ outcome: keyof typeof outcomes; n: number }>;
  for (const r of rows) outcomes[r.outcome] = r.n;
  const current = db
    .prepare(
      `SELECT count(*) AS n, sum(fetched_at > ? AND expires_at > ?) AS fresh,
         min(fetched_at) AS oldest, max(fetched_at) AS newest FROM versions WHERE valid_to IS NULL`,
    )
    .get(now - maxAgeMs, now) as {
    n: number;
    fresh: number | null;
    oldest: number | null;
    newest: number | null;
  };
  const versions = (db.prepare('SELECT count(*) AS n FROM versions').get() as { n: number }).n;
  const bodies = db
    .prepare('SELECT count(*) AS n, coalesce(sum(length(body)), 0) AS bytes FROM bodies')
    .get() as {
    n: number;
    bytes: number;
  };
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const pageCount = db.pragma('page_count', { simple: true }) as number;
  return {
    path: cache.path,
    schemaVersion: SCHEMA_VERSION,
    origins: current.n,
    outcomes,
    fresh: current.fresh ?? 0,
    expired: current.n - (current.fresh ?? 0),
    versions,
    bodies: bodies.n,
    bodyBytes: bodies.bytes,
    oldestFetchedAt: current.oldest,
    newestFetchedAt: current.newest,
    fileBytes: pageSize * pageCount,
  };
}

/**
 * The origin keys an ORIGIN argument names: a full origin (`https://a.example:8443`) names itself; a bare
 * host (`a.example`) names every stored origin of that host, whatever its scheme and port.
 */
export function originsNamed(cache: PolicyCache, arg: string): string[] {
  const text = arg.trim();
  if (text.includes('://')) {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw new RobotsAuditError('ERR_USAGE', `Not an origin: ${JSON.stringify(arg)}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new RobotsAuditError('ERR_USAGE', `Not an http(s) origin: ${JSON.stringify(arg)}`);
    }
    return [url.origin];
  }
  let host: string;
  try {
    host = new URL(`http://${text}`).host.replace(/:\d+$/, '');
  } catch {
    throw new RobotsAuditError('ERR_USAGE', `Not a host or origin: ${JSON.stringify(arg)}`);
  }
  cache.flush();
  const rows = cache.db
    .prepare(
      `SELECT DISTINCT origin FROM versions WHERE origin IN (?, ?)
         OR origin LIKE ? ESCAPE '\\' OR origin LIKE ? ESCAPE '\\' ORDER BY origin`,
    )
    .all(
      `https://${host}`,
      `http://${host}`,
      `https://${likeEscape(host)}:%`,
      `http://${likeEscape(host)}:%`,
    ) as Array<{
    origin: string;
  }>;
  return rows.map((r) => r.origin);
}

function likeEscape(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** One JSON line of `cache export`: a version with its body in base64. */
export interface ExportRecord extends Omit<CachedVersion, 'body'> {
  body: string | null;
}

/** Every version (history included), origin by origin, oldest first; reads lazily from the file. */
export function* exportRecords(cache: PolicyCache): Generator<ExportRecord> {
  cache.flush();
  const stmt = cache.db.prepare(
    `SELECT v.*, b.body FROM versions v LEFT JOIN bodies b ON b.sha256 = v.sha256 ORDER BY v.origin, v.valid_from, v.id`,
  );
  for (const row of stmt.iterate()) {
    const v = fromRow(row as Parameters<typeof fromRow>[0]);
    yield { ...v, body: v.body === null ? null : v.body.toString('base64') };
  }
}

/** How far in time a chain of redirects can reach from the capture that starts it. */
const TARGET_REACH_MS = REDIRECT_WINDOW_MS * MAX_REDIRECTS;

export interface PruneResult {
  /** History versions that ended before the cutoff. */
  historyVersions: number;
  /** Origins whose current version was last confirmed before the cutoff (removed entirely). */
  origins: number;
  /** Bodies no longer referenced. */
  bodies: number;
}

/** Removes what is older than `cutoff` (epoch ms), then returns the freed pages to the file system. */
export function pruneCache(cache: PolicyCache, cutoff: number): PruneResult {
  cache.flush();
  const db = cache.db;
  // An import killed while its indexes were dropped leaves them missing: these deletes would scan a table a row.
  restoreIndexes(db);
  const run = db.transaction(() => {
    const stale = db
      .prepare('SELECT origin FROM versions WHERE valid_to IS NULL AND fetched_at < ?')
      .all(cutoff) as Array<{ origin: string }>;
    const dropOrigin = db.prepare('DELETE FROM versions WHERE origin = ?');
    for (const { origin } of stale) dropOrigin.run(origin);
    const history = db
      .prepare('DELETE FROM versions WHERE valid_to IS NOT NULL AND valid_to < ?')
      .run(cutoff).changes;
    // Archive observations go with what they built: an import would otherwise rebuild the pruned history.
    db.prepare(
      `DELETE FROM observations WHERE origin IS NOT NULL AND captured_at < coalesce(
         (SELECT min(v.valid_from) FROM versions v WHERE v.origin = observations.origin), 9e15)`,
    ).run();
    db.prepare(
      'DELETE FROM rebuild_queue WHERE NOT EXISTS (SELECT 1 FROM observations o WHERE o.origin = rebuild_queue.origin)',
    ).run();
    // A capture kept only as a redirect target goes once no capture of an origin is near it in time.
    db.prepare(
      `DELETE FROM observations WHERE origin IS NULL AND NOT EXISTS (SELECT 1 FROM observations o
         WHERE o.origin IS NOT NULL AND o.captured_at BETWEEN observations.captured_at - ? AND observations.captured_at + ?)`,
    ).run(TARGET_REACH_MS, TARGET_REACH_MS);
    const bodies = db
      .prepare(
        `DELETE FROM bodies WHERE NOT EXISTS (SELECT 1 FROM versions v WHERE v.sha256 = bodies.sha256)
           AND NOT EXISTS (SELECT 1 FROM observations o WHERE o.sha256 = bodies.sha256)`,
      )
      .run().changes;
    return { historyVersions: history, origins: stale.length, bodies };
  });
  const result = run.immediate();
  db.pragma('incremental_vacuum');
  db.pragma('wal_checkpoint(TRUNCATE)');
  return result;
}
