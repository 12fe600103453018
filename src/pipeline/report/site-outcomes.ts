import { ownString } from '../../core/bytes.js';
import { UNAVAILABLE_CODES } from '../fetch/error-codes.js';
import { FingerprintSet, hashPair, hashPairRange } from './fingerprint-set.js';
import type { OutcomesSection, SiteOutcome } from './report-model.js';
import { newSiteState, type SiteState, SiteTable } from './site-table.js';

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
  private readonly table = new SiteTable();
  private generation = 0;
  sites = 0;
  readonly byOutcome: Record<SiteOutcome, number> = Object.fromEntries(
    SITE_OUTCOMES.map((o) => [o, 0]),
  ) as Record<SiteOutcome, number>;
  readonly unavailableBy = new Map<string, number>();
  readonly unreachableBy = new Map<string, number>();

  constructor(maxBits = SITE_BITS) {
    this.seen = new FingerprintSet(maxBits);
  }

  /** False once the fingerprints overflowed: a site seen again after that counts again. */
  get exact(): boolean {
    return this.seen.exact;
  }

  /**
   * The state of the site `text.slice(start, end)`, counting the site if it is new. Its `site` is an own
   * string (a slice of the read chunk would keep it alive), the same object for the site's rows.
   */
  state(text: string, start: number, end: number): SiteState {
    const h = this.hash;
    hashPairRange(text, start, end, h);
    const a = h[0]!;
    const b = h[1]!;
    const known = this.table.find(a, b);
    if (known !== undefined) return known;
    // The fingerprint tells the site (as it does for counting sites): no text compared.
    const state = newSiteState(ownString(text.slice(start, end)), a, b);
    if (this.seen.add(a, b)) this.sites++;
    this.followSeen();
    this.table.insert(state);
    return state;
  }

  /** Counts the outcome a row of `state`'s site shows (once per site), if any. */
  outcome(state: SiteState, o: RowOutcome | null): void {
    if (o === null || o.key === state.outcomeKey) return;
    state.outcomeKey = o.key;
    // The pair's fingerprint: the site's, mixed with the outcome key's (a different value for every key).
    const k = o.hash;
    const pairA = Math.imul(state.a ^ k, 0x9e3779b1) ^ 0x5bd1e995;
    if (!this.seen.add(pairA, state.b + Math.imul(k, 0x27d4eb2f))) return;
    this.byOutcome[o.outcome]++;
    if (o.outcome === 'unavailable') bump(this.unavailableBy, o.cause);
    else if (o.outcome === 'unreachable') bump(this.unreachableBy, o.cause);
    this.followSeen();
  }

  /** States found after the fingerprints started over would skip counting their sites again. */
  private followSeen(): void {
    if (this.seen.generation === this.generation) return;
    this.generation = this.seen.generation;
    this.table.clear();
  }

  /** Counts `site` and the outcome `o` of one of its rows; returns the site as an own string. */
  observe(site: string, o: RowOutcome | null): string {
    const state = this.state(site, 0, site.length);
    this.outcome(state, o);
    return state.site;
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
