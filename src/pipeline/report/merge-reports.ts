import { RobotsAuditError } from '../../core/errors.js';
import {
  type AccessSection,
  type ChangesSection,
  type Headline,
  type OutcomesSection,
  type OverTimeSection,
  REPORT_SCHEMA,
  REPORT_VERSION,
  type ReportModel,
  type SiteOutcome,
} from './report-model.js';
import { KNOWN_VERDICTS } from './report-tally.js';
import { mergeTopLists } from './top-tally.js';

/** How the policy-based sections of two reports merge (their owners provide it). */
export interface SectionMerge {
  access(a: AccessSection, b: AccessSection): AccessSection;
  changes(a: ChangesSection, b: ChangesSection): ChangesSection;
}

/** Checks that `value` (parsed JSON read from `file`) is a report this version can merge. */
export function asReport(value: unknown, file: string): ReportModel {
  const r = value as Partial<ReportModel> | null;
  if (typeof r !== 'object' || r === null || r.schema !== REPORT_SCHEMA || typeof r.version !== 'number') {
    throw new RobotsAuditError(
      'ERR_REPORT_JSON',
      `${file}: not a robots-audit report JSON (no "schema": "${REPORT_SCHEMA}")`,
      { path: file },
    );
  }
  if (r.version > REPORT_VERSION) {
    throw new RobotsAuditError(
      'ERR_REPORT_JSON',
      `${file}: report version ${r.version} was written by a newer robots-audit (this one reads version ${REPORT_VERSION})`,
      { path: file },
    );
  }
  for (const k of ['headline', 'violations', 'outcomes', 'options', 'inputs'] as const) {
    if (typeof r[k] !== 'object' || r[k] === null) {
      throw new RobotsAuditError('ERR_REPORT_JSON', `${file}: the report has no "${k}"`, { path: file });
    }
  }
  return r as ReportModel;
}

/** Adds `b`'s counts into a copy of `a`, keys sorted (or in `order` first). */
export function addCounts(
  a: Record<string, number>,
  b: Record<string, number>,
  order: readonly string[] = [],
): Record<string, number> {
  const sum = new Map<string, number>();
  for (const src of [a, b]) for (const [k, n] of Object.entries(src)) sum.set(k, (sum.get(k) ?? 0) + n);
  const rank = (k: string) => {
    const i = order.indexOf(k);
    return i < 0 ? order.length : i;
  };
  const keys = [...sum.keys()].sort((x, y) => rank(x) - rank(y) || (x < y ? -1 : x > y ? 1 : 0));
  return Object.fromEntries(keys.map((k) => [k, sum.get(k)!]));
}

function addNested(
  a: Record<string, Record<string, number>>,
  b: Record<string, Record<string, number>>,
  order: readonly string[] = [],
): Record<string, Record<string, number>> {
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  return Object.fromEntries(keys.map((k) => [k, addCounts(a[k] ?? {}, b[k] ?? {}, order)]));
}

function mergeHeadline(a: Headline, b: Headline): Headline {
  return {
    rows: a.rows + b.rows,
    badRows: a.badRows + b.badRows,
    badRowsByReason: addCounts(a.badRowsByReason, b.badRowsByReason),
    sites: a.sites + b.sites,
    sitesExact: a.sitesExact && b.sitesExact,
    agents: [...new Set([...a.agents, ...b.agents])].sort(),
    verdicts: addNested(a.verdicts, b.verdicts, KNOWN_VERDICTS),
    notACrawler: a.notACrawler + b.notACrawler,
    violations: addCounts(a.violations, b.violations),
    grace: addCounts(a.grace, b.grace),
    agentsExact: a.agentsExact && b.agentsExact,
    agentsOverflow: a.agentsOverflow + b.agentsOverflow,
  };
}

function mergeOutcomes(a: OutcomesSection, b: OutcomesSection): OutcomesSection {
  return {
    byOutcome: addCounts(a.byOutcome, b.byOutcome, Object.keys(a.byOutcome)) as Record<SiteOutcome, number>,
    unavailableBy: addCounts(a.unavailableBy, b.unavailableBy),
    unreachableBy: addCounts(a.unreachableBy, b.unreachableBy),
    problemSites: mergeTopLists(a.problemSites, b.problemSites),
  };
}

function mergeOverTime(a: OverTimeSection | null, b: OverTimeSection | null): OverTimeSection | null {
  if (a === null && b === null) return null;
  if (a === null || b === null || a.column !== b.column) {
    throw new RobotsAuditError(
      'ERR_USAGE',
      'reports made with different --at-column (or one without it) cannot be merged',
    );
  }
  return {
    column: a.column,
    rows: addCounts(a.rows, b.rows),
    violations: addNested(a.violations, b.violations),
    badTimes: a.badTimes + b.badTimes,
    daysExact: a.daysExact && b.daysExact,
  };
}

/** A section both parts have, merged; null when either lacks it (half a section would misstate the whole). */
function mergeSection<T>(a: T | null, b: T | null, merge: ((x: T, y: T) => T) | undefined): T | null {
  if (a === null || b === null || merge === undefined) return null;
  return merge(a, b);
}

/**
 * The report of two reports' rows together. Counters add up, so the reports of host-sharded runs (whose
 * sites are disjoint) merge into the report of the whole; top lists are exact while no list overflows.
 * Sites are counted once per part: parts that share sites count them once in each.
 */
export function mergeReports(a: ReportModel, b: ReportModel, sections?: SectionMerge): ReportModel {
  const ao = a.options;
  const bo = b.options;
  if (ao.atColumn !== bo.atColumn) mergeOverTime(a.overTime, null);
  return {
    schema: REPORT_SCHEMA,
    version: REPORT_VERSION,
    generatedAt: a.generatedAt > b.generatedAt ? a.generatedAt : b.generatedAt,
    mergedReports: a.mergedReports + b.mergedReports,
    inputs: [...a.inputs, ...b.inputs],
    options: {
      atColumn: ao.atColumn,
      since: ao.since === bo.since ? ao.since : (ao.since ?? bo.since),
      top: Math.max(ao.top, bo.top),
      agentsOfInterest: [...new Set([...ao.agentsOfInterest, ...bo.agentsOfInterest])],
      policySource:
        ao.policySource === bo.policySource ? ao.policySource : (ao.policySource ?? bo.policySource),
    },
    headline: mergeHeadline(a.headline, b.headline),
    violations: {
      total: a.violations.total + b.violations.total,
      bySite: mergeTopLists(a.violations.bySite, b.violations.bySite),
      byAgent: mergeTopLists(a.violations.byAgent, b.violations.byAgent),
      byRule: mergeTopLists(a.violations.byRule, b.violations.byRule),
    },
    outcomes: mergeOutcomes(a.outcomes, b.outcomes),
    access: mergeSection(a.access, b.access, sections?.access),
    changes: mergeSection(a.changes, b.changes, sections?.changes),
    overTime: mergeOverTime(a.overTime, b.overTime),
  };
}
