import path from 'node:path';
import { hasCode } from '../core/errors.js';
import { formatRecord } from '../rows/csv-quote.js';
import { verdictColumns } from '../rows/verdict-format.js';
import type { BatchStats, PolicyRequest, WorkerConfig } from '../workers/protocol.js';
import { abortable, aborted } from './abort-signal.js';
import { agentColumnIndex } from './agent-column.js';
import { asOfConfig } from './as-of-config.js';
import type { ClassifyOptions } from './command-options.js';
import { ProgressReporter } from './figures/progress.js';
import { type ClassifySummary, SummaryBuilder } from './figures/summary.js';
import { Batcher } from './input/batcher.js';
import { type Header, HeaderReader } from './input/header.js';
import { openInput } from './input/input-source.js';
import { LineModeStart } from './input/line-mode.js';
import { type ShardBatch, ShardFilter } from './input/shard-filter.js';
import { isAsOf, resolveClassifyOptions } from './options.js';
import { OrderedOutput } from './output/ordered-output.js';
import { OutputSink } from './output/output-sink.js';
import type { PolicyProvider } from './policy/policy.js';
import { PolicyBroker } from './policy/policy-broker.js';
import { type ProviderHandle, providerFor } from './policy/provider-for.js';
import { threadsFor } from './thread-count.js';

export type { ClassifySummary } from './figures/summary.js';

import type { InThreadPool } from './in-thread-pool.js';
import type { ClassifyPool } from './worker-pool.js';

/**
 * Estimated bytes (core's `byteSize`) of compiled rule sets kept by all workers together (each owns
 * 1/threads of the origins), with a floor per worker. Evicting is cheap in memory but each recompile
 * costs a round trip and garbage: 96 MiB holds ~30k typical hosts (the 18k robots.txt of the benchmark
 * compile to 57 MB for one agent). Host names of different sites that serve one body (a platform's
 * default robots.txt) spread over every worker, which then each need that body.
 */
const COMPILED_BUDGET_TOTAL = 128 * 1024 * 1024;
const COMPILED_BUDGET_MIN = 32 * 1024 * 1024;
/**
 * Origins remembered by all workers together, with a floor per worker: each origin has one owner, so
 * N workers hold what one would (hot origins adopted by every worker aside).
 */
const ORIGIN_BUDGET_TOTAL = 40_000;
const ORIGIN_BUDGET_MIN = 10_000;
/**
 * Batches in flight per worker, by where policies come from. Live fetching waits longer for policies:
 * more batches keep the CPU busy meanwhile (16 batches of 64 KiB: 1 MiB of rows per worker). A cache
 * answers within a read, and each batch waiting holds its origins' policies (every version's body, as
 * of a time): 4 instead of 16 peak 30–40 MiB lower with less CPU (measured on the as-of benchmark).
 */
const TASKS_PER_WORKER = Object.freeze({ 'robots-dir': 2, offline: 4, 'as-of': 4, live: 16 });
/** On abort, the policy source gets this long to close before the run returns anyway. */
const STOP_CLOSE_MS = 1000;
/** Records read wait at most this long for their batch to fill: a slow input's rows are not held back. */
const HOLD_MS = 100;

export interface ClassifyParams extends Partial<Record<keyof ClassifyOptions, unknown>> {
  /** A file path (`.gz` or gzip content is decompressed), `-` for stdin, or a readable stream. */
  input: string | NodeJS.ReadableStream;
  /** Stops the run: reading stops, workers end, the temporary output is removed; rejects ERR_ABORTED. */
  signal?: AbortSignal;
  /** Use this policy source instead of the one the options select (closed at the end). */
  provider?: PolicyProvider;
}

/**
 * Classifies every record of a CSV crawl log: one output row per input record, in input order, with
 * each agent's verdict and the deciding robots.txt line. The library form of `robots-audit classify`.
 */
