import { FieldSplitter } from '../rows/field-split.js';
import { parseQuotedRecords, utf8Of } from '../rows/quoted-records.js';
import { KIND_BLANK, KIND_MALFORMED, KIND_QUOTED, RecordScanner } from '../rows/record-scanner.js';
import { keyOf, newRowSlot, resolveRowInto } from '../rows/row-url.js';
import { hostHash, OTHER_SHARD, plainUrlHostHash } from '../rows/shard.js';
import { AsOfTally, rowTime } from './as-of-tally.js';
import { InvalidSuffixes, writeRows } from './batch-output.js';
import { BatchRows, type RecordPlaces } from './batch-rows.js';
import { CounterReports } from './counter-reports.js';
import type { ForeignRequest, ForeignResponse } from './foreign-rows.js';
import { OriginStore } from './origin-store.js';
import { type Affinity, type PeerBatch, Peers, SOLO } from './peer-routing.js';
import { type NeededOrigin, PolicyInstaller } from './policy-installer.js';
import type { BatchStats, PolicyRequest, WirePolicy, WorkerConfig } from './protocol.js';
import { RowAgents } from './row-agent.js';
import { RowStats } from './row-stats.js';
import { TextPieces } from './text-pieces.js';
import { WorkStamps } from './work-stamps.js';

