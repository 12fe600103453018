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
      return cache
        .judgedHistory(key)
        .map(
          ([
            outcome,
            robotsUrl,
            finalUrl,
            status,
            errorCode,
            sha256,
            truncated,
            validFrom,
            fetchedAt,
            source,
            body,
          ]) => ({
            policy: {
              origin: key,
              outcome,
              source: 'cache',
              robotsUrl,
              finalUrl,
              status,
              errorCode,
              fetchedAt,
              expiresAt: fetchedAt,
              body: body ?? null,
              sha256,
              bytes: body?.length ?? 0,
              truncated: truncated === 1,
              etag: null,
              lastModified: null,
              stale: false,
            },
            validFrom,
            lastSeen: fetchedAt,
            source: source ?? 'fetch',
          }),
        );
    },
    async get(): Promise<Policy> {
      throw new Error('an as-of run asks for histories, not policies');
    },
    async close() {
      cache.close();
    },
  };
}
