/**
 * README's nightly recipe, two nights in a row, against the local multi-host server (every host pinned to
 * 127.0.0.1): fetch, classify each row for its own crawler as of its time, report with the cache. Between
 * the nights one site closes a directory to GPTBot; the second report's changes start when the first
 * report was made and show the changed rule and the rows it flips.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRobotsTxt } from '../../src/core/index.js';
import { type MultiHostServer, ok, startMultiHostServer } from '../helpers/multi-host-server.js';
import { runCli } from '../helpers/run-cli.js';
import { tempDir } from '../pipeline/classify-data.js';

const GPTBOT =
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const BROWSER =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const NIGHT1 = 'User-agent: GPTBot\nDisallow: /private\n\nUser-agent: *\nDisallow: /admin\n';
const NIGHT2 = 'User-agent: GPTBot\nDisallow: /private\nDisallow: /docs\n\nUser-agent: *\nDisallow: /admin\n';

let srv: MultiHostServer;
const dir = tempDir('ra-nightly-');
const cache = path.join(dir, 'robots.sqlite');
const reportJson = path.join(dir, 'report.json');
const pinned = ['--resolve', '*=127.0.0.1', '--allow-private', '--retries', '0', '--timeout', '3'];

beforeAll(async () => {
  srv = await startMultiHostServer();
  srv.set('shop.test', ok(NIGHT1));
  srv.set('open.test', ok('User-agent: *\nDisallow:\n'));
});
afterAll(() => srv.close());

/** An access log of `rows` (url, user agent), each fetched at `time`. */
function accessLog(file: string, time: string, rows: [string, string][]): void {
  const lines = ['host,url,time,user_agent'];
  for (const [url, ua] of rows) lines.push(`${new URL(url).host},${url},${time},"${ua}"`);
  writeFileSync(file, `${lines.join('\n')}\n`);
}

/** One night of README's recipe; returns the verdict rows and the report JSON. */
async function night(n: number, rows: [string, string][]) {
  const log = path.join(dir, `access-${n}.csv`);
  // The rows were fetched a minute from now: after this night's robots.txt is fetched into the cache.
  accessLog(log, new Date(Date.now() + 60_000).toISOString(), rows);
  const verdicts = path.join(dir, `verdicts-${n}.csv.gz`);
  const fetch = await runCli(['fetch', log, '--cache', cache, '--max-age', '0', '--quiet', ...pinned]);
  expect(fetch.stderr).toBe('');
  expect(fetch.code).toBe(0);
  const classify = await runCli([
    'classify',
    log,
    '--cache',
    cache,
    '--agent-column',
    'user_agent',
    '--at-column',
    'time',
    '--evidence',
    '-o',
    verdicts,
    '--quiet',
  ]);
  expect(classify.stderr).toBe('');
  expect(classify.code).toBe(0);
  const html = path.join(dir, `report-${n}.html`);
  const report = await runCli([
    'report',
    verdicts,
    '--cache',
    cache,
    '--at-column',
    'time',
    '-o',
    html,
    '--json',
    reportJson,
    '--quiet',
  ]);
  expect(report.stderr).toBe('');
  expect(report.code).toBe(0);
  const table = parse(gunzipSync(readFileSync(verdicts)), { columns: true }) as Record<string, string>[];
  return {
    rows: table,
    report: JSON.parse(readFileSync(reportJson, 'utf8')),
    html: readFileSync(html, 'utf8'),
  };
}

describe("README's nightly recipe", () => {
  const urls = () => [
    `${srv.origin('shop.test')}/private/a`,
    `${srv.origin('shop.test')}/docs/guide`,
    `${srv.origin('shop.test')}/admin/x`,
    `${srv.origin('open.test')}/docs/guide`,
  ];
  const log = (): [string, string][] =>
    urls().flatMap((u): [string, string][] => [
      [u, GPTBOT],
      [u, GOOGLEBOT],
      [u, BROWSER],
    ]);

  it('judges each fetch for its crawler, and the next night reports the change and the flips since', async () => {
    const first = await night(1, log());
    // Each row judged for the crawler its User-Agent names, under the robots.txt fetched that night.
    const robots = {
      'shop.test': parseRobotsTxt(NIGHT1),
      'open.test': parseRobotsTxt('User-agent: *\nDisallow:\n'),
    };
    for (const row of first.rows) {
      const ua = row.user_agent;
      if (ua === BROWSER) {
        expect(row.verdict).toBe('not_a_crawler');
        continue;
      }
      const token = ua === GPTBOT ? 'GPTBot' : 'Googlebot';
      expect(row.agent).toBe(token);
      const want = robots[row.host!.split(':')[0] as keyof typeof robots].check(row.url!, token);
      expect([row.url, row.verdict, row.rule]).toEqual([row.url, want.verdict, want.rule]);
    }
    const violations1 = first.rows.filter((r) => r.allowed === 'false').length;
    expect(first.report.headline.rows).toBe(12);
    expect(first.report.headline.notACrawler).toBe(4);
    expect(first.report.violations.total).toBe(violations1);

    srv.set('shop.test', ok(NIGHT2));
    const second = await night(2, log());
    const report = second.report;
    // The changes window starts when last night's report.json was made.
    expect(report.options.since).toBe(first.report.generatedAt);
    expect(report.changes.changedSites).toBe(1);
    // Tonight GPTBot's /docs/guide on shop.test is disallowed; under last night's version it was allowed.
    const flipped = second.rows.filter((r) => r.agent === 'GPTBot' && r.url === urls()[1]);
    // Last night's version, in force within the 24 h grace, allowed it: a grace row, not a violation.
    expect(flipped.map((r) => [r.verdict, r.rule, r.grace])).toEqual([
      ['disallowed_explicit', 'Disallow: /docs', 'true'],
    ]);
    expect(report.changes.flips.GPTBot).toMatchObject({ allowedToDisallowed: 1, disallowedToAllowed: 0 });
    expect(report.headline.grace.GPTBot).toBe(1);
    expect(report.violations.total).toBe(violations1);
    expect(second.html).toContain('Disallow: /docs');
  });
});
