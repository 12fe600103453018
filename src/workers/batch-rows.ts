import { isAscii } from 'node:buffer';
import { RobotsAuditError } from '../core/errors.js';
import type { CompiledRules } from '../core/index.js';
import { formatRecord, quoteField } from '../rows/csv-quote.js';
import type { FieldSplitter } from '../rows/field-split.js';
import type { RowCode } from '../rows/row-error-codes.js';
import type { OriginEntry } from './origin-store.js';
import type { WorkerConfig } from './protocol.js';
import type { RowAgent } from './row-agent.js';

const NON_ASCII = /[\u0080-\u00ff]/g;

/** Where a batch's records stand in the input (BatchTask's `ordinals` and `skip`). */
export interface RecordPlaces {
  ordinals?: Int32Array | null;
  skip?: number;
}
const WHOLE: RecordPlaces = {};

function grow<T extends Int32Array | Int16Array>(a: T): T {
  const b = new (a.constructor as new (n: number) => T)(a.length * 2);
  b.set(a);
  return b;
}

/**
 * The state of one batch between its passes (batches interleave in a worker while they wait for
 * policies, so each has its own): the bytes, their latin1 view, and per row where the record lies,
 * how it is written out, and how it was judged.
 */
export class BatchRows {
  text = '';
  bytes: Buffer = Buffer.alloc(0);
  private ascii = true;
  private nonAsciiAt = -1;
  private nonAsciiFrom = 0;
  count = 0;
  starts = new Int32Array(4096);
  ends = new Int32Array(4096);
  /** Where the verbatim copy of the record ends (before empty extra fields that are dropped). */
  outEnds = new Int32Array(4096);
  /** Delimiters added after a short record so every output row has every column. */
  pads = new Int32Array(4096);
  /** Owner worker of the row's origin when another worker owns it, else -1. */
  owners = new Int16Array(4096);
  /** The row's place in the request to its owner. */
  foreignPos = new Int32Array(4096);
  readonly entries: (OriginEntry | null)[] = [];
  readonly paths: string[] = [];
  /** As of a time: the row's time (epoch ms). */
  readonly times: number[] = [];
  /** As of a time: the rules the row decides by in its entry when not the entry's own (Pick's `rules`). */
  readonly views: (CompiledRules[] | null)[] = [];
  /** Why the row is invalid_input, or null. */
  readonly codes: (RowCode | null)[] = [];
  /** `--agent-column`: the row's crawler, null when the cell names none, undefined when it was not read. */
  readonly agents: (RowAgent | null | undefined)[] = [];
  /** Origin key the row waits for (its policy was asked for), or null. */
  readonly pendingKeys: (string | null)[] = [];
  /** Rows whose output is not the input record verbatim (latin1 text of their bytes). */
  readonly rewrites = new Map<number, string>();

  /** A shard's packed batch: each record's index among the records it stands for (see BatchTask). */
  private ordinals: Int32Array | null = null;
  private skip = 0;

  /** Only the column count and the delimiter: the pipeline's reader judges records with them too. */
  constructor(private readonly config: Pick<WorkerConfig, 'columns' | 'delimiter'>) {}

  reset(bytes: Buffer, places: RecordPlaces = WHOLE): void {
    this.ordinals = places.ordinals ?? null;
    this.skip = places.skip ?? 0;
    this.bytes = bytes;
    this.text = bytes.toString('latin1');
    this.ascii = isAscii(bytes);
    this.nonAsciiAt = -1;
    this.nonAsciiFrom = 0;
    this.count = 0;
    this.rewrites.clear();
  }

  /**
   * Lets go of the batch's data once its output is built. The per-row arrays keep their length (only
   * their references are dropped): truncating them freed their backing stores, and regrowing them for
   * every batch was a fifth of a worker's allocation.
   */
  release(): void {
    this.ordinals = null;
    this.text = '';
    this.bytes = Buffer.alloc(0);
    for (let i = 0; i < this.count; i++) {
      this.entries[i] = null;
      this.paths[i] = '';
      this.pendingKeys[i] = null;
      this.agents[i] = undefined;
    }
    for (let i = Math.min(this.count, this.views.length) - 1; i >= 0; i--) this.views[i] = null;
    this.rewrites.clear();
  }

  /** Row i's index among the records the batch stands for: its place in the input, from the batch's first. */
  ordinal(i: number): number {
    return this.ordinals === null ? this.skip + i : this.ordinals[i]!;
  }

  /** Records the batch stands for: its rows, and the other shards' records dropped before it was posted. */
  get inputRecords(): number {
    if (this.ordinals === null) return this.skip + this.count;
    return this.count === 0 ? 0 : this.ordinals[this.count - 1]! + 1;
  }

  /** The rows found are the records the batch was posted with: a reading thread and a worker agree. */
  checkPlaces(): void {
    if (this.ordinals === null || this.ordinals.length === this.count) return;
    throw new RobotsAuditError(
      'ERR_INTERNAL',
      `a shard's batch holds ${this.count} records where the reading thread kept ${this.ordinals.length}`,
    );
  }

