import type { CompiledRules } from '../core/index.js';
import type { AsOfTally } from './as-of-tally.js';
import type { OriginEntry, OriginStore } from './origin-store.js';
import type { NeededOrigin, PolicyInstaller } from './policy-installer.js';
import type { PolicyRequest, WirePolicy } from './protocol.js';

/** Rows that waited for their origin's policy: a batch's first pass, or rows a peer sent. */
export interface PendingRows {
  /** The origins to install, by key. */
  need: Map<string, NeededOrigin>;
  /** Per row, the key of the origin it waits for (null or undefined: it waits for none). */
  keys: ArrayLike<string | null | undefined>;
  /** Where each row's entry goes. */
  entries: (OriginEntry | null | undefined)[];
  /** As of a time: each row's time, and what the times picked; else null. */
  times: ArrayLike<number> | null;
  /** As of a time: where each row's rules in its entry go (Pick's `rules`); else null. */
  views: (CompiledRules[] | null)[] | null;
  asOf: AsOfTally | null;
}

/**
 * Installs the policies of the origins `count` rows waited for (one request for all of them), then gives
 * each such row its entry: as of a time, the version in force at the row's time. `stamp` protects what
 * is installed until the unit of work ends.
 */
export async function installPending(
  installer: PolicyInstaller,
  store: OriginStore,
  pending: PendingRows,
  count: number,
  stamp: number,
  fetchPolicies: (req: PolicyRequest) => Promise<WirePolicy[]>,
): Promise<void> {
  const { need, keys, entries, times, views, asOf } = pending;
  await installer.ensureAll(need, stamp, fetchPolicies);
  for (let i = 0; i < count; i++) {
    const key = keys[i];
    if (key === null || key === undefined) continue;
    const e = need.get(key)!.entry!;
    entries[i] = asOf === null ? e : asOf.entryAt(store, e, times![i]!, stamp, views!, i)!;
  }
}
