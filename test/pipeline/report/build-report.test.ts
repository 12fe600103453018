import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildReport } from '../../../src/pipeline/report/build-report.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'build-report-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function file(name: string, text: string | Buffer): string {
  const p = path.join(dir, name);
  writeFileSync(p, text);
  return p;
}

const TWO_AGENTS = [
  'host,url,allowed:Googlebot,verdict:Googlebot,rule_line:Googlebot,rule:Googlebot,allowed:GPTBot,verdict:GPTBot,rule_line:GPTBot,rule:GPTBot,robots_status,error_code',
  'a.example,https://a.example/x,true,allowed_implicit,,,false,disallowed_explicit,2,Disallow: /,200,',
  'a.example,https://a.example/y,true,allowed_implicit,,,false,disallowed_explicit,2,Disallow: /,200,',
  'a.example,https://a.example/private/1,false,disallowed_explicit,5,Disallow: /private,false,disallowed_explicit,2,Disallow: /,200,',
  'b.example,https://b.example/z,true,allowed_unavailable,,,true,allowed_unavailable,,,404,',
  'c.example,https://c.example/q,false,disallowed_unreachable,,,false,disallowed_unreachable,,,503,',
  'd.example,/rel,true,allowed_explicit,3,Allow: /,true,allowed_explicit,3,Allow: /,file,',
  'e.example,https://e.example:8443/p,false,disallowed_unreachable,,,false,disallowed_unreachable,,,ERR_DNS,',
  ',,,invalid_input,,,,invalid_input,,,,missing_url',
  'f.example,http://f.example/a,,not_cached,,,,not_cached,,,,',
].join('\n');

