import { hasCode, RobotsAuditError } from '../../core/errors.js';
import { MAX_PENDING_BYTES } from './batcher.js';
import { bomLength, findColumn, type Header, shownColumn } from './header.js';

/**
 * Line mode (`--no-header --columns host,url`): the input has no header row, its columns are named on
 * the command line, and no header row is written, so a streaming engine that pipes lines through
 * classify (GNU parallel, Spark's `pipe`) gets exactly one output line per input line.
 */

/** What line mode needs of the options. */
export interface LineModeOptions {
  header: boolean;
  columns: string[] | undefined;
  delimiter: string;
  urlColumn: string;
  hostColumn: string;
}

function invalidColumns(message: string): RobotsAuditError {
  return new RobotsAuditError('ERR_INVALID_OPTION', message, { option: 'columns' });
}

/** `host,url` (or a list of such texts) as column names; an empty name is a column with no name. */
export function columnList(value: unknown): string[] {
  const list = Array.isArray(value) ? value : [value];
  if (list.length === 0 || list.some((v) => typeof v !== 'string')) {
    throw invalidColumns(
      `Invalid option \`columns\`: expected column names separated by commas (host,url), got ${JSON.stringify(value)}`,
    );
  }
  return (list as string[]).flatMap((v) => v.split(','));
}

/** The url and host columns among `columns`, found as a header row's would be. */
function columnIndexes(opts: LineModeOptions, columns: readonly string[]): { url: number; host: number } {
  try {
    const url = findColumn(columns, opts.urlColumn);
    if (url < 0) {
      const shown = columns.slice(0, 10).map(shownColumn).join(', ');
      throw invalidColumns(
        `Invalid option \`columns\`: no column is the url column \`${opts.urlColumn}\` (columns: ${shown}); name it, or use --url-column`,
      );
    }
    const host = findColumn(columns, opts.hostColumn);
    return { url, host: host === url ? -1 : host };
  } catch (err) {
    // Named on the command line, not read from the input: a usage error, not a fatal one.
    if (hasCode(err, 'ERR_AMBIGUOUS_COLUMN')) {
      throw invalidColumns(
        `Invalid option \`columns\`: ${(err as Error).message.replace('the header ', 'it ')}`,
      );
    }
    throw err;
  }
}

/** `--no-header` needs `--columns`, and `--columns` is only for input without a header row. */
export function checkLineMode(opts: LineModeOptions): void {
  if (!opts.header && opts.columns === undefined) {
    throw invalidColumns(
      'Invalid options: without a header row (`--no-header`), `--columns` must name the input columns (e.g. --columns host,url)',
    );
  }
  if (opts.header && opts.columns !== undefined) {
    throw invalidColumns(
      'Invalid options: `--columns` names the columns of an input without a header row; add `--no-header` (a header row names its columns itself)',
    );
  }
  if (opts.columns !== undefined) columnIndexes(opts, opts.columns);
}

/**
 * The start of a line-mode input, in place of HeaderReader: the columns come from the options; the
 * input's first line end (LF or CRLF) is the output's, so bytes are held until the first LF (or the
 * end of input). A leading UTF-8 BOM is dropped.
 */
export class LineModeStart {
  private chunks: Buffer[] = [];
  private length = 0;
  private rest_: Buffer = Buffer.alloc(0);

  constructor(private readonly opts: LineModeOptions) {}

  /** Adds a chunk (null at the end of input); returns the columns once the line end is known. */
  push(chunk: Buffer | null): Header | undefined {
    if (chunk !== null) {
      this.chunks.push(chunk);
      this.length += chunk.length;
      if (chunk.indexOf(10) < 0) {
        if (this.length > MAX_PENDING_BYTES) {
          throw new RobotsAuditError(
            'ERR_RECORD_TOO_LONG',
            `a single input line is longer than ${MAX_PENDING_BYTES >> 20} MiB; is this a CSV file?`,
          );
        }
        return undefined;
      }
    }
    const bytes = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.length);
    const bom = bomLength(bytes);
    this.rest_ = bytes.subarray(bom);
    this.chunks = [];
    const lf = this.rest_.indexOf(10);
    const columns = this.opts.columns ?? [];
    const { url, host } = columnIndexes(this.opts, columns);
    return {
      columns,
      urlIndex: url,
      hostIndex: host,
      eol: lf > 0 && this.rest_[lf - 1] === 13 ? '\r\n' : '\n',
      raw: Buffer.alloc(0),
      dataStart: bom,
      blankLines: 0,
      delimiter: this.opts.delimiter,
      preamble: Buffer.alloc(0),
    };
  }

  /** The bytes held: the start of the data. */
  rest(): Buffer {
    return this.rest_;
  }
}
