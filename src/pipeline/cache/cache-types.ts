import type { Policy, PolicySource } from '../policy/policy.js';

/** Outcomes the cache stores (`not_cached` is never stored). */
export type StoredOutcome = 'parsed' | 'unavailable' | 'unreachable';

/** What one fetch saw: the input of `PolicyCache.record`. */
export interface Observation {
  origin: string;
  outcome: StoredOutcome;
  robotsUrl: string;
  finalUrl: string | null;
  status: number | null;
  errorCode: string | null;
  body: Buffer | null;
  sha256: string | null;
  bytes: number;
  truncated: boolean;
  etag: string | null;
  lastModified: string | null;
  fetchedAt: number;
  expiresAt: number;
}

/** A stored version of an origin's policy, with the time span it was in force. */
export interface CachedVersion extends Observation {
  /** First time this version was seen (epoch ms). */
  validFrom: number;
  /** First time a different version was seen; null while current. */
  validTo: number | null;
  /** Where its first sighting came from: `fetch`, or an archive capture `warc:<file name>@<offset>`. */
  source?: string;
}

/** A cached version as the Policy contract describes it. */
export function toPolicy(v: CachedVersion, source: PolicySource, stale = false): Policy {
  return {
    origin: v.origin,
    outcome: v.outcome,
    source,
    robotsUrl: v.robotsUrl,
    finalUrl: v.finalUrl,
    status: v.status,
    errorCode: v.errorCode,
    fetchedAt: v.fetchedAt,
    expiresAt: v.expiresAt,
    body: v.body,
    sha256: v.sha256,
    bytes: v.bytes,
    truncated: v.truncated,
    etag: v.etag,
    lastModified: v.lastModified,
    stale,
  };
}
