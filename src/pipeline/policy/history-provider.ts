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
      const key = originKey(origin);
      // Straight from the rows: the columns a row is judged by, no intermediate version object.
      return cache.judgedHistory(key).map((r) => ({
        policy: {
          origin: key,
          outcome: r.outcome,
          source: 'cache',
          robotsUrl: r.robots_url,
          finalUrl: r.final_url,
          status: r.status,
          errorCode: r.error_code,
          fetchedAt: r.fetched_at,
          expiresAt: r.fetched_at,
          body: r.body ?? null,
          sha256: r.sha256,
          bytes: r.body?.length ?? 0,
          truncated: r.truncated === 1,
          etag: null,
          lastModified: null,
          stale: false,
        },
        validFrom: r.valid_from,
        lastSeen: r.fetched_at,
        source: r.source ?? 'fetch',
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
