import Database from 'better-sqlite3';
import { RobotsAuditError } from '../../core/errors.js';
import { NO_POLICY, type PolicyAnswer, type PolicyLookup } from './policy-lookup.js';

/** How long a read waits for a writer's lock before giving up (ms): a report never holds the cache long. */
const BUSY_TIMEOUT_MS = 5_000;

/**
 * Opens the policy cache read-only (no migration, no pragma that writes): a report must never change
 * the cache or keep a writer waiting. The file must exist.
 */
export function openCacheReadOnly(path: string): Database.Database {
  let db: Database.Database | undefined;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
    db.prepare('SELECT 1 FROM versions LIMIT 1').all();
    return db;
  } catch (err) {
    db?.close();
    const code = (err as { code?: unknown }).code;
    if (code === 'SQLITE_CANTOPEN' || /does not exist|unable to open/i.test(String((err as Error).message))) {
      throw new RobotsAuditError('ERR_CACHE_MISSING', `No cache at ${path}`, { path, cause: err });
    }
    throw new RobotsAuditError('ERR_CACHE_OPEN', `Cannot open cache ${path}: ${(err as Error).message}`, {
      path,
      cause: err,
    });
  }
}

interface CurrentRow {
  outcome: 'parsed' | 'unavailable' | 'unreachable';
  status: number | null;
  error_code: string | null;
  sha256: string | null;
  body: Buffer | null;
}

/** The version in force now of each site, from the cache. */
export class CachePolicyLookup implements PolicyLookup {
  private readonly stmt: Database.Statement;

  constructor(
    private readonly db: Database.Database,
    private readonly owned = false,
  ) {
    this.stmt = db.prepare(
      `SELECT v.outcome, v.status, v.error_code, v.sha256, b.body FROM versions v
       LEFT JOIN bodies b ON b.sha256 = v.sha256 WHERE v.origin = ? AND v.valid_to IS NULL`,
    );
  }

  static open(path: string): CachePolicyLookup {
    return new CachePolicyLookup(openCacheReadOnly(path), true);
  }

  current(site: string): PolicyAnswer {
    const row = this.stmt.get(site) as CurrentRow | undefined;
    if (row === undefined) return NO_POLICY;
    return {
      outcome: row.outcome,
      status: row.status,
      errorCode: row.error_code,
      sha256: row.sha256,
      ...(row.outcome === 'parsed' ? { body: row.body ?? new Uint8Array(0) } : {}),
    };
  }

  close(): void {
    if (this.owned) this.db.close();
  }
}
