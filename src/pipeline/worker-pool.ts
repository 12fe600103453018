import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { type Failure, hasCode, RobotsAuditError } from '../core/errors.js';
import { PortLink } from '../workers/port-link.js';
import type {
  BatchResult,
  BatchStats,
  PolicyRequest,
  WirePolicy,
  WorkerConfig,
  WorkerTask,
} from '../workers/protocol.js';
import { builtFile } from './built-file.js';
import { InThreadPool } from './in-thread-pool.js';
import { isRecordCount, RecordNumbering } from './output/record-numbering.js';

/** The classify worker's entry file: CommonJS, so that no worker is ever terminated inside require(esm). */
export function workerFile(): string {
  return builtFile('../workers/classify-worker-entry.cjs');
}

export type PolicyResolver = (req: PolicyRequest) => Promise<WirePolicy[]>;

type Reply =
  | { ok: true; result?: BatchResult; stats?: BatchStats; spare?: ArrayBuffer | null; more?: boolean }
  | { ok: false; failure: Failure };

function unwrap(reply: Reply): Reply & { ok: true } {
  if (!reply.ok) throw new RobotsAuditError(reply.failure.code, `worker failed: ${reply.failure.message}`);
  return reply;
}

/**
 * Classifiers: the coordinator's thread (an InThreadPool) and `threads - 1` workers, each one real Piscina
 * pool of one thread, so that each can be addressed (it owns the origins whose host hashes to its
 * index). Every worker gets a port to the coordinator (policy requests, answered by `resolve`) and each
 * classifier one to each other (rows of origins the other owns). Batches go to the worker with the fewest
 * in flight; to the coordinator's thread when every worker has its share: it also reads, routes and
 * writes, and judging there costs no isolate of its own (≈ 1 s of CPU to load and warm up) nor messages.
 */
export class ClassifyPool {
  private readonly pools: Piscina<WorkerTask, Reply>[] = [];
  private readonly links: PortLink[] = [];
  private readonly inFlight: number[] = [];
  private readonly local: InThreadPool;
  private readonly ready: Promise<void>;
  private destroyed = false;
  /** A worker that failed between tasks (Piscina reports it as an 'error' event, not through a task). */
  private failure: unknown = null;
  private readonly heapLimitMb: number;
  /** With `rowNumber`: the next batch's place in the input, and the record counts workers report. */
  private seq = 0;
  private readonly numbering: RecordNumbering | null;

  /** `threads` ≥ 2: the coordinator's thread and `threads - 1` workers. */
  constructor(
    config: WorkerConfig,
    threads: number,
    private readonly tasksPerWorker: number,
    resolve: PolicyResolver,
  ) {
    const filename = workerFile();
    const numbering = config.rowNumber === true ? new RecordNumbering() : null;
    this.numbering = numbering;
    // Live data at the budgets: compiled sets (their heap part is below byteSize), origins (≈ 1.5 KiB each
    // with their cached verdict texts), batches in flight and the isolate's own ≈ 32 MiB. Below 256 MiB V8
    // already collects at ~1.3× the live heap, so the limit is a ceiling against thrashing, not the RSS.
    this.heapLimitMb = Math.ceil(
      (config.compiledBudget / 2 ** 20) * 1.25 + (config.originBudget * 1.5) / 1024 + 32,
    );
    const peers: (MessagePort | null)[][] = [];
    for (let i = 0; i < threads; i++) peers.push(new Array(threads).fill(null));
    for (let i = 0; i < threads; i++) {
      for (let j = i + 1; j < threads; j++) {
        const { port1, port2 } = new MessageChannel();
        peers[i]![j] = port1;
        peers[j]![i] = port2;
      }
    }
    this.local = new InThreadPool(config, resolve, { index: 0, threads, ports: peers[0]! }, numbering);
    const inits: Promise<Reply>[] = [];
    for (let i = 1; i < threads; i++) {
      const pool = new Piscina<WorkerTask, Reply>({
        filename,
        minThreads: 1,
        maxThreads: 1,
        idleTimeout: 60_000,
        concurrentTasksPerWorker: tasksPerWorker,
        atomics: 'disabled',
        workerData: config,
        recordTiming: false,
        // V8 lets a heap grow to ~3× its live data before collecting; a limit sized from the compiled-rules
        // budget (the bulk of a worker's live data) keeps RSS flat. Each scavenge copies the batches in
        // flight: 12 MiB of young generation halves the scavenges of 6 (≈ 0.25 s less CPU over 2M rows)
        // for ≈ 6 MiB more RSS in all; 16 saved ≈ 0.2 s more for 6 MiB more again.
        resourceLimits: {
          maxYoungGenerationSizeMb: 12,
          maxOldGenerationSizeMb: this.heapLimitMb,
        },
      });
      // Without a listener, Piscina's 'error' ends the process: a reply that arrives after destroy()
      // failed its task is one ('Unexpected message from Worker'), and is expected then.
      pool.on('error', (err: unknown) => {
        if (!this.destroyed) this.failure ??= err;
      });
      const { port1, port2 } = new MessageChannel();
      this.links.push(
        new PortLink(port1, async (body) => ({
          value:
            numbering !== null && isRecordCount(body)
              ? await numbering.report(body)
              : await resolve(body as PolicyRequest),
        })),
      );
      const ports = peers[i]!;
      const transfer = [port2, ...ports.filter((p): p is MessagePort => p !== null)];
      inits.push(
        pool.run({ kind: 'init', index: i, threads, coordinator: port2, ports }, { transferList: transfer }),
      );
      this.pools.push(pool);
      this.inFlight.push(0);
    }
    this.ready = Promise.all(inits).then((replies) => {
      for (const r of replies) unwrap(r);
    });
    this.ready.catch(() => {});
  }

