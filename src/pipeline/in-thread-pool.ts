import { RobotsAuditError, toFailure } from '../core/errors.js';
import { BatchClassifier } from '../workers/batch-classifier.js';
import type { RecordPlaces } from '../workers/batch-rows.js';
import type {
  BatchResult,
  BatchStats,
  PolicyRequest,
  WirePolicy,
  WorkerConfig,
} from '../workers/protocol.js';
import { DirPolicySource } from '../workers/robots-dir-reader.js';
import { RecordNumbering } from './output/record-numbering.js';
import type { PolicyResolver } from './worker-pool.js';

/**
 * The classify worker's work done in this thread, for an input of one batch: starting worker threads
 * (an isolate each, loading its modules) would cost more than judging the batch. Same contract as
 * `ClassifyPool` (`run`, `flush`, `destroy`), same results and the same failures as one worker.
 */
export class InThreadPool {
  private readonly classifier: BatchClassifier;
  /** Under `--robots-dir` the files are read here; else policies come from `resolve`. */
  private readonly dir: DirPolicySource | null;
  private readonly fetchPolicies: (req: PolicyRequest) => Promise<WirePolicy[]>;
  private readonly numbering: RecordNumbering | null;
  private seq = 0;

  constructor(config: WorkerConfig, resolve: PolicyResolver) {
    this.dir = config.robotsDir === null ? null : new DirPolicySource(config.robotsDir);
    const dir = this.dir;
    this.fetchPolicies = async (req) => (dir !== null ? dir.fetch(req) : resolve(req));
    this.numbering = config.rowNumber === true ? new RecordNumbering() : null;
    this.classifier = new BatchClassifier(config);
    this.classifier.store.missingProbe = dir;
    const store = this.classifier.store;
    if (dir !== null) dir.bodies.compiled = (sha) => store.holdCompiled(sha);
  }

  async run(
    batch: Buffer,
    output: ArrayBuffer | null,
    onSpare: (ab: ArrayBuffer) => void,
    places: RecordPlaces = {},
  ): Promise<BatchResult> {
    const numbering = this.numbering;
    const seq = numbering === null ? undefined : this.seq++;
    const recordBase =
      numbering === null || seq === undefined
        ? undefined
        : (records: number) => numbering.report({ kind: 'records', seq, records });
    try {
      if (batch.byteOffset !== 0) throw new Error('batch buffer must start at offset 0');
      const { output: out, stats } = await this.classifier.classify(
        batch,
        this.fetchPolicies,
        output,
        recordBase,
        places,
      );
      stats.policies = this.dir?.take() ?? null;
      if (out.byteOffset !== 0) throw new Error('output buffer must start at offset 0');
      if (output !== null && out.buffer !== output) onSpare(output);
      return {
        output: out.buffer as ArrayBuffer,
        length: out.length,
        input: batch.buffer as ArrayBuffer,
        stats,
      };
    } catch (err) {
      throw asWorkerFailure(err);
    }
  }

  /** Counters not reported yet, to `onStats` piece by piece (see BatchClassifier.flush). */
  async flush(onStats: (stats: BatchStats) => void): Promise<void> {
    try {
      do {
        const stats = this.classifier.flush();
        stats.policies = this.dir?.take() ?? null;
        onStats(stats);
      } while (this.classifier.unflushed);
    } catch (err) {
      throw asWorkerFailure(err);
    }
  }

  async destroy(): Promise<void> {}
}

/** A failure as a worker thread's reaches the coordinator: its code, and its message after `worker failed:`. */
function asWorkerFailure(err: unknown): RobotsAuditError {
  const failure = toFailure(err);
  return new RobotsAuditError(failure.code, `worker failed: ${failure.message}`, { cause: err });
}
