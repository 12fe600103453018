/**
 * Recycles the ArrayBuffers that carry batches to workers and verdicts back, so that memory stays
 * flat instead of churning one fresh megabyte-sized buffer per batch and direction (V8 frees those
 * only at its own pace). Bounded: surplus buffers are dropped.
 */
export class BufferPool {
  private readonly free: ArrayBuffer[] = [];
  /** Buffers handed out by `take` that were newly allocated (for tests). */
  allocated = 0;

  constructor(
    private readonly defaultSize: number,
    private readonly max = 32,
  ) {}

  take(min = 0): ArrayBuffer {
    for (let i = this.free.length - 1; i >= 0; i--) {
      if (this.free[i]!.byteLength >= min) return this.free.splice(i, 1)[0]!;
    }
    this.allocated++;
    return Buffer.allocUnsafeSlow(Math.max(min, this.defaultSize)).buffer as ArrayBuffer;
  }

  give(ab: ArrayBuffer | null | undefined): void {
    // A transferred-away buffer is detached (length 0): nothing to keep.
    if (!ab || ab.byteLength === 0 || this.free.length >= this.max) return;
    this.free.push(ab);
  }

  get size(): number {
    return this.free.length;
  }
}
