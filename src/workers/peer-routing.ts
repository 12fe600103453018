import { type ForeignRequest, type ForeignResponse, ForeignRows, ownerOf } from './foreign-rows.js';
import type { RowSlot } from './row-url.js';

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
 * Where a row of an origin this worker has no entry for goes: to the peer owning the origin, or nowhere
 * (judged here). A one-worker run, and a run whose rows carry what a peer would also need (a time, an
 * agent), route nothing.
 */
export class PeerRouting {
  private readonly routes: boolean;

  constructor(
    readonly affinity: Affinity,
    private readonly shardCount: number,
    judgeLocally: boolean,
  ) {
    this.routes = affinity.threads > 1 && !judgeLocally;
  }

  /** The batch's rows per peer, all empty. */
  newBatch(): (ForeignRows | null)[] {
    return new Array<ForeignRows | null>(this.affinity.threads).fill(null);
  }

  /**
   * Adds the row in `slot` to its owner's rows when a peer owns its origin (the row's position there is
   * then `foreign[owner].size - 1`) and returns the owner; -1 when it is judged here. `hash`: the host's
   * shard hash, or -1.
   */
  route(foreign: (ForeignRows | null)[], slot: RowSlot, hash: number): number {
    if (!this.routes) return -1;
    const { self, threads } = this.affinity;
    // A shard's hosts share their hash modulo N: the owner comes from the rest of the hash.
    const owner = hash < 0 ? ownerOf(slot.host, threads) : Math.floor(hash / this.shardCount) % threads;
    if (owner === self) return -1;
    let toOwner = foreign[owner];
    if (!toOwner) {
      toOwner = new ForeignRows();
      foreign[owner] = toOwner;
    }
    toOwner.add(slot);
    return owner;
  }

  /** Sends each peer its rows, all at once. */
  ask(foreign: readonly (ForeignRows | null)[]): (Promise<ForeignResponse> | null)[] {
    return foreign.map((f, owner) => (f === null ? null : this.affinity.ask(owner, f.request())));
  }
}
