import {
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { isErrorCode } from '../../core/error-codes.js';
import { RobotsAuditError } from '../../core/errors.js';
import { ObservationStore } from '../import/observation-store.js';
import { removeStaleTemps, resolveOutputTarget, tempPathFor } from '../output/output-target.js';
import { BUSY_TIMEOUT_MS } from './open-database.js';
import { reconcileOrigin, type VersionRow } from './reconcile-versions.js';
import { migrate, SCHEMA_VERSION } from './schema.js';

/**
 * `robots-audit cache merge A B … -o ALL`: one cache holding every version of every origin of the
 * inputs (see reconcile-versions.ts for how overlapping histories of one origin are joined), each body
 * once. The inputs are only read; ALL is built in a temporary file beside it and renamed into place
 * when complete, so it is never seen half-written.
 */

export interface CacheMergeResult {
  output: string;
  inputs: number;
  origins: number;
  versions: number;
  bodies: number;
}

/** Origins reconciled per transaction of the output (and between looks at the stop signal). */
const ORIGINS_PER_BATCH = 2000;

interface Input {
  file: string;
  /** Walks the versions, origin by origin. */
  rows: Iterator<VersionRow>;
  head: VersionRow | undefined;
  /** A second connection: one walking a query can run no other statement. */
  bodies: Database.Database;
  body: Database.Statement<[string], { body: Buffer }>;
  /** The input's archive observations (schema 2), when it has them; read once its versions are. */
  observations: Iterable<Record<string, unknown>>;
  close(): void;
}

function openError(file: string, err: unknown): RobotsAuditError {
  if (isErrorCode((err as { code?: unknown }).code)) return err as RobotsAuditError;
  return new RobotsAuditError('ERR_CACHE_OPEN', `Cannot open cache ${file}: ${(err as Error).message}`, {
    path: file,
    cause: err,
  });
}

/** Opens an input read-only and checks that its schema is the one this build writes. */
function openReadOnly(file: string): Database.Database {
  if (!existsSync(file)) {
    throw new RobotsAuditError('ERR_CACHE_MISSING', `No cache at ${file}`, { path: file });
  }
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
    const table = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'")
      .get();
    const version = table
      ? ((db.prepare('SELECT version FROM schema_version').get() as { version: number } | undefined)
          ?.version ?? 0)
      : 0;
    if (version > SCHEMA_VERSION) {
      throw new RobotsAuditError(
        'ERR_CACHE_VERSION',
        `Cache ${file} has schema version ${version}, newer than this robots-audit understands (${SCHEMA_VERSION})`,
        { path: file },
      );
    }
    // An older schema is read as it is (columns added since are read as NULL): it is never migrated here.
    if (version < 1) {
      throw new RobotsAuditError(
        'ERR_CACHE_OPEN',
        `Cannot open cache ${file}: it is not a robots-audit cache`,
        {
          path: file,
        },
      );
    }
    return db;
  } catch (err) {
    db?.close();
    throw openError(file, err);
  }
}

function openInput(file: string): Input {
  const db = openReadOnly(file);
  const bodies = openReadOnly(file);
  const hasObservations =
    db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'observations'").get() !==
    undefined;
  const rows = db
    .prepare('SELECT * FROM versions ORDER BY origin, valid_from, id')
    .iterate() as IterableIterator<VersionRow>;
  const input: Input = {
    file,
    rows,
    head: undefined,
    bodies,
    body: bodies.prepare('SELECT body FROM bodies WHERE sha256 = ?'),
    observations: hasObservations
      ? {
          [Symbol.iterator]: () =>
            db.prepare('SELECT * FROM observations').iterate() as Iterator<Record<string, unknown>>,
        }
      : [],
    close() {
      rows.return?.();
      db.close();
      bodies.close();
    },
  };
  input.head = rows.next().value;
  return input;
}

