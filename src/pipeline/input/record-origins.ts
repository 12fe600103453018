import { ownString } from '../../core/bytes.js';
import { RobotsAuditError } from '../../core/errors.js';
import { FieldSplitter } from '../../rows/field-split.js';
import { parseQuotedRecords, utf8Of } from '../../rows/quoted-records.js';
import { KIND_BLANK, KIND_MALFORMED, KIND_QUOTED, RecordScanner } from '../../rows/record-scanner.js';
import type { RowCode } from '../../rows/row-error-codes.js';
import { keyOf, newRowSlot, type Origin, resolveRowInto } from '../../rows/row-url.js';
import { BatchRows } from '../../workers/batch-rows.js';
import type { Options } from '../options.js';
import { Batcher, MAX_PENDING_BYTES } from './batcher.js';
import { type Header, HeaderReader } from './header.js';
import { LineModeStart } from './line-mode.js';

/**
 * The origin each record of a crawl log names, or why it names none, decided as classify decides it:
 * the same header row (BOM, Excel `sep=X`, column matching and its errors) or line-mode columns, the same
 * batches of whole records (64 MiB line limit), and per batch the workers' record scanner, field
 * splitter, csv-parse for quoted records, short/extra-field rules and row URL resolution. `fetch` reads
 * its input through this, so it warms exactly the origins classify then looks up.
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

/** The outcomes of one batch of whole records, found with the building blocks of a worker's first pass. */
export class BatchOrigins {
  private readonly rows: BatchRows;
  private readonly scanner = new RecordScanner();
  private readonly splitter = new FieldSplitter();
  private readonly slot = newRowSlot();
  /** Blank lines outside line mode: classify writes no row for them. */
  blankLines = 0;

  constructor(
    private readonly header: Header,
    private readonly scheme: 'http' | 'https',
    private readonly lineMode: boolean,
  ) {
    this.rows = new BatchRows({ columns: header.columns.length, delimiter: header.delimiter });
  }

  /** Every record of `bytes` in order (blank lines outside line mode are none). */
  judge(bytes: Buffer): RecordOrigin[] {
    const { rows, scanner, splitter, header } = this;
    rows.reset(bytes);
    const n = bytes.length;
    scanner.reset(rows.text, n, header.delimiter.charCodeAt(0), true);
    splitter.reset(rows.text, header.delimiter);
    const out: RecordOrigin[] = [];
    const quoted: number[] = [];
    for (let p = 0; p < n; ) {
      scanner.scan(p);
      const start = p;
      p = scanner.next;
      if (scanner.kind === KIND_BLANK && !this.lineMode) {
        this.blankLines++;
        continue;
      }
      const i = rows.add(start, scanner.contentEnd);
      if (scanner.kind === KIND_BLANK) rows.blank(i);
      else if (scanner.kind === KIND_MALFORMED) rows.malformed(i);
      else if (scanner.kind === KIND_QUOTED) quoted.push(i);
      else {
        splitter.split(start, scanner.contentEnd, header.urlIndex, header.hostIndex);
        if (rows.fitPlain(i, splitter.count, splitter)) {
          const url = splitter.aStart < 0 ? undefined : rows.value(splitter.aStart, splitter.aEnd);
          const host = splitter.bStart < 0 ? undefined : rows.value(splitter.bStart, splitter.bEnd);
          out[i] = this.resolve(url, host);
          continue;
        }
      }
      out[i] = failure(rows.codes[i]!);
    }
    if (quoted.length > 0) this.judgeQuoted(out, quoted);
    rows.release();
    return out;
  }

  /** Records with a quote: csv-parse reads them, as in a worker. */
  private judgeQuoted(out: RecordOrigin[], quoted: readonly number[]): void {
    const { rows, header } = this;
    const parsed = parseQuotedRecords(
      quoted.map((i) => rows.bytesAt(rows.starts[i]!, rows.ends[i]!)),
      header.delimiter,
    );
    for (let k = 0; k < quoted.length; k++) {
      const i = quoted[k]!;
      const rec = parsed[k];
      if (rec === null || rec === undefined) rows.malformed(i);
      else if (rows.fitFields(i, rec.fields, rec.strict)) {
        const host = header.hostIndex < 0 ? undefined : utf8Of(rec.fields[header.hostIndex]);
        out[i] = this.resolve(utf8Of(rec.fields[header.urlIndex]), host);
        continue;
      }
      out[i] = failure(rows.codes[i]!);
    }
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
