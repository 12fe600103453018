import { RobotsAuditError } from '../../core/errors.js';
import { parseQuotedRecords } from '../../rows/quoted-records.js';
import { KIND_BLANK, KIND_MALFORMED, KIND_QUOTED, RecordScanner } from '../../rows/record-scanner.js';
import { MAX_PENDING_BYTES } from '../input/batcher.js';
import { type Header, HeaderReader } from '../input/header.js';
import { openInput } from '../input/input-source.js';
import { exampleHash, exampleHashRange } from './top-tally.js';

/** Names up to this length are indexed. */
const NAME_LENGTHS = 32;
const NO_NAME = -1;
const SEVERAL_NAMES = -2;

/** Names by (length, char at 8 or last): a field that matches one is compared once. */
export class NameIndex {
  readonly table = new Int16Array(NAME_LENGTHS * 256).fill(NO_NAME);

  constructor(readonly names: readonly string[]) {
    names.forEach((name, i) => {
      const len = name.length;
      if (len === 0 || len >= NAME_LENGTHS) return;
      const k = len * 256 + (name.charCodeAt(len > 8 ? 8 : len - 1) & 0xff);
      this.table[k] = this.table[k] === NO_NAME ? i : SEVERAL_NAMES;
    });
  }
}

/**
 * One record of a verdicts file, as the tally reads it: fields are latin1 views of the bytes (one char
 * per byte), taken by index. A record without quotes is split by hand; one with quotes by csv-parse.
 */
export class RowView {
  text = '';
  readonly starts: Int32Array;
  readonly ends: Int32Array;
  /** Fields of a quoted record (csv-parse's), or null for a split one. */
  fields: string[] | null = null;

  constructor(readonly width: number) {
    this.starts = new Int32Array(width);
    this.ends = new Int32Array(width);
  }

  /** Index in `names` of the name field `i` holds exactly, or -1; compares in place, with no copy. */
  match(i: number, names: readonly string[]): number {
    if (this.fields !== null) return names.indexOf(this.fields[i] ?? '');
    const start = this.starts[i]!;
    const len = this.ends[i]! - start;
    for (let k = 0; k < names.length; k++) {
      const name = names[k]!;
      if (name.length === len && this.text.startsWith(name, start)) return k;
    }
    return -1;
  }

  /** As `match`, through an index of the names: one comparison for most fields. */
  matchIndexed(i: number, index: NameIndex): number {
    if (this.fields !== null) return index.names.indexOf(this.fields[i] ?? '');
    const start = this.starts[i]!;
    const len = this.ends[i]! - start;
    if (len === 0 || len >= NAME_LENGTHS) return this.match(i, index.names);
    const k = this.text.charCodeAt(start + (len > 8 ? 8 : len - 1));
    const c = index.table[len * 256 + k]!;
    if (c === NO_NAME) return -1;
    if (c === SEVERAL_NAMES) return this.match(i, index.names);
    return this.text.startsWith(index.names[c]!, start) ? c : -1;
  }

  /** Whether field `i` (-1: the empty field) is exactly `s`; compares in place, with no copy. */
  equals(i: number, s: string): boolean {
    if (i < 0) return s === '';
    if (this.fields !== null) return (this.fields[i] ?? '') === s;
    const start = this.starts[i]!;
    return this.ends[i]! - start === s.length && this.text.startsWith(s, start);
  }

  /** Whether field `i` is empty (or -1). */
  empty(i: number): boolean {
    if (i < 0) return true;
    if (this.fields !== null) return (this.fields[i] ?? '') === '';
    return this.ends[i] === this.starts[i];
  }

  /** exampleHash of field `i`, without copying it. */
  hash(i: number): number {
    if (i < 0) return exampleHash('');
    if (this.fields !== null) return exampleHash(this.fields[i] ?? '');
    return exampleHashRange(this.text, this.starts[i]!, this.ends[i]!);
  }

