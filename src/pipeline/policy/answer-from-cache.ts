import { type CachedVersion, toPolicy } from '../cache/cache-types.js';
import type { PolicyCache } from '../cache/policy-cache.js';
import type { Policy, PolicySource } from './policy.js';

/** RFC 9309 §2.3.1.4 lets a crawler keep using a cached copy while the file is unreachable; Google keeps 30 days. */
export const STALE_LIMIT_MS = 30 * 24 * 60 * 60 * 1000;

/** Fresh: confirmed within `maxAgeMs` (and not past its stored expiry), or confirmed during this run. */
export function isFresh(v: CachedVersion, now: number, maxAgeMs: number, runStartedAt: number): boolean {
  if (v.fetchedAt >= runStartedAt) return true;
  return now < v.expiresAt && now - v.fetchedAt < maxAgeMs;
}

/**
 * The policy a cached version stands for. An unreachable version with a parsed copy confirmed at or after
 * `referenceTime - 30 days` answers with that copy, marked stale, with what went wrong in `staleCause`.
 */
export function answerFromCache(
  cache: PolicyCache,
  current: CachedVersion,
  referenceTime: number,
  source: PolicySource = 'cache',
): Policy {
  if (current.outcome === 'unreachable') {
    const parsed = cache.lastParsed(current.origin, referenceTime - STALE_LIMIT_MS);
    if (parsed !== undefined) {
      return {
        ...toPolicy(parsed, 'stale', true),
        expiresAt: current.expiresAt,
        staleCause: { status: current.status, errorCode: current.errorCode, at: current.fetchedAt },
      };
    }
  }
  return toPolicy(current, source);
}
