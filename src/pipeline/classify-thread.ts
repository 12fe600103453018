import { closeSync, constants, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { type Failure, hasCode, RobotsAuditError } from '../core/errors.js';
import { builtFile } from './built-file.js';
import type { ClassifyParams, ClassifySummary } from './classify.js';
import { BATCH_BYTES } from './input/batcher.js';
import { resolveOutputTarget } from './output/output-target.js';

/**
 * The coordinator thread's heap: a small young generation (its allocations are short-lived buffers
 * and promises) and an old generation far above its usual live data (≈ 15 MiB: body cache, top
 * counters, batches in flight), room for top counters of many long rules. V8 grows a heap with this
 * limit to ~1.4× its live data (on the main thread's default limit, up to 4×).
 */
export const COORDINATOR_LIMITS = Object.freeze({ maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 512 });

/** Once the result is in, the thread gets this long to end on its own before it is terminated. */
const EXIT_GRACE_MS = 5000;

/** Messages of the coordinator thread: its one result, as plain data. */
export type CoordinatorReply = { ok: true; summary: ClassifySummary } | Failure;

/** What the coordinator thread starts with: the params, and the terminal its stderr lands on, if any. */
export interface CoordinatorData {
  params: ClassifyParams;
  /** The thread's stderr is forwarded to this thread's: on a terminal, progress is redrawn in place. */
  terminal: { columns: number } | null;
}

/** Messages to the coordinator thread. */
export interface CoordinatorAbort {
  kind: 'abort';
  reason: string;
}

/** /dev/stdout and the like: written as this thread's stdout (a socket cannot be reopened by path). */
function writesToOwnDescriptor(output: string): boolean {
  try {
    return resolveOutputTarget(output).kind === 'fd';
  } catch {
    return false;
  }
}

/**
 * Whether `classifyInThread` can run these params: the input and output are files (stdin/stdout, and
 * /dev/stdout-like links, belong to the main thread) and the policy source is one the options select
 * (a custom provider is an object of this thread).
 */
export function threadable(params: ClassifyParams): boolean {
  const { input, output, provider } = params;
  return (
    provider === undefined &&
    typeof input === 'string' &&
    input !== '-' &&
    typeof output === 'string' &&
    output !== '-' &&
    !writesToOwnDescriptor(output)
  );
}

/**
 * `classify`, with its coordinator (reading, policy brokering, ordering, writing) in a worker thread
 * of its own whose heap is capped (`COORDINATOR_LIMITS`); the calling thread only waits. The main
 * thread's heap is sized for a whole process (a 32 MiB young generation, an old generation that may
 * grow to 4× its live data), so this keeps a run's RSS lower and flatter. Same contract as `classify`:
 * `signal` stops the run (rejects ERR_ABORTED), failures reject with their code.
 */
export function classifyInThread(params: ClassifyParams): Promise<ClassifySummary> {
  if (!threadable(params)) {
    return Promise.reject(
      new RobotsAuditError(
        'ERR_USAGE',
        'classifyInThread needs an input file, an output file and no custom provider',
      ),
    );
  }
  const { signal, provider: _none, ...plain } = params;
  return new Promise((resolve, reject) => {
    let reply: CoordinatorReply | null = null;
    let failure: RobotsAuditError | null = null;
    let grace: NodeJS.Timeout | undefined;
    const data: CoordinatorData = {
      params: plain,
      terminal: process.stderr.isTTY ? { columns: process.stderr.columns ?? 80 } : null,
    };
    const worker = new Worker(builtFile('./coordinator-thread.js'), {
      workerData: data,
      resourceLimits: { ...COORDINATOR_LIMITS },
    });
    const onAbort = () => {
      const reason = signal?.reason;
      worker.postMessage({ kind: 'abort', reason: typeof reason === 'string' ? reason : 'aborted' });
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) onAbort();
    worker.on('message', (m: CoordinatorReply) => {
      reply = m;
      grace = setTimeout(() => void worker.terminate(), EXIT_GRACE_MS);
      grace.unref();
    });
    worker.on('error', (err) => {
      failure = hasCode(err, 'ERR_WORKER_OUT_OF_MEMORY')
        ? new RobotsAuditError(
            'ERR_COORDINATOR_MEMORY',
            `the coordinator ran out of memory (heap limit ${COORDINATOR_LIMITS.maxOldGenerationSizeMb} MiB)`,
            { cause: err },
          )
        : new RobotsAuditError('ERR_COORDINATOR', `the coordinator thread failed: ${String(err)}`, {
            cause: err,
          });
    });
    // Settled on exit, so that everything the thread wrote to stderr is out first.
    worker.on('exit', (code) => {
      clearTimeout(grace);
      signal?.removeEventListener('abort', onAbort);
      const r = reply as CoordinatorReply | null;
      if (r?.ok === true) resolve(r.summary);
      else if (r !== null) reject(new RobotsAuditError(r.code, r.message));
      else
        reject(
          failure ??
            new RobotsAuditError(
              'ERR_COORDINATOR',
              `the coordinator thread exited (code ${code}) without a result`,
            ),
        );
    });
  });
}

/**
 * Whether `input` is a regular file of at most one batch, not gzip (whose content may be far larger):
 * a run that small is over before a coordinator thread would have loaded its modules.
 */
export function oneBatchFile(input: ClassifyParams['input']): boolean {
  if (typeof input !== 'string' || input === '-') return false;
  let fd: number | undefined;
  try {
    // Anything but a regular file is never opened here: a FIFO opened and closed by this check would
    // let its writer write into a pipe that is then dropped, so the real read would wait forever.
    const path = statSync(input);
    if (!path.isFile() || path.size > BATCH_BYTES) return false;
    // Non-blocking all the same: a FIFO put in its place since would otherwise wait for its writer.
    fd = openSync(input, constants.O_RDONLY | constants.O_NONBLOCK);
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > BATCH_BYTES) return false;
    const magic = Buffer.alloc(2);
    return readSync(fd, magic, 0, 2, 0) < 2 || magic[0] !== 0x1f || magic[1] !== 0x8b;
  } catch {
    // classify reports what is wrong with the input, in whichever thread it runs.
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Runs `classify` in a coordinator thread when the params allow it (`threadable`) and the input is more
 * than one batch (`oneBatchFile`), in this thread otherwise. `classify` itself loads only when it runs here.
 */
export async function runClassify(params: ClassifyParams): Promise<ClassifySummary> {
  if (threadable(params) && !oneBatchFile(params.input)) return classifyInThread(params);
  const { classify } = await import('./classify.js');
  return classify(params);
}
