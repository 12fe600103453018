import { toPolicy } from '../cache/cache-types.js';
import { PolicyCache } from '../cache/policy-cache.js';
import type { Options } from '../options.js';
import type { HistoryProvider, PolicyVersion } from './history-source.js';
import { type Origin, originKey, type Policy } from './policy.js';

export { type HistoryProvider, isHistoryProvider, type PolicyVersion } from './history-source.js';

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
