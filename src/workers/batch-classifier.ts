import { InvalidSuffixes, writeRows } from './batch-output.js';
import { BatchRows, type RecordPlaces } from './batch-rows.js';
import { type BatchScan, BatchScanner } from './batch-scan.js';
import { CounterReports } from './counter-reports.js';
import type { ForeignRequest, ForeignResponse } from './foreign-rows.js';
import { installPending } from './install-pending.js';
import { OriginStore } from './origin-store.js';
import { type Affinity, Peers, SOLO } from './peer-routing.js';
import { PolicyInstaller } from './policy-installer.js';
import type { BatchStats, PolicyRequest, WirePolicy, WorkerConfig } from './protocol.js';
import { RowAgents } from './row-agent.js';
import { RowStats } from './row-stats.js';
import { TextPieces } from './text-pieces.js';
import { WorkStamps } from './work-stamps.js';

export type PolicyFetcher = (req: PolicyRequest) => Promise<WirePolicy[]>;
export type { Affinity };

/**
 * Classifies one batch of whole CSV records: splits them (by hand, or csv-parse for records with a
 * quote), resolves each row's origin, sends rows of origins another worker owns to that worker, asks
 * for unknown policies once per batch, matches, and writes every input record verbatim plus its
 * verdict columns, in order. The batch is handled as latin1 text (one char per byte), so offsets are
 * byte offsets and bytes pass unchanged.
 */
export class BatchClassifier {
  private readonly invalid: InvalidSuffixes;
  private readonly spareRows: BatchRows[] = [];
  private readonly pieces = new TextPieces();
  readonly store: OriginStore;
  private readonly installer: PolicyInstaller;
  private readonly work: WorkStamps;
  private readonly reports: CounterReports;
  private readonly scanner: BatchScanner;
  /** Rows with no host, blank lines among them, are shard 1's. */
  private readonly keepInvalid: boolean;
  /** `--agent-column`: each row's own crawler, or null. */
  private readonly rowAgents: RowAgents | null;
  private readonly peers: Peers;

  constructor(
    private readonly config: WorkerConfig,
    affinity: Affinity = SOLO,
  ) {
    this.store = new OriginStore(config);
    this.installer = new PolicyInstaller(this.store);
    this.reports = new CounterReports(this.store, config.originBudget);
    this.work = new WorkStamps(this.store);
    this.invalid = new InvalidSuffixes(config);
    this.keepInvalid = (config.shard?.index ?? 1) === 1;
    this.rowAgents = (config.agentIndex ?? -1) >= 0 ? new RowAgents(config) : null;
    this.peers = new Peers(affinity, config, this.store, this.installer, this.work);
    this.scanner = new BatchScanner(config, this.store, this.peers, this.rowAgents);
  }

  /** Judges rows a peer sent for origins this worker owns. */
  answer(req: ForeignRequest, fetchPolicies: PolicyFetcher): Promise<ForeignResponse> {
    return this.peers.answer(req, fetchPolicies);
  }

  /**
   * Counters not reported with a batch yet (origins used by peers' rows after this worker's last batch),
   * of a batch's share of origins at most: call again while `unflushed`. One report of every origin was
   * merged at once by the coordinator, at the end of the run, when the workers' heaps are largest.
   */
  flush(): BatchStats {
    return this.reports.collect(new RowStats(this.config.agents.length), 0, true);
  }

  /** Counters are left for a further `flush`. */
  get unflushed(): boolean {
    return this.store.dirtyCount > 0;
  }

  /**
   * `into`: a buffer to write the output into when it is large enough. `recordBase` (with `rowNumber`):
   * given the batch's record count, resolves with the number of records before the batch. `places`: a
   * shard's batch of kept records, with their places among the records it stands for.
   */
  async classify(
    bytes: Buffer,
    fetchPolicies: PolicyFetcher,
    into: ArrayBuffer | null = null,
    recordBase?: (records: number) => Promise<number>,
    places?: RecordPlaces,
  ): Promise<{ output: Buffer; stats: BatchStats }> {
    const stamp = this.work.begin();
    const rows = this.spareRows.pop() ?? new BatchRows(this.config);
    try {
      return await this.run(rows, bytes, stamp, fetchPolicies, into, recordBase, places);
    } finally {
      rows.release();
      this.spareRows.push(rows);
      this.work.end(stamp);
    }
  }

  /**
   * One batch: a synchronous scan (BatchScanner), the wait for policies and peers' answers, a synchronous
   * output pass. Kept as three functions so that the optimizing compiler recompiles a small one when a rare branch is
   * first taken (a quoted record, a non-ASCII host, an adoption), not the whole batch (≈ 70 ms each time).
   */
  private async run(
    rows: BatchRows,
    bytes: Buffer,
    stamp: number,
    fetchPolicies: PolicyFetcher,
    into: ArrayBuffer | null,
    recordBase: ((records: number) => Promise<number>) | undefined,
    places: RecordPlaces | undefined,
  ): Promise<{ output: Buffer; stats: BatchStats }> {
    const t0 = performance.now();
    const scan = this.scanner.scan(rows, bytes, stamp, places);
    rows.checkPlaces();
    // Asked at once: the batches before this one are scanned meanwhile, in any worker.
    const base = recordBase?.(rows.inputRecords);
    // Ask the coordinator for unknown policies and the owners for their rows, all at once.
    const w0 = performance.now();
    const pending = {
      need: scan.need,
      keys: rows.pendingKeys,
      entries: rows.entries,
      times: rows.times,
      views: rows.views,
      asOf: scan.asOf,
    };
    const own =
      scan.need.size > 0
        ? installPending(this.installer, this.store, pending, rows.count, stamp, fetchPolicies)
        : null;
    const exchange = scan.peers.exchange(fetchPolicies, scan.asOf);
    if (own !== null) await own;
    const sent = await exchange;
    const first = base === undefined ? 0 : (await base) + 1;
    // Waiting for the record number is no work either.
    const waited = own !== null || sent || base !== undefined;
    const policyWaitMs = waited ? performance.now() - w0 : 0;
    const result = this.emit(rows, scan, into, first);
    result.stats.policyWaitMs = policyWaitMs;
    result.stats.workMs = performance.now() - t0 - policyWaitMs;
    return result;
  }

  /** Pass 2: every record verbatim plus its verdict columns, in input order, and the batch's counters. */
  private emit(
    rows: BatchRows,
    scan: BatchScan,
    into: ArrayBuffer | null,
    firstNumber: number,
  ): { output: Buffer; stats: BatchStats } {
    const pieces = this.pieces;
    const keepInvalid = this.keepInvalid;
    const rowStats = writeRows(
      rows,
      scan.peers,
      this.store,
      this.config,
      this.invalid,
      pieces,
      firstNumber,
      keepInvalid,
      this.rowAgents,
    );
    const stats = this.reports.collect(rowStats, rowStats.written, this.reports.due());
    stats.inputRecords = rows.inputRecords;
    stats.blankLines = keepInvalid ? scan.blankLines : 0;
    stats.hostMismatch = scan.hostMismatch;
    if (this.rowAgents !== null) stats.rowAgents = this.rowAgents.collect();
    if (scan.asOf !== null) stats.asOf = scan.asOf.stats(rowStats.graceCounts(), this.config.agents.length);
    const out = pieces.join();
    const target =
      into !== null && into.byteLength >= out.length ? Buffer.from(into) : Buffer.allocUnsafeSlow(out.length);
    target.write(out, 0, 'latin1');
    return { output: target.subarray(0, out.length), stats };
  }
}
