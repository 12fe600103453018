/**
 * The report's JSON (`robots-audit report --json`): what the HTML is rendered from and what `--merge` adds
 * up. Every counter is additive, so the reports of host-sharded runs merge into the report of the whole.
 * Changes to this shape are additive only; a breaking one bumps `version`.
 */

import type { AccessSection } from './access-section.js';
import type { ChangesSection } from './changes-section.js';

export type { AccessSection, ChangesSection };

export const REPORT_SCHEMA = 'robots-audit-report';
export const REPORT_VERSION = 1;

/** How the rows name their agents. */
export type AgentMode =
  /** An `agent` column (classify `--agent-column`): each row is judged for its own agent. */
  | 'row_agent'
  /** `verdict` / `verdict:<A>` columns only: every row is judged for every agent. */
  | 'agent_columns';

/**
 * A bounded top list. `entries` holds every key kept (up to `capacity`), largest first (ties by key); the
 * HTML shows the first `show`. `exact` is true while no key was ever dropped: every count is then exact
 * and no key is missing. Otherwise a count may be low by at most `dropBound`, and a key whose count is
 * at most `dropBound` may be missing.
 */
export interface TopList<T> {
  capacity: number;
  show: number;
  exact: boolean;
  /** Largest count ever dropped (0 when exact). */
  dropBound: number;
  /** Distinct keys seen, when exact; otherwise an estimate (a key dropped and seen again counts twice). */
  distinct: number;
  entries: (T & TopEntryCounts)[];
}

export interface TopEntryCounts {
  count: number;
  /**
   * Up to 3 example URLs: those with the smallest FNV-1a hash of their UTF-8 bytes (then byte order), a
   * sample that does not depend on row order, so that merged reports keep the examples of the whole.
   */
  examples: string[];
}

/** Per agent (product token), rows by verdict: every verdict seen, with its count. */
export type VerdictCounts = Record<string, Record<string, number>>;

export interface ReportInput {
  /** Path as given (`-` for stdin). */
  path: string;
  /** Data rows read (header, `sep=` line and blank lines excluded). */
  rows: number;
  /** Rows that could not be read (see `badRowsByReason`), counted, never fatal. */
  badRows: number;
  mode: AgentMode;
  /** Agents named by the file's header (`verdict:<A>` columns; the unsuffixed one is `""` in row-agent mode). */
  columnAgents: string[];
}

export interface ReportOptions {
  /** `--at-column`: the rows' time column, or null. */
  atColumn: string | null;
  /** `--since` (ISO), or null. */
  since: string | null;
  /** `--top`: how many entries of each top list the HTML shows. */
  top: number;
  /** Agents of interest of the access section: the major crawlers plus `--agent`. */
  agentsOfInterest: string[];
  /** Where policies came from for the access and changes sections: `cache`, `robots-dir`, or null. */
  policySource: 'cache' | 'robots-dir' | null;
}

export interface Headline {
  /** Data rows read, all files. */
  rows: number;
  badRows: number;
  /** `short_row` (fewer fields than the header), `malformed_record` (a quote that never closes), … */
  badRowsByReason: Record<string, number>;
  /** Distinct sites (origins `scheme://host[:port]`); see `sitesExact`. */
  sites: number;
  /**
   * True when every site was counted once. Sites are told apart by 64-bit fingerprints in bounded memory
   * (about 1.4 million sites with their outcomes); past that counting starts over, a site seen again counts
   * again, and `sites` is an upper bound. Merged reports add their sites: exact for disjoint (host-sharded)
   * inputs.
   */
  sitesExact: boolean;
  /** Agents with at least one judged row, sorted. */
  agents: string[];
  /** Rows by verdict, per agent (row-agent mode: the rows judged for that agent). */
  verdicts: VerdictCounts;
  /** Row-agent mode: rows not judged (`not_a_crawler`: a browser, or an empty / `-` agent cell). */
  notACrawler: number;
  /** Per agent: violations (disallowed rows, grace rows excluded). */
  violations: Record<string, number>;
  /** Per agent: disallowed rows that a version in force within the grace allowed (not violations). */
  grace: Record<string, number>;
  /** True when agents beyond the bounded agent table were folded into `agentsOverflow` rows. */
  agentsExact: boolean;
  /** Rows of agents not kept in the table (more distinct agents than it holds). */
  agentsOverflow: number;
}

export interface ViolationsSection {
  /** Violations in all (rows × agents in agent-columns mode). */
  total: number;
  bySite: TopList<{ site: string }>;
  byAgent: TopList<{ agent: string }>;
  /**
   * By deciding rule: site, robots.txt line and rule text; `agents`: up to 5 agents it stopped, sorted.
   * Rows no rule decided (an unreachable robots.txt: line 0, rule '') name the `robots_status` in `status`
   * (empty for rows a rule decided; absent in reports that predate it).
   */
  byRule: TopList<{ site: string; line: number; rule: string; status?: string; agents: string[] }>;
}

/** The robots.txt outcome of a site, as its rows show it. */
export type SiteOutcome =
  /** A 2xx robots.txt, or a `--robots-dir` file. */
  | 'parsed'
  /** 4xx, a missing file, or a redirect that could not be followed: allow all. */
  | 'unavailable'
  /** 5xx, 429, a network failure, an unreadable file: disallow all. */
  | 'unreachable'
  /** Parsed, but fetched from another URL than the site's own `/robots.txt` (`robots_url`, with evidence). */
  | 'redirect'
  | 'not_cached'
  /** As of a time: no stored version answered for the row's time. */
  | 'no_history';

export interface OutcomesSection {
  /**
   * Sites by outcome. A site counts once per outcome it shows (as of a time, a site can show several:
   * one per version), so the sum can exceed `headline.sites`. Exact when `headline.sitesExact` is.
   */
  byOutcome: Record<SiteOutcome, number>;
  /** Unavailable sites by `robots_status` (`404`, `missing`, `ERR_TOO_MANY_REDIRECTS`, …). */
  unavailableBy: Record<string, number>;
  /** Unreachable sites by status (`503`, `429`) or error code (`ERR_DNS`, …). */
  unreachableBy: Record<string, number>;
  /** Sites whose robots.txt was not parsed, by rows affected: outcome and its status or code. */
  problemSites: TopList<{ site: string; outcome: SiteOutcome; cause: string }>;
}

export interface OverTimeSection {
  column: string;
  /** Per UTC day (`YYYY-MM-DD`): rows read. */
  rows: Record<string, number>;
  /** Per UTC day, per agent: violations. */
  violations: Record<string, Record<string, number>>;
  /** Rows whose time cell is empty or not a time. */
  badTimes: number;
  /** Rows of days beyond the bounded day table (false: every day kept). */
  daysExact: boolean;
}

export interface ReportModel {
  schema: typeof REPORT_SCHEMA;
  version: typeof REPORT_VERSION;
  /** ISO time the report was made (a merge: the latest of its parts). */
  generatedAt: string;
  /** How many reports were merged into this one (1 for a report made from verdicts files). */
  mergedReports: number;
  inputs: ReportInput[];
  options: ReportOptions;
  headline: Headline;
  violations: ViolationsSection;
  outcomes: OutcomesSection;
  /** Crawler access per site and agent of interest; null without `--cache` / `--robots-dir`. */
  access: AccessSection | null;
  /** robots.txt versions first seen since `--since`, and verdict flips; null without a policy source. */
  changes: ChangesSection | null;
  /** Violations per day; null without `--at-column`. */
  overTime: OverTimeSection | null;
}
