/**
 * `robots-audit diff` through the real CLI: one crawl classified twice, under two robots dirs, and
 * the two outputs diffed; the flips expected are worked out from core's parser, row by row.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRobotsTxt } from '../../src/core/index.js';
import { runCli } from '../helpers/run-cli.js';

const dir = mkdtempSync(path.join(tmpdir(), 'ra-diff-cli-'));
const at = (name: string) => path.join(dir, name);
const AGENTS = ['Googlebot', 'GPTBot'];

/** robots.txt per host for the old and the new run (undefined: no file, so allow all). */
const ROBOTS: Record<string, [string | undefined, string | undefined]> = {
  'a.example': [
    'User-agent: *\nDisallow: /private\n\nUser-agent: GPTBot\nDisallow: /\n',
    'User-agent: *\nDisallow: /private\nAllow: /private/open\n\nUser-agent: GPTBot\nDisallow: /blog\n',
  ],
  'b.example': [undefined, 'User-agent: Googlebot\nDisallow: /search\n\nUser-agent: *\nDisallow: /\n'],
  'c.example': ['User-agent: *\nDisallow: /tmp\n', undefined],
  'd.example': ['User-agent: *\nAllow: /\n', 'User-agent: *\nAllow: /\n'],
};
const PATHS = ['/', '/private/x', '/private/open/1', '/blog/post', '/search?q=a,b', '/tmp/y', '/about'];

function writeDirs(): [string, string] {
  const dirs = [at('robots-old'), at('robots-new')] as const;
  for (const [k, d] of dirs.entries()) {
    mkdirSync(d, { recursive: true });
    for (const [host, bodies] of Object.entries(ROBOTS)) {
      if (bodies[k] !== undefined) writeFileSync(path.join(d, `${host}.txt`), bodies[k]!);
    }
  }
  return [dirs[0], dirs[1]];
}

/** The crawl: every host × path, as absolute URLs (quoted when they hold a comma). */
function crawl(): { file: string; rows: [string, string][] } {
  const rows: [string, string][] = [];
  for (const host of Object.keys(ROBOTS)) for (const p of PATHS) rows.push([host, `https://${host}${p}`]);
  const quote = (u: string) => (u.includes(',') ? `"${u}"` : u);
  const file = at('crawl.csv');
  writeFileSync(file, `host,url\n${rows.map(([h, u]) => `${h},${quote(u)}`).join('\n')}\n`);
  return { file, rows };
}

/** What classify writes for one row and agent under one robots.txt (or none). */
function judged(body: string | undefined, url: string, agent: string) {
  if (body === undefined) return { allowed: true, verdict: 'allowed_unavailable', line: '', rule: '' };
  const d = parseRobotsTxt(body).check(url, agent);
  return { allowed: d.allowed, verdict: d.verdict, line: d.line ? String(d.line) : '', rule: d.rule };
}

describe('robots-audit diff', () => {
  const [oldDir, newDir] = writeDirs();
  const { file, rows } = crawl();
  const classify = (robots: string, out: string, extra: string[] = []) =>
    runCli([
      'classify',
      file,
      '--robots-dir',
      robots,
      ...AGENTS.flatMap((a) => ['--agent', a]),
      ...extra,
      '-o',
      out,
      '--quiet',
    ]);

  it('writes the flips between two runs over the same crawl, as core judges them', async () => {
    expect((await classify(oldDir, at('old.csv'))).code).toBe(0);
    expect((await classify(newDir, at('new.csv'))).code).toBe(0);
    const r = await runCli(['diff', at('old.csv'), at('new.csv'), '--summary', at('flips.json')]);
    expect(r.stderr).toMatch(/^diff: \d+ rows compared/);
    expect(r.code).toBe(0);

    const expected: string[] = [];
    let a2d = 0;
    let d2a = 0;
    for (const [host, url] of rows) {
      const [oldBody, newBody] = ROBOTS[host]!;
      for (const agent of AGENTS) {
        const o = judged(oldBody, url, agent);
        const n = judged(newBody, url, agent);
        if (o.allowed === n.allowed) continue;
        const direction = o.allowed ? 'allowed_to_disallowed' : 'disallowed_to_allowed';
        if (o.allowed) a2d++;
        else d2a++;
        const cell = (s: string) => (s.includes(',') ? `"${s}"` : s);
        expected.push(
          [host, cell(url), agent, o.verdict, n.verdict, o.line, o.rule, n.line, n.rule, direction].join(','),
        );
      }
    }
    expect(expected.length).toBeGreaterThan(10);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(
      'host,url,agent,old_verdict,new_verdict,old_rule_line,old_rule,new_rule_line,new_rule,direction',
    );
    expect(lines.slice(1)).toEqual(expected);
    const summary = JSON.parse(readFileSync(at('flips.json'), 'utf8'));
    expect(summary.rowsCompared).toBe(rows.length);
    const total = (s: Record<string, number>) => s.allowed_to_disallowed ?? 0;
    const back = (s: Record<string, number>) => s.disallowed_to_allowed ?? 0;
    const byAgent = Object.values(summary.flipsByAgent) as Record<string, number>[];
    expect(byAgent.reduce((t, s) => t + total(s), 0)).toBe(a2d);
    expect(byAgent.reduce((t, s) => t + back(s), 0)).toBe(d2a);
  });

  it('pairs by key from stdin and writes a file, and exits 2, 3 with one line on bad use', async () => {
    expect((await classify(oldDir, at('old-rn.csv'), ['--row-number'])).code).toBe(0);
    expect((await classify(newDir, at('new-gpt.csv'), ['--agent', 'CCBot'])).code).toBe(0);
    const byKey = await runCli(['diff', at('old.csv'), '-', '--key', 'url', '-o', at('k.csv'), '--quiet'], {
      input: readFileSync(at('new.csv')),
    });
    expect(byKey.code).toBe(0);
    expect(byKey.stderr).toBe('');
    const plain = await runCli(['diff', at('old.csv'), at('new.csv'), '--quiet']);
    expect(readFileSync(at('k.csv'), 'utf8')).toBe(plain.stdout);

    const agents = await runCli(['diff', at('old.csv'), at('new-gpt.csv')]);
    expect(agents.code).toBe(2);
    expect(agents.stderr).toMatch(
      /^robots-audit: the agents differ: CCBot only in .*--agent Googlebot --agent GPTBot\n$/,
    );
    const chosen = await runCli(['diff', at('old.csv'), at('new-gpt.csv'), '--agent', 'GPTBot', '--quiet']);
    expect(chosen.code).toBe(0);

    const missing = await runCli(['diff', at('old.csv'), at('nope.csv')]);
    expect(missing.code).toBe(3);
    expect(missing.stderr.split('\n')).toHaveLength(2);

    const reversed = at('reversed.csv');
    const [head, ...body] = readFileSync(at('new.csv'), 'utf8').trimEnd().split('\n');
    writeFileSync(reversed, `${[head, ...body.reverse()].join('\n')}\n`);
    const differ = await runCli(['diff', at('old.csv'), reversed]);
    expect(differ.code).toBe(3);
    expect(differ.stderr).toMatch(/^robots-audit: rows differ at record 1: use --key COL/);

    const numbered = await runCli(['diff', at('old-rn.csv'), at('new.csv'), '--quiet']);
    expect(numbered.code).toBe(0);
    expect(numbered.stdout.split('\n')[0]).toMatch(/^row_number,host,url,agent,/);
    const bad = await runCli(['diff', at('old.csv'), at('new.csv'), '--delimiter', 'ab']);
    expect(bad.code).toBe(2);
  });
});
