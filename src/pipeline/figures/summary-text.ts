import type { RowAgentSummary } from './row-agent-summary.js';
import type { AsOfSummary, ClassifySummary, RuleCount } from './summary.js';

const num = (n: number) => n.toLocaleString('en-US');
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function rowAgentsLine(agents: Record<string, RowAgentSummary>, notACrawler: number): string {
  const top = Object.entries(agents).slice(0, 8);
  const more = Object.keys(agents).length - top.length;
  return `  row agents: ${top.map(([k, a]) => `${k} ${num(a.rows)}`).join(' · ') || 'none'}${more > 0 ? ` · ${more} more` : ''} · not a crawler ${num(notACrawler)}`;
}

function asOfLine(a: AsOfSummary): string {
  const none = Object.entries(a.noHistory).filter(([, n]) => n > 0);
  const grace = Object.entries(a.grace).filter(([, n]) => n > 0);
  return (
    `  as of ${a.column === null ? a.time : `column ${a.column}`}: ${num(a.rowsJudged)} rows judged` +
    `${none.length ? ` · no_history ${none.map(([k, n]) => `${k} ${num(n)}`).join(', ')}` : ''}` +
    `${grace.length ? ` · within the ${a.graceSeconds / 3600} h grace ${grace.map(([k, n]) => `${k} ${num(n)}`).join(', ')}` : ''}`
  );
}

/** The record numbers of `extra_fields` rows shown on stderr. */
const EXTRA_FIELDS_SHOWN = 5;

/** Where the `extra_fields` rows are, and their usual cause. */
function extraFieldsLines(s: ClassifySummary): string[] {
  const n = s.invalidByCode.extra_fields ?? 0;
  if (n === 0) return [];
  const at = s.invalidExamples
    .filter((e) => e.code === 'extra_fields')
    .slice(0, EXTRA_FIELDS_SHOWN)
    .map((e) => num(e.record));
  const where = at.length
    ? `, first at record${at.length > 1 ? 's' : ''} ${at.join(', ')} (header not counted, as --row-number counts)`
    : '';
  return [
    `  extra_fields: ${num(n)} row${n === 1 ? '' : 's'} with more fields than the header${where}`,
    '    likely cause: a field holding the delimiter unquoted, such as a URL with a comma; quote such fields ("…")',
  ];
}

/** One top-rules line, or none; an empty `Disallow:` is said to disallow nothing. */
function rulesLine(title: string, rules: readonly RuleCount[]): string[] {
  if (rules.length === 0) return [];
  const text = (r: RuleCount) =>
    /^Disallow:\s*$/.test(r.rule) ? `"${r.rule}" (empty: disallows nothing)` : `"${r.rule}"`;
  return [
    `  ${title}: ${rules
      .slice(0, 3)
      .map((r) => `${r.origin} line ${r.line} ${text(r)} ${num(r.rows)}`)
      .join('; ')}`,
  ];
}

/** Why origins were unreachable, and, when every fetched one was, what to do about it. */
function unreachableLines(s: ClassifySummary): string[] {
  const by = Object.entries(s.origins.unreachableBy ?? {});
  if (by.length === 0) return [];
  const lines = [`  unreachable origins (disallow all): ${by.map(([k, n]) => `${k} ${num(n)}`).join(' · ')}`];
  const fetched = s.origins.bySource.fetch ?? 0;
  const unreachable = s.origins.byOutcome.unreachable ?? 0;
  if (fetched > 0 && unreachable >= s.origins.resolved) {
    lines.push(
      '  every origin fetched was unreachable: check the network (or --proxy), or judge from files (--robots-dir DIR) or from the cache (--offline). These failures are cached for --max-age (default 24 h): run with --max-age 0 to fetch again',
    );
  }
  return lines;
}

/** The short human summary printed on stderr. */
export function formatSummary(s: ClassifySummary): string {
  const lines: string[] = [];
  lines.push(
    `robots-audit classify: ${num(s.recordsRead)} records → ${num(s.rowsWritten)} rows in ${secs(s.timing.wallMs)} (${num(s.rowsPerSecond)} rows/s, ${s.threads} thread${s.threads === 1 ? '' : 's'})${s.shard ? `, shard ${s.shard.index}/${s.shard.count}` : ''}`,
  );
  for (const agent of s.agents) {
    const v = Object.entries(s.verdicts[agent]!).filter(([, n]) => n > 0);
    lines.push(`  ${agent}: ${v.map(([k, n]) => `${k} ${num(n)}`).join(' · ') || 'no rows'}`);
  }
  const inv = Object.entries(s.invalidByCode).map(([k, n]) => `${k} ${num(n)}`);
  lines.push(`  invalid rows: ${num(s.invalidRows)}${inv.length ? ` (${inv.join(', ')})` : ''}`);
  lines.push(...extraFieldsLines(s));
  const out = Object.entries(s.origins.byOutcome).filter(([, n]) => n > 0);
  lines.push(
    `  origins: ${num(s.origins.resolved)} resolved${out.length ? ` (${out.map(([k, n]) => `${k} ${num(n)}`).join(' · ')})` : ''}, ${num(s.origins.compiled)} rule sets compiled`,
  );
  lines.push(...unreachableLines(s));
  if (s.asOf) lines.push(asOfLine(s.asOf));
  if (s.rowAgents) lines.push(rowAgentsLine(s.rowAgents, s.notACrawler ?? 0));
  lines.push(`  host mismatches: ${num(s.hostMismatch)} · blank lines: ${num(s.blankLines)}`);
  for (const agent of s.agents) {
    const hosts = s.topDisallowedHosts[agent]!.slice(0, 5);
    if (hosts.length)
      lines.push(
        `  most disallowed (${agent}): ${hosts.map((h) => `${h.origin} ${num(h.rows)}`).join(', ')}`,
      );
    lines.push(...rulesLine(`top disallow rules (${agent})`, s.topDisallowRules[agent]!));
    lines.push(...rulesLine(`top allow rules (${agent})`, s.topAllowRules[agent]!));
  }
  const t = s.timing;
  lines.push(
    `  time: reading ${secs(t.readingMs)} · fetching ${secs(t.fetchingMs)} · matching ${secs(t.matchingMs)} (worker CPU) · writing ${secs(t.writingMs)}`,
  );
  return `${lines.join('\n')}\n`;
}
