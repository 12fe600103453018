import { RobotsAuditError } from '../../core/errors.js';
import { formatRecord } from '../../rows/csv-quote.js';
import { parseQuotedRecords } from '../../rows/quoted-records.js';
import { KIND_BLANK, KIND_MALFORMED, RecordScanner } from '../../rows/record-scanner.js';
import { bomLength, excelSeparator } from '../input/header.js';
import { type VerdictLayout, verdictLayout } from './verdict-layout.js';

/**
 * Reads a classify output record by record, in flat memory, over a latin1 view of its bytes (one char
 * per byte, so bytes that are not UTF-8 survive). Records without a quote are split by hand; the
 * others are found by classify's quote-aware scanner and parsed by csv-parse.
 */

/** A record: its input columns as one string (as written; re-quoted canonically when it had a quote). */
export interface VerdictRow {
  input: string;
  /** The cells asked for with `want`, in that order ('' when the record is short). */
  cells: string[];
  /** 1-based record number (header excluded). */
  record: number;
}

/** Records as read, not yet split: plain ones are split only when their pair differs. */
export interface RecordBatch {
  /** Each record's text, line end excluded (latin1). */
  lines: string[];
  /** The fields of the records that had a quote (parsed by csv-parse as they were read), by index. */
  fields: Map<number, string[]> | null;
  /** Record number of lines[0]. */
  first: number;
}

export interface VerdictHead {
  layout: VerdictLayout;
  delimiter: string;
  eol: '\n' | '\r\n';
  /** An Excel `sep=X` line with its line end, as read ('' when none). */
  sep: string;
  /** The header's column names as read (latin1, one char per byte), for writing them back. */
  rawColumns: string[];
}

/** Longest record held in memory, as for classify's input lines. */
const MAX_LINE = 64 << 20;
const CANDIDATES = [',', '\t', ';', '|'];

export class VerdictReader {
  private text = '';
  private pos = 0;
  private eof = false;
  private records = 0;
  private delim = ',';
  private readonly scanner = new RecordScanner();
  private scannerText: string | null = null;
  private quoteAt = -1;
  private want: number[] = [];
  private inputStart = 0;
  private inputEnd = 0;
  private starts = new Int32Array(64);
  private readonly it: AsyncIterator<Buffer>;

  constructor(
    readonly file: string,
    chunks: AsyncIterable<Buffer>,
    private readonly delimiter?: string,
  ) {
    this.it = chunks[Symbol.asyncIterator]();
  }

  private async more(): Promise<boolean> {
    if (this.eof) return false;
    const r = await this.it.next();
    if (r.done) {
      this.eof = true;
      return false;
    }
    const rest = this.text.length - this.pos;
    if (rest > MAX_LINE && this.text.indexOf('\n', this.pos) < 0) {
      throw new RobotsAuditError('ERR_RECORD_TOO_LONG', `${this.file}: a line is longer than 64 MiB`, {
        path: this.file,
      });
    }
    this.text = this.text.slice(this.pos) + r.value.toString('latin1');
    this.pos = 0;
    this.quoteAt = -1;
    this.scannerText = null;
    return true;
  }

  /** The next line's content (no line end), consumed; null at the end of the file. */
  private async line(): Promise<{ content: string; eol: '\n' | '\r\n' } | null> {
    for (;;) {
      const lf = this.text.indexOf('\n', this.pos);
      if (lf >= 0 || (this.eof && this.pos < this.text.length)) {
        const end = lf >= 0 ? lf : this.text.length;
        const crlf = end > this.pos && this.text.charCodeAt(end - 1) === 13;
        const content = this.text.slice(this.pos, crlf ? end - 1 : end);
        this.pos = lf >= 0 ? lf + 1 : end;
        return { content, eol: crlf ? '\r\n' : '\n' };
      }
      if (!(await this.more())) return null;
    }
  }