  /**
   * A 64-bit fingerprint (`out[0]`, `out[1]`) of fields `i`, `j` and `k` (-1: an empty one), mixed into the
   * seed (`a`, `b`); fields are kept apart by a code no latin1 char has.
   */
  fingerprint(i: number, j: number, k: number, a: number, b: number, out: Int32Array): void {
    out[0] = a;
    out[1] = b;
    this.mix(i, out);
    this.mix(j, out);
    this.mix(k, out);
  }

  private mix(i: number, out: Int32Array): void {
    let a = Math.imul(out[0]! ^ 0x100, 0x01000193);
    let b = Math.imul((out[1]! << 5) | (out[1]! >>> 27), 0x2545f491) ^ 0x100;
    if (i >= 0) {
      let s = this.text;
      let start = 0;
      let end = 0;
      if (this.fields !== null) {
        s = this.fields[i] ?? '';
        end = s.length;
      } else {
        start = this.starts[i]!;
        end = this.ends[i]!;
      }
      for (let p = start; p < end; p++) {
        const c = s.charCodeAt(p);
        a = Math.imul(a ^ c, 0x01000193);
        b = Math.imul((b << 5) | (b >>> 27), 0x2545f491) ^ c;
      }
    }
    out[0] = a;
    out[1] = b;
  }

  /** Field `i` (latin1), '' for -1. */
  get(i: number): string {
    if (i < 0) return '';
    if (this.fields !== null) return this.fields[i] ?? '';
    return this.text.slice(this.starts[i]!, this.ends[i]!);
  }
}

const QUOTE = 34;

/** What the reader hands records to. */
export interface RecordSink {
  /** A record with at least `width` fields. */
  row(view: RowView): void;
  /** A record that cannot be read: `short_row`, `malformed_record`, `bad_csv`. */
  bad(reason: string): void;
}

export interface ReadOptions {
  delimiter: string;
  urlColumn: string;
  hostColumn: string;
  signal?: AbortSignal;
}

/**
 * Streams a verdicts file (plain or gzip, any delimiter, an Excel `sep=` line) through `sink`. `layout`
 * gets the header's columns and says how many leading fields each record needs (fields past them are
 * never split). Memory: one read chunk and the record that spans two chunks.
 */
export async function readVerdicts(
  file: string,
  opts: ReadOptions,
  layout: (header: Header) => { width: number; sink: RecordSink },
): Promise<void> {
  const input = await openInput(file);
  try {
    const headerReader = new HeaderReader({
      delimiter: opts.delimiter,
      urlColumn: opts.urlColumn,
      hostColumn: opts.hostColumn,
    });
    const it = input.chunks[Symbol.asyncIterator]();
    let header: Header | undefined;
    for (;;) {
      const r = await it.next();
      header = headerReader.push(r.done ? null : r.value);
      if (header !== undefined || r.done) break;
    }
    if (header === undefined) throw new RobotsAuditError('ERR_NO_HEADER', `${file}: no header row`);
    const { width, sink } = layout(header);
    const cutter = new RecordCutter(header.delimiter, width, sink);
    let pending: Buffer = headerReader.rest();
    for (;;) {
      if (opts.signal?.aborted) throw new RobotsAuditError('ERR_ABORTED', 'stopped');
      const r = await it.next();
      if (r.done) break;
      const buf = pending.length === 0 ? r.value : Buffer.concat([pending, r.value]);
      const used = cutter.cut(buf, false);
      pending = buf.subarray(used);
      if (pending.length > MAX_PENDING_BYTES) {
        throw new RobotsAuditError('ERR_RECORD_TOO_LONG', `${file}: a line is longer than 64 MiB`, {
          path: file,
        });
      }
    }
    if (pending.length > 0) cutter.cut(pending, true);
  } catch (err) {
    if ((err as { code?: unknown }).code === 'ERR_NO_URL_COLUMN') {
      throw new RobotsAuditError('ERR_NO_URL_COLUMN', `${file}: ${(err as Error).message}`, { path: file });
    }
    throw err;
  } finally {
    input.close();
  }
}

