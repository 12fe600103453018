/** Observations and cache files for the cache tests, written by the real PolicyCache. */
import type { Observation } from '../../../src/pipeline/cache/cache-types.js';
import { PolicyCache } from '../../../src/pipeline/cache/policy-cache.js';
import { sha256 } from '../fetch/harness.js';

/** What a fetch of `origin` at `at` saw: `body` parsed (200), or null for unreachable (503). */
export function observation(
  origin: string,
  body: string | null,
  at: number,
  extra: Partial<Observation> = {},
): Observation {
  const bytes = body === null ? null : Buffer.from(body);
  return {
    origin,
    outcome: body === null ? 'unreachable' : 'parsed',
    robotsUrl: `${origin}/robots.txt`,
    finalUrl: `${origin}/robots.txt`,
    status: body === null ? 503 : 200,
    errorCode: null,
    body: bytes,
    sha256: bytes === null ? null : sha256(bytes),
    bytes: bytes?.length ?? 0,
    truncated: false,
    etag: null,
    lastModified: null,
    fetchedAt: at,
    expiresAt: at + 1000,
    ...extra,
  };
}

/** Writes the cache file at `path` as a process that made these fetches, in this order, would. */
export function seedCache(path: string, list: Observation[]): void {
  const cache = new PolicyCache(path);
  for (const o of list) {
    cache.record(o);
    cache.flush();
  }
  cache.close();
}
