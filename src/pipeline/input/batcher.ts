import { RobotsAuditError } from '../../core/errors.js';
import { RecordScanner } from '../../rows/record-scanner.js';
import { BufferPool } from './buffer-pool.js';

/**
 * Bytes per batch handed to a worker (cut at the last whole record after this size). A worker holds a
 * batch as text, its output and its stats while it waits for policies: 64 KiB batches take ~35 MiB less
 * peak RSS than 256 KiB ones on the 2M-row benchmark for about the same CPU.
 */
export const BATCH_BYTES = 64 << 10;
/** A single record longer than this stops the run: it cannot be held within flat memory. */
export const MAX_PENDING_BYTES = 64 << 20;

/**
 * Cuts a byte stream into batches of whole records. Each batch is a Buffer over its own ArrayBuffer
 * (so it can be transferred to a worker). A batch without any `"` is cut at its last LF; otherwise
 * the quote-aware RecordScanner (the same one workers use) finds the boundary.
 */
export class Batcher {
  private buf: Buffer;
  private len = 0;
  private readonly scanner = new RecordScanner();
  /** Bytes looked at to find cuts, in all: linear in the input, whatever its records look like. */
  scannedBytes = 0;
  /** The pending bytes before this offset were scanned and ended no record: only a new LF can. */
  private waitLfFrom = 0;

  constructor(
    private readonly delimiter: number,
    private readonly target = BATCH_BYTES,
    /** Where batch buffers come from (give them back when a batch is done). */
    readonly pool = new BufferPool(target + (target >> 2)),
  ) {
    this.buf = this.fresh(0);
  }

  private fresh(min: number): Buffer {
    return Buffer.from(this.pool.take(Math.max(min, this.target + (this.target >> 2))));
  }

  /** Bytes held that belong to no batch yet. */
  get pendingBytes(): number {
    return this.len;
  }

  /** Adds input; returns the batches that are now complete. */
  push(chunk: Uint8Array): Buffer[] {
    const out: Buffer[] = [];
    let off = 0;
    while (off < chunk.length) {
      const room = this.buf.length - this.len;
      const n = Math.min(room, chunk.length - off);
      this.buf.set(chunk.subarray(off, off + n), this.len);
      this.len += n;
      off += n;
      if (this.len >= this.target) this.cutAll(out);
      if (this.len === this.buf.length && this.len >= MAX_PENDING_BYTES) {
        // Full: a quoted field past its bounds ends its record at an LF already held; look once more.
        this.waitLfFrom = 0;
        this.cutAll(out);
      }
      if (this.len === this.buf.length) this.grow();
    }
    return out;
  }

  /** The whole records held so far as one batch, however small (the input is idle). */
  cutPending(): Buffer[] {
    if (this.len === 0) return [];
    const cut = this.findCut(false);
    return cut > 0 ? [this.take(cut)] : [];
  }

  /** Input ended: the rest, as the last batch (or none). */
  end(): Buffer[] {
    const out: Buffer[] = [];
    while (this.len > 0) {
      const cut = this.findCut(true);
      out.push(this.take(cut > 0 ? cut : this.len));
    }
    return out;
  }

  private cutAll(out: Buffer[]): void {
    while (this.len >= this.target) {
      const cut = this.findCut(false);
      if (cut === 0) return;
      out.push(this.take(cut));
    }
  }

  private grow(): void {
    if (this.buf.length >= MAX_PENDING_BYTES) {
      throw new RobotsAuditError(
        'ERR_RECORD_TOO_LONG',
        `a single input line is longer than ${MAX_PENDING_BYTES >> 20} MiB; is this a CSV file?`,
      );
    }
    // Capped, so that the limit holds exactly: buffers are not powers of two (see take).
    const next = this.fresh(Math.min(this.buf.length * 2, MAX_PENDING_BYTES));
    this.buf.copy(next, 0, 0, this.len);
    this.pool.give(this.buf.buffer as ArrayBuffer);
    this.buf = next;
  }

  /** The first `cut` bytes become a batch; the rest moves to a fresh buffer. */
  private take(cut: number): Buffer {
    this.waitLfFrom = Math.max(0, this.waitLfFrom - cut);
    const batch = this.buf.subarray(0, cut);
    const next = this.fresh(this.len - cut + 1024);
    this.buf.copy(next, 0, cut, this.len);
    this.len -= cut;
    this.buf = next;
    return batch;
  }

  private findCut(eof: boolean): number {
    const len = this.len;
    if (!eof) {
      // A record ends at an LF: without a new one, rescanning a long pending record (one line of
      // 60 MiB, quoted or not) per chunk would cost quadratic time and find nothing.
      const from = this.waitLfFrom;
      this.scannedBytes += len - from;
      this.waitLfFrom = len;
      if (this.buf.subarray(0, len).indexOf(10, from) < 0) return 0;
    }
    this.scannedBytes += len;
    if (this.buf.subarray(0, len).indexOf(34) < 0) {
      if (eof) return len;
      const lf = this.buf.lastIndexOf(10, len - 1);
      return lf < 0 ? 0 : lf + 1;
    }
    this.scanner.reset(this.buf.toString('latin1', 0, len), len, this.delimiter, eof);
    return this.scanner.lastBoundary(0);
  }
}
