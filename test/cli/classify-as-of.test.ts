import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { compileRobotsTxt } from '../../src/core/index.js';
import { PolicyCache } from '../../src/pipeline/cache/policy-cache.js';
import { runCli } from '../helpers/run-cli.js';

const DAY = 86_400_000;
const D = Date.UTC(2024, 0, 1);
const dir = mkdtempSync(path.join(tmpdir(), 'ra-as-of-'));
const MANY_HOSTS = 40;
const cachePath = path.join(dir, 'history.sqlite');

const E_VERSIONS = [
  'User-agent: *\nDisallow: /a\nAllow: /a/b\n',
  '# updated\nUser-agent: *\nDisallow: /a\nAllow: /a/b\n\nUser-agent: *\nDisallow: /b\nDisallow: /a/b/c\n',
  'User-agent: GPTBot\nDisallow: /\n\n# moved\nUser-agent: *\nDisallow: /a\nAllow: /a/b\n',
];

/** Records what a fetch of `origin` saw at `at`: a body (200), or a status with no body. */
function see(cache: PolicyCache, origin: string, at: number, body: string | null, status = 200): void {
  const b = body === null ? null : Buffer.from(body);
  cache.record({
    origin,
    outcome: status === 200 ? 'parsed' : status >= 500 ? 'unreachable' : 'unavailable',
    robotsUrl: `${origin}/robots.txt`,
    finalUrl: `${origin}/robots.txt`,
    status,
    errorCode: null,
    body: b,
    sha256: b === null ? null : createHash('sha256').update(b).digest('hex'),
    bytes: b?.length ?? 0,
    truncated: false,
    etag: null,
    lastModified: null,
    fetchedAt: at,
    expiresAt: at + DAY,
  });
}

beforeAll(() => {
  const cache = new PolicyCache(cachePath);
  // a.example: /old blocked from Jan 1 (seen again Jan 6), then /new blocked from Jan 11.
  see(cache, 'https://a.example', D, 'User-agent: *\nDisallow: /old\n');
  see(cache, 'https://a.example', D + 5 * DAY, 'User-agent: *\nDisallow: /old\n');
  see(cache, 'https://a.example', D + 10 * DAY, 'User-agent: *\nDisallow: /new\n');
  // b.example: no robots.txt (404) from Jan 3; unreachable (503) from Jan 20.
  see(cache, 'https://b.example', D + 2 * DAY, null, 404);
  see(cache, 'https://b.example', D + 19 * DAY, null, 503);
  // d.example: GPTBot has a group of its own; /b blocked for every agent from Jan 11.
  see(cache, 'https://d.example', D, 'User-agent: *\nDisallow: /a\n\nUser-agent: GPTBot\nDisallow: /g\n');
  see(
    cache,
    'https://d.example',
    D + 10 * DAY,
    'User-agent: *\nDisallow: /b\n\nUser-agent: GPTBot\nDisallow: /g\nDisallow: /b\n',
  );
  // h0…h39.example: /p<i> blocked from Jan 1, /q<i> instead from Jan 11, /p<i> again from Jan 21.
  for (let i = 0; i < MANY_HOSTS; i++) {
    const origin = `https://h${i}.example`;
    see(cache, origin, D, `User-agent: *\nDisallow: /p${i}\n`);
    see(cache, origin, D + 10 * DAY, `User-agent: *\nDisallow: /q${i}\n`);
    see(cache, origin, D + 20 * DAY, `User-agent: *\nDisallow: /p${i}\n`);
  }
  // e.example: versions that move the `*` rules down and append to them (compiled on top of the first).
  for (const [k, body] of E_VERSIONS.entries()) see(cache, 'https://e.example', D + 10 * k * DAY, body);
  cache.flush();
  cache.close();
});

const LOG = [
  'time,host,url',
  '2023-12-31T00:00:00Z,a.example,https://a.example/new/x',
  '2024-01-03T00:00:00Z,a.example,https://a.example/new/x',
  '2024-01-03T00:00:00Z,a.example,https://a.example/old/x',
  '2024-01-11T12:00:00Z,a.example,https://a.example/new/x',
  '2024-01-11T12:00:00Z,a.example,https://a.example/old/x',
  '2024-01-12T12:00:00Z,a.example,https://a.example/new/x',
  'nonsense,a.example,https://a.example/',
  ',a.example,https://a.example/',
  '1704067200,b.example,https://b.example/x',
  '20240105000000,b.example,https://b.example/x',
  '[20/Jan/2024:06:00:00 +0000],b.example,https://b.example/x',
  '2024-01-05,c.example,https://c.example/x',
  '2024-01-05,a.example,not a url',
];

