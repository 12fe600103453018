import type { BatchResult, BatchStats } from '../../workers/protocol.js';
import { abortable } from '../abort-signal.js';
import { BufferPool } from '../input/buffer-pool.js';
import type { OutputSink } from './output-sink.js';

/**
 * The batches in flight, oldest first, and the writing of their outputs strictly in that order: a
 * batch's output goes out once every earlier one has, so rows keep their input order whichever worker
 * finishes first. At most `maxWindow` batches are in flight; adding one more first writes the oldest.
 * Output buffers come back here once written, for the next batches' verdicts.
 */
export class OrderedOutput {
  private readonly window: Promise<BatchResult>[] = [];
  private readonly settled = new WeakSet<Promise<BatchResult>>();
  private readonly outputs: BufferPool;

  constructor(
    private readonly sink: OutputSink,
    private readonly maxWindow: number,
    /** Where a written batch's input buffer goes back to. */
    private readonly inputs: BufferPool,
    /** Takes each batch's counters, in input order, before its output is written. */
    private readonly onStats: (stats: BatchStats) => void,
    private readonly signal: AbortSignal | undefined,
  ) {
    this.outputs = new BufferPool(0, maxWindow + 2);
  }

  /** A spare buffer for a batch's output, or null: the pool then allocates one. */
  spareOutput(): ArrayBuffer | null {
    return this.outputs.size > 0 ? this.outputs.take(0) : null;
  }

  /** Takes back an output buffer the pool did not use. */
  giveOutput(buffer: ArrayBuffer | null): void {
    this.outputs.give(buffer);
  }

  get length(): number {
    return this.window.length;
  }

  /**
   * Adds a posted batch; while the window is full, waits for the oldest and writes it; then writes the
   * batches already finished at the head.
   */
  async add(task: Promise<BatchResult>): Promise<void> {
    // Awaited in order by writeOldest; this marks it done and prevents an unhandled rejection.
    task.then(
      () => this.settled.add(task),
      () => this.settled.add(task),
    );
    this.window.push(task);
    while (this.window.length >= this.maxWindow) await this.writeOldest();
    await this.writeReady();
  }

  /** Resolves once the oldest batch has settled (undefined when none is in flight). */
  oldestSettled(): Promise<'written'> | undefined {
    const head = this.window[0];
    return head?.then(written, written);
  }

  /** Writes the finished batches at the head of the window without waiting for the others. */
  async writeReady(): Promise<void> {
    while (this.window.length > 0 && this.settled.has(this.window[0]!)) await this.writeOldest();
  }

  /** Waits for every batch in flight and writes them all. */
  async drain(): Promise<void> {
    while (this.window.length > 0) await this.writeOldest();
  }

  private async writeOldest(): Promise<void> {
    const r = await abortable(this.window.shift()!, this.signal);
    this.onStats(r.stats);
    this.inputs.give(r.input);
    // A shard's batch often has no row of its own: nothing to write.
    if (r.length === 0) this.outputs.give(r.output);
    else {
      await abortable(
        this.sink.write(Buffer.from(r.output, 0, r.length), () => this.outputs.give(r.output)),
        this.signal,
      );
    }
  }
}

/** A batch in flight has settled, either way (writeOldest reads its outcome, in order). */
const written = () => 'written' as const;
