/**
 * A cursor over a stream of byte chunks that keeps only what the reader still needs: the bytes from the
 * cursor to the furthest point asked for. Records are parsed from one contiguous view, so a record's
 * bytes are copied at most once, when they straddle chunks.
 */
export class ByteSource {
  private buf: Buffer = Buffer.alloc(0);
  private start = 0;
  private ended = false;
  /** Offset in the whole stream of the cursor. */
  offset = 0;
  private readonly iterator: AsyncIterator<Buffer>;

  constructor(chunks: AsyncIterable<Buffer>) {
    this.iterator = chunks[Symbol.asyncIterator]();
  }

  /** Bytes buffered past the cursor. */
  get available(): number {
    return this.buf.length - this.start;
  }

  /** True once the stream has ended and every byte has been consumed. */
  get done(): boolean {
    return this.ended && this.available === 0;
  }

  /** Reads until at least `n` bytes are buffered past the cursor; false when the stream ends first. */
  async ensure(n: number): Promise<boolean> {
    if (this.available >= n) return true;
    // Chunks are joined once, not one concat per chunk (a large record would cost quadratic copying).
    const parts: Buffer[] = this.available > 0 ? [this.buf.subarray(this.start)] : [];
    let total = this.available;
    while (total < n && !this.ended) {
      const next = await this.iterator.next();
      if (next.done === true) this.ended = true;
      else {
        parts.push(next.value);
        total += next.value.length;
      }
    }
    this.buf = parts.length === 1 ? parts[0]! : Buffer.concat(parts, total);
    this.start = 0;
    return total >= n;
  }

  /** Reads one more chunk (false at the end of the stream). */
  async more(): Promise<boolean> {
    const before = this.available;
    await this.ensure(before + 1);
    return this.available > before;
  }

  /** The buffered bytes past the cursor (a view: valid until the next ensure or consume). */
  view(): Buffer {
    return this.buf.subarray(this.start);
  }

  /** Moves the cursor `n` bytes forward within what is buffered. */
  consume(n: number): void {
    this.start += n;
    this.offset += n;
  }

  /** Moves the cursor `n` bytes forward, reading and dropping what is not buffered; returns bytes skipped. */
  async skip(n: number): Promise<number> {
    let left = n;
    while (left > 0) {
      if (this.available === 0 && !(await this.more())) break;
      const step = Math.min(left, this.available);
      this.consume(step);
      left -= step;
    }
    return n - left;
  }

  /** Takes up to `max` buffered bytes (reading a chunk when none is buffered); empty at the end. */
  async take(max: number): Promise<Buffer> {
    if (this.available === 0 && !(await this.more())) return Buffer.alloc(0);
    const n = Math.min(max, this.available);
    const out = this.buf.subarray(this.start, this.start + n);
    this.consume(n);
    return out;
  }

  /** Puts back the last `n` bytes taken (they are still in the buffer). */
  unread(n: number): void {
    this.start -= n;
    this.offset -= n;
  }
}
