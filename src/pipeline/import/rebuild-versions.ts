import type { CachedVersion, Observation } from '../cache/cache-types.js';

/**
 * An origin's versions from its observations in time order: consecutive observations with the same
 * outcome, status, error code and body are one version (valid_from = the first, fetched_at = the last);
 * a change starts a new version at the observation that shows it. The last version is current.
 */

/** An observation with its outcome known (revisits and redirects resolved). */
export type Settled = Omit<Observation, 'origin' | 'robotsUrl' | 'body' | 'fetchedAt'> & {
  capturedAt: number;
  source: string;
};

/** A versions row as written (truncated as SQLite stores it). */
export type VersionRow = Omit<CachedVersion, 'body' | 'truncated' | 'source'> & {
  truncated: number;
  source: string;
};

const same = (a: Settled, b: Settled) =>
  a.outcome === b.outcome && a.status === b.status && a.errorCode === b.errorCode && a.sha256 === b.sha256;

/** `observations` must be sorted by (capturedAt, source). */
export function versionsOf(origin: string, observations: readonly Settled[]): VersionRow[] {
  const out: VersionRow[] = [];
  let first: Settled | undefined;
  let last: Settled | undefined;
  const close = (validTo: number | null) => {
    if (first === undefined || last === undefined) return;
    out.push({
      origin,
      outcome: first.outcome,
      robotsUrl: `${origin}/robots.txt`,
      // What the latest sighting said: the live cache's confirmation keeps these of the last fetch too.
      finalUrl: last.finalUrl,
      status: first.status,
      errorCode: first.errorCode,
      sha256: first.sha256,
      bytes: last.bytes,
      truncated: last.truncated ? 1 : 0,
      etag: last.etag,
      lastModified: last.lastModified,
      validFrom: first.capturedAt,
      validTo,
      fetchedAt: last.capturedAt,
      expiresAt: last.expiresAt,
      source: first.source,
    });
  };
  for (const o of observations) {
    if (first !== undefined && same(first, o)) {
      last = o;
      continue;
    }
    close(o.capturedAt);
    first = o;
    last = o;
  }
  close(null);
  return out;
}
