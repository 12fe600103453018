import { ownString } from '../../core/bytes.js';
import { UNAVAILABLE_CODES } from '../fetch/error-codes.js';
import { FingerprintSet, hashPair } from './fingerprint-set.js';
import type { OutcomesSection, SiteOutcome } from './report-model.js';

export const SITE_OUTCOMES: readonly SiteOutcome[] = [
  'parsed',
  'unavailable',
  'unreachable',
  'redirect',
  'not_cached',
  'no_history',
];

/** Slots (log2) of the fingerprints of sites and their outcomes: 2^22 slots, 32 MiB at most. */
export const SITE_BITS = 22;
/** Sites kept as own strings by fingerprint (a power of 2). */
const INTERNED = 8192;

/** What one row says of its site's robots.txt: the outcome and its status or code; null when nothing. */
export interface RowOutcome {
  outcome: SiteOutcome;
  cause: string;
  /** `outcome` and `cause` in one string, and a hash of it. */
  key: string;
  hash: number;
}

function outcome(o: SiteOutcome, cause: string): RowOutcome {
  const key = `${o}\t${cause}`;
  const h = new Int32Array(2);
  hashPair(key, h);
  return { outcome: o, cause, key, hash: h[0]! };
}

function isStatus(s: string): boolean {
  return s.length === 3 && /^[1-5]\d\d$/.test(s);
}

/**
 * The outcome a row shows. `verdict` is the row's (any agent's: all agents of a row share one policy),
 * `status` its robots_status, `robotsUrl` the final robots.txt URL when the file has evidence columns.
 */
export function rowOutcome(
  verdict: string,
  status: string,
  errorCode: string,
  robotsUrl: string,
  site: string,
): RowOutcome | null {
  if (verdict === 'not_cached') return NOT_CACHED;
  if (verdict === 'no_history') return outcome('no_history', errorCode);
  if (verdict === 'invalid_input' || status === '') return null;
  if (status === 'file') return PARSED;
  if (status === 'missing') return MISSING;
  if (isStatus(status)) {
    const n = Number(status);
    if (n >= 200 && n < 300) {
      const own = robotsUrl === '' || robotsUrl.startsWith('file:') || robotsUrl === `${site}/robots.txt`;
      return own ? PARSED : outcome('redirect', robotsUrl);
    }
    if (n >= 400 && n < 500 && n !== 429) return outcome('unavailable', status);
    return outcome('unreachable', status);
  }
  if (Object.hasOwn(UNAVAILABLE_CODES, status)) return outcome('unavailable', status);
  return outcome('unreachable', status);
}

const PARSED = Object.freeze(outcome('parsed', ''));
const NOT_CACHED = Object.freeze(outcome('not_cached', ''));
const MISSING = Object.freeze(outcome('unavailable', 'missing'));

/**
 * Sites and the outcomes they show, each counted once, in bounded memory: a site and each (site, outcome)
 * pair are remembered as 64-bit fingerprints (see FingerprintSet: up to about 2.9 million of them; two
 * sites share a fingerprint with odds far below one in a million at that size). Past that, counting starts
 * over and `exact` is false. Host-sharded inputs hold disjoint sites, so their reports add up.
 */
export class SiteOutcomes {
  private readonly seen: FingerprintSet;
  private readonly hash = new Int32Array(2);
  sites = 0;
  readonly byOutcome: Record<SiteOutcome, number> = Object.fromEntries(
    SITE_OUTCOMES.map((o) => [o, 0]),
  ) as Record<SiteOutcome, number>;
  readonly unavailableBy = new Map<string, number>();
  readonly unreachableBy = new Map<string, number>();
  private lastSite = '\u0000';
  private lastKey = '\u0000';
  /** Own copies of recent sites by fingerprint: one string object per site, its hash computed once. */
  private readonly interned: string[] = new Array<string>(INTERNED).fill('');
  private readonly internedA = new Int32Array(INTERNED);
  private readonly internedB = new Int32Array(INTERNED);

  constructor(maxBits = SITE_BITS) {
    this.seen = new FingerprintSet(maxBits);
  }

  /** First half of the fingerprint of the last site observed. */
  get siteHash(): number {
    return this.hash[0]!;
  }

  /** False once the fingerprints overflowed: a site seen again after that counts again. */
  get exact(): boolean {
    return this.seen.exact;
  }

  /**
   * Counts `site` (once) and the outcome the row shows (once per site), if any. Returns the site as an
   * own string (a slice of the read chunk would keep it alive), mostly the same object for a site's rows.
   */
  observe(site: string, o: RowOutcome | null): string {
    const key = o === null ? '' : o.key;
    const h = this.hash;
    if (site !== this.lastSite) {
      hashPair(site, h);
      const slot = h[0]! & (INTERNED - 1);
      let own = this.interned[slot]!;
      // The fingerprint tells the site (as it does for counting sites): no text compared, none touched.
      if (own === '' || this.internedA[slot] !== h[0] || this.internedB[slot] !== h[1]) {
        own = ownString(site);
        this.interned[slot] = own;
        this.internedA[slot] = h[0]!;
        this.internedB[slot] = h[1]!;
      }
      this.lastSite = own;
      if (this.seen.add(h[0]!, h[1]!)) this.sites++;
    } else if (key === this.lastKey) return this.lastSite;
    this.lastKey = key;
    if (o === null) return this.lastSite;
    // The pair's fingerprint: the site's, mixed with the outcome key's (a different value for every key).
    const k = o.hash;
    const pairA = Math.imul(h[0]! ^ k, 0x9e3779b1) ^ 0x5bd1e995;
    if (!this.seen.add(pairA, h[1]! + Math.imul(k, 0x27d4eb2f))) return this.lastSite;
    this.byOutcome[o.outcome]++;
    if (o.outcome === 'unavailable') bump(this.unavailableBy, o.cause);
    else if (o.outcome === 'unreachable') bump(this.unreachableBy, o.cause);
    return this.lastSite;
  }

  section(problemSites: OutcomesSection['problemSites']): OutcomesSection {
    return {
      byOutcome: { ...this.byOutcome },
      unavailableBy: sortedRecord(this.unavailableBy),
      unreachableBy: sortedRecord(this.unreachableBy),
      problemSites,
    };
  }
}

function bump(m: Map<string, number>, k: string): void {
  m.set(k, (m.get(k) ?? 0) + 1);
}

/** A map as a plain object with its keys sorted (the JSON reads the same whatever the row order). */
export function sortedRecord(m: Map<string, number>): Record<string, number> {
  return Object.fromEntries([...m.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)));
}
