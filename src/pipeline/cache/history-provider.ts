import type { Options } from '../options.js';
import { type Origin, originKey, type Policy, type PolicyProvider } from '../policy.js';
import { toPolicy } from './cache-types.js';
import { PolicyCache } from './policy-cache.js';

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
}

export function isHistoryProvider(p: PolicyProvider): p is HistoryProvider {
  return typeof (p as Partial<HistoryProvider>).history === 'function';
}

/**
 * As of a time: every stored version of an origin, oldest first, from the cache alone (the answer must
 * not depend on when the audit runs, so nothing is fetched). The cache file must exist.
 */
export function createHistoryProvider(options: Pick<Options, 'cache'>): HistoryProvider {
  const cache = new PolicyCache(options.cache, { mustExist: true });
  return {
    async history(origin: Origin): Promise<PolicyVersion[]> {
      return cache.history(originKey(origin)).map((v) => ({
        policy: toPolicy(v, 'cache'),
        validFrom: v.validFrom,
        lastSeen: v.fetchedAt,
        source: (v as { source?: string | null }).source ?? 'fetch',
      }));
    },
    async get(): Promise<Policy> {
      throw new Error('an as-of run asks for histories, not policies');
    },
    async close() {
      cache.close();
    },
  };
}