describe('buildReport: one verdict column per agent', () => {
  it('counts verdicts, violations, sites and outcomes as worked out by hand', async () => {
    const m = await buildReport({ files: [file('v.csv', `${TWO_AGENTS}\n`)], now: new Date(0) });
    expect(m.schema).toBe('robots-audit-report');
    expect(m.version).toBe(1);
    expect(m.inputs).toEqual([
      {
        path: path.join(dir, 'v.csv'),
        rows: 9,
        badRows: 0,
        mode: 'agent_columns',
        columnAgents: ['Googlebot', 'GPTBot'],
      },
    ]);
    const h = m.headline;
    expect(h.rows).toBe(9);
    expect(h.agents).toEqual(['GPTBot', 'Googlebot']);
    expect(h.verdicts.Googlebot).toEqual({
      allowed_explicit: 1,
      allowed_implicit: 2,
      disallowed_explicit: 1,
      allowed_unavailable: 1,
      disallowed_unreachable: 2,
      invalid_input: 1,
      not_cached: 1,
    });
    expect(h.verdicts.GPTBot).toEqual({
      allowed_explicit: 1,
      disallowed_explicit: 3,
      allowed_unavailable: 1,
      disallowed_unreachable: 2,
      invalid_input: 1,
      not_cached: 1,
    });
    expect(h.violations).toEqual({ GPTBot: 5, Googlebot: 3 });
    expect(h.sites).toBe(6);
    expect(h.sitesExact).toBe(true);
    expect(m.violations.total).toBe(8);

    const bySite = m.violations.bySite;
    expect(bySite.exact).toBe(true);
    expect(bySite.entries.map((e) => [e.site, e.count])).toEqual([
      ['https://a.example', 4],
      ['https://c.example', 2],
      ['https://e.example:8443', 2],
    ]);
    expect([...bySite.entries[0]!.examples].sort()).toEqual([
      'https://a.example/private/1',
      'https://a.example/x',
      'https://a.example/y',
    ]);
    expect(m.violations.byAgent.entries.map((e) => [e.agent, e.count])).toEqual([
      ['GPTBot', 5],
      ['Googlebot', 3],
    ]);
    expect(
      m.violations.byRule.entries.map((e) => [e.site, e.line, e.rule, e.status, e.agents, e.count]),
    ).toEqual([
      ['https://a.example', 2, 'Disallow: /', '', ['GPTBot'], 3],
      ['https://c.example', 0, '', '503', ['GPTBot', 'Googlebot'], 2],
      ['https://e.example:8443', 0, '', 'ERR_DNS', ['GPTBot', 'Googlebot'], 2],
      ['https://a.example', 5, 'Disallow: /private', '', ['Googlebot'], 1],
    ]);

    expect(m.outcomes.byOutcome).toEqual({
      parsed: 2,
      unavailable: 1,
      unreachable: 2,
      redirect: 0,
      not_cached: 1,
      no_history: 0,
    });
    expect(m.outcomes.unavailableBy).toEqual({ '404': 1 });
    expect(m.outcomes.unreachableBy).toEqual({ '503': 1, ERR_DNS: 1 });
    expect(m.outcomes.problemSites.entries.map((e) => [e.site, e.outcome, e.cause, e.count]).sort()).toEqual([
      ['http://f.example', 'not_cached', '', 1],
      ['https://b.example', 'unavailable', '404', 1],
      ['https://c.example', 'unreachable', '503', 1],
      ['https://e.example:8443', 'unreachable', 'ERR_DNS', 1],
    ]);
    expect(m.overTime).toBeNull();
    expect(m.access).toBeNull();
    expect(m.changes).toBeNull();
  });

  it('names the agent of a lone unsuffixed verdict column, and sees a redirected robots.txt', async () => {
    const csv = [
      'url,allowed,verdict,rule_line,rule,robots_status,error_code,robots_url',
      'https://a.example/x,false,disallowed_explicit,2,Disallow: /x,200,,https://www.a.example/robots.txt',
      'https://b.example/x,true,allowed_implicit,,,200,,https://b.example/robots.txt',
    ].join('\n');
    const m = await buildReport({ files: [file('one.csv', csv)], unnamedAgent: 'Bingbot' });
    expect(m.headline.verdicts).toEqual({ Bingbot: { allowed_implicit: 1, disallowed_explicit: 1 } });
    expect(m.outcomes.byOutcome.redirect).toBe(1);
    expect(m.outcomes.byOutcome.parsed).toBe(1);
  });

  it('counts unreadable rows apart and never stops on them', async () => {
    const csv = [
      'url,allowed:A,verdict:A,rule_line:A,rule:A,robots_status,error_code',
      'https://a.example/x,true,allowed_implicit,,,200,',
      'https://a.example/short,true',
      'https://a.example/y,true,maybe,,,200,',
      '"https://a.example/unterminated,true,allowed_implicit,,,200,',
      'https://a.example/z,true,allowed_implicit,,,200,',
    ].join('\n');
    const m = await buildReport({ files: [file('bad.csv', csv)] });
    expect(m.headline.rows).toBe(2);
    expect(m.headline.badRows).toBe(3);
    expect(m.headline.badRowsByReason).toEqual({ malformed_record: 1, short_row: 1, unknown_verdict: 1 });
    expect(m.inputs[0]!.badRows).toBe(3);
  });
});

