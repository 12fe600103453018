import type { AccessSection } from '../../../../src/pipeline/report/access-section.js';
import type { ChangesSection } from '../../../../src/pipeline/report/changes-section.js';
import type { ReportModel, TopList } from '../../../../src/pipeline/report/report-model.js';

/** Text as hostile sites write it: markup, quotes, an ampersand, a control character and a lone surrogate. */
export const HOSTILE = `<script>alert("x")</script>&'\u0001\uD800`;

function top<T>(entries: TopList<T>['entries'], exact = true, show = 20): TopList<T> {
  return {
    capacity: 1000,
    show,
    exact,
    dropBound: exact ? 0 : 3,
    distinct: entries.length + (exact ? 0 : 5),
    entries,
  };
}

/** A small hand-made report: two agents, three days, a hostile site and rule. */
export function fixtureModel(): ReportModel {
  return {
    schema: 'robots-audit-report',
    version: 1,
    generatedAt: '2026-11-26T06:00:00.000Z',
    mergedReports: 1,
    inputs: [{ path: 'verdicts.csv', rows: 1900, badRows: 2, mode: 'row_agent', columnAgents: [''] }],
    options: {
      atColumn: 'time',
      since: '2026-11-25T00:00:00Z',
      top: 20,
      agentsOfInterest: ['Googlebot', 'GPTBot'],
      policySource: 'cache',
    },
    headline: {
      rows: 1900,
      badRows: 2,
      badRowsByReason: { short_row: 2 },
      sites: 7,
      sitesExact: true,
      agents: ['GPTBot', 'Googlebot', 'ClaudeBot'],
      verdicts: {
        Googlebot: {
          allowed_explicit: 300,
          allowed_implicit: 150,
          disallowed_explicit: 40,
          disallowed_unreachable: 10,
        },
        GPTBot: { allowed_implicit: 200, disallowed_explicit: 190, allowed_unavailable: 10 },
        ClaudeBot: { allowed_implicit: 980, disallowed_explicit: 17, weird_verdict: 3 },
      },
      notACrawler: 0,
      violations: { Googlebot: 50, GPTBot: 185, ClaudeBot: 17 },
      grace: { GPTBot: 5 },
      agentsExact: true,
      agentsOverflow: 0,
    },
    violations: {
      total: 252,
      bySite: top([
        {
          site: 'https://news.example',
          count: 180,
          examples: ['https://news.example/a', 'https://news.example/b'],
        },
        { site: `https://${HOSTILE}.example`, count: 52, examples: [`https://x.example/${HOSTILE}`] },
        { site: 'https://down.example', count: 20, examples: [] },
      ]),
      byAgent: top([
        { agent: 'GPTBot', count: 185, examples: ['https://news.example/a'] },
        { agent: 'Googlebot', count: 50, examples: ['https://down.example/'] },
        { agent: 'ClaudeBot', count: 17, examples: ['https://news.example/c'] },
      ]),
      byRule: top(
        [
          {
            site: 'https://news.example',
            line: 4,
            rule: 'Disallow: /',
            status: '',
            agents: ['GPTBot'],
            count: 180,
            examples: ['https://news.example/a'],
          },
          {
            site: 'https://down.example',
            line: 0,
            rule: '',
            status: 'ERR_DNS',
            agents: ['Googlebot'],
            count: 20,
            examples: [],
          },
          {
            site: `https://${HOSTILE}.example`,
            line: 12,
            rule: `Disallow: /${HOSTILE}`,
            status: '',
            agents: ['ClaudeBot', 'Googlebot'],
            count: 9,
            examples: [],
          },
        ],
        false,
      ),
    },
    outcomes: {
      byOutcome: { parsed: 4, unavailable: 1, unreachable: 1, redirect: 1, not_cached: 0, no_history: 0 },
      unavailableBy: { '404': 1 },
      unreachableBy: { ERR_DNS: 1 },
      problemSites: top([
        {
          site: 'https://down.example',
          outcome: 'unreachable',
          cause: 'ERR_DNS',
          count: 20,
          examples: ['https://down.example/'],
        },
        { site: 'https://gone.example', outcome: 'unavailable', cause: '404', count: 7, examples: [] },
      ]),
    },
    access: fixtureAccess(),
    changes: fixtureChanges(),
    overTime: {
      column: 'time',
      rows: { '2026-11-23': 600, '2026-11-24': 700, '2026-11-25': 600 },
      violations: {
        '2026-11-23': { GPTBot: 60, Googlebot: 10 },
        '2026-11-24': { GPTBot: 100, ClaudeBot: 17 },
        '2026-11-25': { GPTBot: 25, Googlebot: 40 },
      },
      badTimes: 0,
      daysExact: true,
    },
  };
}

