import { quoteField } from './csv-quote.js';

/** Every verdict a row can get, in the order of BatchStats.verdicts. */
export const VERDICTS = [
  'allowed_explicit',
  'allowed_implicit',
  'disallowed_explicit',
  'allowed_unavailable',
  'disallowed_unreachable',
  'invalid_input',
  'not_cached',
  'no_history',
] as const;
export type RowVerdict = (typeof VERDICTS)[number];

export const V_ALLOWED_EXPLICIT = 0;
export const V_ALLOWED_IMPLICIT = 1;
export const V_DISALLOWED_EXPLICIT = 2;
export const V_ALLOWED_UNAVAILABLE = 3;
export const V_DISALLOWED_UNREACHABLE = 4;
export const V_INVALID_INPUT = 5;
export const V_NOT_CACHED = 6;
/** Or-ed into a verdict class: disallowed, but a version in force within the grace allowed (as of a time). */
export const GRACE_CLASS = 0x80;

/** As-of mode: no stored version of the origin's robots.txt answers for the row's time. */
export const V_NO_HISTORY = 7;

/** The verdicts of the row's own agent: every agent verdict, and `not_a_crawler` (not judged). */
export const ROW_AGENT_VERDICTS = [...VERDICTS, 'not_a_crawler'] as const;
export const V_NOT_A_CRAWLER = VERDICTS.length;

/** As-of mode: why a row is `no_history` (its error_code column). */
export const NO_HISTORY_REASONS = Object.freeze({
  no_versions: 'the cache holds no version of the origin’s robots.txt',
  before_first_version: 'the row’s time is earlier than the first stored version',
  too_old: 'the version in force was last seen longer than --max-history-age before the row’s time',
  redirect_unresolved: 'the version in force is a redirect whose target capture was not found',
} as const);
export type NoHistoryReason = keyof typeof NO_HISTORY_REASONS;

const PER_AGENT = ['allowed', 'verdict', 'rule_line', 'rule'];

/**
 * Names of the columns appended to every row, in order. As of a time, each agent also has `grace`, and
 * the evidence names the version in force (when it was first seen, and where it came from). With a row
 * agent (`--agent-column`), `agent` and that agent's columns come first, unsuffixed, and every other
 * agent's columns are suffixed.
 */
export function verdictColumns(
  agents: readonly string[],
  evidence: boolean,
  asOf = false,
  rowAgent = false,
): string[] {
  const cols: string[] = [];
  const per = asOf ? [...PER_AGENT, 'grace'] : PER_AGENT;
  if (rowAgent) cols.push('agent', ...per);
  for (const agent of agents) {
    for (const c of per) cols.push(agents.length === 1 && !rowAgent ? c : `${c}:${agent}`);
  }
  cols.push('robots_status', 'error_code');
  if (evidence) cols.push('robots_url', 'fetched_at', 'robots_sha256', 'robots_truncated');
  if (evidence && asOf) cols.push('version_from', 'version_source');
  return cols;
}

/**
 * The `grace` cell of one agent as of a time (after `agentPart`, with its delimiter): `false` for a
 * disallowed verdict (`true` is written instead when a version in force within the grace allowed), empty
 * otherwise.
 */
export function graceCell(verdict: number, d: string): string {
  return verdict === V_DISALLOWED_EXPLICIT || verdict === V_DISALLOWED_UNREACHABLE ? `${d}false` : d;
}

/** `allowed,verdict,rule_line,rule` of one agent (no leading delimiter). */
export function agentPart(verdict: number, line: number, rule: string, delimiter: string): string {
  const d = delimiter;
  switch (verdict) {
    case V_ALLOWED_EXPLICIT:
    case V_DISALLOWED_EXPLICIT:
      return `${verdict === V_ALLOWED_EXPLICIT}${d}${VERDICTS[verdict]}${d}${line}${d}${quoteField(rule, d)}`;
    case V_ALLOWED_IMPLICIT:
    case V_ALLOWED_UNAVAILABLE:
      return `true${d}${VERDICTS[verdict]}${d}${d}`;
    case V_DISALLOWED_UNREACHABLE:
      return `false${d}${VERDICTS[verdict]}${d}${d}`;
    default:
      return `${d}${VERDICTS[verdict]}${d}${d}`;
  }
}

export interface EvidenceText {
  robotsUrl: string;
  fetchedAt: string;
  sha256: string;
  truncated: string;
  /** As of a time: the version's first-seen time (ISO) and source. */
  version?: { from: string; source: string };
}

/** `robots_status,error_code[,evidence…]` (no leading delimiter, no line end). */
export function tailPart(
  status: string,
  errorCode: string,
  evidence: EvidenceText | null,
  d: string,
): string {
  let s = `${quoteField(status, d)}${d}${errorCode}`;
  if (evidence) {
    s += `${d}${quoteField(evidence.robotsUrl, d)}${d}${evidence.fetchedAt}${d}${evidence.sha256}${d}${evidence.truncated}`;
    if (evidence.version) s += `${d}${evidence.version.from}${d}${quoteField(evidence.version.source, d)}`;
  }
  return s;
}
