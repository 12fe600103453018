import { RobotsAuditError } from '../../core/errors.js';
import { formatRecord } from '../../rows/csv-quote.js';
import { parseQuotedRecords } from '../../rows/quoted-records.js';
import { KIND_BLANK, KIND_MALFORMED, RecordScanner } from '../../rows/record-scanner.js';
import { MAX_PENDING_BYTES } from './batcher.js';

export interface Header {
  columns: string[];
  urlIndex: number;
  hostIndex: number;
  /** Line end of the header row, reused for every output row. */
  eol: '\n' | '\r\n';
  /** The header row's bytes exactly as read (BOM removed). */
  raw: Buffer;
  /** Offset in the given bytes where the data starts. */
  dataStart: number;
  /** Blank lines before the header. */
  blankLines: number;
  /** The field delimiter: the option's, or the one an Excel `sep=X` first line declares. */
  delimiter: string;
  /** An Excel `sep=X` line before the header, with its line end, exactly as read (empty when none). */
  preamble: Buffer;
}

const BOM = [0xef, 0xbb, 0xbf];

/** Length of a UTF-8 BOM at the start of `bytes` (0 or 3). */
export function bomLength(bytes: Uint8Array): number {
  return bytes.length >= 3 && bytes[0] === BOM[0] && bytes[1] === BOM[1] && bytes[2] === BOM[2] ? 3 : 0;
}

/** A header name as written loosely: spaces around it, and quotes a relaxed parse kept (` "url" `), removed. */
function looseName(c: string): string {
  const t = c.trim();
  const unquoted =
    t.length >= 2 && t.startsWith('"') && t.endsWith('"') ? t.slice(1, -1).replaceAll('""', '"') : t;
  return unquoted.trim().toLowerCase();
}

/** A column name as a one-line message shows it: quoted, escaped, and cut after 40 characters. */
export function shownColumn(name: string): string {
  return name.length > 40 ? `${JSON.stringify(name.slice(0, 40)).slice(0, -1)}…"` : JSON.stringify(name);
}

/**
 * The column named `name`, exactly or once trimmed, unquoted and lower-cased; -1 when none is. Several
 * such columns (`url,URL`) are a fatal error: which one holds the URLs cannot be told.
 */
export function findColumn(columns: readonly string[], name: string): number {
  const want = name.toLowerCase();
  const found = columns.flatMap((c, i) => (c === name || looseName(c) === want ? [i] : []));
  if (found.length <= 1) return found[0] ?? -1;
  const shown = found.slice(0, 10);
  const at = shown.map((i) => String(i + 1));
  const list =
    found.length > shown.length
      ? `${at.join(', ')}, … (${found.length} in all)`
      : `${at.slice(0, -1).join(', ')} and ${at[at.length - 1]}`;
  const names = shown.map((i) => shownColumn(columns[i]!)).join(', ');
  throw new RobotsAuditError(
    'ERR_AMBIGUOUS_COLUMN',
    `the header names the \`${name}\` column more than once (columns ${list}: ${names}); rename all but one`,
  );
}

/** Excel's first-line delimiter declaration (`sep=;`), which its CSV exports may start with. */
const EXCEL_SEP = /^sep=([\t\x20-\x21\x23-\x7e])$/i;

/** The delimiter a first line such as `sep=;` (Excel's declaration) names, or undefined. */
export function excelSeparator(line: string): string | undefined {
  return EXCEL_SEP.exec(line)?.[1];
}

/** With one column that holds a tab, `;` or `|`, the likely delimiter, as a hint for the error message. */
function delimiterHint(columns: readonly string[], delimiter: string): string {
  // A NUL beside every letter: UTF-16, which is only recognised by its BOM.
  const all = columns.join('');
  const nuls = all.split('\0').length - 1;
  if (nuls > 0 && nuls * 3 >= all.length) return ' (UTF-16 without a BOM? save it as UTF-8)';
  if (columns.length !== 1) return '';
  const likely = ['\t', ';', '|'].find((d) => d !== delimiter && columns[0]!.includes(d));
  return likely === undefined ? '' : ` (or --delimiter ${likely === '\t' ? 'tab' : `'${likely}'`})`;
}

/**
 * Reads the header row from the start of the input. Returns undefined when `bytes` does not yet hold
 * a whole header (and eof is false). Throws a one-line RobotsAuditError when there is no usable header.
 */
