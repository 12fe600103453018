// What an as-of policy source answers, apart from the cache that answers it: the policy broker asks
// whether its provider is one without loading SQLite.
import type { WireVersion } from '../../workers/protocol.js';
import type { Origin, Policy, PolicyProvider } from './policy.js';

/** One stored version of an origin's policy with the span it was seen in, for as-of runs. */
export interface PolicyVersion {
  policy: Policy;
  /** First seen, and last seen before the next version (or until now), epoch ms. */
  validFrom: number;
  lastSeen: number;
  /** `fetch`, `revalidate`, or the archive capture it came from. */
  source: string;
}

/** A provider that also answers with an origin's whole history. */
export interface HistoryProvider extends PolicyProvider {
  history(origin: Origin): Promise<PolicyVersion[]>;
  /**
   * The history of the origin `key` as the workers get it (see toWire), read at once from a local file:
   * one object per version, where `history` makes a version and a policy to convert. Optional: the policy
   * broker converts `history`'s answer otherwise.
   */
  wireHistory?(key: string, evidence: boolean): WireVersion[];
}

export function isHistoryProvider(p: PolicyProvider): p is HistoryProvider {
  return typeof (p as Partial<HistoryProvider>).history === 'function';
}
