import { ownString } from '../../core/bytes.js';
import { RobotsAuditError } from '../../core/errors.js';
import { utf8Of } from '../../rows/quoted-records.js';
import type { RowCode } from '../../rows/row-error-codes.js';
import { keyOf, newRowSlot, type Origin, resolveRowInto } from '../../rows/row-url.js';
import { BatchRows } from '../../workers/batch-rows.js';
import { RecordWalk } from '../../workers/record-walk.js';
import type { Options } from '../options.js';
import { Batcher, MAX_PENDING_BYTES } from './batcher.js';
import { type Header, HeaderReader } from './header.js';
import { LineModeStart } from './line-mode.js';

/**
 * The origin each record of a crawl log names, or why it names none, decided as classify decides it:
 * the same header row (BOM, Excel `sep=X`, column matching and its errors) or line-mode columns, the same
 * batches of whole records (64 MiB line limit), and per batch the workers' walk over its records (record
 * scanner, field splitter, csv-parse for quoted records, short/extra-field rules) and row URL resolution.
 * `fetch` reads its input through this, so it warms exactly the origins classify then looks up.
 */

/** A record's outcome: the origin of a row classify would judge, or the row code of its `invalid_input` row. */
export type RecordOrigin = { ok: true; key: string; origin: Origin } | { ok: false; code: RowCode };

export type RecordReadOptions = Pick<Options, 'delimiter' | 'urlColumn' | 'hostColumn' | 'scheme'> &
  Partial<Pick<Options, 'header' | 'columns'>>;

const failed = new Map<RowCode, RecordOrigin>();

/** One shared outcome per code: invalid rows allocate nothing. */
function failure(code: RowCode): RecordOrigin {
  let f = failed.get(code);
  if (f === undefined) {
    f = Object.freeze({ ok: false, code });
    failed.set(code, f);
  }
  return f;
}

/** The outcomes of one batch of whole records, found with a worker's walk over them (record-walk.ts). */
export class BatchOrigins {
  private readonly rows: BatchRows;
  private readonly walk: RecordWalk;
  private readonly slot = newRowSlot();
  /** Blank lines outside line mode: classify writes no row for them. */
  blankLines = 0;

  constructor(
    private readonly header: Header,
    private readonly scheme: 'http' | 'https',
    lineMode: boolean,
  ) {
    this.rows = new BatchRows({ columns: header.columns.length, delimiter: header.delimiter });
    this.walk = new RecordWalk(header.delimiter, lineMode, { url: header.urlIndex, host: header.hostIndex });
  }

  /** Every record of `bytes` in order (blank lines outside line mode are none). */
  judge(bytes: Buffer): RecordOrigin[] {
    const { rows, walk, header } = this;
    rows.reset(bytes);
    walk.begin(rows);
    const out: RecordOrigin[] = [];
    const sp = walk.fields;
    for (let i = walk.nextPlain(); i >= 0; i = walk.nextPlain()) {
      // Rows the walk passed over: their row code; a quoted record's place is filled once csv-parse reads it.
      while (out.length < i) out.push(failure(rows.codes[out.length] ?? 'malformed_record'));
      const url = sp.aStart < 0 ? undefined : rows.value(sp.aStart, sp.aEnd);
      const host = sp.bStart < 0 ? undefined : rows.value(sp.bStart, sp.bEnd);
      out.push(this.resolve(url, host));
    }
    while (out.length < rows.count) out.push(failure(rows.codes[out.length] ?? 'malformed_record'));
    for (let i = walk.nextQuoted(); i >= 0; i = walk.nextQuoted()) {
      const fields = walk.quotedFields;
      if (fields === null) out[i] = failure(rows.codes[i]!);
      else {
        const host = header.hostIndex < 0 ? undefined : utf8Of(fields[header.hostIndex]);
        out[i] = this.resolve(utf8Of(fields[header.urlIndex]), host);
      }
    }
    this.blankLines += walk.blankLines;
    rows.release();
    return out;
  }

  private resolve(url: string | undefined, host: string | undefined): RecordOrigin {
    if (url === undefined) return failure('missing_url');
    const s = this.slot;
    const code = resolveRowInto(url, host, this.scheme, s);
    if (code !== null) return failure(code);
    // An own copy: a host sliced from the batch's text would keep all of it alive in a consumer's set.
    const origin: Origin = { scheme: s.scheme, host: ownString(s.host), port: s.port };
    return { ok: true, key: keyOf(origin), origin };
  }
}

function lineTooLong(): RobotsAuditError {
  return new RobotsAuditError(
    'ERR_RECORD_TOO_LONG',
    `a single input line is longer than ${MAX_PENDING_BYTES >> 20} MiB; is this a CSV file?`,
  );
}

/**
 * The outcomes of every record of the input (decoded bytes, as openInput's `chunks` gives them), one
 * array per batch of whole records, in input order. Reading waits while the consumer handles a batch;
 * once `signal` aborts, no further chunk is read.
 */
export async function* readRecordOrigins(
  chunks: AsyncIterable<Buffer>,
  options: RecordReadOptions,
  signal?: AbortSignal,
): AsyncGenerator<RecordOrigin[]> {
  const lineMode = options.header === false;
  const start = lineMode
    ? new LineModeStart({ ...options, header: false, columns: options.columns })
    : new HeaderReader(options);
  const it = chunks[Symbol.asyncIterator]();
  try {
    let header: Header | undefined;
    let eof = false;
    /** Bytes since the last LF before the header is whole: a first line past the limit fails as any line does. */
    let line = 0;
    while (header === undefined) {
      if (signal?.aborted) return;
      const r = await it.next();
      eof = r.done === true;
      if (!eof) {
        const first = r.value.indexOf(10);
        if (first >= 0 && line + first > MAX_PENDING_BYTES) throw lineTooLong();
        line = first < 0 ? line + r.value.length : r.value.length - r.value.lastIndexOf(10) - 1;
        if (line > MAX_PENDING_BYTES) throw lineTooLong();
      }
      header = start.push(eof ? null : r.value);
    }
    const batches = new BatchOrigins(header, options.scheme, lineMode);
    const batcher = new Batcher(header.delimiter.charCodeAt(0));
    const judged = function* (cut: Buffer[]): Generator<RecordOrigin[]> {
      for (const b of cut) {
        const outcomes = batches.judge(b);
        batcher.pool.give(b.buffer as ArrayBuffer);
        if (outcomes.length > 0) yield outcomes;
      }
    };
    yield* judged(batcher.push(start.rest()));
    while (!eof) {
      if (signal?.aborted) return;
      const r = await it.next();
      if (r.done === true) break;
      yield* judged(batcher.push(r.value));
    }
    yield* judged(batcher.end());
  } finally {
    await it.return?.();
  }
}
