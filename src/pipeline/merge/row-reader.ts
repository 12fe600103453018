import { RobotsAuditError } from '../../core/errors.js';
import { KIND_QUOTED, MAX_RECORD_BYTES, RecordScanner } from '../../rows/record-scanner.js';
import { bomLength, excelSeparator } from '../input/header.js';

/**
 * Reads a classify `--row-number` output record by record, in flat memory: each record with its
 * leading row_number, its bytes (line end included) and the line it starts on. Records are found by
 * the quote-aware scanner the classifier uses, so a quoted field spanning lines stays one record.
 */

/** Longest record held in memory, as for classify's input lines. */
export const MAX_RECORD = 64 << 20;
const LF = 10;
const CR = 13;
const ZERO = 48;
const NINE = 57;
const QUOTE = 34;
const ROW_NUMBER = Buffer.from('row_number');

export interface MergeRecord {
  rowNumber: number;
  /** The record as read, line end included (one is added to a last record that has none). */
  bytes: Buffer;
  /** Length of the `row_number` field and its delimiter at the start of `bytes`. */
  prefix: number;
  /** 1-based line of the file where the record starts. */
  line: number;
}

export interface RowFileHead {
  /** An Excel `sep=X` first line, as read (with its line end), or null. */
  sep: Buffer | null;
  /** The header record (with its line end), or null for headerless files. */
  header: Buffer | null;
  delimiter: number;
}

function badInput(file: string, message: string, line?: number): RobotsAuditError {
  return new RobotsAuditError(
    'ERR_INPUT',
    `${file}${line === undefined ? '' : ` line ${line}`}: ${message}`,
    {
      path: file,
      ...(line === undefined ? {} : { line }),
    },
  );
}

const isDigit = (c: number | undefined) => c !== undefined && c >= ZERO && c <= NINE;

export class RowReader {
  /** The bytes read and not yet consumed are buf[pos, buf.length); buf is a view of `store`. */
  private store: Buffer = Buffer.alloc(0);
  private buf: Buffer = Buffer.alloc(0);
  private pos = 0;
  private eof = false;
  private line = 1;
  private readonly scanner = new RecordScanner();
  /** buf[textBase, textEnd) as latin1 (one char per byte), as the scanner reads it. */
  private text = '';
  private textBase = 0;
  private textEnd = -1;
  private textEof = false;
  /** Where the last search for a quote in `quoteIn` started, and what it found. */
  private quoteIn: Buffer | null = null;
  private quoteFrom = 0;
  private quoteAt = -1;
  private readonly it: AsyncIterator<Buffer>;
  private lineEnd: Buffer = Buffer.from('\n');
  /** Records read and not yet taken, in file order. */
  private queue: MergeRecord[] = [];
  private taken = 0;
  private lastRow = 0;
  head: RowFileHead = { sep: null, header: null, delimiter: 44 };

  constructor(
    readonly file: string,
    chunks: AsyncIterable<Buffer>,
  ) {
    this.it = chunks[Symbol.asyncIterator]();
  }

  /** Reads more bytes; false at the end of the file. Appends in place, growing geometrically. */
  private async more(): Promise<boolean> {
    if (this.eof) return false;
    const r = await this.it.next();
    if (r.done) {
      this.eof = true;
      return false;
    }
    const chunk = r.value;
    const rest = this.buf.length - this.pos;
    if (rest + chunk.length > MAX_RECORD + (1 << 20) && this.buf.indexOf(LF, this.pos) < 0) {
      throw new RobotsAuditError(
        'ERR_RECORD_TOO_LONG',
        `${this.file} line ${this.line}: longer than 64 MiB`,
        {
          path: this.file,
          line: this.line,
        },
      );
    }
    const start = this.buf.byteOffset - this.store.byteOffset;
    const end = start + this.buf.length;
    if (rest === 0) {
      this.store = chunk;
      this.buf = chunk;
      this.pos = 0;
    } else if (this.buf.buffer === this.store.buffer && end + chunk.length <= this.store.length) {
      chunk.copy(this.store, end);
      this.buf = this.store.subarray(start, end + chunk.length);
    } else {
      const grown = Buffer.allocUnsafe(Math.max(2 * (rest + chunk.length), 1 << 20));
      this.buf.copy(grown, 0, this.pos);
      chunk.copy(grown, rest);
      this.store = grown;
      this.buf = grown.subarray(0, rest + chunk.length);
      this.pos = 0;
    }
    this.textEnd = -1;
    return true;
  }

