import type { ReportModel, SiteOutcome } from '../report-model.js';
import { type Html, html } from './html-escape.js';
import { formatShare } from './report-format.js';
import { emptyNote, exampleList, type Section, tableWrap } from './section.js';
import { sortableTable } from './sortable-table.js';
import { stackedBarChart } from './svg-bar-chart.js';
import { shown, topListNote } from './top-list-note.js';

/** Outcomes in reading order, each with its colour and one line of meaning. */
export const OUTCOMES: readonly { key: SiteOutcome; tone: string; meaning: string }[] = [
  { key: 'parsed', tone: 'allow-explicit', meaning: 'robots.txt read and parsed' },
  { key: 'redirect', tone: 'allow-implicit', meaning: 'parsed, fetched from another URL after a redirect' },
  { key: 'unavailable', tone: 'allow-unavailable', meaning: '4xx or missing file: allow all' },
  { key: 'unreachable', tone: 'disallow-unreachable', meaning: '5xx, 429 or network failure: disallow all' },
  { key: 'not_cached', tone: 'not-judged', meaning: 'not in the cache (--offline)' },
  { key: 'no_history', tone: 'not-judged', meaning: 'no stored version for the row’s time' },
];

function causeTable(caption: string, by: Record<string, number>): Html | null {
  const entries = Object.entries(by).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  if (entries.length === 0) return null;
  return tableWrap(
    sortableTable({
      caption,
      columns: [{ label: 'status or error code' }, { label: 'sites', numeric: true }],
      rows: entries.map(([cause, n]) => [{ content: cause, className: 'rule' }, n]),
      sortedBy: { column: 1, direction: 'descending' },
    }),
  );
}

/**
 * Sites by robots.txt outcome (chart and table), the causes of failures, and the sites most affected;
 * `problemIds` gives the row id of a site in that last table (violations link to it).
 */
export function outcomesSection(model: ReportModel, problemIds: Map<string, string>): Section {
  const o = model.outcomes;
  const total = OUTCOMES.reduce((n, x) => n + (o.byOutcome[x.key] ?? 0), 0);
  if (total === 0) {
    return { id: 'outcomes', title: 'robots.txt outcomes', body: emptyNote('No site was seen.') };
  }
  const present = OUTCOMES.filter((x) => (o.byOutcome[x.key] ?? 0) > 0);
  const chart = stackedBarChart({
    id: 'chart-outcomes',
    title: 'Sites by robots.txt outcome',
    series: present.map((x) => ({ key: x.key, label: x.key, tone: x.tone })),
    bars: present.map((x) => ({ label: x.key, values: { [x.key]: o.byOutcome[x.key] ?? 0 } })),
    scale: 'count',
  });
  const table = sortableTable({
    caption: 'Sites by outcome',
    columns: [
      { label: 'outcome' },
      { label: 'sites', numeric: true },
      { label: 'share', numeric: true },
      { label: 'meaning' },
    ],
    rows: OUTCOMES.map((x) => {
      const n = o.byOutcome[x.key] ?? 0;
      return [x.key, n, { content: formatShare(n, total), sort: n }, x.meaning];
    }),
  });
  const note = model.headline.sitesExact
    ? html`<p class="note">A site counts once per outcome its rows show (as of a time, one per version), so the outcomes can add up to more than the sites.</p>`
    : html`<p class="note">Sites were too many to count each once: figures are upper bounds.</p>`;
  const problems = shown(o.problemSites);
  const problemTable =
    problems.length === 0
      ? emptyNote('Every site’s robots.txt was parsed.')
      : tableWrap(
          sortableTable({
            caption: 'Sites whose robots.txt was not parsed, by rows affected',
            columns: [
              { label: 'site' },
              { label: 'outcome' },
              { label: 'cause' },
              { label: 'rows', numeric: true },
              { label: 'example URLs', sortable: false },
            ],
            rows: problems.map((e) => [
              e.site,
              e.outcome,
              { content: e.cause, className: 'rule' },
              e.count,
              { content: exampleList(e.examples) },
            ]),
            rowIds: problems.map((e) => problemIds.get(e.site)),
            sortedBy: { column: 3, direction: 'descending' },
          }),
        );
  return {
    id: 'outcomes',
    title: 'robots.txt outcomes',
    body: [
      chart,
      note,
      tableWrap(table),
      causeTable('Unavailable sites (allow all) by status', o.unavailableBy),
      causeTable('Unreachable sites (disallow all) by status or error code', o.unreachableBy),
      html`<h3>Sites not parsed</h3>`,
      problems.length > 0 ? topListNote(o.problemSites, 'sites') : null,
      problemTable,
    ],
  };
}
