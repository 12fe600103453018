import type { ReportModel } from '../report-model.js';
import { html } from './html-escape.js';
import { counted } from './report-format.js';
import { emptyNote, exampleList, type Section, tableWrap } from './section.js';
import { sortableTable } from './sortable-table.js';
import { shown, topListNote } from './top-list-note.js';

/**
 * Rows disallowed for their agent, by site, by agent and by deciding rule, with example URLs. `siteAnchor`
 * gives the id of a site's row elsewhere on the page (to link a rule to its site), or undefined.
 */
export function violationsSection(
  model: ReportModel,
  siteAnchor: (site: string) => string | undefined,
): Section {
  const v = model.violations;
  const mode =
    model.inputs.some((i) => i.mode === 'row_agent') && model.inputs.every((i) => i.mode === 'row_agent')
      ? 'rows whose own agent was disallowed (disallowed_explicit or disallowed_unreachable)'
      : 'disallowed rows of each agent column (a row counts once per agent that was disallowed)';
  const graceTotal = Object.values(model.headline.grace).reduce((a, b) => a + b, 0);
  const intro = html`<p>${counted(v.total, 'violation')}: ${mode}.${
    graceTotal > 0 ? ` ${counted(graceTotal, 'disallowed row')} within the grace period not counted.` : ''
  }</p>`;
  if (v.total === 0) {
    return {
      id: 'violations',
      title: 'Violations',
      body: [intro, emptyNote('No row was disallowed for its agent.')],
    };
  }
  const site = (s: string) => {
    const id = siteAnchor(s);
    return id ? html`<a href="#${id}">${s}</a>` : s;
  };
  const byAgent = sortableTable({
    caption: 'By agent',
    hiddenCaption: true,
    columns: [
      { label: 'agent' },
      { label: 'violations', numeric: true },
      { label: 'example URLs', sortable: false },
    ],
    rows: shown(v.byAgent).map((e) => [e.agent, e.count, { content: exampleList(e.examples) }]),
    sortedBy: { column: 1, direction: 'descending' },
  });
  const bySite = sortableTable({
    caption: 'By site',
    hiddenCaption: true,
    columns: [
      { label: 'site' },
      { label: 'violations', numeric: true },
      { label: 'example URLs', sortable: false },
    ],
    rows: shown(v.bySite).map((e) => [
      { content: site(e.site), sort: e.site },
      e.count,
      { content: exampleList(e.examples) },
    ]),
    sortedBy: { column: 1, direction: 'descending' },
  });
  const byRule = sortableTable({
    caption: 'By deciding rule',
    hiddenCaption: true,
    columns: [
      { label: 'site' },
      { label: 'line', numeric: true },
      { label: 'rule' },
      { label: 'agents' },
      { label: 'violations', numeric: true },
      { label: 'example URLs', sortable: false },
    ],
    rows: shown(v.byRule).map((e) => [
      { content: site(e.site), sort: e.site },
      e.line > 0 ? e.line : { content: '', sort: 0 },
      e.line > 0 || e.rule !== ''
        ? { content: e.rule, className: 'rule' }
        : { content: `no rule: robots.txt ${e.status || 'unreachable'}, all disallowed`, sort: '' },
      e.agents.join(', '),
      e.count,
      { content: exampleList(e.examples) },
    ]),
    sortedBy: { column: 4, direction: 'descending' },
  });
  return {
    id: 'violations',
    title: 'Violations',
    body: [
      intro,
      html`<h3>By agent</h3>`,
      topListNote(v.byAgent, 'agents'),
      tableWrap(byAgent),
      html`<h3>By site</h3>`,
      topListNote(v.bySite, 'sites'),
      tableWrap(bySite),
      html`<h3>By deciding rule</h3>`,
      html`<p class="note">Lines are numbered in the site's robots.txt, from 1; with no line, no rule decided (the robots.txt was unreachable: the whole site is disallowed).</p>`,
      topListNote(v.byRule, 'rules'),
      tableWrap(byRule),
    ],
  };
}
