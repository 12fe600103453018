import type { ReportModel } from '../report-model.js';
import { Html, html, join } from './html-escape.js';
import { accessRowId, accessSection } from './render-access.js';
import { changesSection } from './render-changes.js';
import { headlineSection } from './render-headline.js';
import { outcomesSection } from './render-outcomes.js';
import { overTimeSection } from './render-over-time.js';
import { violationsSection } from './render-violations.js';
import { formatCount } from './report-format.js';
import { REPORT_STYLE } from './report-style.js';
import { renderSection, type Section } from './section.js';
import { SORT_SCRIPT } from './sortable-table.js';
import { shown } from './top-list-note.js';

/** Nothing may be loaded from anywhere: the page is one file, also when opened from a hostile directory. */
export const REPORT_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:";

function describeInputs(model: ReportModel): Html {
  const files = model.inputs.map((i) => i.path);
  const shownFiles =
    files.slice(0, 5).join(', ') + (files.length > 5 ? `, and ${files.length - 5} more` : '');
  const parts = [
    `Made ${model.generatedAt}`,
    model.mergedReports > 1 ? `merged from ${formatCount(model.mergedReports)} reports` : null,
    files.length > 0 ? `from ${shownFiles}` : null,
    model.options.since ? `changes since ${model.options.since}` : null,
    model.options.policySource
      ? `policies from the ${model.options.policySource === 'cache' ? 'cache' : 'robots directory'}`
      : null,
  ].filter((p): p is string => p !== null);
  return html`<p class="meta">${parts.join(' · ')}.</p>`;
}

/**
 * The report as one self-contained HTML page: inline style, inline SVG charts, real tables, and one small
 * inline script that only sorts tables; no request of any kind.
 */
export function renderReportHtml(model: ReportModel): string {
  const problemIds = new Map<string, string>();
  shown(model.outcomes.problemSites).forEach((e, i) => {
    if (!problemIds.has(e.site)) problemIds.set(e.site, `site-${i + 1}`);
  });
  // A violation's site links to its row in the access table (its rules), else among the sites not parsed.
  const accessIds = new Map<string, string>();
  model.access?.topSites.forEach((s, i) => {
    if (!accessIds.has(s.site)) accessIds.set(s.site, accessRowId(i));
  });
  const sections: Section[] = [
    headlineSection(model),
    violationsSection(model, (site) => accessIds.get(site) ?? problemIds.get(site)),
    outcomesSection(model, problemIds),
    accessSection(model),
    changesSection(model),
    overTimeSection(model),
  ];
  const nav = html`<nav aria-label="Sections"><ul>${sections.map(
    (s) => html`<li><a href="#${s.id}">${s.title}</a></li>`,
  )}</ul></nav>`;
  const page = html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${new Html(REPORT_CSP)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>robots.txt compliance report</title>
<link rel="icon" href="data:,">
<style>${new Html(REPORT_STYLE)}</style>
</head>
<body>
<header>
<h1>robots.txt compliance report</h1>
${describeInputs(model)}
${nav}
</header>
<main>
${join(sections.map(renderSection), '\n')}
</main>
<script>${new Html(SORT_SCRIPT)}</script>
</body>
</html>
`;
  return page.text;
}
