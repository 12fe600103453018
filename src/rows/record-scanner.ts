/**
 * Where CSV records start and end, over a latin1 view of the bytes (one char per byte, so string
 * indexes are byte offsets). Used by the main thread to cut batches and by workers to walk them:
 * both must agree, so there is exactly one implementation.
 *
 * Dialect (csv-parse with relax_quotes): records end at LF (a CR before it belongs to the line end);
 * a `"` opens a quoted field only at the start of a field; `""` inside it is a quote; a closing quote
 * followed by anything but a delimiter or line end turns the field back into literal text; quotes in
 * unquoted fields are literal. A quoted field may span lines, but only within MAX_RECORD_BYTES and
 * MAX_RECORD_LINES: past that (or an unterminated quote at the end of input) the record is malformed,
 * it is just its first line, and scanning resumes at the next line.
 */

/** A quoted field must close within this many bytes of its record's start. */
export const MAX_RECORD_BYTES = 64 * 1024;
/** ... and within this many line breaks. */
export const MAX_RECORD_LINES = 32;

export const KIND_PLAIN = 0;
export const KIND_QUOTED = 1;
export const KIND_MALFORMED = 2;
export const KIND_BLANK = 3;
export type RecordKind = 0 | 1 | 2 | 3;

const CR = 13;
const QUOTE = 34;

export class RecordScanner {
  private text = '';
  private end = 0;
  private delim = 44;
  private eof = false;
  /** Cached position of the next `"` at or after `quoteFrom` (end when none). */
  private quotePos = -1;
  private quoteFrom = 0;

  /** Set by `scan`: end of the record's content (line end excluded). */
  contentEnd = 0;
  /** Set by `scan`: where the next record starts. */
  next = 0;
  /** Set by `scan`: what the record is. */
  kind: RecordKind = KIND_PLAIN;

  /** `text` holds the bytes as latin1; records are looked for in [.., end). */
  reset(text: string, end: number, delimiter: number, eof: boolean): void {
    this.text = text;
    this.end = end;
    this.delim = delimiter;
    this.eof = eof;
    this.quotePos = -1;
    this.quoteFrom = 0;
  }

  private nextQuote(from: number): number {
    if (this.quotePos < from || from < this.quoteFrom) {
      const q = this.text.indexOf('"', from);
      this.quotePos = q < 0 || q >= this.end ? this.end : q;
      this.quoteFrom = from;
    }
    return this.quotePos;
  }

  private nextLf(from: number): number {
    const n = this.text.indexOf('\n', from);
    return n < 0 || n >= this.end ? -1 : n;
  }

  /** Ends the record at the LF at `lf` (or at the end of input when lf < 0). */
  private finish(p: number, lf: number, kind: RecordKind): boolean {
    if (lf < 0) {
      if (!this.eof) return false;
      let e = this.end;
      if (e > p && this.text.charCodeAt(e - 1) === CR) e--;
      this.contentEnd = e;
      this.next = this.end;
    } else {
      this.contentEnd = lf > p && this.text.charCodeAt(lf - 1) === CR ? lf - 1 : lf;
      this.next = lf + 1;
    }
    this.kind = this.contentEnd === p && kind === KIND_PLAIN ? KIND_BLANK : kind;
    return true;
  }

  /** The record starting at p is malformed: it is its first line only. */
  private malformed(p: number): boolean {
    return this.finish(p, this.nextLf(p), KIND_MALFORMED);
  }

  /**
   * Scans the record starting at `p` (a line start). Returns false when the input ends before the
   * record can be decided (only when not at eof); otherwise fills contentEnd/next/kind.
   */
  scan(p: number): boolean {
    const text = this.text;
    const end = this.end;
    let i = p;
    let kind: RecordKind = KIND_PLAIN;
    for (;;) {
      const lf = this.nextLf(i);
      const q = this.nextQuote(i);
      if (q >= end || (lf >= 0 && lf < q)) return this.finish(p, lf, kind);
      kind = KIND_QUOTED;
      if (q !== p && text.charCodeAt(q - 1) !== this.delim) {
        i = q + 1; // a literal quote inside an unquoted field
        continue;
      }
      // A quoted field: find its closing quote, skipping doubled quotes.
      let j = q + 1;
      let close = -1;
      for (;;) {
        const c = this.nextQuote(j);
        if (c >= end) break;
        if (c + 1 < end && text.charCodeAt(c + 1) === QUOTE) {
          j = c + 2;
          continue;
        }
        if (c + 1 >= end && !this.eof) return this.needMore(p);
        close = c;
        break;
      }
      const limit = close < 0 ? end : close;
      if (limit - p > MAX_RECORD_BYTES || this.linesBetween(q, limit) > MAX_RECORD_LINES) {
        return this.malformed(p);
      }
      if (close < 0) return this.eof ? this.malformed(p) : false;
      i = close + 1;
    }
  }

  /** Out of input inside a quoted field: wait for more unless the bound is already exceeded. */
  private needMore(p: number): boolean {
    if (this.end - p > MAX_RECORD_BYTES) return this.malformed(p);
    return false;
  }

  private linesBetween(from: number, to: number): number {
    let n = 0;
    let i = this.text.indexOf('\n', from);
    while (i >= 0 && i < to) {
      if (++n > MAX_RECORD_LINES) return n;
      i = this.text.indexOf('\n', i + 1);
    }
    return n;
  }

  /**
   * The end of the last whole record in [start, end): where a batch can be cut. Returns start when no
   * record is complete yet.
   */
  lastBoundary(start: number): number {
    let p = start;
    while (p < this.end) {
      // Lines before the next quote are whole records: jump to the last one of them at once.
      const q = this.nextQuote(p);
      if (q >= this.end) {
        if (this.eof) return this.end;
        const lf = this.text.lastIndexOf('\n', this.end - 1);
        return lf < p ? p : lf + 1;
      }
      const lineStart = q === 0 ? 0 : this.text.lastIndexOf('\n', q - 1) + 1;
      if (lineStart > p) p = lineStart;
      if (!this.scan(p)) return p;
      p = this.next;
    }
    return p;
  }
}
