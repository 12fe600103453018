import { UNAVAILABLE_CODES } from '../fetch/error-codes.js';
import type { OutcomesSection, SiteOutcome } from './report-model.js';

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
  if (verdict === 'not_cached') return { outcome: 'not_cached', cause: '' };
  if (verdict === 'no_history') return { outcome: 'no_history', cause: errorCode };
  if (verdict === 'invalid_input' || status === '') return null;
  if (status === 'file') return PARSED;
  if (status === 'missing') return { outcome: 'unavailable', cause: 'missing' };
  if (isStatus(status)) {
    const n = Number(status);
    if (n >= 200 && n < 300) {
      const own = robotsUrl === '' || robotsUrl.startsWith('file:') || robotsUrl === `${site}/robots.txt`;
      return own ? PARSED : { outcome: 'redirect', cause: robotsUrl };
    }
    if (n >= 400 && n < 500 && n !== 429) return { outcome: 'unavailable', cause: status };
    return { outcome: 'unreachable', cause: status };
  }
  if (Object.hasOwn(UNAVAILABLE_CODES, status)) return { outcome: 'unavailable', cause: status };
  return { outcome: 'unreachable', cause: status };
}

const PARSED: RowOutcome = Object.freeze({ outcome: 'parsed', cause: '' });

/**
 * Sites and the outcomes they show, each counted once, in bounded memory: a site is remembered with the
 * outcomes seen for it until `held` more recent sites push it out (the rows of a site tend to come
 * together; host-sharded inputs hold disjoint sites).
 */
export class SiteOutcomes {
  private readonly seen = new Map<string, string>();
  sites = 0;
  /** False once a site was forgotten: a site seen again after that counts again. */
  exact = true;
  readonly byOutcome: Record<SiteOutcome, number> = Object.fromEntries(
    SITE_OUTCOMES.map((o) => [o, 0]),
  ) as Record<SiteOutcome, number>;
  readonly unavailableBy = new Map<string, number>();
  readonly unreachableBy = new Map<string, number>();
  private lastSite = '';
  private lastKey = '\u0000';

  constructor(private readonly held = SITES_HELD) {}

  /** Counts `site` (once) and the outcome the row shows (once per site), if any. */
  observe(site: string, o: RowOutcome | null): void {
    const key = o === null ? '' : `${o.outcome}\t${o.cause}`;
    if (site === this.lastSite && key === this.lastKey) return;
    this.lastSite = site;
    this.lastKey = key;
    let keys = this.seen.get(site);
    if (keys === undefined) {
      this.sites++;
      if (this.seen.size >= this.held) {
        this.seen.delete(this.seen.keys().next().value as string);
        this.exact = false;
      }
      keys = '';
      this.seen.set(site, keys);
    }
    if (o === null || keys === key || (keys !== '' && keys.split('\n').includes(key))) return;
    this.seen.set(site, keys === '' ? key : `${keys}\n${key}`);
    this.byOutcome[o.outcome]++;
    if (o.outcome === 'unavailable') bump(this.unavailableBy, o.cause);
    else if (o.outcome === 'unreachable') bump(this.unreachableBy, o.cause);
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
