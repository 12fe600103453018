import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { isErrorCode } from '../../core/error-codes.js';
import { RobotsAuditError } from '../../core/errors.js';
import { migrate } from './schema.js';

/** How long a writer waits for another process holding the lock before giving up (ms). */
export const BUSY_TIMEOUT_MS = 30_000;

/** SQLite's page cache per connection (KiB). */
const CACHE_KIB = 2048;

/**
 * Opens (or creates, unless `mustExist`) the cache file: WAL so readers never block the writer and a
 * killed process leaves only a WAL tail that the next open replays or ignores; then migrations.
 */
export function openDatabase(path: string, { mustExist = false } = {}): Database.Database {
  if (mustExist && !existsSync(path)) {
    throw new RobotsAuditError(
      'ERR_CACHE_MISSING',
      `No cache at ${path} (run \`robots-audit fetch\` first, or give --cache)`,
      { path },
    );
  }
  let db: Database.Database | undefined;
  try {
    db = new Database(path, { timeout: BUSY_TIMEOUT_MS });
    // auto_vacuum only takes effect before the first table; later opens ignore it.
    db.pragma('auto_vacuum = INCREMENTAL');
    db.pragma('journal_mode = WAL');
    // NORMAL in WAL mode never corrupts; a power cut may lose the last transactions, a killed process none.
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    // Reads follow the input's origins, scattered over the file: a bigger page cache rarely hits, and
    // the OS caches the file anyway (better-sqlite3's default of 16 MiB was resident memory for nothing).
    db.pragma(`cache_size = -${CACHE_KIB}`);
    migrate(db, path);
    return db;
  } catch (err) {
    db?.close();
    if (isErrorCode((err as { code?: unknown }).code)) throw err;
    throw new RobotsAuditError('ERR_CACHE_OPEN', `Cannot open cache ${path}: ${(err as Error).message}`, {
      path,
      cause: err,
    });
  }
}
