import { KIND_MALFORMED, KIND_QUOTED, RecordScanner } from '../../rows/record-scanner.js';
import { plainUrlHostHash, type Shard } from '../../rows/shard.js';
import type { WorkerConfig } from '../../workers/protocol.js';
import { BATCH_BYTES } from './batcher.js';
import { BufferPool } from './buffer-pool.js';

/** A batch for the workers: whole records of this shard (or undecided), and where they stand in the input. */
export interface ShardBatch {
  bytes: Buffer;
  /**
   * Each record's index among the input records this batch stands for: the records dropped since the
   * previous batch come first. Null for a batch passed on whole: its records are `skip` + their index.
   */
  ordinals: Int32Array | null;
  /** With null `ordinals`: records of other shards dropped right before the batch. */
  skip: number;
}

/** What the filter reads of a record: the columns, the url's, and whether a blank line is a record. */
export interface ShardFilterConfig {
  shard: Shard;
  delimiter: string;
  urlIndex: number;
  columns: number;
  lineMode: boolean;
}

const LF = 0x0a;
const CR = 0x0d;

/**
 * Drops the rows of other shards in the reading thread, before they are posted to a worker: a record
 * whose url field is a plain absolute URL (`plainUrlHostHash`, the same fast path the workers take)
 * with a host of another shard is dropped; every other record (this shard's, invalid, unusual) is kept
 * and judged by the workers as before, so a row's shard never changes. The kept records are packed into
 * full batches (fewer messages, fewer per-batch costs), with their record numbers in the whole input.
 * Records are found as the workers find them (RecordScanner when the batch has a quote); a quoted
 * record is kept whole. A batch with a malformed record (an unclosed quote) is passed on whole: where
 * such a record ends depends on the lines after it.
 */
export class ShardFilter {
  private readonly scanner = new RecordScanner();
  private readonly rest: number;
  private readonly count: number;
  private readonly delimiter: number;
  private readonly delimiterChar: string;
  private delimiterAt = -1;
  /** Set by `lineHash`. */
  private contentEnd = 0;
  private next = 0;
  /** Kept records not posted yet, and their ordinals. */
  private held: Buffer | null = null;
  private heldLen = 0;
  private ordinals = new Int32Array(1024);
  private kept = 0;
  /** Records read since the last record of the last batch handed out. */
  private position = 0;

  constructor(
    private readonly config: ShardFilterConfig,
    /** Where batch buffers come from (the Batcher's: a posted batch's buffer goes back there). */
    readonly pool = new BufferPool(BATCH_BYTES + (BATCH_BYTES >> 2)),
    private readonly target = BATCH_BYTES,
  ) {
    this.rest = config.shard.index - 1;
    this.count = config.shard.count;
    this.delimiter = config.delimiter.charCodeAt(0);
    this.delimiterChar = config.delimiter;
  }

  /** The filter of a run's workers' shard, or null when the run is not sharded. */
  static of(config: WorkerConfig, pool: BufferPool): ShardFilter | null {
    const shard = config.shard;
    if (shard == null || shard.count <= 1) return null;
    const { delimiter, urlIndex, columns } = config;
    return new ShardFilter({ shard, delimiter, urlIndex, columns, lineMode: config.lineMode === true }, pool);
  }

  /** Bytes of kept records held for the next batch. */
  get heldBytes(): number {
    return this.heldLen;
  }

  /**
   * Takes a batch of whole records (the Batcher's; its buffer is given back to the pool unless it is
   * passed on whole); returns the batches now full.
   */
  push(batch: Buffer): ShardBatch[] {
    const out: ShardBatch[] = [];
    const text = batch.toString('latin1');
    // Records with a quote are found as the workers find them: RecordScanner.
    const quoted = text.indexOf('"') >= 0;
    if (quoted && this.hasMalformed(text, batch.length)) {
      this.flushInto(out);
      out.push({ bytes: batch, ordinals: null, skip: this.position });
      this.position = 0;
      return out;
    }
    this.sift(batch, text, quoted, out);
    this.pool.give(batch.buffer as ArrayBuffer);
    if (this.heldLen >= this.target) this.flushInto(out);
    return out;
  }

  /** The kept records held, as one batch however small (the input is idle, or ended). */
  flush(): ShardBatch[] {
    const out: ShardBatch[] = [];
    this.flushInto(out);
    return out;
  }

  private flushInto(out: ShardBatch[]): void {
    if (this.heldLen === 0) return;
    const ordinals = this.ordinals.slice(0, this.kept);
    out.push({ bytes: this.held!.subarray(0, this.heldLen), ordinals, skip: 0 });
    // Blank lines alone stand for no record.
    if (this.kept > 0) this.position -= ordinals[this.kept - 1]! + 1;
    this.held = null;
    this.heldLen = 0;
    this.kept = 0;
  }

