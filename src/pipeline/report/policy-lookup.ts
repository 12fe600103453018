/**
 * Where the report's policy sections find a site's robots.txt in force now: the cache or a robots
 * directory. A site is an origin key (`https://example.com`, `http://h:8080`).
 */

export type LookupOutcome = 'parsed' | 'unavailable' | 'unreachable' | 'none';

export interface PolicyAnswer {
  /** `none`: the source knows nothing of the site (not in the cache, not an origin). */
  outcome: LookupOutcome;
  /** The body of a parsed policy. */
  body?: Uint8Array;
  status?: number | null;
  errorCode?: string | null;
  sha256?: string | null;
}

export interface PolicyLookup {
  current(site: string): PolicyAnswer;
  close(): void;
}

export const NO_POLICY: PolicyAnswer = Object.freeze({ outcome: 'none' });
