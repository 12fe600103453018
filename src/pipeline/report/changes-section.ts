import type Database from 'better-sqlite3';
import { diffGroups, type GroupChange } from '../../core/group-diff.js';
import { openCacheReadOnly } from './policy-cache-lookup.js';
import { compareFlips, type FlipCounts, type FlipEntry, type FlipRule, FlipTally } from './policy-flips.js';
import {
  type ChangedSite,
  HistoryReader,
  loadChangedSites,
  type StoredOutcome,
  type VersionRow,
} from './policy-history.js';

export type { FlipCounts, FlipEntry, FlipRule } from './policy-flips.js';
export type { StoredOutcome } from './policy-history.js';

/**
 * The changes section: sites of the data whose robots.txt got a new version first seen in the window
 * [since, until] after an earlier one, what changed (outcome, rules per group), and verdict flips: rows
 * whose verdict under the version in force before the window differs from their verdict in the data.
 */

export interface VersionInfo {
  outcome: StoredOutcome;
  status: number | null;
  errorCode: string | null;
  sha256: string | null;
  /** ISO time the version was first seen. */
  validFrom: string;
}

export interface SiteChange {
  site: string;
  /** Rows of the site in the data. */
  rows: number;
  /** The version in force at `since`. */
  before: VersionInfo;
  /** The latest version first seen by `until`. */
  after: VersionInfo;
  /** Versions first seen in the window (more than 1: intermediate versions are not diffed). */
  versionsInWindow: number;
  /** Groups whose rules differ (both versions parsed), in the new file's order; at most `maxGroups`. */
  groups: GroupChange[];
  /** Exact number of changed groups. */
  groupCount: number;
}

export interface ChangesSection {
  since: string;
  until: string;
  /** Sites of the data with a version first seen in the window after an earlier one (exact when `sitesExact`). */
  changedSites: number;
  /** Sites of the data whose first version ever was seen in the window: nothing to compare with. */
  newSites: number;
  /** Changed sites by `before→after` outcome (`parsed→parsed`: the body or status changed). */
  outcomeChanges: Record<string, number>;
  /** The changed sites with most rows, most first (ties by site); `sitesLimit` at most. */
  sites: SiteChange[];
  sitesLimit: number;
  /** False when the window holds more changed sites than were loaded: the others count as unchanged. */
  sitesExact: boolean;
  /** Rows of changed sites judged under the previous version and compared. */
  rowsCompared: number;
  /**
   * Rows of changed sites not compared: no allow/disallow verdict (not_cached, no_history, invalid), or
   * evidence (`robots_sha256`) showing they were judged under another version than the current one.
   */
  rowsSkipped: number;
  /** By agent. */
  flips: Record<string, FlipCounts>;
  /** Per site and agent, most flips first (ties by site, agent); `flipsLimit` at most. */
  topFlips: FlipEntry[];
  flipsLimit: number;
  /** False when (site, agent) pairs were dropped from the bounded table (their flips still count above). */
  flipsExact: boolean;
  /**
   * Rows were judged as of a time (`--at-column`): a row may have been judged under an older version than
   * the current one, which only evidence columns can tell (rows with `robots_sha256` are checked).
   */
  asOf: boolean;
}

export interface ChangesOptions {
  /** Changed sites loaded from the cache. */
  maxChangedSites?: number;
  sitesLimit?: number;
  flipsLimit?: number;
  /** Groups listed per site, and rules per group. */
  maxGroups?: number;
  maxRules?: number;
  /** Estimated bytes of the previous versions' rules kept compiled (per site and agent) at once. */
  maxCompiledBytes?: number;
  asOf?: boolean;
}

/** Evidence a row may carry (classify `--evidence`). */
export interface RowEvidence {
  /** `robots_sha256`: the body the row was judged under ('' when none). */
  sha256?: string;
}

const ALLOWED = new Set(['allowed_explicit', 'allowed_implicit', 'allowed_unavailable']);
const DISALLOWED = new Set(['disallowed_explicit', 'disallowed_unreachable']);

function info(v: VersionRow): VersionInfo {
  return {
    outcome: v.outcome,
    status: v.status,
    errorCode: v.error_code,
    sha256: v.sha256,
    validFrom: new Date(v.valid_from).toISOString(),
  };
}