  /** Reads the `sep=` line and the header; learns the delimiter and the layout. */
  async open(): Promise<VerdictHead> {
    await this.more();
    this.pos = bomLength(Buffer.from(this.text.slice(0, 3), 'latin1'));
    let first = await this.line();
    if (first === null) {
      throw new RobotsAuditError('ERR_NO_HEADER', `${this.file} is empty: it has no header row`, {
        path: this.file,
      });
    }
    let sep = '';
    let delimiter = this.delimiter;
    const declared = excelSeparator(first.content);
    if (declared !== undefined) {
      sep = first.content + first.eol;
      delimiter ??= declared;
      first = await this.line();
      if (first === null) {
        throw new RobotsAuditError('ERR_NO_HEADER', `${this.file} has no header row`, { path: this.file });
      }
    }
    delimiter ??=
      CANDIDATES.find((d) => first!.content.split(d).some((c) => /^"?verdict(:|"|$)/.test(c))) ?? ',';
    this.delim = delimiter;
    const [parsed] = parseQuotedRecords([first.content], delimiter);
    if (parsed === null || parsed === undefined) {
      throw new RobotsAuditError('ERR_BAD_HEADER', `${this.file}: the header row is not valid CSV`, {
        path: this.file,
      });
    }
    const columns = parsed.fields.map((f) => Buffer.from(f, 'latin1').toString('utf8'));
    const layout = verdictLayout(columns, this.file);
    this.inputStart = layout.inputStart;
    this.inputEnd = layout.inputEnd;
    return { layout, delimiter, eol: first.eol, sep, rawColumns: parsed.fields };
  }

  /** The columns whose cells each row carries, in this order. */
  select(columns: number[]): void {
    this.want = columns;
    // Splitting stops past the last column needed: the rest of the record is never looked at.
    this.starts = new Int32Array(Math.max(this.inputEnd, ...columns) + 3);
  }

  /** The records of the next stretch of the file, not yet split; null at its end. */
  async batch(): Promise<RecordBatch | null> {
    for (;;) {
      const batch: RecordBatch = { lines: [], fields: null, first: this.records + 1 };
      this.readRecords(batch);
      this.records += batch.lines.length;
      if (batch.lines.length > 0) return batch;
      if (!(await this.more()) && this.pos >= this.text.length) return null;
    }
  }

  /** Record `i` of `batch`, split. */
  row(batch: RecordBatch, i: number): VerdictRow {
    const f = batch.fields?.get(i);
    const record = batch.first + i;
    if (f === undefined) return this.plain(batch.lines[i]!, record);
    const input = formatRecord(f.slice(this.inputStart, this.inputEnd), this.delim);
    return { input, cells: this.want.map((k) => f[k] ?? ''), record };
  }

  private readRecords(batch: RecordBatch): void {
    const text = this.text;
    const lines = batch.lines;
    for (;;) {
      const p = this.pos;
      if (p >= text.length) return;
      const lf = text.indexOf('\n', p);
      if (lf < 0 && !this.eof) return;
      const lineEnd = lf < 0 ? text.length : lf;
      if (this.quoteAt < p && this.quoteAt !== -2) {
        const q = text.indexOf('"', p);
        this.quoteAt = q < 0 ? -2 : q;
      }
      if (this.quoteAt === -2 || this.quoteAt >= lineEnd) {
        const end = lineEnd > p && text.charCodeAt(lineEnd - 1) === 13 ? lineEnd - 1 : lineEnd;
        this.pos = lf < 0 ? text.length : lf + 1;
        if (end > p) lines.push(text.slice(p, end));
        continue;
      }
      if (!this.quoted(text, batch)) return;
    }
  }

  /** A record without quotes in [start, end). */
  private plain(text: string, record: number): VerdictRow {
    const start = 0;
    const end = text.length;
    const starts = this.starts;
    const delim = this.delim;
    const last = starts.length - 2;
    let count = 0;
    for (let s = start; ; ) {
      starts[count++] = s;
      const d = text.indexOf(delim, s);
      if (d < 0 || d >= end || count > last) break;
      s = d + 1;
    }
    starts[count] = end + 1;
    const field = (i: number) => (i >= 0 && i < count ? text.slice(starts[i]!, starts[i + 1]! - 1) : '');
    const inputEnd = Math.min(this.inputEnd, count);
    const input =
      this.inputStart < inputEnd ? text.slice(starts[this.inputStart]!, starts[inputEnd]! - 1) : '';
    const cells = this.want.map(field);
    return { input, cells, record };
  }

  /** A record with a quote, parsed by csv-parse; false when more of the file is needed. */
  private quoted(text: string, batch: RecordBatch): boolean {
    if (this.scannerText !== text) {
      this.scannerText = text;
      this.scanner.reset(text, text.length, this.delim.charCodeAt(0), this.eof);
    }
    const p = this.pos;
    if (!this.scanner.scan(p)) return false;
    const { contentEnd, next, kind } = this.scanner;
    this.pos = next;
    if (kind === KIND_BLANK) return true;
    const [parsed] =
      kind === KIND_MALFORMED ? [null] : parseQuotedRecords([text.slice(p, contentEnd)], this.delim);
    if (parsed === null || parsed === undefined) {
      throw new RobotsAuditError(
        'ERR_INPUT',
        `${this.file} record ${batch.first + batch.lines.length}: not valid CSV (an unterminated quote)`,
        { path: this.file },
      );
    }
    batch.fields ??= new Map();
    batch.fields.set(batch.lines.length, parsed.fields);
    batch.lines.push(text.slice(p, contentEnd));
    return true;
  }
}
