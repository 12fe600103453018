import { RobotsAuditError } from '../../core/errors.js';
import { openDatabase } from '../cache/open-database.js';
import { type Capture, captureOf, isCaptureRecord, robotsOrigin } from './capture.js';
import { ObservationStore, type RebuildStats } from './observation-store.js';
import { parseTargetUri } from './warc-head.js';
import { readWarcBatches } from './warc-reader.js';

/**
 * `robots-audit import`: every robots.txt capture of WARC archives into the policy cache as an
 * observation of its origin, then each touched origin's versions rebuilt from all its observations.
 * Captures are committed in batches; the origins to rebuild are queued in the same transactions, so a
 * killed import leaves a cache that the next import (of anything, or nothing new) completes.
 */

/** Captures committed per transaction. */
const BATCH_CAPTURES = 5000;
/** Body bytes written before a batch is committed early. */
const BATCH_BYTES = 8 * 1024 * 1024;
/** Longest a batch stays open: input that stalls (a pipe) must not keep other writers of the cache waiting. */
const BATCH_OPEN_MS = 1000;

export interface ArchiveInput {
  /** The file name recorded in each capture's source (`warc:<name>@<offset>`). */
  name: string;
  chunks: AsyncIterable<Buffer>;
}

export interface ImportOptions {
  cache: string;
  maxBody: number;
  signal?: AbortSignal;
  onProgress?(p: ImportProgress): void;
}

export interface ImportProgress {
  file: string;
  files: number;
  fileIndex: number;
  records: number;
  captures: number;
  phase: 'read' | 'rebuild';
  rebuilt: number;
}

export interface Place {
  file: string;
  offset: string;
  reason: string;
}

export interface ImportSummary {
  files: number;
  records: number;
  captures: {
    total: number;
    new: number;
    alreadyStored: number;
    byOutcome: {
      parsed: number;
      unavailable: number;
      unreachable: number;
      redirect: number;
      revisit: number;
    };
  };
  /** Captures of other URIs kept only as redirect targets. */
  redirectTargets: number;
  skipped: { total: number; byType: Record<string, number> };
  malformed: { total: number; examples: Place[] };
  /** Files whose reading stopped before their end (what came before is imported). */
  stopped: Place[];
  rebuild: RebuildStats;
  elapsedMs: number;
}

function lastSegmentNamesRobots(url: URL): boolean {
  const segment = url.pathname.slice(url.pathname.lastIndexOf('/') + 1);
  return /robots/i.test(segment);
}

export async function importArchives(inputs: ArchiveInput[], options: ImportOptions): Promise<ImportSummary> {
  const started = Date.now();
  const db = openDatabase(options.cache);
  const store = new ObservationStore(db);
  const summary: ImportSummary = {
    files: inputs.length,
    records: 0,
    captures: {
      total: 0,
      new: 0,
      alreadyStored: 0,
      byOutcome: { parsed: 0, unavailable: 0, unreachable: 0, redirect: 0, revisit: 0 },
    },
    redirectTargets: 0,
    skipped: { total: 0, byType: {} },
    malformed: { total: 0, examples: [] },
    stopped: [],
    rebuild: undefined as unknown as RebuildStats,
    elapsedMs: 0,
  };
  // Captures go into SQLite as they are read, committed BATCH_CAPTURES at a time: none waits in memory.
  let pending = 0;
  let pendingBytes = 0;
  /** Captures added, stored or not: those not new were already stored. */
  let added = 0;
  let timer: NodeJS.Timeout | undefined;
  let timerError: unknown;
  const commit = () => {
    clearTimeout(timer);
    timer = undefined;
    if (pending > 0) summary.captures.new += store.commit();
    pending = 0;
    pendingBytes = 0;
  };
  const add = (c: Capture) => {
    if (timerError !== undefined) throw timerError;
    if (pending === 0) {
      store.begin();
      timer = setTimeout(() => {
        try {
          commit();
        } catch (err) {
          timerError = err;
        }
      }, BATCH_OPEN_MS);
    }
    store.addOne(c);
    added++;
    pending++;
    pendingBytes += c.bytes;
    if (pending >= BATCH_CAPTURES || pendingBytes >= BATCH_BYTES) commit();
  };
  const malformed = (file: string, offset: string, reason: string) => {
    summary.malformed.total++;
    if (summary.malformed.examples.length < 20) summary.malformed.examples.push({ file, offset, reason });
  };
  try {
    store.deferIndexes();
    for (const [index, input] of inputs.entries()) {
      // A wanted record is marked with its target URI.
      const want = (head: Parameters<typeof isCaptureRecord>[0]) => {
        if (!isCaptureRecord(head)) return null;
        const url = parseTargetUri(head.headers.get('warc-target-uri'));
        if (url === null) return null;
        // Kept by its own name only, so that which files are read first changes nothing.
        return robotsOrigin(url) !== null || lastSegmentNamesRobots(url) ? url : null;
      };
      const progress = (): ImportProgress => ({
        file: input.name,
        files: inputs.length,
        fileIndex: index,
        records: summary.records,
        captures: summary.captures.total,
        phase: 'read',
        rebuilt: 0,
      });
      reading: for await (const events of readWarcBatches(input.chunks, want)) {
        for (const event of events) {
          if (options.signal?.aborted) break reading;
          if (event.type === 'stopped') {
            summary.stopped.push({ file: input.name, offset: event.offset, reason: event.reason });
            continue;
          }
          if (event.type === 'malformed') {
            malformed(input.name, event.offset, event.reason);
            continue;
          }
          summary.records++;
          if ((summary.records & 4095) === 0) options.onProgress?.(progress());
          if (event.type === 'skipped') {
            summary.skipped.total++;
            const type = event.warcType || '(none)';
            summary.skipped.byType[type] = (summary.skipped.byType[type] ?? 0) + 1;
            continue;
          }
          const read = captureOf(event, event.mark, input.name, options.maxBody);
          const r = read instanceof Promise ? await read : read;
          if (!r.ok) {
            malformed(input.name, event.offset, r.reason);
            continue;
          }
          const c = r.capture;
          if (c.origin === null) summary.redirectTargets++;
          else {
            summary.captures.total++;
            const kind = c.kind === 'revisit' ? 'revisit' : c.location !== null ? 'redirect' : c.outcome!;
            summary.captures.byOutcome[kind]++;
          }
          add(c);
        }
      }
      commit();
      options.onProgress?.(progress());
      if (options.signal?.aborted) break;
    }
    commit();
    if (timerError !== undefined) throw timerError;
    summary.captures.alreadyStored = added - summary.captures.new;
    // Also when stopped by a signal: what was read is committed, and its origins are rebuilt now.
    summary.rebuild = store.rebuildQueued((rebuilt) =>
      options.onProgress?.({
        file: '',
        files: inputs.length,
        fileIndex: inputs.length,
        records: summary.records,
        captures: summary.captures.total,
        phase: 'rebuild',
        rebuilt,
      }),
    );
  } finally {
    try {
      // When reading failed: the captures of the open batch are dropped, and the file keeps every index.
      clearTimeout(timer);
      store.rollback();
      store.restoreIndexes();
    } finally {
      db.close();
    }
  }
  summary.elapsedMs = Date.now() - started;
  if (options.signal?.aborted) throw new RobotsAuditError('ERR_ABORTED', 'import stopped by a signal');
  return summary;
}
