import type { Origin } from '../rows/row-url.js';
import type { OriginEntry, OriginStore } from './origin-store.js';
import type { PolicyRequest, WirePolicy } from './protocol.js';

/** An origin a unit of work lacks; `entry` is set once its policy is installed. */
export interface NeededOrigin extends Origin {
  entry: OriginEntry | null;
}

/** One request for policies on its way: its keys, and (made when another unit asks) where each is. */
interface Flight {
  keys: string[];
  index: Map<string, number> | null;
  list: Promise<WirePolicy[]>;
}

/**
 * Gets origins' policies into a worker's store: asks the coordinator once for all the origins a unit
 * of work lacks, and never twice for the same origin at once (batches and peers' requests interleave).
 * Nothing is kept per origin while a request is on its way: another unit looks its keys up in the
 * requests in flight only when there are some (on a frontier of distinct hosts every row brings an
 * origin, and a promise and two table updates per origin were a good part of a worker's time).
 */
export class PolicyInstaller {
  private readonly flights = new Set<Flight>();

  constructor(private readonly store: OriginStore) {}

  /** `ensure` for a unit of work's missing origins, by key: sets each one's entry. */
  async ensureAll(
    need: ReadonlyMap<string, NeededOrigin>,
    stamp: number,
    fetchPolicies: (r: PolicyRequest) => Promise<WirePolicy[]>,
  ): Promise<void> {
    const origins = [...need.values()];
    const entries = await this.ensure([...need.keys()], origins, stamp, fetchPolicies);
    for (let k = 0; k < origins.length; k++) origins[k]!.entry = entries[k]!;
  }

  /** Entries for `keys`/`origins` (same order), installing the policies of those not in the store yet. */
  async ensure(
    keys: string[],
    origins: Origin[],
    stamp: number,
    fetchPolicies: (r: PolicyRequest) => Promise<WirePolicy[]>,
  ): Promise<OriginEntry[]> {
    const n = keys.length;
    const from: (Flight | undefined)[] = new Array(n);
    const at = new Int32Array(n);
    let asked = n;
    if (this.flights.size > 0) asked -= this.joinFlights(keys, from, at);
    let mine: Flight | null = null;
    if (asked > 0) {
      const ask: number[] = [];
      for (let k = 0; k < n; k++) if (from[k] === undefined) ask.push(k);
      const askKeys = ask.map((k) => keys[k]!);
      const list = fetchPolicies({ keys: askKeys, origins: ask.map((k) => origins[k]!) });
      list.catch(() => {});
      mine = { keys: askKeys, index: null, list };
      ask.forEach((k, j) => {
        from[k] = mine!;
        at[k] = j;
      });
      this.flights.add(mine);
    }
    try {
      // The few distinct requests this unit waits for (its own, and others' still in flight).
      const lists = new Map<Flight, WirePolicy[]>();
      for (const f of from) if (!lists.has(f!)) lists.set(f!, await f!.list);
      const out: OriginEntry[] = new Array(n);
      for (let k = 0; k < n; k++) {
        const o = origins[k]!;
        const p = lists.get(from[k]!)![at[k]!]!;
        out[k] = this.store.findOrInstall(p, o, stamp);
      }
      return out;
    } finally {
      if (mine !== null) this.flights.delete(mine);
    }
  }

  /** Marks the keys another request in flight already asks for; returns how many. */
  private joinFlights(keys: string[], from: (Flight | undefined)[], at: Int32Array): number {
    let joined = 0;
    for (const f of this.flights) {
      if (f.index === null) {
        f.index = new Map();
        for (let j = 0; j < f.keys.length; j++) f.index.set(f.keys[j]!, j);
      }
      for (let k = 0; k < keys.length; k++) {
        if (from[k] !== undefined) continue;
        const j = f.index.get(keys[k]!);
        if (j === undefined) continue;
        from[k] = f;
        at[k] = j;
        joined++;
      }
    }
    return joined;
  }
}