  /** The bytes up to and including the next LF (or to the end of the file), without consuming them. */
  private async firstLine(): Promise<Buffer> {
    for (;;) {
      const lf = this.buf.indexOf(LF, this.pos);
      if (lf >= 0) return this.buf.subarray(this.pos, lf + 1);
      if (!(await this.more())) return this.buf.subarray(this.pos);
    }
  }

  /** Reads the `sep=` line and the header (when `header`), and learns the delimiter. */
  async open(header: boolean): Promise<RowFileHead> {
    let line = await this.firstLine();
    this.pos = bomLength(line);
    line = await this.firstLine();
    if (line.length === 0) {
      if (header) throw new RobotsAuditError('ERR_NO_HEADER', `${this.file} is empty: it has no header row`);
      return this.head;
    }
    const content = line.subarray(0, line.length - lineEndLength(line));
    const sep = header ? excelSeparator(content.toString('latin1')) : undefined;
    if (sep !== undefined) {
      this.head.sep = Buffer.from(line);
      this.head.delimiter = sep.charCodeAt(0);
      this.pos += line.length;
      this.line++;
      line = await this.firstLine();
    }
    if (line.subarray(0, ROW_NUMBER.length).equals(ROW_NUMBER)) {
      if (!header) throw badInput(this.file, 'starts with a header row: leave out --no-header', this.line);
      if (sep === undefined) this.head.delimiter = line[ROW_NUMBER.length] ?? 44;
      const record = await this.nextRecord(ROW_NUMBER.length);
      this.head.header = record!.bytes;
    } else if (isDigit(line[0])) {
      if (header) {
        throw badInput(this.file, 'has no header row (its first line is a row): give --no-header', this.line);
      }
      let i = 0;
      while (isDigit(line[i])) i++;
      this.head.delimiter = line[i] ?? 44;
    } else {
      throw badInput(
        this.file,
        'does not start with a row_number column (write it with classify --row-number)',
        this.line,
      );
    }
    const ending = this.head.header ?? line;
    this.lineEnd = Buffer.from(lineEndLength(ending) === 2 ? '\r\n' : '\n');
    return this.head;
  }

  /**
   * Points the scanner at buf[pos, end), decoding again only when that is not already decoded. With
   * end short of the buffer's end the scanner is told more follows, so it decides a record or asks.
   */
  private scannerFor(end: number): RecordScanner {
    const eof = this.eof && end === this.buf.length;
    if (this.pos < this.textBase || this.pos > this.textEnd || end !== this.textEnd || eof !== this.textEof) {
      this.textBase = this.pos;
      this.textEnd = end;
      this.textEof = eof;
      this.text = this.buf.toString('latin1', this.pos, end);
      this.scanner.reset(this.text, this.text.length, this.head.delimiter, eof);
    }
    return this.scanner;
  }

  /** The next `"` at or after `from` (-1: none read yet), searched again only once passed or more is read. */
  private nextQuote(from: number): number {
    if (this.quoteIn !== this.buf || from < this.quoteFrom || (this.quoteAt >= 0 && this.quoteAt < from)) {
      this.quoteIn = this.buf;
      this.quoteFrom = from;
      this.quoteAt = this.buf.indexOf(QUOTE, from);
    }
    return this.quoteAt;
  }

  /** Consumes the record of `length` bytes at pos that spans `lines` lines. */
  private cut(length: number, lines: number): { bytes: Buffer; line: number } {
    const line = this.line;
    let bytes = this.buf.subarray(this.pos, this.pos + length);
    this.line += lines;
    this.pos += length;
    if (bytes.at(-1) !== LF) bytes = Buffer.concat([bytes, this.lineEnd]);
    return { bytes, line };
  }