describe('buildReport: the agent column of each row', () => {
  const csv = [
    'sep=;',
    'row_number;time;ua;url;agent;allowed;verdict;rule_line;rule;grace;allowed:CCBot;verdict:CCBot;rule_line:CCBot;rule:CCBot;grace:CCBot;robots_status;error_code',
    '1;2026-11-20T10:00:00Z;"GPTBot/1.0; +https://openai.com/gptbot";https://a.example/p;GPTBot;false;disallowed_explicit;2;Disallow: /p;false;true;allowed_implicit;;;;200;',
    '2;2026-11-20T23:59:59Z;GPTBot;https://a.example/p2;GPTBot;false;disallowed_explicit;2;Disallow: /p;true;true;allowed_implicit;;;;200;',
    '3;2026-11-21T00:00:01+01:00;ClaudeBot;https://b.example/x;ClaudeBot;true;allowed_implicit;;;;true;allowed_implicit;;;;200;',
    '4;2026-11-21T08:00:00Z;Mozilla/5.0;https://c.example/;;;not_a_crawler;;;;true;allowed_implicit;;;;200;',
    '5;yesterday;ClaudeBot;https://a.example/q;ClaudeBot;false;disallowed_explicit;3;Disallow: /q;false;true;allowed_implicit;;;;200;',
    '6;[21/Nov/2026:10:00:00 +0000];GPTBot;https://b.example/r;GPTBot;false;disallowed_unreachable;;;false;false;disallowed_unreachable;;;false;503;',
    '7;2026-11-21T10:00:00Z;GPTBot',
    '',
  ].join('\n');

  it('judges each row for its own agent, with grace, times per day, quotes and gzip', async () => {
    const m = await buildReport({ files: [file('rows.csv.gz', gzipSync(csv))], atColumn: 'time' });
    expect(m.inputs[0]).toMatchObject({
      rows: 6,
      badRows: 1,
      mode: 'row_agent',
      columnAgents: ['', 'CCBot'],
    });
    const h = m.headline;
    expect(h.agents).toEqual(['ClaudeBot', 'GPTBot']);
    expect(h.notACrawler).toBe(1);
    expect(h.verdicts).toEqual({
      ClaudeBot: { allowed_implicit: 1, disallowed_explicit: 1 },
      GPTBot: { disallowed_explicit: 2, disallowed_unreachable: 1 },
    });
    expect(h.violations).toEqual({ ClaudeBot: 1, GPTBot: 2 });
    expect(h.grace).toEqual({ ClaudeBot: 0, GPTBot: 1 });
    expect(m.violations.total).toBe(3);
    expect(h.sites).toBe(3);
    // b.example shows two outcomes (two versions of its robots.txt over the rows' times).
    expect(m.outcomes.byOutcome).toMatchObject({ parsed: 3, unreachable: 1 });
    expect(m.overTime).toEqual({
      column: 'time',
      rows: { '2026-11-20': 3, '2026-11-21': 2 },
      violations: { '2026-11-20': { GPTBot: 1 }, '2026-11-21': { GPTBot: 1 } },
      badTimes: 1,
      daysExact: true,
    });
  });
});

describe('buildReport: bounds', () => {
  it('says a top list is not exact once it drops an entry', async () => {
    const rows = ['url,verdict:A,rule_line:A,rule:A,robots_status'];
    const perSite = { a: 3, b: 2, c: 1 };
    for (const [site, n] of Object.entries(perSite)) {
      for (let i = 0; i < n; i++)
        rows.push(`https://${site}.example/${i},disallowed_explicit,1,Disallow: /,200`);
    }
    const m = await buildReport({ files: [file('top.csv', rows.join('\n'))], tally: { capacity: 2 } });
    const bySite = m.violations.bySite;
    expect(bySite.entries.map((e) => [e.site, e.count])).toEqual([
      ['https://a.example', 3],
      ['https://b.example', 2],
    ]);
    expect(bySite.exact).toBe(false);
    expect(bySite.dropBound).toBe(1);
    expect(bySite.distinct).toBe(3);
    expect(m.violations.byAgent.exact).toBe(true);
  });

  it('says the site count is an upper bound once a site was forgotten', async () => {
    const rows = ['url,verdict:A,robots_status'];
    for (const s of ['a', 'b', 'c', 'a']) rows.push(`https://${s}.example/,allowed_implicit,200`);
    const m = await buildReport({ files: [file('sites.csv', rows.join('\n'))], tally: { siteBits: 2 } });
    expect(m.headline.sites).toBe(4);
    expect(m.headline.sitesExact).toBe(false);
    const exact = await buildReport({ files: [file('sites.csv', rows.join('\n'))] });
    expect(exact.headline.sites).toBe(3);
    expect(exact.headline.sitesExact).toBe(true);
  });
});