/** SQLite's order of TEXT (bytes of UTF-8), which `ORDER BY origin` walks in. */
function byBytes(a: string, b: string): number {
  return a === b ? 0 : Buffer.compare(Buffer.from(a), Buffer.from(b));
}

/** Every row of the smallest origin left, from every input (each input's rows come origin by origin). */
function nextOrigin(inputs: Input[]): Array<VersionRow & { src: number }> | null {
  let origin: string | undefined;
  for (const i of inputs) {
    if (i.head !== undefined && (origin === undefined || byBytes(i.head.origin, origin) < 0))
      origin = i.head.origin;
  }
  if (origin === undefined) return null;
  const rows: Array<VersionRow & { src: number }> = [];
  inputs.forEach((input, src) => {
    while (input.head !== undefined && input.head.origin === origin) {
      rows.push({ ...input.head, src });
      input.head = input.rows.next().value;
    }
  });
  return rows;
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

/** Where the merged cache goes: a regular file (or a new name) that is none of the inputs and not in use. */
function checkTarget(output: string, inputs: readonly string[]): string {
  if (output === '-' || output === '') {
    throw new RobotsAuditError('ERR_USAGE', 'A merged cache is a file: give -o FILE, not stdout');
  }
  const target = resolveOutputTarget(output);
  if (target.kind !== 'atomic') {
    throw new RobotsAuditError('ERR_OUTPUT', `cannot write the merged cache ${output}: not a regular file`, {
      path: output,
    });
  }
  for (const input of inputs) {
    let real: string;
    try {
      real = realpathSync(input);
    } catch {
      continue;
    }
    if (real === target.path) {
      throw new RobotsAuditError(
        'ERR_USAGE',
        `-o ${output} is one of the inputs: write the merged cache to a new file`,
      );
    }
  }
  // Frames left in a WAL or a hot rollback journal beside the name would be replayed onto the merged
  // file by its next reader; empty ones (a read-only reader leaves them) are harmless.
  for (const suffix of ['-wal', '-journal']) {
    const size = sizeOf(target.path + suffix);
    if (size > 0) {
      throw new RobotsAuditError(
        'ERR_OUTPUT',
        `cannot write the merged cache ${output}: ${path.basename(target.path + suffix)} beside it holds changes (the cache is open, or a run using it was killed); open it once with robots-audit cache stats, or choose another name`,
        { path: output },
      );
    }
  }
  return target.path;
}

/** Runs a step that writes the merged cache; a failure without a code of ours is ERR_OUTPUT saying why. */
function writing<T>(output: string, step: () => T): T {
  try {
    return step();
  } catch (err) {
    if (isErrorCode((err as { code?: unknown }).code)) throw err;
    throw new RobotsAuditError(
      'ERR_OUTPUT',
      `cannot write the merged cache ${output}: ${(err as Error).message}`,
      {
        path: output,
        cause: err,
      },
    );
  }
}

/** A new cache file at `file`, written without a journal: it is thrown away, not rolled back, on failure. */
function createOutput(file: string): Database.Database {
  const db = new Database(file);
  db.pragma('auto_vacuum = INCREMENTAL');
  db.pragma('journal_mode = MEMORY');
  db.pragma('synchronous = OFF');
  db.pragma('foreign_keys = ON');
  migrate(db, file);
  return db;
}

/**
 * Archive observations (and their bodies) from every input, each once: the same capture in two inputs
 * is one row. Every origin with observations is then rebuilt from all of them (its merged versions
 * taking part as `import` lets live versions take part), so merging caches that imported different
 * archives gives the versions one cache importing them all would hold.
 */
function copyObservations(
  out: Database.Database,
  inputs: readonly Input[],
  copyBody: (sha256: string, src: number) => void,
): void {
  const columns = (out.pragma('table_info(observations)') as { name: string }[])
    .map((c) => c.name)
    .filter((c) => c !== 'id');
  const insert = out.prepare(
    `INSERT OR IGNORE INTO observations (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`,
  );
  const copy = out.transaction(() => {
    inputs.forEach((input, src) => {
      for (const row of input.observations) {
        if (typeof row.sha256 === 'string') copyBody(row.sha256, src);
        insert.run(Object.fromEntries(columns.map((c) => [c, row[c] ?? null])));
      }
    });
    out
      .prepare(
        'INSERT OR IGNORE INTO rebuild_queue (origin) SELECT DISTINCT origin FROM observations WHERE origin IS NOT NULL',
      )
      .run();
  });
  copy();
  new ObservationStore(out).rebuildQueued();
}

export async function mergeCaches(
  inputFiles: readonly string[],
  output: string,
  { signal }: { signal?: AbortSignal } = {},
): Promise<CacheMergeResult> {
  if (inputFiles.length === 0) throw new RobotsAuditError('ERR_USAGE', 'Give the cache files to merge');
  const target = checkTarget(output, inputFiles);
  const inputs: Input[] = [];
  let db: Database.Database | undefined;
  let temp: string | undefined;
  try {
    for (const file of inputFiles) inputs.push(openInput(file));
    removeStaleTemps(target);
    temp = tempPathFor(target);
    db = writing(output, () => createOutput(temp!));
    const out = db;
    const hasBody = out.prepare('SELECT 1 FROM bodies WHERE sha256 = ?').pluck();
    const insertBody = out.prepare('INSERT INTO bodies (sha256, body) VALUES (?, ?)');
    // Every column the schema this build writes has; one an older input lacks is written NULL.
    const columns = (out.pragma('table_info(versions)') as { name: string }[])
      .map((c) => c.name)
      .filter((c) => c !== 'id');
    const insert = out.prepare(
      `INSERT INTO versions (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`,
    );
    const values = (v: VersionRow) =>
      Object.fromEntries(columns.map((c) => [c, (v as unknown as Record<string, unknown>)[c] ?? null]));
    const result = { output, inputs: inputs.length, origins: 0, versions: 0, bodies: 0 };
    const copyBody = (sha256: string, src: number) => {
      if (hasBody.get(sha256) !== undefined) return;
      // The input the version came from holds its body; any other input holding it will do as well.
      const from = [inputs[src]!, ...inputs].find((i) => i.body.get(sha256) !== undefined);
      const row = from?.body.get(sha256);
      if (row === undefined) {
        throw new RobotsAuditError(
          'ERR_CACHE_OPEN',
          `Cache ${inputs[src]!.file} has no body for sha256 ${sha256}`,
          {
            path: inputs[src]!.file,
          },
        );
      }
      insertBody.run(sha256, row.body);
      result.bodies++;
    };
    const batch = out.transaction((groups: Array<Array<VersionRow & { src: number }>>) => {
      for (const rows of groups) {
        for (const v of reconcileOrigin(rows)) {
          if (v.sha256 !== null) copyBody(v.sha256, v.src);
          insert.run(values(v));
          result.versions++;
        }
        result.origins++;
      }
    });
    for (;;) {
      signal?.throwIfAborted();
      const groups: Array<Array<VersionRow & { src: number }>> = [];
      for (let g = nextOrigin(inputs); g !== null; g = nextOrigin(inputs)) {
        groups.push(g);
        if (groups.length >= ORIGINS_PER_BATCH) break;
      }
      if (groups.length === 0) break;
      writing(output, () => batch(groups));
      // Let a stop signal in between batches.
      await nextTurn();
    }
    writing(output, () => copyObservations(out, inputs, copyBody));
    result.versions = (out.prepare('SELECT count(*) AS n FROM versions').get() as { n: number }).n;
    out.close();
    db = undefined;
    const done = temp;
    writing(output, () => {
      const fd = openSync(done, 'r');
      try {
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(done, target);
    });
    temp = undefined;
    return result;
  } finally {
    for (const i of inputs) i.close();
    db?.close();
    if (temp !== undefined) rmSync(temp, { force: true });
  }
}