export class ChangesTally {
  private readonly changed: Map<string, ChangedSite>;
  private readonly history: HistoryReader;
  private readonly flips: FlipTally;
  private lastSite: string | undefined;
  private lastChanged: ChangedSite | undefined;
  private readonly opts: Required<ChangesOptions>;
  private readonly sitesExact: boolean;
  private rowsCompared = 0;
  private rowsSkipped = 0;

  private constructor(
    private readonly db: Database.Database,
    private readonly since: number,
    private readonly until: number,
    opts: ChangesOptions,
  ) {
    this.opts = {
      maxChangedSites: opts.maxChangedSites ?? 100_000,
      sitesLimit: opts.sitesLimit ?? 50,
      flipsLimit: opts.flipsLimit ?? 50,
      maxGroups: opts.maxGroups ?? 20,
      maxRules: opts.maxRules ?? 20,
      maxCompiledBytes: opts.maxCompiledBytes ?? 64 * 2 ** 20,
      asOf: opts.asOf ?? false,
    };
    this.history = new HistoryReader(db, this.opts.maxCompiledBytes);
    this.flips = new FlipTally(Math.max(this.opts.flipsLimit, 1000));
    const loaded = loadChangedSites(db, since, until, this.opts.maxChangedSites);
    this.changed = loaded.changed;
    this.sitesExact = loaded.exact;
  }

  /** Opens the cache read-only and loads the sites with a version first seen in [since, until]. */
  static open(cachePath: string, since: Date, until: Date, opts: ChangesOptions = {}): ChangesTally {
    const db = openCacheReadOnly(cachePath);
    try {
      return new ChangesTally(db, since.getTime(), until.getTime(), opts);
    } catch (err) {
      db.close();
      throw err;
    }
  }

  /** Whether rows of `site` are wanted by observeRow (its robots.txt changed in the window); counts the row. */
  wants(site: string): boolean {
    // Runs of one site's rows skip the map; so does the run of an unchanged site.
    let c: ChangedSite | undefined;
    if (site === this.lastSite) c = this.lastChanged;
    else {
      c = this.changed.get(site);
      this.lastSite = site;
      this.lastChanged = c;
    }
    if (c === undefined) return false;
    c.rows++;
    return c.before !== null;
  }

  /**
   * One row of a changed site, as the data judged it for `agent`: compared with its verdict under the
   * version in force before the window. `ruleLine`/`rule`: the data's deciding rule (0 / '' when none).
   */
  observeRow(
    site: string,
    url: string,
    agent: string,
    verdict: string,
    ruleLine: number,
    rule = '',
    evidence: RowEvidence = {},
  ): void {
    const c = this.changed.get(site);
    if (c === undefined || c.before === null) return;
    const nowAllowed = ALLOWED.has(verdict) ? true : DISALLOWED.has(verdict) ? false : undefined;
    const sha = evidence.sha256;
    if (nowAllowed === undefined || agent === '' || (sha !== undefined && sha !== (c.after.sha256 ?? ''))) {
      this.rowsSkipped++;
      return;
    }
    this.rowsCompared++;
    const before = c.before;
    let wasAllowed: boolean;
    let oldRule: FlipRule | null = null;
    if (before.outcome === 'parsed') {
      const d = this.history.previous(c, agent).check(url);
      wasAllowed = d.allowed;
      if (d.line > 0) oldRule = { version: 'old', line: d.line, rule: d.rule };
    } else wasAllowed = before.outcome === 'unavailable';
    if (wasAllowed === nowAllowed) return;
    // Made only when the row becomes its entry's first example: reading a rule text may read the body.
    const ruleOf = (): FlipRule | null => {
      if (nowAllowed) return oldRule;
      return ruleLine > 0
        ? { version: 'new', line: ruleLine, rule: rule || this.history.currentRule(c, ruleLine) }
        : null;
    };
    this.flips.add(site, agent, url, ruleOf, !nowAllowed);
  }

