import { RobotsAuditError, toFailure } from '../core/errors.js';
import { BatchClassifier } from '../workers/batch-classifier.js';
import type { RecordPlaces } from '../workers/batch-rows.js';
import { linkPeers, type PeerPorts } from '../workers/peer-links.js';
import type { PortLink } from '../workers/port-link.js';
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
 * The classify worker's work done in this thread: alone, for an input of one batch or one thread
 * (starting worker threads, an isolate each, would cost more than judging the batch), or as one of the
 * classifiers of a `ClassifyPool` (`peers`: its place among the workers, `numbering` shared with them).
 * Same contract as `ClassifyPool` (`run`, `flush`, `destroy`), same results and the same failures as one
 * worker.
 */
export class InThreadPool {
  private readonly classifier: BatchClassifier;
  /** Under `--robots-dir` the files are read here; else policies come from `resolve`. */
  private readonly dir: DirPolicySource | null;
  private readonly fetchPolicies: (req: PolicyRequest) => Promise<WirePolicy[]>;
  private readonly numbering: RecordNumbering | null;
  private readonly links: PortLink[];
  private seq = 0;

  constructor(
    config: WorkerConfig,
    resolve: PolicyResolver,
    peers: PeerPorts | null = null,
    numbering: RecordNumbering | null = config.rowNumber === true ? new RecordNumbering() : null,
  ) {
    this.dir = config.robotsDir === null ? null : new DirPolicySource(config.robotsDir);
    const dir = this.dir;
    this.fetchPolicies = async (req) => (dir !== null ? dir.fetch(req) : resolve(req));
    this.numbering = numbering;
    const linked =
      peers === null ? null : linkPeers(peers, (req) => this.classifier.answer(req, this.fetchPolicies));
    this.links = linked?.links ?? [];
    this.classifier = new BatchClassifier(config, linked?.affinity);
    this.classifier.store.missingProbe = dir;
    const store = this.classifier.store;
    if (dir !== null) dir.bodies.compiled = (sha) => store.holdCompiled(sha);
  }

  /** `poolSeq`: the batch's place in the input when a pool numbers its batches (else counted here). */
  async run(
    batch: Buffer,
    output: ArrayBuffer | null,
    onSpare: (ab: ArrayBuffer) => void,
    places: RecordPlaces = {},
    poolSeq?: number,
  ): Promise<BatchResult> {
    const numbering = this.numbering;
    const seq = numbering === null ? undefined : (poolSeq ?? this.seq++);
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

  async destroy(): Promise<void> {
    for (const l of this.links) l.close('classify pool destroyed');
  }
}

/** A failure as a worker thread's reaches the coordinator: its code, and its message after `worker failed:`. */
function asWorkerFailure(err: unknown): RobotsAuditError {
  const failure = toFailure(err);
  return new RobotsAuditError(failure.code, `worker failed: ${failure.message}`, { cause: err });
}
