import { crawlerInfo } from '../../../core/crawler-registry.js';
import type { ReportModel } from '../report-model.js';
import { type Html, html } from './html-escape.js';
import { counted, formatCount, formatShare } from './report-format.js';
import { emptyNote, type Section, tableWrap } from './section.js';
import { sortableTable, type TableCell } from './sortable-table.js';
import { stackedBarChart } from './svg-bar-chart.js';
import { verdictSeries } from './verdict-tones.js';

/** Agents drawn in the verdict chart; the table below it lists every agent. */
const CHART_AGENTS = 40;

/** One headline figure: the count, then its noun (singular for 1); `bound` qualifies an inexact count. */
function figure(n: number, one: string, bound?: string, many = `${one}s`): Html {
  const value = `${bound ? '≤ ' : ''}${formatCount(n)}`;
  const label = `${n === 1 ? one : many}${bound ? ` (${bound})` : ''}`;
  return html`<li><span class="figure">${value}</span><span class="label">${label}</span></li>`;
}

function agentRows(model: ReportModel, agent: string): number {
  let n = 0;
  for (const v of Object.values(model.headline.verdicts[agent] ?? {})) n += v;
  return n;
}

const PURPOSE_WORDS: Record<string, string> = {
  search: 'search',
  ai_training: 'AI training',
  ai_assistant: 'AI assistant',
  ai_search: 'AI search',
  seo: 'SEO',
  archive: 'archive',
  social: 'social previews',
  monitoring: 'monitoring',
  other: 'other',
};

/** Who runs an agent and what for, from the crawler registry; unknown agents say so. */
function crawlerLabel(agent: string): string {
  const info = crawlerInfo(agent);
  if (info === undefined) return 'not in the registry';
  return `${info.operator} · ${PURPOSE_WORDS[info.purpose] ?? info.purpose}`;
}

/** Rows, sites and agents at a glance, and each agent's verdict shares as a stacked bar chart and a table. */
export function headlineSection(model: ReportModel): Section {
  const h = model.headline;
  const agents = h.agents.filter((a) => h.verdicts[a] !== undefined);
  const figures = html`<ul class="figures">${[
    figure(h.rows, 'row'),
    figure(h.sites, 'site', h.sitesExact ? undefined : 'at most'),
    figure(agents.length, 'agent'),
    figure(model.violations.total, 'violation'),
    h.notACrawler > 0
      ? figure(h.notACrawler, 'row not from a crawler', undefined, 'rows not from a crawler')
      : null,
    h.badRows > 0 ? figure(h.badRows, 'unreadable row') : null,
  ]}</ul>`;
  const notes: Html[] = [];
  if (!h.agentsExact) {
    notes.push(
      html`<p class="note">More agents than the report keeps: ${counted(h.agentsOverflow, 'row')} of other agents are not in the table.</p>`,
    );
  }
  if (h.badRows > 0) {
    const reasons = Object.entries(h.badRowsByReason)
      .map(([r, n]) => `${r} ${formatCount(n)}`)
      .join(', ');
    notes.push(html`<p class="note">Unreadable rows by reason: ${reasons}.</p>`);
  }
  if (agents.length === 0) {
    return {
      id: 'headline',
      title: 'Headline',
      body: [figures, ...notes, emptyNote('No row was judged for any agent.')],
    };
  }
  const verdictKeys = new Set<string>();
  for (const a of agents) for (const v of Object.keys(h.verdicts[a]!)) verdictKeys.add(v);
  const series = verdictSeries(verdictKeys);
  const byRows = [...agents].sort((a, b) => agentRows(model, b) - agentRows(model, a) || (a < b ? -1 : 1));
  const chartAgents = byRows.slice(0, CHART_AGENTS);
  const chart = stackedBarChart({
    id: 'chart-verdicts',
    title: 'Verdict shares per agent',
    series,
    bars: chartAgents.map((a) => ({ label: a, values: h.verdicts[a]! })),
    scale: 'share',
  });
  const chartNote =
    chartAgents.length < byRows.length
      ? html`<p class="note">The chart shows the ${CHART_AGENTS} agents with the most rows; the table lists all ${formatCount(byRows.length)}.</p>`
      : null;
  // Grace exists only as of a time: the column would be all zeros otherwise.
  const withGrace = Object.values(h.grace).some((n) => n > 0);
  const rows = byRows.map((a) => {
    const total = agentRows(model, a);
    const cells: (TableCell | string | number)[] = [a, crawlerLabel(a), total];
    for (const s of series) {
      const v = h.verdicts[a]![s.key] ?? 0;
      cells.push({ content: `${formatCount(v)} (${formatShare(v, total)})`, sort: v });
    }
    cells.push(h.violations[a] ?? 0);
    if (withGrace) cells.push(h.grace[a] ?? 0);
    return cells;
  });
  const table = sortableTable({
    caption: 'Rows by verdict, per agent',
    columns: [
      { label: 'agent' },
      { label: 'crawler' },
      { label: 'rows', numeric: true },
      ...series.map((s) => ({ label: s.label, numeric: true })),
      { label: 'violations', numeric: true },
      ...(withGrace ? [{ label: 'grace', numeric: true }] : []),
    ],
    rows,
    sortedBy: { column: 2, direction: 'descending' },
  });
  return {
    id: 'headline',
    title: 'Headline',
    body: [figures, ...notes, chart, chartNote, tableWrap(table)],
  };
}
