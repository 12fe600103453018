/**
 * Piscina worker entry. Each worker lives in a one-thread pool of its own, so the coordinator can
 * address it: the first task (init) hands it its index and ports; then batch tasks; a last flush.
 * Keeps its origin and compiled-rules caches across tasks. Returns plain data (never throws across
 * the thread boundary): a result whose output buffer is transferred, or a failure.
 */
import { move, transferableSymbol, valueSymbol, workerData } from 'piscina';
import { toFailure } from '../core/errors.js';
import { BatchClassifier } from './batch-classifier.js';
import { linkPeers } from './peer-links.js';
import { PortLink } from './port-link.js';
import type {
  BatchResult,
  InitTask,
  PolicyRequest,
  RecordCount,
  WirePolicy,
  WorkerConfig,
  WorkerTask,
} from './protocol.js';
import { DirPolicySource } from './robots-dir-reader.js';

const config = workerData as WorkerConfig;
let classifier: BatchClassifier | null = null;
let coordinator: PortLink | null = null;
/** Under `--robots-dir` the worker reads policy files itself; else it asks the coordinator. */
const dir = config.robotsDir === null ? null : new DirPolicySource(config.robotsDir);

async function fetchPolicies(req: PolicyRequest): Promise<WirePolicy[]> {
  return dir !== null ? dir.fetch(req) : coordinator!.request<WirePolicy[]>(req);
}

function init(task: InitTask): void {
  coordinator = new PortLink(task.coordinator);
  const { affinity } = linkPeers(task, (req) => classifier!.answer(req, fetchPolicies));
  classifier = new BatchClassifier(config, affinity);
  // Origins the directory has no file for are judged at once, without asking for a policy.
  classifier.store.missingProbe = dir;
  if (dir !== null) dir.bodies.compiled = (sha) => classifier!.store.holdCompiled(sha);
}

export default async function classifyTask(task: WorkerTask): Promise<unknown> {
  try {
    if (task.kind === 'init') {
      init(task);
      return { ok: true };
    }
    if (classifier === null) throw new Error('worker used before its init task');
    if (task.kind === 'flush') {
      const stats = classifier.flush();
      stats.policies = dir?.take() ?? null;
      return { ok: true, stats, more: classifier.unflushed };
    }
    const bytes = Buffer.from(task.buffer, 0, task.length);
    const seq = task.seq;
    const recordBase =
      seq === undefined
        ? undefined
        : (records: number) =>
            coordinator!.request<number>({ kind: 'records', seq, records } satisfies RecordCount);
    const places = { ordinals: task.ordinals ?? null, skip: task.skip ?? 0 };
    const { output, stats } = await classifier.classify(
      bytes,
      fetchPolicies,
      task.output,
      recordBase,
      places,
    );
    stats.policies = dir?.take() ?? null;
    if (output.byteOffset !== 0) throw new Error('output buffer must start at offset 0');
    const result: BatchResult = {
      output: output.buffer as ArrayBuffer,
      length: output.length,
      input: task.buffer,
      stats,
    };
    // The unused recycled buffer (when the output did not fit) goes back too, so it is not lost.
    const spare = task.output !== null && task.output !== result.output ? task.output : null;
    return move({
      get [transferableSymbol]() {
        return spare === null ? [result.output, result.input] : [result.output, result.input, spare];
      },
      get [valueSymbol]() {
        return { ok: true, result, spare };
      },
    });
  } catch (err) {
    return { ok: false, failure: toFailure(err) };
  }
}
