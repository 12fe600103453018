import type { OriginEntry, OriginStore } from './origin-store.js';
import type { PolicyRequest, WirePolicy } from './protocol.js';
import type { RowOrigin } from './row-url.js';

/** An origin's policy on its way: the request that asked for it, and its place in the answer. */
interface Pending {
  list: Promise<WirePolicy[]>;
  at: number;
}

/**
 * Gets origins' policies into a worker's store: asks the coordinator once for all the origins a unit
 * of work lacks, and never twice for the same origin at once (batches and peers' requests interleave).
 * Waits are per request, not per origin: on a frontier of distinct hosts every row brings an origin,
 * and promises per origin were a good part of a worker's garbage.
 */
export class PolicyInstaller {
  private readonly inflight = new Map<string, Pending>();

  constructor(private readonly store: OriginStore) {}

  /** `ensure` for a unit of work's missing origins, by key: the entries by the same keys. */
  async ensureAll(
    need: ReadonlyMap<string, RowOrigin>,
    stamp: number,
    fetchPolicies: (r: PolicyRequest) => Promise<WirePolicy[]>,
  ): Promise<Map<string, OriginEntry>> {
    const keys = [...need.keys()];
    const entries = await this.ensure(keys, [...need.values()], stamp, fetchPolicies);
    const byKey = new Map<string, OriginEntry>();
    for (let k = 0; k < keys.length; k++) byKey.set(keys[k]!, entries[k]!);
    return byKey;
  }

  /** Entries for `keys`/`origins` (same order), installing the policies of those not in the store yet. */
  async ensure(
    keys: string[],
    origins: RowOrigin[],
    stamp: number,
    fetchPolicies: (r: PolicyRequest) => Promise<WirePolicy[]>,
  ): Promise<OriginEntry[]> {
    const from: Pending[] = new Array(keys.length);
    const ask: number[] = [];
    for (let k = 0; k < keys.length; k++) {
      const pending = this.inflight.get(keys[k]!);
      if (pending !== undefined) from[k] = pending;
      else ask.push(k);
    }
    if (ask.length > 0) {
      const list = fetchPolicies({ keys: ask.map((k) => keys[k]!), origins: ask.map((k) => origins[k]!) });
      list.catch(() => {});
      for (let j = 0; j < ask.length; j++) {
        const pending: Pending = { list, at: j };
        from[ask[j]!] = pending;
        this.inflight.set(keys[ask[j]!]!, pending);
      }
    }
    try {
      // The few distinct requests this unit waits for (its own, and others' still in flight).
      const lists = new Map<Promise<WirePolicy[]>, WirePolicy[]>();
      for (const p of from) if (!lists.has(p.list)) lists.set(p.list, await p.list);
      const out: OriginEntry[] = new Array(keys.length);
      for (let k = 0; k < keys.length; k++) {
        const o = origins[k]!;
        const p = lists.get(from[k]!.list)![from[k]!.at]!;
        out[k] = this.store.find(o.scheme, o.host, o.port, stamp) ?? this.store.install(p, o, stamp);
      }
      return out;
    } finally {
      for (const k of ask) this.inflight.delete(keys[k]!);
    }
  }
}