/** What pass 1 found in a batch. */
interface BatchScan {
  /** Origins this worker owns but has no entry for, by key. */
  need: Map<string, NeededOrigin>;
  /** Rows for the peers that own their origin. */
  peers: PeerBatch;
  blankLines: number;
  hostMismatch: number;
  /** As-of runs: what each row's time picked. */
  asOf: AsOfTally | null;
}

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
  private readonly scanner = new RecordScanner();
  private readonly splitter = new FieldSplitter();
  private readonly slot = newRowSlot();
  private readonly invalid: InvalidSuffixes;
  private readonly spareRows: BatchRows[] = [];
  private readonly pieces = new TextPieces();
  readonly store: OriginStore;
  private readonly installer: PolicyInstaller;
  private readonly work: WorkStamps;
  private readonly reports: CounterReports;
  /** `--shard K/N` as K - 1 and N (N = 1: every row is this run's). */
  private readonly shardRest: number;
  private readonly shardCount: number;
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
    this.shardRest = (config.shard?.index ?? 1) - 1;
    this.shardCount = config.shard?.count ?? 1;
    this.rowAgents = (config.agentIndex ?? -1) >= 0 ? new RowAgents(config) : null;
    // With a row agent every worker judges its own rows: a peer would need each row's agent too.
    const judgeLocally = this.rowAgents !== null;
    this.peers = new Peers(
      affinity,
      this.shardCount,
      judgeLocally,
      this.store,
      this.installer,
      this.work,
      config.agents.length,
      config.asOf != null,
    );
  }

  /** Judges rows a peer sent for origins this worker owns. */
  answer(req: ForeignRequest, fetchPolicies: PolicyFetcher): Promise<ForeignResponse> {
    return this.peers.answer(req, fetchPolicies);
  }

  /** Counters not reported with a batch yet (origins used by peers' rows after this worker's last batch). */
  flush(): BatchStats {
    return this.reports.collect(new RowStats(this.config.agents.length), 0, true, true);
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
   * One batch: a synchronous scan, the wait for policies and peers' answers, a synchronous output pass.
   * Kept as three functions so that the optimizing compiler recompiles a small one when a rare branch is
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
    const scan = this.scan(rows, bytes, stamp, places);
    rows.checkPlaces();
    // Asked at once: the batches before this one are scanned meanwhile, in any worker.
    const base = recordBase?.(rows.inputRecords);
    // Ask the coordinator for unknown policies and the owners for their rows, all at once.
    const w0 = performance.now();
    const own =
      scan.need.size > 0 ? this.installNeeded(rows, scan.need, stamp, fetchPolicies, scan.asOf) : null;
    const exchange = scan.peers.exchange(fetchPolicies, scan.asOf);
    if (own !== null) await own;
    const sent = await exchange;
    const first = base === undefined ? 0 : (await base) + 1;
    // Waiting for the record number is no work either.
    const waited = own !== null || sent || base !== undefined;
    const policyWaitMs = waited ? performance.now() - w0 : 0;
    const result = this.emit(rows, bytes.length, scan, into, first);
    result.stats.policyWaitMs = policyWaitMs;
    result.stats.workMs = performance.now() - t0 - policyWaitMs;
    return result;
  }

  /** Pass 1: records, fields, origins; rows of known origins get their entry, the others are collected. */
  private scan(rows: BatchRows, bytes: Buffer, stamp: number, places: RecordPlaces | undefined): BatchScan {
    const cfg = this.config;
    const n = bytes.length;
    rows.reset(bytes, places);
    const text = rows.text;
    const hasQuote = text.indexOf('"') >= 0;
    if (hasQuote) this.scanner.reset(text, n, cfg.delimiter.charCodeAt(0), true);
    this.splitter.reset(text, cfg.delimiter);
    const scan: BatchScan = {
      need: new Map<string, NeededOrigin>(),
      peers: this.peers.newBatch(),
      blankLines: 0,
      hostMismatch: 0,
      asOf: cfg.asOf == null ? null : new AsOfTally(),
    };
    const timeIndex = cfg.asOf?.timeIndex ?? -1;
    const agentIndex = cfg.agentIndex ?? -1;
    const rowAgents = this.rowAgents;
    // A batch of kept records (with places) was sifted as it was read: its plain rows are this shard's.
    const sift = this.shardCount > 1 && (places?.ordinals ?? null) === null;
    const quoted: number[] = [];
    let p = 0;
    while (p < n) {
      let contentEnd: number;
      let next: number;
      let kind: number;
      if (!hasQuote) {
        const lf = text.indexOf('\n', p);
        next = lf < 0 ? n : lf + 1;
        contentEnd = lf < 0 ? n : lf;
        if (contentEnd > p && text.charCodeAt(contentEnd - 1) === 13) contentEnd--;
        kind = contentEnd === p ? KIND_BLANK : 0;
      } else {
        this.scanner.scan(p);
        contentEnd = this.scanner.contentEnd;
        next = this.scanner.next;
        kind = this.scanner.kind;
      }
      const start = p;
      p = next;
      if (kind === KIND_BLANK && cfg.lineMode !== true) {
        scan.blankLines++;
        continue;
      }
      const i = rows.add(start, contentEnd);
      if (kind === KIND_BLANK) rows.blank(i);
      else if (kind === KIND_MALFORMED) rows.malformed(i);
      else if (kind === KIND_QUOTED) quoted.push(i);
      else {
        const sp = this.splitter;
        sp.split(start, contentEnd, cfg.urlIndex, cfg.hostIndex, timeIndex, agentIndex);
        if (!rows.fitPlain(i, sp.count, sp)) continue;
        if (rowAgents !== null) {
          rows.agents[i] = sp.xStart < 0 ? null : rowAgents.resolve(text.slice(sp.xStart, sp.xEnd));
        }
        if (sift && sp.aStart >= 0 && this.otherShard(plainUrlHostHash(bytes, sp.aStart, sp.aEnd))) {
          rows.owners[i] = OTHER_SHARD; // dropped before its fields are even sliced
          continue;
        }
        this.judge(
          rows,
          scan,
          stamp,
          i,
          sp.aStart < 0 ? undefined : rows.value(sp.aStart, sp.aEnd),
          sp.bStart < 0 ? undefined : rows.value(sp.bStart, sp.bEnd),
          sp.cStart < 0 ? undefined : text.slice(sp.cStart, sp.cEnd),
        );
      }
    }
    if (quoted.length > 0) this.scanQuoted(rows, scan, stamp, quoted);
    return scan;
  }

  /** Records with a quote: csv-parse is the authority for them. */
  private scanQuoted(rows: BatchRows, scan: BatchScan, stamp: number, quoted: readonly number[]): void {
    const cfg = this.config;
    // Parsed as bytes (latin1), so that a rewritten record keeps them; url and host are decoded to judge.
    const texts = quoted.map((i) => rows.bytesAt(rows.starts[i]!, rows.ends[i]!));
    const parsed = parseQuotedRecords(texts, cfg.delimiter);
    for (let k = 0; k < quoted.length; k++) {
      const i = quoted[k]!;
      const rec = parsed[k];
      if (rec === null || rec === undefined) rows.malformed(i);
      else if (rows.fitFields(i, rec.fields, rec.strict)) {
        if (this.rowAgents !== null) {
          const cell = rec.fields[cfg.agentIndex!];
          rows.agents[i] = cell === undefined ? null : this.rowAgents.resolve(cell);
        }
        const host = cfg.hostIndex < 0 ? undefined : utf8Of(rec.fields[cfg.hostIndex]);
        const time = cfg.asOf == null || cfg.asOf.timeIndex < 0 ? undefined : rec.fields[cfg.asOf.timeIndex];
        this.judge(rows, scan, stamp, i, utf8Of(rec.fields[cfg.urlIndex]), host, time);
      }
    }
  }

  /** Row i's origin: known here (its entry), owned by a peer (sent there), or to install (collected). */
  private judge(
    rows: BatchRows,
    scan: BatchScan,
    stamp: number,
    i: number,
    url: string | undefined,
    host: string | undefined,
    time?: string,
  ): void {
    if (url === undefined) {
      rows.codes[i] = 'missing_url';
      return;
    }
    const slot = this.slot;
    const code = resolveRowInto(url, host, this.config.scheme, slot);
    if (code !== null) {
      rows.codes[i] = code;
      return;
    }
    const hash = this.shardCount > 1 ? hostHash(slot.host) : -1;
    if (hash >= 0 && this.otherShard(hash)) {
      rows.owners[i] = OTHER_SHARD;
      return;
    }
    const asOf = this.config.asOf;
    if (asOf != null) {
      const t = rowTime(asOf, time);
      if (Number.isNaN(t)) {
        rows.codes[i] = 'bad_time';
        return;
      }
      rows.times[i] = t;
    }
    if (slot.hostMismatch) scan.hostMismatch++;
    let e = this.store.find(slot.scheme, slot.host, slot.port, stamp);
    // As of a time: the version in force then (undefined when it must be asked for again).
    if (e !== undefined && scan.asOf !== null) e = scan.asOf.entryAt(this.store, e, rows.times[i]!, stamp);
    if (e !== undefined) {
      // Owned here, or a hot origin adopted from its owner: judged locally.
      rows.paths[i] = slot.path;
      rows.entries[i] = e;
      return;
    }
    const owner = scan.peers.route(slot, hash, scan.asOf === null ? Number.NaN : rows.times[i]!);
    if (owner >= 0) {
      rows.owners[i] = owner;
      rows.foreignPos[i] = scan.peers.lastPlace;
      return;
    }
    rows.paths[i] = slot.path;
    const missing = this.store.probeMissing(slot.scheme, slot.host, slot.port);
    if (missing !== undefined) {
      rows.entries[i] = missing;
      return;
    }
    const origin: NeededOrigin = { scheme: slot.scheme, host: slot.host, port: slot.port, entry: null };
    const key = keyOf(origin);
    if (!scan.need.has(key)) scan.need.set(key, origin);
    rows.pendingKeys[i] = key;
  }

  /** Pass 2: every record verbatim plus its verdict columns, in input order, and the batch's counters. */
  private emit(
    rows: BatchRows,
    inputBytes: number,
    scan: BatchScan,
    into: ArrayBuffer | null,
    firstNumber: number,
  ): { output: Buffer; stats: BatchStats } {
    const pieces = this.pieces;
    // Rows with no host, blank lines among them, are shard 1's.
    const keepInvalid = this.shardRest === 0;
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
    const stats = this.reports.collect(rowStats, rowStats.written, this.reports.due(inputBytes));
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

  /** Whether a host hash (-1: not known yet) is another shard's. */
  private otherShard(hash: number): boolean {
    return hash >= 0 && hash % this.shardCount !== this.shardRest;
  }

  private async installNeeded(
    rows: BatchRows,
    need: Map<string, NeededOrigin>,
    stamp: number,
    fetchPolicies: PolicyFetcher,
    asOf: AsOfTally | null,
  ): Promise<void> {
    await this.installer.ensureAll(need, stamp, fetchPolicies);
    for (let i = 0; i < rows.count; i++) {
      const key = rows.pendingKeys[i];
      if (key === null || key === undefined) continue;
      const e = need.get(key)!.entry!;
      if (asOf === null) rows.entries[i] = e;
      else {
        // Installed for this batch: its rule sets are protected until it ends.
        rows.entries[i] = asOf.entryAt(this.store, e, rows.times[i]!, stamp)!;
      }
    }
  }
}