export async function classify(params: ClassifyParams): Promise<ClassifySummary> {
  const { input, signal, provider: custom, ...rest } = params;
  const options = resolveClassifyOptions(rest);
  const agents = [...new Set(options.agents)];
  if (signal?.aborted) throw aborted(signal);
  const t0 = performance.now();
  const source = await openInput(input);
  let handle: ProviderHandle | null = null;
  let sink: OutputSink | null = null;
  let summarySink: OutputSink | null = null;
  let pool: ClassifyPool | InThreadPool | null = null;
  let progress: ProgressReporter | null = null;
  let readingMs = 0;
  try {
    handle = custom ? { provider: custom, kind: 'live', figures: () => null } : await providerFor(options);
    const chunks = source.chunks[Symbol.asyncIterator]();
    const next = async () => {
      const r0 = performance.now();
      const r = await abortable(chunks.next(), signal);
      readingMs += performance.now() - r0;
      return r;
    };

    // The header row: read until it is whole (in line mode, the columns are the options').
    const headerReader = options.header ? new HeaderReader(options) : new LineModeStart(options);
    let header: Header | undefined;
    let eof = false;
    while (header === undefined) {
      const r = await next();
      eof = r.done === true;
      header = headerReader.push(eof ? null : r.value);
    }

    const asOf = asOfConfig(options, header.columns);
    const agentIndex = agentColumnIndex(options, header.columns);
    sink = OutputSink.open(options.output);
    if (options.summary !== undefined) {
      summarySink = OutputSink.open(options.summary, { label: 'summary', plain: true });
    }
    const d = header.delimiter;
    const extra = formatRecord(verdictColumns(agents, options.evidence, asOf !== null, agentIndex >= 0), d);
    if (options.header) {
      const numberColumn = Buffer.from(options.rowNumber ? `row_number${d}` : '');
      await sink.write(
        Buffer.concat([header.preamble, numberColumn, header.raw, Buffer.from(`${d}${extra}${header.eol}`)]),
      );
    }

    const threads = threadsFor(options.threads, {
      totalBytes: source.totalBytes,
      compressed: source.compressed(),
      shards: options.shard?.count ?? 1,
    });
    const tasksPerWorker = TASKS_PER_WORKER[handle.kind];
    const config: WorkerConfig = {
      agents,
      delimiter: d,
      urlIndex: header.urlIndex,
      hostIndex: header.hostIndex,
      columns: header.columns.length,
      scheme: options.scheme,
      eol: header.eol,
      lineMode: !options.header,
      evidence: options.evidence,
      shard: options.shard ?? null,
      rowNumber: options.rowNumber,
      asOf,
      agentIndex,
      compiledBudget: Math.max(COMPILED_BUDGET_MIN, Math.floor(COMPILED_BUDGET_TOTAL / threads)),
      originBudget: Math.max(ORIGIN_BUDGET_MIN, Math.floor(ORIGIN_BUDGET_TOTAL / threads)),
      // Workers read the files themselves: no coordinator round trip (nor its CPU) per origin.
      robotsDir:
        handle.kind === 'robots-dir' && options.robotsDir !== undefined
          ? path.resolve(options.robotsDir)
          : null,
    };
    // Only live answers are worth keeping for repeats: a re-fetch is a network round trip.
    const broker = new PolicyBroker(handle.provider, handle.kind === 'live', options.evidence);
    /**
     * Started with the first batch. An input that is one batch in all, and any input with one thread, is
     * judged in this thread: a worker isolate of its own would only add its memory and the messages.
     */
    const startPool = async (wholeInput: boolean) => {
      const resolve = (req: PolicyRequest) => broker.resolve(req);
      if (wholeInput || threads === 1)
        return new (await import('./in-thread-pool.js')).InThreadPool(config, resolve);
      return new (await import('./worker-pool.js')).ClassifyPool(config, threads, tasksPerWorker, resolve);
    };
    const summary = new SummaryBuilder(agents, agentIndex >= 0);
    // Lines with no host are shard 1's.
    if ((options.shard?.index ?? 1) === 1) summary.addBlankLines(header.blankLines);
    const h = handle;
    if (options.progress) {
      progress = new ProgressReporter(() => ({
        rows: summary.rowsWritten,
        bytesRead: source.bytesRead(),
        totalBytes: source.totalBytes,
        broker: broker.stats,
        fetch: h.figures(),
      }));
      progress.start();
    }

    const batcher = new Batcher(d.charCodeAt(0));
    const buffers = batcher.pool;
    // A shard drops the other shards' rows as it reads them: they are never posted to a worker.
    const filter = ShardFilter.of(config, buffers);
    /** When the oldest record the filter holds was read (null when it holds none). */
    let keptSince: number | null = null;
    const addStats = (stats: BatchStats) => {
      summary.add(stats);
      broker.addTally(stats.policies);
    };
    const ordered = new OrderedOutput(
      sink,
      threads * tasksPerWorker + 2,
      buffers,
      (stats) => {
        addStats(stats);
        summary.rowsWritten += stats.records;
      },
      signal,
    );
    const post = async (batch: Buffer, places?: ShardBatch) => {
      const out = ordered.spareOutput();
      pool ??= await startPool(false);
      await ordered.add(pool.run(batch, out, (spare) => ordered.giveOutput(spare), places));
    };
    const submit = async (batch: Buffer) => {
      if (filter === null) return post(batch);
      const f0 = performance.now();
      const batches = filter.push(batch);
      const p0 = performance.now();
      readingMs += p0 - f0;
      for (const b of batches) await post(b.bytes, b);
      // Time the output held reading back is not the input's: the held records' wait resumes after it.
      if (filter.heldBytes === 0) keptSince = null;
      else if (keptSince === null) keptSince = performance.now();
      else keptSince += performance.now() - p0;
    };
    /** The batches of kept records the filter holds, however small. */
    const flushKept = async () => {
      if (filter === null) return;
      for (const b of filter.flush()) await post(b.bytes, b);
      keptSince = null;
    };
    /** When the oldest record the batcher holds was read (null when it holds none). */
    let heldSince: number | null = null;
    const feed = async (bytes: Buffer) => {
      const c0 = performance.now();
      const batches = batcher.push(bytes);
      readingMs += performance.now() - c0;
      for (const b of batches) await submit(b);
      // Counted from when reading resumes: time the output held reading back is not the input's.
      if (batcher.pendingBytes === 0) heldSince = null;
      else if (heldSince === null || batches.length > 0) heldSince = performance.now();
    };
    const rest = headerReader.rest();
    if (rest.length > 0) await feed(rest);
    while (!eof) {
      // A slow or trickling input (a pipe) must not hold records back: records read wait at most
      // HOLD_MS for their batch to fill, and each finished batch is written as soon as it is done.
      const pending = next();
      let r: IteratorResult<Buffer>;
      for (;;) {
        let timer: NodeJS.Timeout | undefined;
        const waits: Promise<IteratorResult<Buffer> | 'cut' | 'written'>[] = [pending];
        const since =
          heldSince === null ? keptSince : keptSince === null ? heldSince : Math.min(heldSince, keptSince);
        if (since !== null) {
          const due = Math.max(0, since + HOLD_MS - performance.now());
          waits.push(new Promise((resolve) => (timer = setTimeout(() => resolve('cut'), due))));
        }
        const oldest = ordered.oldestSettled();
        if (oldest !== undefined) waits.push(oldest);
        const got = await Promise.race(waits);
        clearTimeout(timer);
        if (got === 'cut') {
          for (const b of batcher.cutPending()) await submit(b);
          await flushKept();
          // What is left is the start of a record: it waits for its line end, then HOLD_MS more.
          heldSince = batcher.pendingBytes > 0 ? performance.now() : null;
        } else if (got === 'written') await ordered.writeReady();
        else {
          r = got;
          break;
        }
      }
      if (r.done) break;
      await feed(r.value);
    }
    // The last batches, sifted when sharded: an input of one batch in all is judged in this thread.
    const last: { bytes: Buffer; places?: ShardBatch }[] = [];
    for (const b of batcher.end()) {
      if (filter === null) last.push({ bytes: b });
      else for (const k of filter.push(b)) last.push({ bytes: k.bytes, places: k });
    }
    for (const k of filter?.flush() ?? []) last.push({ bytes: k.bytes, places: k });
    pool ??= await startPool(last.length <= 1);
    for (const b of last) await post(b.bytes, b.places);
    await ordered.drain();
    await abortable(pool.flush(addStats), signal);
    await abortable(sink.finish(), signal);
    progress?.stop();

    const result = summary.build({
      input: typeof input === 'string' ? input : '(stream)',
      output: options.output,
      threads,
      shard: options.shard ?? null,
      asOf: isAsOf(options)
        ? {
            column: options.atColumn,
            time: options.asOf,
            graceSeconds: options.grace,
            maxHistoryAgeSeconds: options.maxHistoryAge,
          }
        : null,
      broker: broker.stats,
      wallMs: performance.now() - t0,
      readingMs,
      writingMs: sink.writeMs,
    });
    // The summary is whole before OUTPUT is committed: a summary that cannot be written fails the run.
    if (summarySink !== null) {
      await summarySink.write(Buffer.from(`${JSON.stringify(result, null, 2)}\n`));
      await abortable(summarySink.finish(), signal);
    }
    await sink.publish();
    await summarySink?.publish();
    return result;
  } catch (err) {
    await sink?.abort();
    await summarySink?.abort();
    throw signal?.aborted && !hasCode(err, 'ERR_ABORTED') ? aborted(signal) : err;
  } finally {
    progress?.stop();
    source.close();
    await pool?.destroy().catch(() => {});
    if (signal?.aborted) {
      // Stopping: commit what the cache has, and do not wait for slow fetches still in flight.
      handle?.flush?.();
      const closing = handle?.provider.close().catch(() => {});
      await Promise.race([closing, new Promise((r) => setTimeout(r, STOP_CLOSE_MS).unref())]);
    } else {
      await handle?.provider.close().catch(() => {});
    }
  }
}
