import { type AccessDecision, type AgentAccess, agentAccess } from '../../core/agent-access.js';
import { ownString } from '../../core/bytes.js';
import type { LookupOutcome, PolicyAnswer, PolicyLookup } from './policy-lookup.js';

/**
 * The crawler-access section: for each distinct site and agent of interest, whether the site's
 * robots.txt closes it fully, partly or not at all (see core/agent-access.ts), or has no policy to judge:
 * `unavailable` (4xx or no file: allow all), `unreachable` (disallow all), `unknown` (no answer in the
 * source). The six counts are disjoint: a site allowing everything in effect is `none` + `unavailable`.
 */

export type SiteAccessLevel = AgentAccess | 'unavailable' | 'unreachable' | 'unknown';

export interface AccessTotals {
  full: number;
  partial: number;
  none: number;
  unavailable: number;
  unreachable: number;
  unknown: number;
}

export interface SiteAgentAccess {
  access: SiteAccessLevel;
  /** For `full` and `partial`: the deciding Disallow (see AccessDecision). */
  line?: number;
  rule?: string;
}

export interface SiteAccessRow {
  site: string;
  /** Rows of the site in the data (low by at most `rowsBound` when the table is not exact). */
  rows: number;
  outcome: LookupOutcome;
  /** By agent, in the section's agent order. */
  agents: Record<string, SiteAgentAccess>;
}

export interface AccessSection {
  agents: string[];
  /** Sites judged; each once when `exact`. */
  sites: number;
  /** False when more distinct sites came than could be remembered: some were judged (and counted) twice. */
  exact: boolean;
  /** By agent; each agent's six counts add up to the sites judged for it. */
  totals: Record<string, AccessTotals>;
  /** The sites with most rows, most first (ties by site). */
  topSites: SiteAccessRow[];
  topSitesLimit: number;
  /** False when a site's row count restarted after it was forgotten (counts are then low by up to `rowsBound`). */
  topSitesExact: boolean;
  rowsBound: number;
}

export interface AccessOptions {
  /** Distinct sites remembered (between this and twice this; default 50,000); beyond, the least seen are forgotten. */
  maxSites?: number;
  /** Rows of the per-site table. */
  topSites?: number;
}

export function emptyTotals(): AccessTotals {
  return { full: 0, partial: 0, none: 0, unavailable: 0, unreachable: 0, unknown: 0 };
}

const NO_POLICY_LEVEL: Record<Exclude<LookupOutcome, 'parsed'>, SiteAccessLevel> = {
  unavailable: 'unavailable',
  unreachable: 'unreachable',
  none: 'unknown',
};

/** Each agent's access under one answer of the lookup. */
export function siteAccess(answer: PolicyAnswer, agents: readonly string[]): SiteAgentAccess[] {
  if (answer.outcome !== 'parsed') {
    const access = NO_POLICY_LEVEL[answer.outcome];
    return agents.map(() => ({ access }));
  }
  return agentAccess(answer.body ?? new Uint8Array(0), agents).map((d: AccessDecision) =>
    d.access === 'none' ? { access: 'none' } : { access: d.access, line: d.line, rule: d.rule },
  );
}

export class AccessTally {
  private readonly agents: string[];
  private readonly totals: AccessTotals[];
  /** Rows per site seen, bounded (see prune). */
  private readonly seen = new Map<string, { n: number }>();
  private readonly maxSites: number;
  private readonly topLimit: number;
  private sites = 0;
  private exact = true;
  private rowsBound = 0;
  private lastSite: string | undefined;
  private lastEntry: { n: number } | undefined;

  constructor(
    private readonly lookup: PolicyLookup,
    agents: readonly string[],
    opts: AccessOptions = {},
  ) {
    this.agents = [...new Set(agents)];
    this.totals = this.agents.map(emptyTotals);
    this.maxSites = Math.max(1, opts.maxSites ?? 50_000);
    this.topLimit = Math.max(0, opts.topSites ?? 50);
  }

