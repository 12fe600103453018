import type { SiteAccessLevel, SiteAgentAccess } from '../access-section.js';
import type { ReportModel } from '../report-model.js';
import { html } from './html-escape.js';
import { counted, formatCount } from './report-format.js';
import { emptyNote, type Section, tableWrap } from './section.js';
import { sortableTable, type TableCell } from './sortable-table.js';
import { stackedBarChart } from './svg-bar-chart.js';

/** Access levels in reading order: the words the page shows, their colour, and what they mean. */
const LEVELS: readonly { key: SiteAccessLevel; word: string; tone: string; meaning: string }[] = [
  { key: 'full', word: 'blocked', tone: 'disallow-explicit', meaning: 'every path disallowed' },
  { key: 'partial', word: 'partly', tone: 'partial', meaning: 'some paths disallowed' },
  { key: 'none', word: 'open', tone: 'allow-explicit', meaning: 'nothing disallowed' },
  {
    key: 'unavailable',
    word: 'no file',
    tone: 'allow-unavailable',
    meaning: 'robots.txt 4xx or missing: allow all',
  },
  {
    key: 'unreachable',
    word: 'unreachable',
    tone: 'disallow-unreachable',
    meaning: 'robots.txt unreachable: disallow all',
  },
  { key: 'unknown', word: 'unknown', tone: 'not-judged', meaning: 'no robots.txt in the source' },
];

const CLASS: Record<SiteAccessLevel, string> = {
  full: 'access-full',
  partial: 'access-partial',
  none: 'access-none',
  unavailable: 'access-none',
  unreachable: 'access-full',
  unknown: 'access-unknown',
};

/** The id of a site's row in the access table (a link target). */
export function accessRowId(index: number): string {
  return `access-${index + 1}`;
}

function accessCell(a: SiteAgentAccess | undefined): TableCell {
  if (a === undefined) return { content: '', sort: '' };
  const rank = LEVELS.findIndex((l) => l.key === a.access);
  const word = rank < 0 ? a.access : LEVELS[rank]!.word;
  const rule = a.line !== undefined && a.line > 0 ? ` (line ${a.line}: ${a.rule ?? ''})` : '';
  return {
    content: `${word}${a.line ? ` · line ${a.line}` : ''}`,
    // Sorted by severity (blocked first), not by the word's spelling.
    sort: String(rank < 0 ? LEVELS.length : rank),
    className: CLASS[a.access],
    title: `${word}${rule}`,
  };
}

/** Per agent of interest: how many sites block it fully, partly or not at all; and the busiest sites, agent by agent. */
export function accessSection(model: ReportModel): Section {
  const access = model.access;
  if (access === null) {
    const why =
      model.options.policySource === null
        ? 'No policy source given: crawler access needs the robots.txt files (--cache or --robots-dir).'
        : 'Crawler access was not computed for this report.';
    return { id: 'access', title: 'Crawler access', body: emptyNote(why) };
  }
  if (access.agents.length === 0 || access.sites === 0) {
    return {
      id: 'access',
      title: 'Crawler access',
      body: emptyNote('No site or no agent of interest to judge.'),
    };
  }
  const intro = html`<p>How each site’s current robots.txt treats each agent of interest: <strong>blocked</strong> (every path disallowed), <strong>partly</strong> (some paths), <strong>open</strong> (nothing disallowed); or no file (allow all), unreachable (disallow all), unknown (not in the source). ${counted(access.sites, 'site')}${
    access.exact ? '' : ' (some counted twice: more sites than the report remembers)'
  }.</p>`;
  const chart = stackedBarChart({
    id: 'chart-access',
    title: 'Sites by access, per agent',
    series: LEVELS.map((l) => ({ key: l.key, label: `${l.word} (${l.meaning})`, tone: l.tone })),
    bars: access.agents.map((a) => ({ label: a, values: { ...(access.totals[a] ?? {}) } })),
    scale: 'share',
  });
  const totals = sortableTable({
    caption: 'Sites by access, per agent',
    columns: [{ label: 'agent' }, ...LEVELS.map((l) => ({ label: l.word, numeric: true }))],
    rows: access.agents.map((a) => [a, ...LEVELS.map((l) => access.totals[a]?.[l.key] ?? 0)]),
  });
  const top = access.topSites;
  const sitesNote = html`<p class="note">The ${counted(top.length, 'site')} with most rows${
    access.topSitesExact ? '' : ` (row counts may be low by up to ${formatCount(access.rowsBound)})`
  }; hover a cell for the deciding rule.</p>`;
  const sites =
    top.length === 0
      ? emptyNote('No site to list.')
      : tableWrap(
          sortableTable({
            caption: 'Access per site and agent',
            columns: [
              { label: 'site' },
              { label: 'rows', numeric: true },
              { label: 'robots.txt' },
              ...access.agents.map((a) => ({ label: a })),
            ],
            rows: top.map((s) => [
              s.site,
              s.rows,
              s.outcome,
              ...access.agents.map((a) => accessCell(s.agents[a])),
            ]),
            rowIds: top.map((_, i) => accessRowId(i)),
            sortedBy: { column: 1, direction: 'descending' },
            className: 'access',
          }),
        );
  return {
    id: 'access',
    title: 'Crawler access',
    body: [intro, chart, tableWrap(totals), html`<h3>Per site</h3>`, sitesNote, sites],
  };
}
