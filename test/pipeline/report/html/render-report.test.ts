import { describe, expect, it } from 'vitest';
import { REPORT_CSP, renderReportHtml } from '../../../../src/pipeline/report/html/render-report.js';
import { fixtureAccess, fixtureChanges, fixtureModel, HOSTILE } from './fixture-model.js';

function count(text: string, needle: string): number {
  return text.split(needle).length - 1;
}

/** The part of the page between a section's opening tag and the next section's. */
function section(page: string, id: string): string {
  const start = page.indexOf(`<section id="${id}"`);
  expect(start).toBeGreaterThan(0);
  const end = page.indexOf('<section ', start + 1);
  return page.slice(start, end < 0 ? undefined : end);
}

describe('renderReportHtml', () => {
  it("names each agent's operator and purpose from the crawler registry, and agents it does not know", () => {
    const model = fixtureModel();
    model.headline.agents.push('ExampleBot');
    model.headline.verdicts.ExampleBot = { allowed_implicit: 3 };
    const headline = section(renderReportHtml(model), 'headline');
    // Sources: openai.com/gptbot, developers.google.com/search/docs/crawling-indexing/google-common-crawlers.
    expect(headline).toContain('<td>OpenAI · AI training</td>');
    expect(headline).toContain('<td>Google · search</td>');
    expect(headline).toContain('<td>not in the registry</td>');
  });

  it('escapes text from the wild: one script element (its own), no raw markup, no control characters', () => {
    const page = renderReportHtml(fixtureModel());
    expect(count(page, '<script')).toBe(1);
    expect(page).not.toContain('alert("x")');
    expect(page).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;\uFFFD\uFFFD');
    expect(page).not.toMatch(/[\u0001\uD800-\uDFFF]/);
    expect(HOSTILE).toContain('\u0001');
  });

  it('loads nothing: the CSP forbids network loads, and no src or external href is written', () => {
    const page = renderReportHtml(fixtureModel());
    expect(page).toContain(`<meta http-equiv="Content-Security-Policy" content="${REPORT_CSP}">`);
    expect(REPORT_CSP).toContain("default-src 'none'");
    expect(page).not.toMatch(/\ssrc=/);
    const hrefs = [...page.matchAll(/href="([^"]*)"/g)].map((m) => m[1]!);
    expect(hrefs.length).toBeGreaterThan(3);
    for (const h of hrefs) expect(h === 'data:,' || h.startsWith('#')).toBe(true);
  });

  it('draws one bar per agent and one column per day, and the headline figures from the model', () => {
    const model = fixtureModel();
    const page = renderReportHtml(model);
    const headline = section(page, 'headline');
    expect(count(headline, '<g class="bar">')).toBe(model.headline.agents.length);
    expect(headline).toContain('<span class="figure">1,900</span><span class="label">rows</span>');
    expect(headline).toContain('<span class="figure">7</span><span class="label">sites</span>');
    // The fixture's violation total (50 + 185 + 17 by agent).
    expect(headline).toContain('<span class="figure">252</span><span class="label">violations</span>');
    const overTime = section(page, 'over-time');
    expect(count(overTime, '<g class="bar">')).toBe(Object.keys(model.overTime!.rows).length);
  });

  it('names each figure in the singular for 1, and marks an inexact site count as a bound', () => {
    const model = fixtureModel();
    model.headline.notACrawler = 1;
    model.headline.sites = 12;
    model.headline.sitesExact = false;
    const headline = section(renderReportHtml(model), 'headline');
    expect(headline).toContain(
      '<span class="figure">1</span><span class="label">row not from a crawler</span>',
    );
    expect(headline).toContain('<span class="figure">≤ 12</span><span class="label">sites (at most)</span>');
    expect(headline).toContain('<span class="figure">2</span><span class="label">unreadable rows</span>');
  });

  it('says whether each top list is exact', () => {
    const page = renderReportHtml(fixtureModel());
    const violations = section(page, 'violations');
    expect(violations).toContain('Top 3 of 3 sites; counts are exact.');
    expect(violations).toContain(
      'Top 3 of about 8 rules; counts are at least those shown (each may be low by up to 3)',
    );
  });

  it('shows no more entries than the list says to show', () => {
    const model = fixtureModel();
    model.violations.bySite.show = 1;
    const violations = section(renderReportHtml(model), 'violations');
    expect(violations).toContain('https://news.example/a');
    expect(violations).toContain('Top 1 of 3 sites');
    expect(count(violations, 'https://down.example</a>')).toBe(1);
  });

  it('links a violation’s site to its row in the access table, else among the sites not parsed', () => {
    const model = fixtureModel();
    let page = renderReportHtml(model);
    expect(page).toContain('<tr id="access-1"><td>https://news.example</td>');
    expect(section(page, 'violations')).toContain('<a href="#access-1">https://news.example</a>');
    expect(section(page, 'violations')).toContain('<a href="#access-3">https://down.example</a>');
    model.access = null;
    page = renderReportHtml(model);
    expect(page).toContain('<tr id="site-1"><td>https://down.example</td>');
    expect(section(page, 'violations')).toContain('<a href="#site-1">https://down.example</a>');
    expect(section(page, 'violations')).not.toContain('href="#access');
  });

  it('shows each site’s access per agent as a word and a colour, with the deciding rule', () => {
    const page = renderReportHtml(fixtureModel());
    const access = section(page, 'access');
    expect(access).toContain(
      '<td class="access-full" data-sort="0" title="blocked (line 4: Disallow: /)">blocked · line 4</td>',
    );
    expect(access).toContain('<td class="access-none" data-sort="2" title="open">open</td>');
    expect(count(access, 'class="access-partial"')).toBe(2);
    // One bar per agent of interest.
    expect(count(access, '<g class="bar">')).toBe(2);
  });

  it('shows the rule-level diff per group and the flips with the rule responsible', () => {
    const changes = section(renderReportHtml(fixtureModel()), 'changes');
    expect(changes).toContain('<span class="rule">User-agent: GPTBot</span> (added)');
    expect(changes).toContain('<li class="diff-add">+ Disallow: /</li>');
    expect(changes).toContain('<li class="diff-del">− Disallow: /tmp</li>');
    expect(changes).toContain('new line 4: Disallow: /');
    expect(changes).toContain('<td class="num" data-sort="120">120</td>');
  });

  it('draws at most 5 groups and 10 rules a side per site, and says how many more', () => {
    const model = fixtureModel();
    const changed = fixtureChanges();
    model.changes = changed;
    const site = changed.sites[0]!;
    const many = Array.from({ length: 25 }, (_, i) => `Disallow: /r${i}`);
    site.groups = Array.from({ length: 8 }, (_, g) => ({
      group: [`Bot${g}`],
      change: 'changed' as const,
      added: many,
      removed: [],
      addedCount: 40,
      removedCount: 0,
    }));
    site.groupCount = 9;
    const changes = section(renderReportHtml(model), 'changes');
    expect(count(changes, 'class="diff-add"')).toBe(5 * 10);
    expect(changes).toContain('30 more added');
    expect(changes).toContain('4 more groups changed');
  });

  it('says in one line why a section is empty', () => {
    const model = fixtureModel();
    model.overTime = null;
    model.violations.total = 0;
    const page = renderReportHtml(model);
    expect(section(page, 'over-time')).toContain('No time column: violations per day need --at-column COL.');
    model.changes = null;
    model.access = null;
    model.options.policySource = null;
    const page2 = renderReportHtml(model);
    expect(section(page2, 'changes')).toContain('No cache given: changes need robots.txt history (--cache).');
    expect(section(page2, 'access')).toContain(
      'crawler access needs the robots.txt files (--cache or --robots-dir)',
    );
    expect(section(page, 'violations')).toContain('No row was disallowed for its agent.');
    model.options.policySource = 'robots-dir';
    const page3 = renderReportHtml(model);
    expect(section(page3, 'changes')).toContain('A robots directory holds only the current files');
    expect(section(page3, 'access')).toContain('Crawler access was not computed for this report.');
  });

  it('stays small for a large model (every top list full)', () => {
    const model = fixtureModel();
    const long = (i: number) => `https://site-${i}.example/${'p'.repeat(200)}?q=${i}`;
    const big = <T>(n: number, make: (i: number) => T) => Array.from({ length: n }, (_, i) => make(i));
    for (const list of [model.violations.bySite, model.violations.byRule, model.violations.byAgent])
      list.show = 100;
    model.violations.bySite.entries = big(1000, (i) => ({
      site: `https://site-${i}.example`,
      count: 1000 - i,
      examples: [long(i), long(i + 1), long(i + 2)],
    }));
    model.violations.byRule.entries = big(1000, (i) => ({
      site: `https://site-${i}.example`,
      line: i,
      rule: `Disallow: /${'x'.repeat(100)}`,
      agents: ['A', 'B', 'C', 'D', 'E'],
      count: 1000 - i,
      examples: [long(i), long(i + 1), long(i + 2)],
    }));
    model.overTime!.rows = Object.fromEntries(
      big(366, (i) => [new Date(Date.UTC(2026, 0, 1 + i)).toISOString().slice(0, 10), i]),
    );
    const agents = big(12, (i) => `Agent${i}`);
    const access = fixtureAccess();
    access.agents = agents;
    access.topSites = big(50, (i) => ({
      site: `https://site-${i}.example`,
      rows: 50 - i,
      outcome: 'parsed' as const,
      agents: Object.fromEntries(
        agents.map((a) => [
          a,
          { access: 'partial' as const, line: 9, rule: `Disallow: /${'y'.repeat(200)}` },
        ]),
      ),
    }));
    model.access = access;
    const changes = fixtureChanges();
    const rules = big(20, (i) => `Disallow: /${i}/${'z'.repeat(100)}`);
    changes.sites = big(50, (i) => ({
      ...fixtureChanges().sites[0]!,
      site: `https://site-${i}.example`,
      groups: big(20, (g) => ({
        group: [`Bot${g}`],
        change: 'changed' as const,
        added: rules,
        removed: rules,
        addedCount: 20,
        removedCount: 20,
      })),
      groupCount: 20,
    }));
    changes.topFlips = big(50, (i) => ({
      ...fixtureChanges().topFlips[0]!,
      site: `https://site-${i}.example`,
      examples: [long(i), long(i + 1), long(i + 2)],
    }));
    model.changes = changes;
    const page = renderReportHtml(model);
    expect(count(section(page, 'violations'), 'site-999.example')).toBe(0);
    expect(Buffer.byteLength(page)).toBeLessThan(2 * 1024 * 1024);
  });
});
