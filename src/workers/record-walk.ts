import { FieldSplitter } from '../rows/field-split.js';
import { type ParsedRecord, parseQuotedRecords } from '../rows/quoted-records.js';
import { KIND_BLANK, KIND_MALFORMED, KIND_QUOTED, RecordScanner } from '../rows/record-scanner.js';
import type { BatchRows } from './batch-rows.js';

/** The columns a walk splits out of each plain record (-1: none). */
export interface WalkColumns {
  url: number;
  host: number;
  time?: number;
  agent?: number;
}

/**
 * The one walk over a batch's records, shared by a worker's first pass and `fetch`'s reading so that the
 * two cannot judge a record differently: each record becomes a row of BatchRows (a blank line only in
 * line mode); blank, malformed and too-wide records get their row code; plain records are split by hand
 * and handed to the caller one by one (nextPlain), then the quoted ones, read together by csv-parse
 * (nextQuoted). A batch with no quote at all is cut at each LF without the record scanner.
 */
export class RecordWalk {
  /** The fields of the plain record nextPlain last gave (positions into the batch's latin1 text). */
  readonly fields = new FieldSplitter();
  /** The fields of the quoted record nextQuoted last gave (latin1), or null when it fits no row. */
  quotedFields: string[] | null = null;
  /** Blank lines outside line mode in the batch: they make no row. */
  blankLines = 0;
  private readonly scanner = new RecordScanner();
  private readonly delimCode: number;
  private readonly url: number;
  private readonly host: number;
  private readonly time: number;
  private readonly agent: number;
  private rows: BatchRows | null = null;
  private text = '';
  private p = 0;
  private hasQuote = false;
  private readonly quoted: number[] = [];
  private parsed: (ParsedRecord | null)[] | null = null;
  private k = 0;

  constructor(
    private readonly delimiter: string,
    private readonly lineMode: boolean,
    columns: WalkColumns,
  ) {
    this.delimCode = delimiter.charCodeAt(0);
    this.url = columns.url;
    this.host = columns.host;
    this.time = columns.time ?? -1;
    this.agent = columns.agent ?? -1;
  }

  /** Starts on the batch `rows` was just reset to. */
  begin(rows: BatchRows): void {
    const text = rows.text;
    this.rows = rows;
    this.text = text;
    this.p = 0;
    this.hasQuote = text.indexOf('"') >= 0;
    if (this.hasQuote) this.scanner.reset(text, text.length, this.delimCode, true);
    this.fields.reset(text, this.delimiter);
    this.blankLines = 0;
    this.quoted.length = 0;
    this.parsed = null;
    this.k = 0;
    this.quotedFields = null;
  }

  /** The row of the next plain record that fits the columns, its fields in `fields`; -1 past the last. */
  nextPlain(): number {
    const rows = this.rows!;
    const text = this.text;
    const n = text.length;
    const sp = this.fields;
    const hasQuote = this.hasQuote;
    const lineMode = this.lineMode;
    let p = this.p;
    while (p < n) {
      let contentEnd: number;
      let next: number;
      let kind: number;
      if (!hasQuote) {
        const lf = text.indexOf('\n', p);
        next = lf < 0 ? n : lf + 1;
        contentEnd = lf < 0 ? n : lf;
        if (contentEnd > p && text.charCodeAt(contentEnd - 1) === 13) contentEnd--;
        kind = contentEnd === p ? KIND_BLANK : 0;
      } else {
        this.scanner.scan(p);
        contentEnd = this.scanner.contentEnd;
        next = this.scanner.next;
        kind = this.scanner.kind;
      }
      const start = p;
      p = next;
      if (kind === KIND_BLANK && !lineMode) {
        this.blankLines++;
        continue;
      }
      const i = rows.add(start, contentEnd);
      if (kind === KIND_BLANK) rows.blank(i);
      else if (kind === KIND_MALFORMED) rows.malformed(i);
      else if (kind === KIND_QUOTED) this.quoted.push(i);
      else {
        sp.split(start, contentEnd, this.url, this.host, this.time, this.agent);
        if (rows.fitPlain(i, sp.count, sp)) {
          this.p = p;
          return i;
        }
      }
    }
    this.p = p;
    return -1;
  }

  /**
   * After the plain records: the row of the next quoted record, its fields in `quotedFields` (null when
   * csv-parse rejects it or it has too many fields: its row code says which); -1 past the last.
   */
  nextQuoted(): number {
    const quoted = this.quoted;
    if (this.k >= quoted.length) return -1;
    const rows = this.rows!;
    // Parsed as bytes (latin1), so that a rewritten record keeps them.
    this.parsed ??= parseQuotedRecords(
      quoted.map((i) => rows.bytesAt(rows.starts[i]!, rows.ends[i]!)),
      this.delimiter,
    );
    const k = this.k++;
    const i = quoted[k]!;
    const rec = this.parsed[k];
    this.quotedFields = null;
    if (rec === null || rec === undefined) rows.malformed(i);
    else if (rows.fitFields(i, rec.fields, rec.strict)) this.quotedFields = rec.fields;
    return i;
  }
}