  /** A record with a quote past its first field, found by the scanner over a window of the buffer. */
  private scanQuoted(prefix: number): { bytes: Buffer; line: number } | null {
    // A window a little past the scanner's 64 KiB bound on quoted fields decides almost every record;
    // a record it cannot decide (a long unquoted tail) is scanned again over all that is read.
    const window = this.pos + prefix + 1 + MAX_RECORD_BYTES + 1024;
    const cached = this.pos >= this.textBase && this.pos < this.textEnd && this.textEnd <= this.buf.length;
    const ends = [...(cached ? [this.textEnd] : []), Math.min(window, this.buf.length), this.buf.length];
    for (const end of ends) {
      const scanner = this.scannerFor(end);
      const at = this.pos - this.textBase;
      if (scanner.scan(Math.min(at + prefix + 1, this.text.length))) {
        const length = scanner.next - at;
        const record = this.buf.subarray(this.pos, this.pos + length);
        return this.cut(length, scanner.kind === KIND_QUOTED ? countLf(record) : 1);
      }
      if (end === this.buf.length) break;
    }
    return null;
  }

  /**
   * The next record, whose first field (`prefix` bytes, unquoted) and its delimiter are skipped before
   * quotes are looked for: that field is not part of the record classify judged, so the scanner's
   * bounds on quoted fields apply as they did there. A line without a quote is a record as it is.
   * Null at the end of the file.
   */
  private async nextRecord(prefix: number): Promise<{ bytes: Buffer; line: number } | null> {
    for (;;) {
      if (this.buf.length > this.pos) {
        const from = this.pos + prefix + 1;
        const lf = this.buf.indexOf(LF, this.pos);
        const quote = this.nextQuote(from);
        const plainEnd = lf >= 0 ? lf + 1 : this.eof ? this.buf.length : -1;
        if (plainEnd >= 0 && (quote < 0 || quote >= plainEnd)) return this.cut(plainEnd - this.pos, 1);
        if (quote >= 0) {
          const record = this.scanQuoted(prefix);
          if (record !== null) return record;
        }
      }
      if (!(await this.more()) && this.buf.length === this.pos) return null;
    }
  }

  /** The next data record, checked: a row_number field that is a positive integer, ascending. */
  private async readRow(): Promise<MergeRecord | null> {
    const first = await this.firstLine();
    if (first.length === 0) return null;
    let i = 0;
    let rowNumber = 0;
    for (let c = first[0]; isDigit(c); c = first[++i]) rowNumber = rowNumber * 10 + (c! - ZERO);
    const line = this.line;
    if (i === 0 || first[i] !== this.head.delimiter) {
      const what =
        first.length <= 2 && (first[0] === LF || first[0] === CR)
          ? 'is blank'
          : 'does not start with a row_number';
      throw badInput(this.file, what, line);
    }
    if (rowNumber < 1 || i > 15) {
      throw badInput(
        this.file,
        `row_number ${first.toString('latin1', 0, Math.min(i, 30))} is not a row number`,
        line,
      );
    }
    if (rowNumber <= this.lastRow) {
      throw badInput(
        this.file,
        `row_number ${rowNumber} comes after ${this.lastRow}: the rows are not in input order`,
        line,
      );
    }
    this.lastRow = rowNumber;
    const record = await this.nextRecord(i);
    return record === null ? null : { rowNumber, bytes: record.bytes, prefix: i + 1, line: record.line };
  }

  /** Reads records until `n` are waiting (or the file ends); false when none is left. */
  async fill(n = 256): Promise<boolean> {
    if (this.taken > 0) {
      this.queue = this.queue.slice(this.taken);
      this.taken = 0;
    }
    while (this.queue.length < n) {
      const r = await this.readRow();
      if (r === null) break;
      this.queue.push(r);
      // Whatever is already read is worth merging now: do not wait on a slow pipe for a full queue.
      if (this.buf.length - this.pos === 0 && this.queue.length > 0) break;
    }
    return this.queue.length > 0;
  }

  /** The next record read and not taken, if any. */
  peek(): MergeRecord | undefined {
    return this.queue[this.taken];
  }

  take(): MergeRecord {
    return this.queue[this.taken++]!;
  }
}

function lineEndLength(b: Buffer): number {
  if (b.at(-1) !== LF) return 0;
  return b.at(-2) === CR ? 2 : 1;
}

function countLf(b: Buffer): number {
  let n = 0;
  for (let i = b.indexOf(LF); i >= 0; i = b.indexOf(LF, i + 1)) n++;
  return n;
}