  /** Whether a batch holds a malformed record (the scanner is left set for `sift`). */
  private hasMalformed(text: string, n: number): boolean {
    const scanner = this.scanner;
    scanner.reset(text, n, this.delimiter, true);
    for (let p = 0; p < n; p = scanner.next) {
      scanner.scan(p);
      if (scanner.kind === KIND_MALFORMED) return true;
    }
    return false;
  }

  /** Splits a batch into records (as the workers do), copying the kept ones, in runs, to the held batch. */
  private sift(batch: Buffer, text: string, quoted: boolean, out: ShardBatch[]): void {
    const lineMode = this.config.lineMode;
    const n = batch.length;
    const scanner = this.scanner;
    // Blank lines (and invalid rows, which the workers find) are shard 1's.
    const keepBlank = this.rest === 0;
    let runStart = -1;
    this.delimiterAt = -1;
    let p = 0;
    while (p < n) {
      const start = p;
      let keep: boolean;
      let contentEnd: number;
      if (!quoted) {
        const hash = this.lineHash(text, batch, p, n, true);
        contentEnd = this.contentEnd;
        p = this.next;
        keep = contentEnd === start ? keepBlank : hash < 0 || hash % this.count === this.rest;
      } else {
        scanner.scan(p);
        contentEnd = scanner.contentEnd;
        p = scanner.next;
        if (contentEnd === start) keep = keepBlank;
        else if (scanner.kind === KIND_QUOTED) keep = true;
        else {
          const hash = this.lineHash(text, batch, start, contentEnd, false);
          keep = hash < 0 || hash % this.count === this.rest;
        }
      }
      const record = contentEnd > start || lineMode;
      if (!keep) {
        if (record) this.position++;
        if (runStart >= 0) this.copy(batch, runStart, start);
        runStart = -1;
        continue;
      }
      if (runStart < 0) runStart = start;
      if (this.heldLen + (p - runStart) > this.capacity()) {
        // The run no longer fits: the held batch goes out without this record.
        this.copy(batch, runStart, start);
        this.flushInto(out);
        runStart = start;
      }
      if (record) {
        this.keepOrdinal();
        this.position++;
      }
      if (p === n && batch[n - 1] !== LF) {
        // A last record with no line end: nothing may follow it in a batch.
        this.copy(batch, runStart, n);
        this.flushInto(out);
        runStart = -1;
      }
    }
    if (runStart >= 0) this.copy(batch, runStart, n);
  }

  /**
   * The line from `p` up to its LF (or `end`): sets `contentEnd` (a last CR excluded with `trimCr`, as
   * the workers do on lines they split themselves) and `next`, and returns its url's host hash, or -1
   * when the workers must decide (more fields than columns, no url field, a url that is not plain).
   * Lines and fields are found in the latin1 text (indexOf is faster than a loop over bytes).
   */
  private lineHash(text: string, b: Uint8Array, p: number, end: number, trimCr: boolean): number {
    const urlIndex = this.config.urlIndex;
    const columns = this.config.columns;
    let lf = text.indexOf('\n', p);
    if (lf < 0 || lf > end) lf = end;
    this.next = lf < end ? lf + 1 : end;
    const contentEnd = trimCr && lf > p && text.charCodeAt(lf - 1) === CR ? lf - 1 : lf;
    this.contentEnd = contentEnd;
    let field = 0;
    let fieldStart = p;
    let urlStart = -1;
    let urlEnd = -1;
    for (;;) {
      const d = this.nextDelimiter(text, fieldStart);
      if (d >= contentEnd) break;
      if (field === urlIndex) {
        urlStart = fieldStart;
        urlEnd = d;
      }
      if (++field >= columns) return -1;
      fieldStart = d + 1;
    }
    if (field === urlIndex) {
      urlStart = fieldStart;
      urlEnd = contentEnd;
    }
    return urlStart < 0 ? -1 : plainUrlHostHash(b, urlStart, urlEnd);
  }

  /** The next delimiter at or after `from` (cached: a batch with few delimiters is searched once). */
  private nextDelimiter(text: string, from: number): number {
    if (this.delimiterAt < from) {
      const d = text.indexOf(this.delimiterChar, from);
      this.delimiterAt = d < 0 ? Number.MAX_SAFE_INTEGER : d;
    }
    return this.delimiterAt;
  }

  private capacity(): number {
    return this.held === null ? this.target + (this.target >> 2) : this.held.length;
  }

  private keepOrdinal(): void {
    if (this.kept === this.ordinals.length) {
      const grown = new Int32Array(this.kept * 2);
      grown.set(this.ordinals);
      this.ordinals = grown;
    }
    this.ordinals[this.kept++] = this.position;
  }

  private copy(batch: Buffer, from: number, to: number): void {
    if (to <= from) return;
    // Runs are cut to fit (see sift), so only a record longer than a batch makes a buffer of its own.
    if (this.held === null) this.held = Buffer.from(this.pool.take(to - from));
    batch.copy(this.held, this.heldLen, from, to);
    this.heldLen += to - from;
  }
}
