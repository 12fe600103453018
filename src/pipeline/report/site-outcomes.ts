import { UNAVAILABLE_CODES } from '../fetch/error-codes.js';
import type { OutcomesSection, SiteOutcome } from './report-model.js';
import { ownCopy } from './site-of.js';

export const SITE_OUTCOMES: readonly SiteOutcome[] = [
  'parsed',
  'unavailable',
  'unreachable',
  'redirect',
  'not_cached',
  'no_history',
];

/** Sites remembered to count each once; past it the oldest is forgotten and counts may run high. */
export const SITES_HELD = 250_000;

/** What one row says of its site's robots.txt: the outcome and its status or code; null when nothing. */
export interface RowOutcome {
  outcome: SiteOutcome;
  cause: string;
  /** `outcome` and `cause` in one string, as sites remember them. */
  key: string;
}

function outcome(o: SiteOutcome, cause: string): RowOutcome {
  return { outcome: o, cause, key: `${o}\t${cause}` };
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

/** A site remembered: its name (an own copy) and the outcome keys seen for it, one per line. */
interface SiteRec {
  site: string;
  keys: string;
}

/**
 * Sites and the outcomes they show, each counted once, in bounded memory: a site is remembered with the
 * outcomes seen for it until `held` more recent sites push it out (the rows of a site tend to come
 * together; host-sharded inputs hold disjoint sites).
 */
export class SiteOutcomes {
  private readonly seen = new Map<string, SiteRec>();
  sites = 0;
  /** False once a site was forgotten: a site seen again after that counts again. */
  exact = true;
  readonly byOutcome: Record<SiteOutcome, number> = Object.fromEntries(
    SITE_OUTCOMES.map((o) => [o, 0]),
  ) as Record<SiteOutcome, number>;
  readonly unavailableBy = new Map<string, number>();
  readonly unreachableBy = new Map<string, number>();
  private last: SiteRec = { site: '\u0000', keys: '' };
  private lastKey = '\u0000';

  constructor(private readonly held = SITES_HELD) {}

  /**
   * Counts `site` (once) and the outcome the row shows (once per site), if any. Returns the site as an
   * own string, the same object for every row of the site while it is remembered (its hash is computed once).
   */
  observe(site: string, o: RowOutcome | null): string {
    const key = o === null ? '' : o.key;
    let rec = this.last;
    if (site !== rec.site) {
      const found = this.seen.get(site);
      if (found === undefined) {
        this.sites++;
        if (this.seen.size >= this.held) {
          this.seen.delete(this.seen.keys().next().value as string);
          this.exact = false;
        }
        // A copy: `site` may be a slice that pins a whole read chunk.
        rec = { site: ownCopy(site), keys: '' };
        this.seen.set(rec.site, rec);
      } else rec = found;
      this.last = rec;
    } else if (key === this.lastKey) return rec.site;
    this.lastKey = key;
    const keys = rec.keys;
    if (o === null || keys === key || (keys !== '' && keys.split('\n').includes(key))) return rec.site;
    rec.keys = keys === '' ? key : `${keys}\n${key}`;
    this.byOutcome[o.outcome]++;
    if (o.outcome === 'unavailable') bump(this.unavailableBy, o.cause);
    else if (o.outcome === 'unreachable') bump(this.unreachableBy, o.cause);
    return rec.site;
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
