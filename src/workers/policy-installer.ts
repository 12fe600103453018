import type { OriginEntry, OriginStore } from './origin-store.js';
import type { PolicyRequest, WirePolicy } from './protocol.js';
import type { RowOrigin } from './row-url.js';

/**
 * Gets origins' policies into a worker's store: asks the coordinator once for all the origins a unit
 * of work lacks, and never twice for the same origin at once (batches and peers' requests interleave).
 */
export class PolicyInstaller {
  private readonly inflight = new Map<string, Promise<WirePolicy>>();

  constructor(private readonly store: OriginStore) {}

  /** `ensure` for a unit of work's missing origins, by key: the entries by the same keys. */
  async ensureAll(
    need: ReadonlyMap<string, RowOrigin>,
    stamp: number,
    fetchPolicies: (r: PolicyRequest) => Promise<WirePolicy[]>,
  ): Promise<Map<string, OriginEntry>> {
    const keys = [...need.keys()];
    const entries = await this.ensure(keys, [...need.values()], stamp, fetchPolicies);
    return new Map(keys.map((k, j) => [k, entries[j]!]));
  }

  /** Entries for `keys`/`origins` (same order), installing the policies of those not in the store yet. */
  async ensure(
    keys: string[],
    origins: RowOrigin[],
    stamp: number,
    fetchPolicies: (r: PolicyRequest) => Promise<WirePolicy[]>,
  ): Promise<OriginEntry[]> {
    const waits: Promise<WirePolicy>[] = [];
    const ask: number[] = [];
    for (let k = 0; k < keys.length; k++) {
      const pending = this.inflight.get(keys[k]!);
      if (pending !== undefined) waits[k] = pending;
      else ask.push(k);
    }
    if (ask.length > 0) {
      const request = fetchPolicies({ keys: ask.map((k) => keys[k]!), origins: ask.map((k) => origins[k]!) });
      ask.forEach((k, j) => {
        const one = request.then((list) => list[j]!);
        one.catch(() => {});
        waits[k] = one;
        this.inflight.set(keys[k]!, one);
      });
    }
    try {
      const policies = await Promise.all(waits);
      return policies.map((p, k) => {
        const o = origins[k]!;
        return this.store.find(o.scheme, o.host, o.port, stamp) ?? this.store.install(p, o, stamp);
      });
    } finally {
      for (const k of ask) this.inflight.delete(keys[k]!);
    }
  }
}