  get threads(): number {
    return this.pools.length + 1;
  }

  /**
   * Runs one batch on the least busy worker, or in this thread when every worker has its share in
   * flight. The batch's buffer (and `output`, a recycled buffer to write into) are transferred; both come
   * back in the result (`input`, `output`, or via `onSpare`).
   * `places`: a shard's batch of kept records (ShardFilter), with their places in the input.
   * No abort signal goes to Piscina: it runs a task that has one alone on its worker, which left each
   * worker one batch at a time, idle while that batch waited for a peer (≈ 20 % of its time). Stopping
   * is `destroy()`, which terminates the workers and fails the tasks in flight.
   */
  async run(
    batch: Buffer,
    output: ArrayBuffer | null,
    onSpare: (ab: ArrayBuffer) => void,
    places: { ordinals: Int32Array | null; skip: number } = { ordinals: null, skip: 0 },
  ): Promise<BatchResult> {
    // Numbered in call order, which is input order.
    const seq = this.numbering === null ? undefined : this.seq++;
    await this.ready;
    this.checkFailure();
    if (batch.byteOffset !== 0) throw new Error('batch buffer must start at offset 0');
    let w = -1;
    for (let i = 0; i < this.pools.length; i++) {
      const n = this.inFlight[i]!;
      if (n < this.tasksPerWorker && (w < 0 || n < this.inFlight[w]!)) w = i;
    }
    if (w < 0) return this.local.run(batch, output, onSpare, places, seq);
    this.inFlight[w]!++;
    try {
      const buffer = batch.buffer as ArrayBuffer;
      const { ordinals, skip } = places;
      const transferList: ArrayBuffer[] = output === null ? [buffer] : [buffer, output];
      if (ordinals !== null) transferList.push(ordinals.buffer as ArrayBuffer);
      const reply = unwrap(
        await this.pools[w]!.run(
          { kind: 'batch', buffer, length: batch.length, output, seq, ordinals, skip },
          { transferList },
        ).catch((err: unknown) => {
          if (!hasCode(err, 'ERR_WORKER_OUT_OF_MEMORY')) throw err;
          throw new RobotsAuditError(
            'ERR_WORKER_MEMORY',
            `a worker ran out of memory (heap limit ${this.heapLimitMb} MiB); try more --threads`,
            { cause: err },
          );
        }),
      );
      if (reply.spare) onSpare(reply.spare);
      return reply.result!;
    } finally {
      this.inFlight[w]!--;
    }
  }

  private checkFailure(): void {
    if (this.failure === null) return;
    const message = this.failure instanceof Error ? this.failure.message : String(this.failure);
    throw new RobotsAuditError('ERR_WORKER_FAILED', `a worker failed: ${message.split('\n')[0]}`, {
      cause: this.failure,
    });
  }

  /**
   * Counters every worker has not reported yet (rows it judged for its peers after its last batch), to
   * `onStats` piece by piece, one worker after the other: only one piece is held at a time.
   */
  async flush(onStats: (stats: BatchStats) => void): Promise<void> {
    await this.ready;
    this.checkFailure();
    await this.local.flush(onStats);
    for (const pool of this.pools) {
      let more = true;
      while (more) {
        const reply = unwrap(await pool.run({ kind: 'flush' }));
        onStats(reply.stats!);
        more = reply.more === true;
      }
    }
  }

  async destroy(): Promise<void> {
    if (this.destroyed) return;
    this.destroyed = true;
    for (const l of this.links) l.close('classify pool destroyed');
    await this.local.destroy();
    await Promise.all(this.pools.map((p) => p.destroy()));
  }
}
