/**
 * The contract between where policies come from (fetcher + cache, robots directory, cache only)
 * and the classify pipeline that uses them.
 */

import { keyOf, type Origin } from '../../rows/row-url.js';
import type { PolicyOutcome } from '../../workers/protocol.js';

export type { Origin, PolicyOutcome };

/** `scheme://host[:port]`, the default port omitted: the key of caches and maps. */
export const originKey: (o: Origin) => string = keyOf;

/** `scheme://host[:port]/robots.txt` (RFC 9309 §2.3). */
export function robotsUrlOf(o: Origin): string {
  return `${originKey(o)}/robots.txt`;
}

/** Where a policy came from in this run. */
export type PolicySource = 'fetch' | 'cache' | 'revalidated' | 'stale' | 'file' | 'missing' | 'none';

export interface Policy {
  origin: string;
  outcome: PolicyOutcome;
  source: PolicySource;
  robotsUrl: string;
  /**
   * URL of the last response after redirects; null when nothing answered. When a redirect target then
   * fails (network error, refused address), the URL that failed.
   */
  finalUrl: string | null;
  /** HTTP status of the last response, or null. */
  status: number | null;
  /** Stable error code of an unreachable or unavailable outcome without a usable status (ERR_DNS, ERR_TIMEOUT, …). */
  errorCode: string | null;
  /** Epoch milliseconds. */
  fetchedAt: number;
  /** Epoch milliseconds after which the policy is no longer fresh. */
  expiresAt: number;
  /** Body as kept (at most maxBody bytes) for `parsed`; null otherwise. */
  body: Uint8Array | null;
  /** Lower-case hex sha256 of `body`, or null. */
  sha256: string | null;
  /** Bytes kept. */
  bytes: number;
  /** The body was longer than maxBody and was cut. */
  truncated: boolean;
  etag: string | null;
  lastModified: string | null;
  /**
   * An unreachable origin answered from a parsed copy younger than 30 days (source `stale`), or, with
   * `--offline`, a cached policy older than `maxAge` (source `cache`): the newest copy there is.
   */
  stale: boolean;
  /** Set on source `stale`: what the latest attempt got instead (status or error code) and when (epoch ms). */
  staleCause?: { status: number | null; errorCode: string | null; at: number };
}

/** Anything that can answer "which policy is in force for this origin". */
export interface PolicyProvider {
  get(origin: Origin): Promise<Policy>;
  close(): Promise<void>;
}
