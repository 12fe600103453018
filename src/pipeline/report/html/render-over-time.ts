import type { ReportModel } from '../report-model.js';
import { html } from './html-escape.js';
import { counted } from './report-format.js';
import { emptyNote, type Section, tableWrap } from './section.js';
import { sortableTable } from './sortable-table.js';
import { stackedColumnChart } from './svg-bar-chart.js';
import { agentSeries } from './verdict-tones.js';

/** Agents given their own colour in the chart; the others are summed as "other agents". */
const CHART_AGENTS = 9;
const OTHER = '\u0000other';

/** Violations per UTC day, stacked by agent, with the table of the same figures. */
export function overTimeSection(model: ReportModel): Section {
  const t = model.overTime;
  if (t === null) {
    return {
      id: 'over-time',
      title: 'Violations per day',
      body: emptyNote('No time column: violations per day need --at-column COL.'),
    };
  }
  const days = [...new Set([...Object.keys(t.rows), ...Object.keys(t.violations)])].sort();
  const perAgent = new Map<string, number>();
  for (const d of days) {
    for (const [a, n] of Object.entries(t.violations[d] ?? {})) perAgent.set(a, (perAgent.get(a) ?? 0) + n);
  }
  const agents = [...perAgent.keys()].sort((a, b) => perAgent.get(b)! - perAgent.get(a)! || (a < b ? -1 : 1));
  const notes = [
    html`<p class="note">Days are UTC days of the column <code>${t.column}</code>.${
      t.badTimes > 0 ? ` ${counted(t.badTimes, 'row')} without a readable time.` : ''
    }${t.daysExact ? '' : ' More days than the report keeps: some days are missing.'}</p>`,
  ];
  if (days.length === 0) {
    return {
      id: 'over-time',
      title: 'Violations per day',
      body: [...notes, emptyNote('No row had a readable time.')],
    };
  }
  const charted = agents.slice(0, CHART_AGENTS);
  const series = agentSeries(charted);
  if (agents.length > CHART_AGENTS) series.push({ key: OTHER, label: 'other agents', tone: 'not-judged' });
  const columns = days.map((d) => {
    const values: Record<string, number> = {};
    for (const [a, n] of Object.entries(t.violations[d] ?? {})) {
      const key = charted.includes(a) ? a : OTHER;
      values[key] = (values[key] ?? 0) + n;
    }
    return { label: d, values };
  });
  const chart =
    agents.length === 0
      ? emptyNote('No violations on any day.')
      : stackedColumnChart({ id: 'chart-over-time', title: 'Violations per day, by agent', series, columns });
  const table = sortableTable({
    caption: 'Rows and violations per day',
    columns: [
      { label: 'day' },
      { label: 'rows', numeric: true },
      { label: 'violations', numeric: true },
      ...agents.map((a) => ({ label: a, numeric: true })),
    ],
    rows: days.map((d) => {
      const v = t.violations[d] ?? {};
      const sum = Object.values(v).reduce((x, y) => x + y, 0);
      return [d, t.rows[d] ?? 0, sum, ...agents.map((a) => v[a] ?? 0)];
    }),
    sortedBy: { column: 0, direction: 'ascending' },
  });
  return { id: 'over-time', title: 'Violations per day', body: [...notes, chart, tableWrap(table)] };
}