  /** A new row for the record at [start, contentEnd). */
  add(start: number, contentEnd: number): number {
    const i = this.count++;
    if (i >= this.starts.length) {
      this.starts = grow(this.starts);
      this.ends = grow(this.ends);
      this.outEnds = grow(this.outEnds);
      this.pads = grow(this.pads);
      this.owners = grow(this.owners);
      this.foreignPos = grow(this.foreignPos);
    }
    this.starts[i] = start;
    this.ends[i] = contentEnd;
    this.outEnds[i] = contentEnd;
    this.pads[i] = 0;
    this.owners[i] = -1;
    this.entries[i] = null;
    this.paths[i] = '';
    this.codes[i] = null;
    this.pendingKeys[i] = null;
    this.agents[i] = undefined;
    return i;
  }

  /** Position of the first byte ≥ 0x80 at or after `from` (cached: such bytes are rare). */
  private nextNonAscii(from: number): number {
    if (this.nonAsciiAt < from || from < this.nonAsciiFrom) {
      NON_ASCII.lastIndex = from;
      const m = NON_ASCII.exec(this.text);
      this.nonAsciiAt = m === null ? Number.MAX_SAFE_INTEGER : m.index;
      this.nonAsciiFrom = from;
    }
    return this.nonAsciiAt;
  }

  /** The bytes [s, e) as a JS string (UTF-8 decoded when they hold non-ASCII bytes). */
  value(s: number, e: number): string {
    if (this.ascii || this.nextNonAscii(s) >= e) return this.text.slice(s, e);
    return this.bytes.toString('utf8', s, e);
  }

  /** The bytes [s, e) one char per byte (latin1): what a rewritten record is built from, so no byte changes. */
  bytesAt(s: number, e: number): string {
    return this.text.slice(s, e);
  }

  /** Plain record with `count` fields: pad short rows, drop empty extra fields, reject the rest. */
  fitPlain(i: number, count: number, splitter: FieldSplitter): boolean {
    const cols = this.config.columns;
    if (count <= cols) {
      this.pads[i] = cols - count;
      return true;
    }
    const starts = splitter.fieldStarts(this.starts[i]!, this.ends[i]!);
    const extraFrom = starts[cols]! - 1; // the delimiter before the first extra field
    if (extraFrom + (count - cols) === this.ends[i]) {
      this.outEnds[i] = extraFrom; // only empty extra fields: nothing is lost by dropping them
      return true;
    }
    this.rejectExtra(i, this.bytesAt(this.starts[i]!, this.ends[i]!).split(this.config.delimiter));
    return false;
  }

  /**
   * Parsed (quoted) record: same rules as fitPlain, rewriting the record when it must change. A record
   * that is not strict CSV as written (csv-parse needed relax_quotes) is rewritten from its fields, so
   * the output is always valid CSV. `fields` are latin1 views of the record's bytes (see bytesAt), so a
   * rewrite keeps bytes that are not UTF-8.
   */
  fitFields(i: number, fields: string[], strict: boolean): boolean {
    const cols = this.config.columns;
    if (fields.length <= cols) {
      if (strict) this.pads[i] = cols - fields.length;
      else {
        const full =
          fields.length < cols ? [...fields, ...new Array<string>(cols - fields.length).fill('')] : fields;
        this.rewrites.set(i, formatRecord(full, this.config.delimiter));
      }
      return true;
    }
    if (fields.slice(cols).every((f) => f === '')) {
      this.rewrites.set(i, formatRecord(fields.slice(0, cols), this.config.delimiter));
      return true;
    }
    this.rejectExtra(i, fields);
    return false;
  }

  /** Too many fields: keep the text whole by folding the extra fields into the last column. */
  private rejectExtra(i: number, fields: string[]): void {
    const cols = this.config.columns;
    const d = this.config.delimiter;
    const kept = fields.slice(0, cols - 1);
    kept.push(fields.slice(cols - 1).join(d));
    this.codes[i] = 'extra_fields';
    this.rewrites.set(i, formatRecord(kept, d));
  }

  /** An empty line in line mode: a row of empty fields, so that every input line has its output line. */
  blank(i: number): void {
    this.codes[i] = 'blank_line';
    this.pads[i] = this.config.columns - 1;
  }

  /** A record that cannot be split: its raw bytes in the first column, the other columns empty. */
  malformed(i: number): void {
    const d = this.config.delimiter;
    this.codes[i] = 'malformed_record';
    // Quoting works on bytes too: only `"`, the delimiter, CR and LF matter, all ASCII.
    const raw = this.text.slice(this.starts[i]!, this.ends[i]!);
    this.rewrites.set(i, quoteField(raw, d) + d.repeat(this.config.columns - 1));
  }
}
