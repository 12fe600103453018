import type { GroupChange } from '../../../core/group-diff.js';
import type { FlipRule, SiteChange, VersionInfo } from '../changes-section.js';
import type { ReportModel } from '../report-model.js';
import { type Html, html } from './html-escape.js';
import { counted, formatCount } from './report-format.js';
import { emptyNote, exampleList, type Section, tableWrap } from './section.js';
import { sortableTable } from './sortable-table.js';

/** Groups, and rules per side of a group, drawn per site: the page stays small whatever the model holds. */
const GROUPS_SHOWN = 5;
const RULES_SHOWN = 10;

function version(v: VersionInfo): string {
  const how = v.outcome === 'parsed' ? 'parsed' : `${v.outcome} (${v.errorCode ?? v.status ?? '?'})`;
  return `${how}, first seen ${v.validFrom}`;
}

function ruleLines(prefix: string, cls: string, rules: readonly string[], count: number): Html[] {
  const out = rules.slice(0, RULES_SHOWN).map((r) => html`<li class="${cls}">${prefix} ${r}</li>`);
  if (count > out.length)
    out.push(
      html`<li class="note">${formatCount(count - out.length)} more ${prefix === '+' ? 'added' : 'removed'}</li>`,
    );
  return out;
}

function groupDiff(g: GroupChange): Html {
  const agents = g.group.join(', ');
  return html`<li><span class="rule">User-agent: ${agents}</span> (${g.change})<ul class="examples rule">${[
    ...ruleLines('+', 'diff-add', g.added, g.addedCount),
    ...ruleLines('−', 'diff-del', g.removed, g.removedCount),
  ]}</ul></li>`;
}

function siteDiff(s: SiteChange): Html | string {
  if (s.groups.length === 0) {
    return s.before.outcome === 'parsed' && s.after.outcome === 'parsed' ? 'no rule changed' : '';
  }
  const shown = s.groups.slice(0, GROUPS_SHOWN);
  const more = s.groupCount - shown.length;
  return html`<ul class="examples">${shown.map(groupDiff)}${
    more > 0 ? html`<li class="note">${counted(more, 'more group')} changed</li>` : ''
  }</ul>`;
}

function flipRule(r: FlipRule | null): string {
  if (r === null) return 'no rule (the whole file)';
  return `${r.version === 'new' ? 'new' : 'previous'} line ${r.line}: ${r.rule}`;
}

/** robots.txt versions first seen in the window, what changed per group, and the rows whose verdict flipped. */
export function changesSection(model: ReportModel): Section {
  const c = model.changes;
  if (c === null) {
    const why =
      model.options.policySource === 'cache'
        ? 'Changes were not computed for this report.'
        : model.options.policySource === 'robots-dir'
          ? 'A robots directory holds only the current files: changes need robots.txt history (--cache).'
          : 'No cache given: changes need robots.txt history (--cache).';
    return { id: 'changes', title: 'Changes', body: emptyNote(why) };
  }
  const intro = html`<p>Window ${c.since} to ${c.until}: ${counted(c.changedSites, 'site')} of the data changed their robots.txt${
    c.sitesExact ? '' : ' (at least: more changed sites than the report loads)'
  }, ${counted(c.newSites, 'site')} had their first version seen. ${counted(c.rowsCompared, 'row')} of changed sites judged again under the previous version${
    c.rowsSkipped > 0
      ? `, ${counted(c.rowsSkipped, 'row')} not (no verdict, or judged under another version)`
      : ''
  }.${c.asOf ? ' Rows were judged as of their time: only rows with evidence columns are known to be judged under the current version.' : ''}</p>`;
  if (c.changedSites === 0 && c.newSites === 0) {
    return {
      id: 'changes',
      title: 'Changes',
      body: [intro, emptyNote('No robots.txt of the data changed in the window.')],
    };
  }
  const outcomes = Object.entries(c.outcomeChanges).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const outcomeTable =
    outcomes.length === 0
      ? null
      : tableWrap(
          sortableTable({
            caption: 'Changed sites by outcome, before → after',
            columns: [{ label: 'before → after' }, { label: 'sites', numeric: true }],
            rows: outcomes.map(([k, n]) => [k, n]),
            sortedBy: { column: 1, direction: 'descending' },
          }),
        );
  const sites =
    c.sites.length === 0
      ? emptyNote('No changed site to list.')
      : tableWrap(
          sortableTable({
            caption: `Changed sites with most rows (up to ${formatCount(c.sitesLimit)})`,
            columns: [
              { label: 'site' },
              { label: 'rows', numeric: true },
              { label: 'before' },
              { label: 'after' },
              { label: 'versions in window', numeric: true },
              { label: 'rule changes per group', sortable: false },
            ],
            rows: c.sites.map((s) => [
              s.site,
              s.rows,
              version(s.before),
              version(s.after),
              s.versionsInWindow,
              { content: siteDiff(s) },
            ]),
            sortedBy: { column: 1, direction: 'descending' },
          }),
        );
  const agents = Object.keys(c.flips).sort();
  const flipsByAgent =
    agents.length === 0
      ? emptyNote('No verdict flipped.')
      : tableWrap(
          sortableTable({
            caption: 'Verdict flips per agent',
            columns: [
              { label: 'agent' },
              { label: 'allowed → disallowed', numeric: true },
              { label: 'disallowed → allowed', numeric: true },
            ],
            rows: agents.map((a) => [a, c.flips[a]!.allowedToDisallowed, c.flips[a]!.disallowedToAllowed]),
          }),
        );
  const topFlips =
    c.topFlips.length === 0
      ? null
      : tableWrap(
          sortableTable({
            caption: `Flips per site and agent (${c.flipsExact ? 'exact' : 'at least: some pairs were dropped from the table'})`,
            columns: [
              { label: 'site' },
              { label: 'agent' },
              { label: 'allowed → disallowed', numeric: true },
              { label: 'disallowed → allowed', numeric: true },
              { label: 'rule responsible' },
              { label: 'example URLs', sortable: false },
            ],
            rows: c.topFlips.map((f) => [
              f.site,
              f.agent,
              f.allowedToDisallowed,
              f.disallowedToAllowed,
              { content: flipRule(f.rule), className: 'rule' },
              { content: exampleList(f.examples) },
            ]),
          }),
        );
  return {
    id: 'changes',
    title: 'Changes',
    body: [
      intro,
      outcomeTable,
      html`<h3>What changed</h3>`,
      sites,
      html`<h3>Verdict flips</h3>`,
      flipsByAgent,
      topFlips,
    ],
  };
}
