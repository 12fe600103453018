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
] as const;
export type RowVerdict = (typeof VERDICTS)[number];

export const V_ALLOWED_EXPLICIT = 0;
export const V_ALLOWED_IMPLICIT = 1;
export const V_DISALLOWED_EXPLICIT = 2;
export const V_ALLOWED_UNAVAILABLE = 3;
export const V_DISALLOWED_UNREACHABLE = 4;
export const V_INVALID_INPUT = 5;
export const V_NOT_CACHED = 6;

const PER_AGENT = ['allowed', 'verdict', 'rule_line', 'rule'];

/** Names of the columns appended to every row, in order. */
export function verdictColumns(agents: readonly string[], evidence: boolean): string[] {
  const cols: string[] = [];
  for (const agent of agents) {
    for (const c of PER_AGENT) cols.push(agents.length === 1 ? c : `${c}:${agent}`);
  }
  cols.push('robots_status', 'error_code');
  if (evidence) cols.push('robots_url', 'fetched_at', 'robots_sha256', 'robots_truncated');
  return cols;
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
  }
  return s;
}