/** classify INPUT as of a time, judging Googlebot against the history cache, with more arguments. */
function classifyAsOf(input: string, ...args: string[]) {
  return runCli(['classify', input, '--agent', 'Googlebot', '--cache', cachePath, ...args]);
}

function write(name: string, text: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

describe('classify as of a time (--at-column, --as-of)', () => {
  it('judges each row under the version in force at its time: no_history before the first, grace after a change, bad_time rows', async () => {
    const input = write('log.csv', `${LOG.join('\n')}\n`);
    const summaryPath = path.join(dir, 's.json');
    const r = await classifyAsOf(input, '--at-column', 'time', '--summary', summaryPath, '--quiet');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const rows = r.stdout.trimEnd().split('\n');
    expect(rows).toEqual([
      'time,host,url,allowed,verdict,rule_line,rule,grace,robots_status,error_code',
      '2023-12-31T00:00:00Z,a.example,https://a.example/new/x,,no_history,,,,,before_first_version',
      '2024-01-03T00:00:00Z,a.example,https://a.example/new/x,true,allowed_implicit,,,,200,',
      '2024-01-03T00:00:00Z,a.example,https://a.example/old/x,false,disallowed_explicit,2,Disallow: /old,false,200,',
      '2024-01-11T12:00:00Z,a.example,https://a.example/new/x,false,disallowed_explicit,2,Disallow: /new,true,200,',
      '2024-01-11T12:00:00Z,a.example,https://a.example/old/x,true,allowed_implicit,,,,200,',
      '2024-01-12T12:00:00Z,a.example,https://a.example/new/x,false,disallowed_explicit,2,Disallow: /new,false,200,',
      'nonsense,a.example,https://a.example/,,invalid_input,,,,,bad_time',
      ',a.example,https://a.example/,,invalid_input,,,,,bad_time',
      '1704067200,b.example,https://b.example/x,,no_history,,,,,before_first_version',
      '20240105000000,b.example,https://b.example/x,true,allowed_unavailable,,,,404,',
      '[20/Jan/2024:06:00:00 +0000],b.example,https://b.example/x,false,disallowed_unreachable,,,true,503,',
      '2024-01-05,c.example,https://c.example/x,,no_history,,,,,no_versions',
      '2024-01-05,a.example,not a url,,invalid_input,,,,,bad_url',
    ]);
    const s = JSON.parse(readFileSync(summaryPath, 'utf8'));
    expect(s.verdicts.Googlebot.no_history).toBe(3);
    expect(s.asOf).toMatchObject({
      column: 'time',
      graceSeconds: 86_400,
      rowsJudged: 7,
      noHistory: { no_versions: 1, before_first_version: 2, too_old: 0, redirect_unresolved: 0 },
      grace: { Googlebot: 2 },
    });
    expect(Object.values(s.asOf.versionAge).reduce((a: number, b) => a + (b as number), 0)).toBe(7);
    expect(s.topRules.Googlebot.map((t: { rule: string; rows: number }) => [t.rule, t.rows])).toEqual([
      ['Disallow: /new', 2],
      ['Disallow: /old', 1],
    ]);
  });

  it('judges versions that moved or appended to an earlier one as each file alone would', async () => {
    const paths = ['/a/x', '/a/b/x', '/a/b/c/x', '/b/x', '/c'];
    const lines = ['time,host,url'];
    const expected: string[] = [];
    for (const [k, body] of E_VERSIONS.entries()) {
      // Two days into each version: no earlier version within the grace.
      const time = new Date(D + (10 * k + 2) * DAY).toISOString();
      const [rules] = compileRobotsTxt(body, ['Googlebot', 'GPTBot']);
      for (const p of paths) {
        lines.push(`${time},e.example,https://e.example${p}`);
        const d = rules!.checkPath(p);
        const grace = d.verdict === 'disallowed_explicit' ? 'false' : '';
        expected.push(
          `${time},e.example,https://e.example${p},${d.allowed},${d.verdict},${d.line || ''},${d.rule},${grace},200,`,
        );
      }
    }
    const r = await classifyAsOf(write('e.csv', `${lines.join('\n')}\n`), '--at-column', 'time', '--quiet');
    expect(r.stderr).toBe('');
    expect(r.stdout.trimEnd().split('\n').slice(1)).toEqual(expected);
    // The moved and appended rules really are judged: lines 3, 7 and 8 decide in later versions.
    expect(expected.some((row) => row.includes(',7,Disallow: /b,'))).toBe(true);
    expect(expected.some((row) => row.includes(',8,Disallow: /a/b/c,'))).toBe(true);
  });

  it('gives each of several agents its grace, whether agents share their groups or not', async () => {
    const input = write(
      'agents.csv',
      [
        'time,host,url',
        '2024-01-11T12:00:00Z,d.example,https://d.example/b',
        '2024-01-11T12:00:00Z,d.example,https://d.example/g',
        '2024-01-11T12:00:00Z,a.example,https://a.example/new/x',
        '2024-01-12T12:00:00Z,d.example,https://d.example/b',
        '',
      ].join('\n'),
    );
    const summaryPath = path.join(dir, 'agents.json');
    const r = await runCli([
      'classify',
      input,
      '--cache',
      cachePath,
      '--at-column',
      'time',
      '--summary',
      summaryPath,
      '--quiet',
      ...['--agent', 'Googlebot', '--agent', 'GPTBot', '--agent', 'Bingbot'],
    ]);
    expect(r.code).toBe(0);
    const newX = 'false,disallowed_explicit,2,Disallow: /new,true';
    expect(r.stdout.trimEnd().split('\n').slice(1)).toEqual([
      '2024-01-11T12:00:00Z,d.example,https://d.example/b,false,disallowed_explicit,2,Disallow: /b,true,false,disallowed_explicit,6,Disallow: /b,true,false,disallowed_explicit,2,Disallow: /b,true,200,',
      '2024-01-11T12:00:00Z,d.example,https://d.example/g,true,allowed_implicit,,,,false,disallowed_explicit,5,Disallow: /g,false,true,allowed_implicit,,,,200,',
      `2024-01-11T12:00:00Z,a.example,https://a.example/new/x,${newX},${newX},${newX},200,`,
      '2024-01-12T12:00:00Z,d.example,https://d.example/b,false,disallowed_explicit,2,Disallow: /b,false,false,disallowed_explicit,6,Disallow: /b,false,false,disallowed_explicit,2,Disallow: /b,false,200,',
    ]);
    const s = JSON.parse(readFileSync(summaryPath, 'utf8'));
    expect(s.asOf.grace).toEqual({ Googlebot: 2, GPTBot: 2, Bingbot: 2 });
    expect(s.verdicts.GPTBot.disallowed_explicit).toBe(4);
    expect(s.verdicts.Bingbot.disallowed_explicit).toBe(3);
  });

  it('gives the same output with one worker and with several', async () => {
    const input = write(
      'many.csv',
      `time,host,url\n${Array.from({ length: 3000 }, (_, i) => LOG[1 + (i % (LOG.length - 1))]).join('\n')}\n`,
    );
    const run = (threads: string) =>
      classifyAsOf(input, '--at-column', 'time', '--threads', threads, '--quiet');
    const [one, two] = await Promise.all([run('1'), run('2')]);
    expect(one.code).toBe(0);
    expect(one.stdout.split('\n')).toHaveLength(3002);
    expect(two.stdout).toBe(one.stdout);
  });

  it('sends each row with its time to the worker that owns its origin: every body compiled once, the same output and figures', async () => {
    // 6,000 rows (several batches) over 40 origins, fewer than a peer adopts an origin after.
    const lines = ['time,host,url'];
    for (let r = 0; r < 6000; r++) {
      const h = (r * 7) % MANY_HOSTS;
      const t = new Date(D - DAY + ((r * 7919) % (32 * 24)) * 3_600_000).toISOString();
      lines.push(`${t},h${h}.example,https://h${h}.example/${r % 2 === 0 ? 'p' : 'q'}${h}/${r}`);
    }
    const input = write('routed.csv', `${lines.join('\n')}\n`);
    const run = async (threads: string) => {
      const summary = path.join(dir, `routed-${threads}.json`);
      const r = await classifyAsOf(
        input,
        '--at-column',
        'time',
        '--threads',
        threads,
        '--summary',
        summary,
        '--quiet',
      );
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      return { out: r.stdout, s: JSON.parse(readFileSync(summary, 'utf8')) };
    };
    const one = await run('1');
    const two = await run('2');
    expect(one.out.split('\n')).toHaveLength(6002);
    expect(two.out).toBe(one.out);
    expect(two.s.asOf).toEqual(one.s.asOf);
    expect(two.s.verdicts).toEqual(one.s.verdicts);
    expect(one.s.asOf.rowsJudged).toBeGreaterThan(5000);
    expect(one.s.asOf.grace.Googlebot).toBeGreaterThan(0);
    // Two distinct bodies per origin, compiled by its owner only (a worker judging its own rows would
    // compile the bodies of every origin it meets).
    expect(two.s.origins.compiled).toBe(2 * MANY_HOSTS);
  });

  it('judges every row at one time with --as-of, without grace when --grace is 0, and names the version with --evidence', async () => {
    const input = write(
      'urls.csv',
      'host,url\na.example,https://a.example/new/x\nb.example,https://b.example/\n',
    );
    const r = await classifyAsOf(
      input,
      '--as-of',
      '2024-01-11T06:00:00Z',
      '--grace',
      '0',
      '--evidence',
      '--quiet',
    );
    expect(r.code).toBe(0);
    const [header, a, b] = r.stdout.trimEnd().split('\n');
    expect(header).toBe(
      'host,url,allowed,verdict,rule_line,rule,grace,robots_status,error_code,robots_url,fetched_at,robots_sha256,robots_truncated,version_from,version_source',
    );
    expect(a).toMatch(
      /^a\.example,https:\/\/a\.example\/new\/x,false,disallowed_explicit,2,Disallow: \/new,false,200,,https:\/\/a\.example\/robots\.txt,2024-01-11T00:00:00\.000Z,[0-9a-f]{64},false,2024-01-11T00:00:00\.000Z,fetch$/,
    );
    expect(b).toBe(
      'b.example,https://b.example/,true,allowed_unavailable,,,,404,,https://b.example/robots.txt,2024-01-03T00:00:00.000Z,,,2024-01-03T00:00:00.000Z,fetch',
    );
  });

  it('says no_history too_old when the version in force was last seen longer than --max-history-age before', async () => {
    const input = write(
      'late.csv',
      'time,host,url\n2024-03-01T00:00:00Z,a.example,https://a.example/x\n2024-01-12T00:00:00Z,a.example,https://a.example/x\n',
    );
    const r = await classifyAsOf(input, '--at-column', 'time', '--max-history-age', '7d', '--quiet');
    expect(r.code).toBe(0);
    expect(
      r.stdout
        .trimEnd()
        .split('\n')
        .slice(1)
        .map((l) => l.split(',').slice(3).join(',')),
    ).toEqual([',no_history,,,,,too_old', 'true,allowed_implicit,,,,200,']);
  });

  it('refuses a missing time column, two time sources, and a robots directory, in one line each', async () => {
    const input = write('bad.csv', 'host,url\na.example,https://a.example/\n');
    const missing = await classifyAsOf(input, '--at-column', 'when');
    expect(missing.code).toBe(3);
    expect(missing.stderr).toMatch(/no `when` column/);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    const both = await classifyAsOf(input, '--at-column', 'time', '--as-of', '2024-01-01');
    expect(both.code).toBe(2);
    const dirToo = await classifyAsOf(input, '--as-of', '2024-01-01', '--robots-dir', dir);
    expect(dirToo.code).toBe(2);
    const badTime = await classifyAsOf(input, '--as-of', 'last tuesday');
    expect(badTime.code).toBe(2);
    expect(badTime.stderr).toMatch(/Invalid option `asOf`/);
    const none = path.join(dir, 'none.sqlite');
    const noCache = await runCli([
      'classify',
      input,
      '--as-of',
      '2024-01-01',
      '--agent',
      'G',
      '--cache',
      none,
    ]);
    expect(noCache.code).toBe(3);
  });

  it('merges the summaries of host shards of an as-of run into the single run’s figures', async () => {
    const rows = Array.from({ length: 400 }, (_, i) => LOG[1 + (i % (LOG.length - 1))]);
    const input = write('sharded.csv', `time,host,url\n${rows.join('\n')}\n`);
    const run = (extra: string[], summary: string) =>
      classifyAsOf(
        input,
        '--at-column',
        'time',
        '--summary',
        path.join(dir, summary),
        '-o',
        path.join(dir, `${summary}.csv`),
        '--quiet',
        ...extra,
      );
    const results = await Promise.all([
      run([], 'single.json'),
      run(['--shard', '1/2'], 'shard-1.json'),
      run(['--shard', '2/2'], 'shard-2.json'),
    ]);
    for (const r of results) expect(r.code).toBe(0);
    const merged = await runCli(['merge', path.join(dir, 'shard-1.json'), path.join(dir, 'shard-2.json')]);
    expect(merged.code).toBe(0);
    const single = JSON.parse(readFileSync(path.join(dir, 'single.json'), 'utf8'));
    const all = JSON.parse(merged.stdout);
    expect(all.asOf).toEqual(single.asOf);
    expect(all.verdicts).toEqual(single.verdicts);
    expect(all.topRules).toEqual(single.topRules);
    // Both shards had rows judged as of a time: the merge really added them up.
    const parts = ['shard-1.json', 'shard-2.json'].map((f) =>
      JSON.parse(readFileSync(path.join(dir, f), 'utf8')),
    );
    for (const p of parts) expect(p.asOf.rowsJudged).toBeGreaterThan(0);
  });
});
