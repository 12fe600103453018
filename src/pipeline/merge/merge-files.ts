import { realpathSync } from 'node:fs';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { RobotsAuditError } from '../../core/errors.js';
import { type InputSource, openInput } from '../input/input-source.js';
import { OutputSink } from '../output/output-sink.js';
import { mergeRows } from './merge-rows.js';
import { mergeSummaries, parseSummary, type SummaryFile } from './merge-summaries.js';
import { RowReader } from './row-reader.js';

/**
 * `robots-audit merge FILE...`: every FILE a classify `--summary` (merged into one summary) or every
 * FILE a classify `--row-number` output (merged into input order). A file is a summary when its first
 * byte other than whitespace is `{`.
 */

export interface MergeOptions {
  files: readonly string[];
  /** Where the result goes: a file (written atomically, `.gz` compressed) or `-` for stdout. */
  output: string;
  /** Row files start with a header row; false for outputs written with `--no-header`. */
  header: boolean;
  dropRowNumber: boolean;
  signal?: AbortSignal;
  stdout?: Writable;
}

export type MergeResult = { kind: 'summaries'; shards: number } | { kind: 'rows'; rows: number };

/** A summary is read whole: anything larger is not one. */
const MAX_SUMMARY_BYTES = 64 << 20;

interface Opened {
  file: string;
  source: InputSource;
  /** The file's bytes, the first chunk (already read to tell its kind) included. */
  chunks: AsyncIterable<Buffer>;
  kind: 'summary' | 'rows';
}

/** Opens `file` and reads its first bytes to tell its kind; `opened` gets the source before that read. */
async function openOne(file: string, opened: (source: InputSource) => void): Promise<Opened> {
  const source = await openInput(file);
  opened(source);
  const it = source.chunks[Symbol.asyncIterator]();
  const first = await it.next();
  const head = first.done ? Buffer.alloc(0) : first.value;
  const text = head
    .subarray(0, 64)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
  const kind = /^\s*\{/.test(text) ? 'summary' : 'rows';
  async function* chunks(): AsyncGenerator<Buffer> {
    if (first.done) return;
    yield first.value;
    for (let r = await it.next(); !r.done; r = await it.next()) yield r.value;
  }
  return { file, source, chunks: chunks(), kind };
}

async function readSummary(o: Opened): Promise<SummaryFile> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const c of o.chunks) {
    size += c.length;
    if (size > MAX_SUMMARY_BYTES) {
      throw new RobotsAuditError('ERR_INPUT', `${o.file} is larger than 64 MiB: not a summary`, {
        path: o.file,
      });
    }
    parts.push(c);
  }
  return parseSummary(o.file, Buffer.concat(parts).toString('utf8'));
}

async function writeTo(options: MergeOptions, body: (sink: OutputSink) => Promise<void>): Promise<void> {
  const sink = OutputSink.open(options.output, {
    label: 'output',
    ...(options.stdout ? { stdout: options.stdout } : {}),
  });
  try {
    await body(sink);
    options.signal?.throwIfAborted();
    await sink.commit();
  } catch (err) {
    await sink.abort();
    throw err;
  }
}

/** The file's real path, or its absolute path when it cannot be resolved (openInput names why). */
function realPath(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return path.resolve(file);
  }
}

export async function mergeFiles(options: MergeOptions): Promise<MergeResult> {
  if (options.files.length === 0) throw new RobotsAuditError('ERR_USAGE', 'Give the files to merge');
  if (options.files.filter((f) => f === '-').length > 1) {
    throw new RobotsAuditError('ERR_USAGE', 'stdin (-) can be given only once');
  }
  const seen = new Map<string, string>();
  for (const file of options.files) {
    if (file === '-') continue;
    const key = realPath(file);
    const before = seen.get(key);
    if (before !== undefined)
      throw new RobotsAuditError('ERR_USAGE', `${file} is given twice (also as ${before})`);
    seen.set(key, file);
  }
  const opened: Opened[] = [];
  const sources: InputSource[] = [];
  // A stop ends reads still waiting (a FIFO without a writer); what was read is then never committed.
  const closeAll = () => {
    for (const source of sources) source.close();
  };
  options.signal?.addEventListener('abort', closeAll, { once: true });
  try {
    for (const file of options.files) {
      options.signal?.throwIfAborted();
      opened.push(await openOne(file, (source) => sources.push(source)));
    }
    options.signal?.throwIfAborted();
    const summary = opened.find((o) => o.kind === 'summary');
    const rows = opened.find((o) => o.kind === 'rows');
    if (summary !== undefined && rows !== undefined) {
      throw new RobotsAuditError(
        'ERR_USAGE',
        `${summary.file} is a summary (JSON) but ${rows.file} is not: merge summaries with summaries and row files with row files`,
      );
    }
    if (summary !== undefined) {
      const merged = mergeSummaries(await Promise.all(opened.map(readSummary)));
      await writeTo(options, (sink) => sink.write(Buffer.from(`${JSON.stringify(merged, null, 2)}\n`)));
      return { kind: 'summaries', shards: opened.length };
    }
    let count = 0;
    const readers = opened.map((o) => new RowReader(o.file, o.chunks));
    await writeTo(options, async (sink) => {
      count = await mergeRows(readers, { write: (b) => sink.write(b) }, options);
    });
    return { kind: 'rows', rows: count };
  } finally {
    options.signal?.removeEventListener('abort', closeAll);
    closeAll();
  }
}
