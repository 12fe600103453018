import { PolicyCache } from '../cache/policy-cache.js';
import type { Options } from '../options.js';
import { answerFromCache } from './answer-from-cache.js';
import { type Origin, originKey, type Policy, type PolicyProvider, robotsUrlOf } from './policy.js';

/**
 * `--offline`: policies from the cache only, never the network.
 * - no entry for the origin: outcome `not_cached` (source `none`);
 * - an entry older than `maxAge` is still used (the newest copy there is), flagged `stale: true`;
 * - an unreachable entry answers with the parsed copy a live run would have used then (a copy confirmed
 *   within 30 days before that failed attempt), source `stale`.
 * The cache file must exist: a mistyped --cache path is an error, not a run of `not_cached` rows.
 */
export function createCachePolicyProvider(options: Pick<Options, 'cache' | 'maxAge'>): PolicyProvider {
  const cache = new PolicyCache(options.cache, { mustExist: true });
  const maxAgeMs = options.maxAge * 1000;
  return {
    async get(origin: Origin): Promise<Policy> {
      const key = originKey(origin);
      const current = cache.current(key);
      if (current === undefined) return notCached(origin);
      const policy = answerFromCache(cache, current, current.fetchedAt);
      const now = Date.now();
      const expired = now >= current.expiresAt || now - current.fetchedAt >= maxAgeMs;
      return expired ? { ...policy, stale: true } : policy;
    },
    async close() {
      cache.close();
    },
  };
}

function notCached(origin: Origin): Policy {
  return {
    origin: originKey(origin),
    outcome: 'not_cached',
    source: 'none',
    robotsUrl: robotsUrlOf(origin),
    finalUrl: null,
    status: null,
    errorCode: null,
    fetchedAt: 0,
    expiresAt: 0,
    body: null,
    sha256: null,
    bytes: 0,
    truncated: false,
    etag: null,
    lastModified: null,
    stale: false,
  };
}
