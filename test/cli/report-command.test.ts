/**
 * `robots-audit report` through the real CLI: a small crawl classified with --robots-dir, then reported;
 * the reports of host shards merged; bad use is one line and exit 2, unreadable files exit 3.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportModel } from '../../src/pipeline/report/report-model.js';
import { runCli } from '../helpers/run-cli.js';

let dir: string;
const at = (name: string) => path.join(dir, name);

const ROBOTS_A = 'User-agent: *\nDisallow: /private\n\nUser-agent: GPTBot\nDisallow: /\n';
const CRAWL = [
  'host,url',
  'a.example,https://a.example/',
  'a.example,https://a.example/private/x',
  'b.example,https://b.example/x',
  'c.example,/a',
];

async function ok(args: string[]): Promise<string> {
  const r = await runCli(args);
  expect(r.code, r.stderr).toBe(0);
  return r.stderr;
}

function json(file: string): ReportModel {
  return JSON.parse(readFileSync(file, 'utf8')) as ReportModel;
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'ra-report-'));
  mkdirSync(at('robots'));
  writeFileSync(at('robots/a.example.txt'), ROBOTS_A);
  writeFileSync(at('crawl.csv'), `${CRAWL.join('\n')}\n`);
  // Host shards by hand: a.example alone, the rest together.
  writeFileSync(at('crawl-1.csv'), `${[CRAWL[0], CRAWL[1], CRAWL[2]].join('\n')}\n`);
  writeFileSync(at('crawl-2.csv'), `${[CRAWL[0], CRAWL[3], CRAWL[4]].join('\n')}\n`);
  for (const name of ['crawl', 'crawl-1', 'crawl-2']) {
    await ok([
      'classify',
      at(`${name}.csv`),
      '--robots-dir',
      at('robots'),
      '--agent',
      'Googlebot',
      '--agent',
      'GPTBot',
      '-o',
      at(`${name}.verdicts.csv`),
      '--quiet',
    ]);
  }
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('robots-audit report', () => {
  it('reports a classified crawl: JSON figures and one HTML page', async () => {
    const stderr = await ok(['report', at('crawl.verdicts.csv'), '-o', at('r.html'), '--json', at('r.json')]);
    expect(stderr).toBe(
      `report: 4 rows, 3 sites, 2 agents, 3 violations → ${at('r.html')} and ${at('r.json')}\n`,
    );
    const m = json(at('r.json'));
    expect(m.schema).toBe('robots-audit-report');
    expect(m.headline.rows).toBe(4);
    expect(m.headline.sites).toBe(3);
    expect(m.headline.verdicts).toEqual({
      GPTBot: { disallowed_explicit: 2, allowed_unavailable: 2 },
      Googlebot: { allowed_implicit: 1, disallowed_explicit: 1, allowed_unavailable: 2 },
    });
    expect(m.headline.violations).toEqual({ GPTBot: 2, Googlebot: 1 });
    expect(m.violations.byRule.entries.map((e) => [e.site, e.line, e.rule, e.agents, e.count])).toEqual([
      ['https://a.example', 5, 'Disallow: /', ['GPTBot'], 2],
      ['https://a.example', 2, 'Disallow: /private', ['Googlebot'], 1],
    ]);
    expect(m.outcomes.byOutcome).toMatchObject({ parsed: 1, unavailable: 2, unreachable: 0 });
    expect(m.outcomes.unavailableBy).toEqual({ missing: 2 });
    expect(m.options.agentsOfInterest).toContain('ClaudeBot');
    const page = readFileSync(at('r.html'), 'utf8');
    expect(page.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(page).toContain('https://a.example');
  });

  it('judges each site for the agents of interest from --robots-dir', async () => {
    await ok([
      'report',
      at('crawl.verdicts.csv'),
      '--robots-dir',
      at('robots'),
      '--json',
      at('access.json'),
      '--quiet',
    ]);
    const m = json(at('access.json'));
    expect(m.options.policySource).toBe('robots-dir');
    expect(m.access?.sites).toBe(3);
    expect(m.access?.totals.GPTBot).toEqual({
      full: 1,
      partial: 0,
      none: 0,
      unavailable: 2,
      unreachable: 0,
      unknown: 0,
    });
    expect(m.access?.totals.Googlebot).toEqual({
      full: 0,
      partial: 1,
      none: 0,
      unavailable: 2,
      unreachable: 0,
      unknown: 0,
    });
    // The changes section needs the cache's history.
    expect(m.changes).toBeNull();
  });

  it('adds --agent to the agents of interest, and names a lone verdict column by it', async () => {
    await ok([
      'classify',
      at('crawl.csv'),
      '--robots-dir',
      at('robots'),
      '--agent',
      'GPTBot',
      '-o',
      at('one.csv'),
      '--quiet',
    ]);
    await ok([
      'report',
      at('one.csv'),
      '--agent',
      'GPTBot',
      '--agent',
      'ExampleBot',
      '--json',
      at('one.json'),
      '--quiet',
    ]);
    const m = json(at('one.json'));
    expect(m.headline.agents).toEqual(['GPTBot']);
    expect(m.options.agentsOfInterest.slice(-1)).toEqual(['ExampleBot']);
  });

  it('merges the reports of host shards into the report of the whole', async () => {
    await ok(['report', at('crawl.verdicts.csv'), '--json', at('whole.json'), '--quiet']);
    await ok(['report', at('crawl-1.verdicts.csv'), '--json', at('p1.json'), '--quiet']);
    await ok(['report', at('crawl-2.verdicts.csv'), '--json', at('p2.json'), '--quiet']);
    await ok([
      'report',
      '--merge',
      at('p1.json'),
      at('p2.json'),
      '--json',
      at('all.json'),
      '-o',
      at('all.html'),
      '--quiet',
    ]);
    const whole = json(at('whole.json'));
    const all = json(at('all.json'));
    expect(all.mergedReports).toBe(2);
    expect(all.headline).toEqual(whole.headline);
    expect(all.violations).toEqual(whole.violations);
    expect(all.outcomes).toEqual(whole.outcomes);
    expect(readFileSync(at('all.html'), 'utf8')).toContain('<!DOCTYPE html>');
    await ok([
      'report',
      '--merge',
      at('p1.json'),
      at('p2.json'),
      '--json',
      at('top.json'),
      '--top',
      '1',
      '--quiet',
    ]);
    const top = json(at('top.json'));
    expect([top.options.top, top.violations.byRule.show, top.violations.byRule.entries.length]).toEqual([
      1, 1, 2,
    ]);
  });

  it('writes the JSON to stdout with --json -', async () => {
    const r = await runCli(['report', at('crawl.verdicts.csv'), '--json', '-', '--quiet']);
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as ReportModel).headline.rows).toBe(4);
  });

  it('reads the verdicts from stdin with -', async () => {
    const input = readFileSync(at('crawl.verdicts.csv'));
    const r = await runCli(['report', '--json', '-', '-', '--quiet'], { input });
    expect(r.stderr).toBe('');
    const m = JSON.parse(r.stdout) as ReportModel;
    expect(m.inputs.map((i) => [i.path, i.rows])).toEqual([['-', 4]]);
  });

  it.each([
    [['report', 'x.csv'], 'robots-audit: report: give -o FILE.html, --json FILE.json, or both'],
    [
      ['report', 'x.csv', '--json', 'r.json', '--top', 'x'],
      'robots-audit: Invalid option `top`: expected an integer from 1 to 1000, got "x" (string)',
    ],
    [
      ['report', 'x.csv', '--json', 'r.json', '--cache', 'c.sqlite', '--robots-dir', 'd'],
      'robots-audit: Invalid options: `cache` and `robots-dir` cannot be used together',
    ],
    [
      ['report', 'x.csv', '--json', 'r.json', '--since', 'soon'],
      'robots-audit: Invalid option `since`: expected a time (RFC 3339, epoch seconds, …) or a duration back from now ("24h", "7d"), got "soon" (string)',
    ],
    [
      ['report', 'x.csv', '--json', 'r.json', '--tpo', '3'],
      'robots-audit: Unknown option --tpo. Did you mean --top?',
    ],
  ])('%j is a usage error', async (args, line) => {
    const r = await runCli(args, { cwd: dir });
    expect(r.stderr).toBe(`${line}\n`);
    expect(r.code).toBe(2);
  });

  it('exits 3 with one line for a file it cannot read', async () => {
    writeFileSync(at('plain.csv'), 'host,url\na.example,https://a.example/\n');
    const cases: [string[], RegExp][] = [
      [['report', at('none.csv'), '--json', at('x.json')], /cannot read the input .*none\.csv: no such file/],
      [['report', at('plain.csv'), '--json', at('x.json')], /plain\.csv: the header has no `verdict`/],
      [['report', '--merge', at('plain.csv'), '--json', at('x.json')], /plain\.csv: not JSON/],
    ];
    for (const [args, message] of cases) {
      const r = await runCli(args);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.code).toBe(3);
    }
  });
});