describe('buildReport: files it cannot read', () => {
  it.each([
    [
      'url,allowed,rule\nhttps://a.example/,true,\n',
      'ERR_NO_VERDICT_COLUMN',
      /no `verdict` or `verdict:<agent>` column/,
    ],
    ['link,verdict:A\nhttps://a.example/,allowed_implicit\n', 'ERR_NO_URL_COLUMN', /no `url` column/],
    ['', 'ERR_NO_HEADER', /empty/],
  ])('%j is refused with %s', async (text, code, message) => {
    await expect(buildReport({ files: [file('x.csv', text)] })).rejects.toMatchObject({
      code,
      message: expect.stringMatching(message),
    });
  });

  it('refuses a time column the header does not have', async () => {
    const p = file('t.csv', 'url,verdict:A\nhttps://a.example/,allowed_implicit\n');
    await expect(buildReport({ files: [p], atColumn: 'when' })).rejects.toMatchObject({
      code: 'ERR_NO_TIME_COLUMN',
    });
  });

  it('refuses a file that does not exist', async () => {
    await expect(buildReport({ files: [path.join(dir, 'none.csv')] })).rejects.toMatchObject({
      code: 'ERR_INPUT',
    });
  });
});

describe('buildReport: the day table', () => {
  it('keeps at most maxDays days, and says so, without calling the other rows bad times', async () => {
    const rows = [
      'time,url,verdict:A',
      ...['2026-11-20', '2026-11-21', '2026-11-22', 'x'].map(
        (d) => `${d},https://a.example/,allowed_implicit`,
      ),
    ];
    const p = path.join(dir, 'days.csv');
    writeFileSync(p, rows.join('\n'));
    const m = await buildReport({ files: [p], atColumn: 'time', tally: { maxDays: 2 } });
    expect(m.overTime).toMatchObject({
      rows: { '2026-11-20': 1, '2026-11-21': 1 },
      badTimes: 1,
      daysExact: false,
    });
  });
});

describe('buildReport: violations by rule', () => {
  it('counts each rule of many sites exactly, rows in any order', async () => {
    const rows: string[] = ['url,verdict:A,rule_line:A,rule:A,robots_status'];
    const truth = new Map<string, number>();
    for (let i = 0; i < 3000; i++) {
      const site = `s${(i * 7) % 13}`;
      const line = 1 + ((i * 11) % 5);
      rows.push(`https://${site}.example/${i},disallowed_explicit,${line},Disallow: /r${line},200`);
      const key = `https://${site}.example ${line}`;
      truth.set(key, (truth.get(key) ?? 0) + 1);
    }
    const m = await buildReport({ files: [file('rules.csv', rows.join('\n'))] });
    const byRule = m.violations.byRule;
    expect(byRule.exact).toBe(true);
    expect(new Map(byRule.entries.map((e) => [`${e.site} ${e.line}`, e.count]))).toEqual(truth);
    for (const e of byRule.entries) expect(e.rule).toBe(`Disallow: /r${e.line}`);
  });

  it('never counts more than the rows of a rule once rules are dropped', async () => {
    const rows: string[] = ['url,verdict:A,rule_line:A,rule:A,robots_status'];
    const truth = new Map<string, number>();
    for (let i = 0; i < 3000; i++) {
      const line = 1 + ((i * i) % 97);
      rows.push(`https://a.example/${i},disallowed_explicit,${line},Disallow: /r${line},200`);
      truth.set(String(line), (truth.get(String(line)) ?? 0) + 1);
    }
    const m = await buildReport({ files: [file('many.csv', rows.join('\n'))], tally: { capacity: 2 } });
    const byRule = m.violations.byRule;
    expect(byRule.exact).toBe(false);
    for (const e of byRule.entries) {
      const t = truth.get(String(e.line))!;
      expect(e.count).toBeLessThanOrEqual(t);
      expect(t - e.count).toBeLessThanOrEqual(byRule.dropBound);
    }
  });
});