/** Three sites, two agents of interest: one site blocks GPTBot fully, one partly, one cannot be reached. */
export function fixtureAccess(): AccessSection {
  return {
    agents: ['Googlebot', 'GPTBot'],
    sites: 3,
    exact: true,
    totals: {
      Googlebot: { full: 0, partial: 1, none: 1, unavailable: 0, unreachable: 1, unknown: 0 },
      GPTBot: { full: 1, partial: 1, none: 0, unavailable: 0, unreachable: 1, unknown: 0 },
    },
    topSites: [
      {
        site: 'https://news.example',
        rows: 900,
        outcome: 'parsed',
        agents: {
          Googlebot: { access: 'none' },
          GPTBot: { access: 'full', line: 4, rule: 'Disallow: /' },
        },
      },
      {
        site: `https://${HOSTILE}.example`,
        rows: 300,
        outcome: 'parsed',
        agents: {
          Googlebot: { access: 'partial', line: 12, rule: `Disallow: /${HOSTILE}` },
          GPTBot: { access: 'partial', line: 12, rule: `Disallow: /${HOSTILE}` },
        },
      },
      {
        site: 'https://down.example',
        rows: 20,
        outcome: 'unreachable',
        agents: { Googlebot: { access: 'unreachable' }, GPTBot: { access: 'unreachable' } },
      },
    ],
    topSitesLimit: 50,
    topSitesExact: true,
    rowsBound: 0,
  };
}

/** news.example closed itself to GPTBot in the window, and 120 GPTBot rows flipped to disallowed. */
export function fixtureChanges(): ChangesSection {
  return {
    since: '2026-11-25T00:00:00.000Z',
    until: '2026-11-26T06:00:00.000Z',
    changedSites: 1,
    newSites: 0,
    outcomeChanges: { 'parsed→parsed': 1 },
    sites: [
      {
        site: 'https://news.example',
        rows: 900,
        before: {
          outcome: 'parsed',
          status: 200,
          errorCode: null,
          sha256: 'aa',
          validFrom: '2026-10-01T00:00:00.000Z',
        },
        after: {
          outcome: 'parsed',
          status: 200,
          errorCode: null,
          sha256: 'bb',
          validFrom: '2026-11-25T03:00:00.000Z',
        },
        versionsInWindow: 1,
        groups: [
          {
            group: ['GPTBot'],
            change: 'added',
            added: ['Disallow: /', `Disallow: /${HOSTILE}`],
            removed: [],
            addedCount: 2,
            removedCount: 0,
          },
          {
            group: ['*'],
            change: 'changed',
            added: ['Allow: /public'],
            removed: ['Disallow: /tmp'],
            addedCount: 1,
            removedCount: 1,
          },
        ],
        groupCount: 2,
      },
    ],
    sitesLimit: 50,
    sitesExact: true,
    rowsCompared: 400,
    rowsSkipped: 3,
    flips: { GPTBot: { allowedToDisallowed: 120, disallowedToAllowed: 0 } },
    topFlips: [
      {
        site: 'https://news.example',
        agent: 'GPTBot',
        allowedToDisallowed: 120,
        disallowedToAllowed: 0,
        examples: ['https://news.example/a'],
        rule: { version: 'new', line: 4, rule: 'Disallow: /' },
      },
    ],
    flipsLimit: 50,
    flipsExact: true,
    asOf: true,
  };
}