/** Cuts bytes into records and records into fields. */
class RecordCutter {
  private readonly scanner = new RecordScanner();
  private readonly view: RowView;
  private readonly delimCode: number;

  constructor(
    private readonly delimiter: string,
    private readonly width: number,
    private readonly sink: RecordSink,
  ) {
    this.view = new RowView(width);
    this.delimCode = delimiter.charCodeAt(0);
  }

  /** Hands over every whole record of `buf`; returns the bytes used. */
  cut(buf: Buffer, eof: boolean): number {
    const text = buf.toString('latin1');
    const scanner = this.scanner;
    const view = this.view;
    scanner.reset(text, text.length, this.delimCode, eof);
    view.text = text;
    let p = 0;
    while (p < text.length) {
      if (!scanner.scan(p)) break;
      const kind = scanner.kind;
      if (kind === KIND_BLANK) {
        // Nothing: classify writes no blank rows.
      } else if (kind === KIND_MALFORMED) this.sink.bad('malformed_record');
      else if (kind === KIND_QUOTED) this.quoted(text, p, scanner.contentEnd);
      else this.plain(text, p, scanner.contentEnd);
      p = scanner.next;
    }
    return p;
  }

  private plain(text: string, start: number, end: number): void {
    const view = this.view;
    const starts = view.starts;
    const ends = view.ends;
    const w = this.width;
    const d = this.delimiter;
    let s = start;
    let i = 0;
    for (; i < w; i++) {
      starts[i] = s;
      const at = text.indexOf(d, s);
      if (at < 0 || at >= end) {
        ends[i] = end;
        i++;
        break;
      }
      ends[i] = at;
      s = at + 1;
    }
    if (i < w) {
      this.sink.bad('short_row');
      return;
    }
    view.fields = null;
    this.sink.row(view);
  }

  private quoted(text: string, start: number, end: number): void {
    let fields = this.splitQuoted(text, start, end);
    if (fields === null) {
      const [parsed] = parseQuotedRecords([text.slice(start, end)], this.delimiter);
      if (parsed === null || parsed === undefined) {
        this.sink.bad('bad_csv');
        return;
      }
      fields = parsed.fields;
    }
    if (fields.length < this.width) {
      this.sink.bad('short_row');
      return;
    }
    this.view.fields = fields;
    this.sink.row(this.view);
    this.view.fields = null;
  }

  /**
   * The first `width` fields of a record with quotes, split by hand (quoted fields unquoted, `""` read as
   * `"`); null for what only csv-parse should read (text after a closing quote). Most quoted records are
   * a User-Agent or URL with a delimiter in it: csv-parse per record would cost more than the rest of the row.
   */
  private splitQuoted(text: string, start: number, end: number): string[] | null {
    const d = this.delimiter;
    const out: string[] = [];
    let i = start;
    while (out.length < this.width) {
      if (text.charCodeAt(i) !== QUOTE || i >= end) {
        const at = text.indexOf(d, i);
        const fe = at < 0 || at >= end ? end : at;
        out.push(text.slice(i, fe));
        if (fe === end) break;
        i = fe + 1;
        continue;
      }
      let j = i + 1;
      let escaped = false;
      let close = -1;
      while (j < end) {
        const q = text.indexOf('"', j);
        if (q < 0 || q >= end) break;
        if (text.charCodeAt(q + 1) === QUOTE && q + 1 < end) {
          escaped = true;
          j = q + 2;
          continue;
        }
        close = q;
        break;
      }
      if (close < 0) return null;
      const value = text.slice(i + 1, close);
      out.push(escaped ? value.replaceAll('""', '"') : value);
      if (close + 1 === end) break;
      if (text[close + 1] !== d) return null;
      i = close + 2;
      if (i === end) {
        out.push('');
        break;
      }
    }
    return out;
  }
}