  finish(): ChangesSection {
    let changedSites = 0;
    let newSites = 0;
    const outcomeChanges: Record<string, number> = {};
    const seen: ChangedSite[] = [];
    for (const c of this.changed.values()) {
      if (c.rows === 0) continue;
      if (c.before === null) {
        newSites++;
        continue;
      }
      changedSites++;
      const key = `${c.before.outcome}→${c.after.outcome}`;
      outcomeChanges[key] = (outcomeChanges[key] ?? 0) + 1;
      seen.push(c);
    }
    seen.sort((a, b) => b.rows - a.rows || (a.site < b.site ? -1 : 1));
    const sites = seen.slice(0, this.opts.sitesLimit).map((c) => this.siteChange(c));
    return {
      since: new Date(this.since).toISOString(),
      until: new Date(this.until).toISOString(),
      changedSites,
      newSites,
      outcomeChanges,
      sites,
      sitesLimit: this.opts.sitesLimit,
      sitesExact: this.sitesExact,
      rowsCompared: this.rowsCompared,
      rowsSkipped: this.rowsSkipped,
      flips: this.flips.agents(),
      topFlips: this.flips.top(this.opts.flipsLimit),
      flipsLimit: this.opts.flipsLimit,
      flipsExact: this.flips.exact,
      asOf: this.opts.asOf,
    };
  }

  private siteChange(c: ChangedSite): SiteChange {
    const before = c.before!;
    let groups: GroupChange[] = [];
    if (before.outcome === 'parsed' && c.after.outcome === 'parsed' && before.sha256 !== c.after.sha256) {
      groups = diffGroups(
        this.history.body(before.sha256),
        this.history.body(c.after.sha256),
        this.opts.maxRules,
      );
    }
    return {
      site: c.site,
      rows: c.rows,
      before: info(before),
      after: info(c.after),
      versionsInWindow: c.versionsInWindow,
      groups: groups.slice(0, this.opts.maxGroups),
      groupCount: groups.length,
    };
  }

  close(): void {
    this.db.close();
  }
}

function addCounts(into: Record<string, number>, from: Record<string, number>): void {
  for (const [k, n] of Object.entries(from)) into[k] = (into[k] ?? 0) + n;
}

/**
 * The section of two runs over disjoint sites (host shards) as one: counts add, lists are cut again to
 * the smaller limit (each site lives in one side, so the top of the union lies within the sides' tops).
 */
export function mergeChanges(a: ChangesSection, b: ChangesSection): ChangesSection {
  const outcomeChanges: Record<string, number> = {};
  addCounts(outcomeChanges, a.outcomeChanges);
  addCounts(outcomeChanges, b.outcomeChanges);
  const flips: Record<string, FlipCounts> = {};
  for (const agent of [...new Set([...Object.keys(a.flips), ...Object.keys(b.flips)])].sort()) {
    const x = a.flips[agent];
    const y = b.flips[agent];
    flips[agent] = {
      allowedToDisallowed: (x?.allowedToDisallowed ?? 0) + (y?.allowedToDisallowed ?? 0),
      disallowedToAllowed: (x?.disallowedToAllowed ?? 0) + (y?.disallowedToAllowed ?? 0),
    };
  }
  const sitesLimit = Math.min(a.sitesLimit, b.sitesLimit);
  const flipsLimit = Math.min(a.flipsLimit, b.flipsLimit);
  return {
    since: a.since < b.since ? a.since : b.since,
    until: a.until > b.until ? a.until : b.until,
    changedSites: a.changedSites + b.changedSites,
    newSites: a.newSites + b.newSites,
    outcomeChanges,
    sites: [...a.sites, ...b.sites]
      .sort((x, y) => y.rows - x.rows || (x.site < y.site ? -1 : x.site > y.site ? 1 : 0))
      .slice(0, sitesLimit),
    sitesLimit,
    sitesExact: a.sitesExact && b.sitesExact,
    rowsCompared: a.rowsCompared + b.rowsCompared,
    rowsSkipped: a.rowsSkipped + b.rowsSkipped,
    flips,
    topFlips: [...a.topFlips, ...b.topFlips].sort(compareFlips).slice(0, flipsLimit),
    flipsLimit,
    flipsExact: a.flipsExact && b.flipsExact,
    asOf: a.asOf || b.asOf,
  };
}