  /** `rows` rows of `site` (a caller that already counts rows per site may pass them at once). */
  observe(site: string, rows = 1): void {
    // Logs often hold runs of one site's rows: those skip the map.
    if (site === this.lastSite) {
      this.lastEntry!.n += rows;
      return;
    }
    let e = this.seen.get(site);
    if (e !== undefined) e.n += rows;
    else {
      this.judge(site);
      e = { n: rows };
      // A copy: the caller's string may be a slice pinning a whole input buffer.
      this.seen.set(ownString(site), e);
      if (this.seen.size > 2 * this.maxSites) {
        this.prune();
        if (!this.seen.has(site)) {
          this.lastSite = undefined;
          return;
        }
      }
    }
    this.lastSite = site;
    this.lastEntry = e;
  }

  private judge(site: string): void {
    const levels = siteAccess(this.lookup.current(site), this.agents);
    this.sites++;
    for (let i = 0; i < levels.length; i++) this.totals[i]![levels[i]!.access]++;
  }

  /** Keeps the `maxSites` sites with most rows; a forgotten site seen again is judged again. */
  private prune(): void {
    this.exact = false;
    const sorted = [...this.seen.entries()].sort((a, b) => b[1].n - a[1].n);
    for (let i = this.maxSites; i < sorted.length; i++) {
      const [site, { n }] = sorted[i]!;
      if (n > this.rowsBound) this.rowsBound = n;
      this.seen.delete(site);
    }
  }

  /**
   * The section. `extra`: agents found in the data, judged now for every site remembered (every site while
   * `exact`); the agents of interest were judged as each site came.
   */
  finish(extra: readonly string[] = []): AccessSection {
    const known = new Set(this.agents.map((a) => a.toLowerCase()));
    const added = [...new Set(extra)].filter((a) => a !== '' && !known.has(a.toLowerCase()));
    if (added.length > 0) {
      const base = this.agents.length;
      this.agents.push(...added);
      for (const _ of added) this.totals.push(emptyTotals());
      for (const site of this.seen.keys()) {
        const levels = siteAccess(this.lookup.current(site), added);
        for (let i = 0; i < levels.length; i++) this.totals[base + i]![levels[i]!.access]++;
      }
    }
    const top = [...this.seen.entries()]
      .map(([site, e]): [string, number] => [site, e.n])
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, this.topLimit);
    const topSites = top.map(([site, rows]) => {
      const answer = this.lookup.current(site);
      const levels = siteAccess(answer, this.agents);
      const agents: Record<string, SiteAgentAccess> = {};
      this.agents.forEach((a, i) => {
        agents[a] = levels[i]!;
      });
      return { site, rows, outcome: answer.outcome, agents };
    });
    const totals: Record<string, AccessTotals> = {};
    this.agents.forEach((a, i) => {
      totals[a] = { ...this.totals[i]! };
    });
    return {
      agents: [...this.agents],
      sites: this.sites,
      exact: this.exact,
      totals,
      topSites,
      topSitesLimit: this.topLimit,
      topSitesExact: this.exact,
      rowsBound: this.rowsBound,
    };
  }
}

/**
 * The section of two runs over disjoint sites (host shards) as one: counts add, the tables are cut
 * again to the smaller limit. Agents judged by one side only keep that side's counts.
 */
export function mergeAccess(a: AccessSection, b: AccessSection): AccessSection {
  const agents = [...new Set([...a.agents, ...b.agents])];
  const totals: Record<string, AccessTotals> = {};
  for (const agent of agents) {
    const t = emptyTotals();
    for (const side of [a.totals[agent], b.totals[agent]]) {
      if (side === undefined) continue;
      for (const k of Object.keys(t) as (keyof AccessTotals)[]) t[k] += side[k];
    }
    totals[agent] = t;
  }
  // Each site lives in one side, so the top of the union lies within the sides' tops of that length.
  const limit = Math.min(a.topSitesLimit, b.topSitesLimit);
  const kept = [...a.topSites, ...b.topSites]
    .sort((x, y) => y.rows - x.rows || (x.site < y.site ? -1 : x.site > y.site ? 1 : 0))
    .slice(0, limit);
  return {
    agents,
    sites: a.sites + b.sites,
    exact: a.exact && b.exact,
    totals,
    topSites: kept,
    topSitesLimit: limit,
    topSitesExact: a.topSitesExact && b.topSitesExact,
    rowsBound: Math.max(a.rowsBound, b.rowsBound),
  };
}
