import { utf8Of } from '../rows/quoted-records.js';
import { keyOf, newRowSlot, resolveRowInto } from '../rows/row-url.js';
import { hostHash, OTHER_SHARD, plainUrlHostHash } from '../rows/shard.js';
import { AsOfTally, rowTime } from './as-of-tally.js';
import type { BatchRows, RecordPlaces } from './batch-rows.js';
import type { OriginStore } from './origin-store.js';
import type { PeerBatch, Peers } from './peer-routing.js';
import type { NeededOrigin } from './policy-installer.js';
import type { WorkerConfig } from './protocol.js';
import { RecordWalk } from './record-walk.js';
import type { RowAgents } from './row-agent.js';

/** What pass 1 found in a batch. */
export interface BatchScan {
  /** Origins this worker owns but has no entry for, by key. */
  need: Map<string, NeededOrigin>;
  /** Rows for the peers that own their origin. */
  peers: PeerBatch;
  blankLines: number;
  hostMismatch: number;
  /** As-of runs: what each row's time picked. */
  asOf: AsOfTally | null;
}

/**
 * Pass 1 of a batch: walks its records into rows (record-walk.ts), sifts out other shards' rows, reads
 * each row's agent and time, resolves its origin, and gives it its entry when the origin is known here;
 * rows of origins a peer owns go to that peer, those of origins to install are collected.
 */
export class BatchScanner {
  private readonly walk: RecordWalk;
  private readonly slot = newRowSlot();
  /** `--shard K/N` as K - 1 and N (N = 1: every row is this run's). */
  private readonly shardRest: number;
  private readonly shardCount: number;

  constructor(
    private readonly config: WorkerConfig,
    private readonly store: OriginStore,
    private readonly peers: Peers,
    /** `--agent-column`: each row's own crawler, or null. */
    private readonly rowAgents: RowAgents | null,
  ) {
    this.walk = new RecordWalk(config.delimiter, config.lineMode === true, {
      url: config.urlIndex,
      host: config.hostIndex,
      time: config.asOf?.timeIndex ?? -1,
      agent: config.agentIndex ?? -1,
    });
    this.shardRest = (config.shard?.index ?? 1) - 1;
    this.shardCount = config.shard?.count ?? 1;
  }

  /** Records, fields, origins; rows of known origins get their entry, the others are collected. */
  scan(rows: BatchRows, bytes: Buffer, stamp: number, places: RecordPlaces | undefined): BatchScan {
    rows.reset(bytes, places);
    const text = rows.text;
    const walk = this.walk;
    walk.begin(rows);
    const scan: BatchScan = {
      need: new Map<string, NeededOrigin>(),
      peers: this.peers.newBatch(),
      blankLines: 0,
      hostMismatch: 0,
      asOf: this.config.asOf == null ? null : new AsOfTally(),
    };
    const rowAgents = this.rowAgents;
    // A batch of kept records (with places) was sifted as it was read: its plain rows are this shard's.
    const sift = this.shardCount > 1 && (places?.ordinals ?? null) === null;
    const sp = walk.fields;
    for (let i = walk.nextPlain(); i >= 0; i = walk.nextPlain()) {
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
        sp.cStart < 0 ? undefined : text,
        sp.cStart,
        sp.cEnd,
      );
    }
    this.scanQuoted(rows, scan, stamp);
    scan.blankLines = walk.blankLines;
    return scan;
  }

  /** Records with a quote: csv-parse is the authority for them; url and host are decoded to judge. */
  private scanQuoted(rows: BatchRows, scan: BatchScan, stamp: number): void {
    const cfg = this.config;
    const walk = this.walk;
    for (let i = walk.nextQuoted(); i >= 0; i = walk.nextQuoted()) {
      const fields = walk.quotedFields;
      if (fields === null) continue;
      if (this.rowAgents !== null) {
        const cell = fields[cfg.agentIndex!];
        rows.agents[i] = cell === undefined ? null : this.rowAgents.resolve(cell);
      }
      const host = cfg.hostIndex < 0 ? undefined : utf8Of(fields[cfg.hostIndex]);
      const time = cfg.asOf == null || cfg.asOf.timeIndex < 0 ? undefined : fields[cfg.asOf.timeIndex];
      this.judge(rows, scan, stamp, i, utf8Of(fields[cfg.urlIndex]), host, time, 0, time?.length ?? 0);
    }
  }

  /**
   * Row i's origin: known here (its entry), owned by a peer (sent there), or to install (collected).
   * Its time cell (as of a time) is `timeText[timeStart, timeEnd)`: read in place, not as a string.
   */
  private judge(
    rows: BatchRows,
    scan: BatchScan,
    stamp: number,
    i: number,
    url: string | undefined,
    host: string | undefined,
    timeText: string | undefined,
    timeStart: number,
    timeEnd: number,
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
      const t = rowTime(asOf, timeText, timeStart, timeEnd);
      if (Number.isNaN(t)) {
        rows.codes[i] = 'bad_time';
        return;
      }
      rows.times[i] = t;
    }
    if (slot.hostMismatch) scan.hostMismatch++;
    let e = this.store.find(slot.scheme, slot.host, slot.port, stamp);
    // As of a time: the version in force then (undefined when it must be asked for again).
    if (e !== undefined && scan.asOf !== null)
      e = scan.asOf.entryAt(this.store, e, rows.times[i]!, stamp, rows.views, i);
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

  /** Whether a host hash (-1: not known yet) is another shard's. */
  private otherShard(hash: number): boolean {
    return hash >= 0 && hash % this.shardCount !== this.shardRest;
  }
}
