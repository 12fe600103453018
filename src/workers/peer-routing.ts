import type { RowSlot } from '../rows/row-url.js';
import type { AsOfTally } from './as-of-tally.js';
import {
  answerForeign,
  type ForeignRequest,
  type ForeignResponse,
  ForeignRows,
  ownerOf,
} from './foreign-rows.js';
import type { OriginStore } from './origin-store.js';
import type { PolicyInstaller } from './policy-installer.js';
import type { PolicyRequest, WirePolicy, WorkerConfig } from './protocol.js';
import type { WorkStamps } from './work-stamps.js';

type PolicyFetcher = (req: PolicyRequest) => Promise<WirePolicy[]>;

/** This worker's place among its peers, and how it sends rows to the owner of their origin. */
export interface Affinity {
  self: number;
  threads: number;
  ask(owner: number, req: ForeignRequest): Promise<ForeignResponse>;
}

export const SOLO: Affinity = {
  self: 0,
  threads: 1,
  ask: () => Promise.reject(new Error('no peers')),
};

/**
 * What one batch sends to peers and gets back. A one-worker run gets NO_PEERS' batch, which routes
 * nothing, so the classifier's path is the same with and without peers.
 */
export interface PeerBatch {
  /**
   * Adds the row in `slot` to its owner's rows when a peer owns its origin and returns the owner (the
   * row's place among them is then `lastPlace`); -1 when it is judged here. `hash`: the host's shard
   * hash, or -1; `time`: the row's time as of-time runs judge it by (NaN otherwise).
   */
  route(slot: RowSlot, hash: number, time: number): number;
  readonly lastPlace: number;
  /**
   * Sends each peer its rows, all at once; resolves with whether any were sent, once all are answered.
   * As of a time, what the peers' rows picked is added to `asOf`.
   */
  exchange(fetchPolicies: PolicyFetcher, asOf: AsOfTally | null): Promise<boolean>;
  /** The text appended to the k-th row sent to `owner`, and where its verdict classes are (row-major). */
  text(owner: number, k: number): string;
  classes(owner: number): Uint8Array;
}

const NO_PEER_BATCH: PeerBatch = {
  route: () => -1,
  lastPlace: -1,
  exchange: () => Promise.resolve(false),
  text: () => '',
  classes: () => new Uint8Array(0),
};

/**
 * Routing between workers ("foreign rows"): every origin has one owner thread (a hash of its host's site),
 * which alone fetches its policy and compiles its rules; the other workers send it the rows of that
 * origin, and adopt the origin once it is hot (see ADOPT_AFTER_ROWS); as of a time, each row's time goes
 * with it. A one-worker run, and a run whose rows name their own agent, route nothing.
 */
export class Peers {
  private readonly routes: boolean;
  private readonly shardCount: number;
  private readonly agents: number;
  /** As of a time: rows go to their owner with their time. */
  readonly timed: boolean;

  constructor(
    private readonly affinity: Affinity,
    config: WorkerConfig,
    private readonly store: OriginStore,
    private readonly installer: PolicyInstaller,
    private readonly work: WorkStamps,
  ) {
    this.shardCount = config.shard?.count ?? 1;
    this.agents = config.agents.length;
    this.timed = config.asOf != null;
    // With a row agent every worker judges its own rows: a peer would need each row's agent too.
    const judgeLocally = (config.agentIndex ?? -1) >= 0;
    this.routes = affinity.threads > 1 && !judgeLocally;
  }

  newBatch(): PeerBatch {
    return this.routes ? new RoutedBatch(this) : NO_PEER_BATCH;
  }

  /** The owner of a host among the workers. */
  ownerOf(host: string, hash: number): number {
    const { threads } = this.affinity;
    // A shard's hosts share their hash modulo N: the owner comes from the rest of the hash.
    return hash < 0 ? ownerOf(host, threads) : Math.floor(hash / this.shardCount) % threads;
  }

  get self(): number {
    return this.affinity.self;
  }

  ask(owner: number, req: ForeignRequest): Promise<ForeignResponse> {
    return this.affinity.ask(owner, req);
  }

  /** Judges rows a peer sent for origins this worker owns. */
  async answer(req: ForeignRequest, fetchPolicies: PolicyFetcher): Promise<ForeignResponse> {
    const stamp = this.work.begin();
    try {
      return await answerForeign(req, this.store, this.installer, this.agents, stamp, fetchPolicies);
    } finally {
      this.work.end(stamp);
    }
  }

  /** Takes hot origins a peer owns into this worker's store (in the background; failures only cost speed). */
  adopt(list: ForeignResponse['adopt'], fetchPolicies: PolicyFetcher): void {
    const stamp = this.work.begin();
    this.installer
      .ensure(list.keys, list.origins, stamp, (req) => fetchPolicies({ ...req, adopt: true }))
      .catch(() => {})
      .finally(() => this.work.end(stamp));
  }
}

/** The rows of one batch for each peer, and the peers' answers. */
class RoutedBatch implements PeerBatch {
  /** Per owner, the rows sent to it (none yet: a hole). */
  private readonly rows: (ForeignRows | undefined)[] = [];
  private responses: (ForeignResponse | null)[] = [];
  /** Per owner: where each row's text starts in its response. */
  private textStarts: (Int32Array | null)[] = [];
  lastPlace = -1;

  constructor(private readonly peers: Peers) {}

  route(slot: RowSlot, hash: number, time: number): number {
    const owner = this.peers.ownerOf(slot.host, hash);
    if (owner === this.peers.self) return -1;
    let toOwner = this.rows[owner];
    if (!toOwner) {
      toOwner = new ForeignRows(this.peers.timed);
      this.rows[owner] = toOwner;
    }
    toOwner.add(slot, time);
    this.lastPlace = toOwner.size - 1;
    return owner;
  }

  async exchange(fetchPolicies: PolicyFetcher, asOf: AsOfTally | null): Promise<boolean> {
    const asked: Promise<ForeignResponse | null>[] = [];
    for (let owner = 0; owner < this.rows.length; owner++) {
      const f = this.rows[owner];
      asked.push(f ? this.peers.ask(owner, f.request()) : Promise.resolve(null));
    }
    if (asked.length === 0) return false;
    this.responses = await Promise.all(asked);
    this.textStarts = this.responses.map((r) => {
      if (r === null) return null;
      const at = new Int32Array(r.lens.length + 1);
      for (let k = 0; k < r.lens.length; k++) at[k + 1] = at[k]! + r.lens[k]!;
      return at;
    });
    for (const r of this.responses) {
      if (r === null) continue;
      if (r.asOf !== null) asOf?.add(r.asOf);
      if (r.adopt.keys.length > 0) this.peers.adopt(r.adopt, fetchPolicies);
    }
    return true;
  }

  text(owner: number, k: number): string {
    const at = this.textStarts[owner]!;
    return this.responses[owner]!.suffixes.slice(at[k], at[k + 1]);
  }

  classes(owner: number): Uint8Array {
    return this.responses[owner]!.classes;
  }
}
