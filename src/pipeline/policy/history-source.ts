// What an as-of policy source answers, apart from the cache that answers it: the policy broker asks
// whether its provider is one without loading SQLite.
import type { WireVersion } from '../../workers/protocol.js';
import type { PolicyProvider } from './policy.js';

/** A provider that also answers with an origin's whole history. */
export interface HistoryProvider extends PolicyProvider {
  /**
   * Every stored version of the origin `key`, oldest first, as the workers get it (see toWire), read at once
   * from a local file: one object per version, with no policy to convert and no promise per origin.
   */
  wireHistory(key: string, evidence: boolean): WireVersion[];
}

export function isHistoryProvider(p: PolicyProvider): p is HistoryProvider {
  return typeof (p as Partial<HistoryProvider>).wireHistory === 'function';
}