export function readHeader(
  bytes: Buffer,
  eof: boolean,
  opts: { delimiter: string; urlColumn: string; hostColumn: string },
  atStart = true,
): Header | undefined {
  const bom = atStart ? bomLength(bytes) : 0;
  const text = bytes.toString('latin1');
  const scanner = new RecordScanner();
  let delimiter = opts.delimiter;
  scanner.reset(text, bytes.length, delimiter.charCodeAt(0), eof);
  let p = bom;
  let blankLines = 0;
  let preamble = bytes.subarray(0, 0);
  for (;;) {
    if (p >= bytes.length) {
      if (!eof) return undefined;
      throw new RobotsAuditError('ERR_NO_HEADER', 'the input is empty: expected a CSV header row');
    }
    if (!scanner.scan(p)) return undefined;
    if (scanner.kind !== KIND_BLANK) {
      const sep = preamble.length === 0 ? excelSeparator(text.slice(p, scanner.contentEnd)) : undefined;
      if (sep === undefined) break;
      // The file names its own delimiter: the header and every record use it, and the line is kept.
      delimiter = sep;
      preamble = bytes.subarray(p, scanner.next);
      p = scanner.next;
      scanner.reset(text, bytes.length, delimiter.charCodeAt(0), eof);
      continue;
    }
    blankLines++;
    p = scanner.next;
  }
  if (scanner.kind === KIND_MALFORMED) {
    throw new RobotsAuditError('ERR_BAD_HEADER', 'the header row is not valid CSV (unterminated quote)');
  }
  let raw = bytes.subarray(p, scanner.contentEnd);
  // Parsed as bytes (latin1), so that a header rewritten as strict CSV keeps them.
  const [parsed] = parseQuotedRecords([raw.toString('latin1')], delimiter);
  if (parsed === null || parsed === undefined) {
    throw new RobotsAuditError('ERR_BAD_HEADER', 'the header row is not valid CSV');
  }
  // A header that is not strict CSV as written (`"id"x,url`) is written back from its fields, as records are.
  if (!parsed.strict) raw = Buffer.from(formatRecord(parsed.fields, delimiter), 'latin1');
  const columns = parsed.fields.map((f) => Buffer.from(f, 'latin1').toString('utf8'));
  const urlIndex = findColumn(columns, opts.urlColumn);
  if (urlIndex < 0) {
    const shown = columns.slice(0, 10).map(shownColumn).join(', ');
    throw new RobotsAuditError(
      'ERR_NO_URL_COLUMN',
      `the input has no \`${opts.urlColumn}\` column (header: ${shown}${columns.length > 10 ? ', …' : ''}); use --url-column${delimiterHint(columns, delimiter)}`,
    );
  }
  const hostIndex = findColumn(columns, opts.hostColumn);
  const crlf = scanner.contentEnd < scanner.next && text.charCodeAt(scanner.contentEnd) === 13;
  return {
    columns,
    urlIndex,
    hostIndex: hostIndex === urlIndex ? -1 : hostIndex,
    eol: crlf ? '\r\n' : '\n',
    raw: Buffer.from(raw),
    dataStart: scanner.next,
    blankLines,
    delimiter,
    preamble: Buffer.from(preamble),
  };
}

/**
 * Collects the input's first chunks until the header row is whole. A header row can only end at a new
 * LF (or the end of input), and blank lines before it are counted once and dropped, so each byte is
 * read a bounded number of times however long the first line (/dev/zero) or the run of blank lines.
 */
export class HeaderReader {
  private chunks: Buffer[] = [];
  /** Bytes in `chunks`: the input from the first byte not yet known to be a BOM or blank line. */
  private length = 0;
  /** A BOM and blank lines were dropped from the front (a BOM after them is text). */
  private dropped = false;
  private blankLines = 0;
  /** Bytes dropped from the front: the BOM and blank lines. */
  private droppedBytes = 0;
  private rest_: Buffer = Buffer.alloc(0);
  /** Bytes read to find the header, in all. */
  scannedBytes = 0;

  constructor(private readonly opts: { delimiter: string; urlColumn: string; hostColumn: string }) {}

  /** Adds a chunk (null at the end of input); returns the header once it is whole. */
  push(chunk: Buffer | null): Header | undefined {
    const eof = chunk === null;
    if (chunk !== null) {
      this.chunks.push(chunk);
      this.length += chunk.length;
      this.scannedBytes += chunk.length;
      if (chunk.indexOf(10) < 0) {
        if (this.length > MAX_PENDING_BYTES) {
          throw new RobotsAuditError(
            'ERR_BAD_HEADER',
            'the header row is longer than 64 MiB; is this a CSV file?',
          );
        }
        return undefined;
      }
    }
    let bytes = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.length);
    bytes = bytes.subarray(this.skipBlankLines(bytes));
    this.chunks = [bytes];
    this.length = bytes.length;
    this.scannedBytes += bytes.length;
    const header = readHeader(bytes, eof, this.opts, !this.dropped);
    if (header === undefined) return undefined;
    this.rest_ = bytes.subarray(header.dataStart);
    const dataStart = header.dataStart + this.droppedBytes;
    return { ...header, dataStart, blankLines: header.blankLines + this.blankLines };
  }

  /** Length of the BOM and blank lines at the front of `bytes`, counted. */
  private skipBlankLines(bytes: Buffer): number {
    let p = this.dropped ? 0 : bomLength(bytes);
    for (;;) {
      if (bytes[p] === 10) p += 1;
      else if (bytes[p] === 13 && bytes[p + 1] === 10) p += 2;
      else break;
      this.blankLines++;
    }
    if (p > 0) this.dropped = true;
    this.droppedBytes += p;
    return p;
  }

  /** The bytes held after the header row: the start of the data. */
  rest(): Buffer {
    return this.rest_;
  }
}
