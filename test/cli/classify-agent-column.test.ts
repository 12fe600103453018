import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRobotsTxt } from '../../src/core/index.js';
import { PolicyCache } from '../../src/pipeline/cache/policy-cache.js';
import { type MultiHostServer, ok, startMultiHostServer } from '../helpers/multi-host-server.js';
import { runCli } from '../helpers/run-cli.js';

const dir = mkdtempSync(path.join(tmpdir(), 'ra-agent-column-'));
const robotsDir = path.join(dir, 'robots');

/** robots.txt by host; hosts without one have no file (allowed_unavailable). */
const ROBOTS: Record<string, string> = {
  'a.example': [
    'User-agent: GPTBot',
    'Disallow: /private',
    'Allow: /private/ok',
    '',
    'User-agent: Googlebot',
    'Disallow: /nogoogle',
    '',
    'User-agent: ClaudeBot',
    'User-agent: CCBot',
    'Disallow: /',
    '',
    'User-agent: *',
    'Disallow: /all',
  ].join('\n'),
  'b.example': 'User-agent: Googlebot-Image\nDisallow: /img\n\nUser-agent: *\nAllow: /\nDisallow: /x\n',
  'c.example': 'User-agent: ChatGPT-User\nDisallow: /chat\n\nUser-agent: GPTBot\nDisallow: /\n',
};

/** User-Agent cells and the token each is judged under (null: not a crawler), from the operators' docs. */
const AGENTS: [cell: string, token: string | null][] = [
  [
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
    'GPTBot',
  ],
  [
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot',
    'ChatGPT-User',
  ],
  ['Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 'Googlebot'],
  ['Googlebot-Image/1.0', 'Googlebot-Image'],
  [
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)',
    'ClaudeBot',
  ],
  ['CCBot/2.0 (https://commoncrawl.org/faq/)', 'CCBot'],
  ['GPTBot', 'GPTBot'],
  ['MyBot/2.1', 'MyBot'],
  [
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    null,
  ],
  [
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Mobile/15E148 Safari/604.1',
    null,
  ],
  ['-', null],
  ['', null],
];

const PATHS = ['/', '/private/x', '/private/ok', '/nogoogle', '/all', '/img/a.png', '/x', '/chat/1', '/open'];
const HOSTS = ['a.example', 'b.example', 'c.example', 'd.example'];

function csvField(s: string): string {
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** Rows cycling through hosts, paths and agents: every combination appears. */
function rows(n: number): [host: string, url: string, ua: string][] {
  return Array.from({ length: n }, (_, i) => {
    const host = HOSTS[i % HOSTS.length]!;
    const p = PATHS[Math.floor(i / HOSTS.length) % PATHS.length]!;
    const ua = AGENTS[Math.floor(i / (HOSTS.length * PATHS.length)) % AGENTS.length]![0];
    return [host, `https://${host}${p}?n=${i}`, ua];
  });
}

function write(name: string, text: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

function inputOf(name: string, list: [string, string, string][]): string {
  return write(name, `host,url,user_agent\n${list.map((r) => r.map(csvField).join(',')).join('\n')}\n`);
}

/** What core says for one URL and token (null: no robots.txt, allowed_unavailable). */
function expected(host: string, url: string, token: string): [string, string, string, string] {
  const body = ROBOTS[host];
  if (body === undefined) return ['true', 'allowed_unavailable', '', ''];
  const d = parseRobotsTxt(body).check(url, token);
  return [String(d.allowed), d.verdict, d.line === 0 ? '' : String(d.line), d.rule];
}

const tokenOf = new Map(AGENTS);

beforeAll(() => {
  mkdirSync(robotsDir);
  for (const [host, body] of Object.entries(ROBOTS)) writeFileSync(path.join(robotsDir, `${host}.txt`), body);
});

describe('classify --agent-column', () => {
  it('judges every row for its own crawler, as core does, with --agent agents after it (one and two threads)', async () => {
    // Several 64 KiB batches: with two threads both workers judge rows.
    const list = rows(AGENTS.length * HOSTS.length * PATHS.length * 6);
    const input = inputOf('log.csv', list);
    const outputs: string[] = [];
    for (const threads of ['1', '2']) {
      const summaryPath = path.join(dir, `s${threads}.json`);
      const r = await runCli([
        'classify',
        input,
        '--robots-dir',
        robotsDir,
        '--agent-column',
        'user_agent',
        '--agent',
        'Googlebot',
        '--agent',
        'Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)',
        '--threads',
        threads,
        '--summary',
        summaryPath,
        '--quiet',
      ]);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      outputs.push(r.stdout);
      const [header, ...out] = parse(r.stdout) as string[][];
      expect(header).toEqual([
        'host',
        'url',
        'user_agent',
        'agent',
        'allowed',
        'verdict',
        'rule_line',
        'rule',
        'allowed:Googlebot',
        'verdict:Googlebot',
        'rule_line:Googlebot',
        'rule:Googlebot',
        'allowed:GPTBot',
        'verdict:GPTBot',
        'rule_line:GPTBot',
        'rule:GPTBot',
        'robots_status',
        'error_code',
      ]);
      expect(out.length).toBe(list.length);
      const tally = new Map<string, number>();
      out.forEach((row, i) => {
        const [host, url, ua] = list[i]!;
        expect(row.slice(0, 3)).toEqual([host, url, ua]);
        const token = tokenOf.get(ua)!;
        if (token === null) expect(row.slice(3, 8)).toEqual(['', '', 'not_a_crawler', '', '']);
        else {
          expect(row[3]).toBe(token);
          expect(row.slice(4, 8)).toEqual(expected(host, url, token));
        }
        expect(row.slice(8, 12)).toEqual(expected(host, url, 'Googlebot'));
        expect(row.slice(12, 16)).toEqual(expected(host, url, 'GPTBot'));
        const key = token ?? '';
        tally.set(key, (tally.get(key) ?? 0) + 1);
      });
      const s = JSON.parse(readFileSync(summaryPath, 'utf8'));
      expect(s.notACrawler).toBe(tally.get(''));
      for (const [token, n] of tally) {
        if (token === '') continue;
        const a = s.rowAgents[token];
        expect(a.rows).toBe(n);
        expect(Object.values(a.verdicts).reduce((x: number, y) => x + (y as number), 0)).toBe(n);
      }
      expect(s.rowAgents.GPTBot).toMatchObject({ known: true, operator: 'OpenAI', purpose: 'ai_training' });
      expect(s.rowAgents.MyBot).toMatchObject({ known: false, operator: null, purpose: null });
      expect(s.verdicts.Googlebot).toBeDefined();
    }
    expect(outputs[1]).toBe(outputs[0]);
  });

  it('needs no --agent; one --agent is still suffixed; --evidence and line mode keep the order', async () => {
    const list = rows(60);
    const input = inputOf('small.csv', list);
    const alone = await runCli([
      'classify',
      input,
      '--robots-dir',
      robotsDir,
      '--agent-column',
      'user_agent',
      '--quiet',
    ]);
    expect(alone.code).toBe(0);
    expect(alone.stdout.split('\n')[0]).toBe(
      'host,url,user_agent,agent,allowed,verdict,rule_line,rule,robots_status,error_code',
    );
    const one = await runCli([
      'classify',
      input,
      ...[
        '--robots-dir',
        robotsDir,
        '--agent-column',
        'user_agent',
        '--agent',
        'CCBot',
        '--evidence',
        '--quiet',
      ],
    ]);
    expect(one.code).toBe(0);
    expect(one.stdout.split('\n')[0]).toBe(
      'host,url,user_agent,agent,allowed,verdict,rule_line,rule,allowed:CCBot,verdict:CCBot,rule_line:CCBot,rule:CCBot,robots_status,error_code,robots_url,fetched_at,robots_sha256,robots_truncated',
    );
    const lines = await runCli(
      [
        'classify',
        '-',
        ...['--no-header', '--columns', 'host,url,user_agent', '--robots-dir', robotsDir],
        ...['--agent-column', 'user_agent', '--quiet'],
      ],
      { input: `${list.map((r) => r.map(csvField).join(',')).join('\n')}\n` },
    );
    expect(lines.code).toBe(0);
    expect(lines.stdout).toBe(alone.stdout.slice(alone.stdout.indexOf('\n') + 1));
    const shards = await Promise.all(
      ['1/2', '2/2'].map((k) =>
        runCli([
          'classify',
          input,
          ...['--robots-dir', robotsDir, '--agent-column', 'user_agent', '--shard', k, '--quiet'],
        ]),
      ),
    );
    const body = (out: string) => out.trimEnd().split('\n').slice(1);
    expect(shards.map((r) => r.code)).toEqual([0, 0]);
    expect([...body(shards[0]!.stdout), ...body(shards[1]!.stdout)].sort()).toEqual(
      body(alone.stdout).sort(),
    );
  });

  it('refuses a column the header does not have, and a browser User-Agent as --agent', async () => {
    const input = inputOf('tiny.csv', rows(3));
    const r = await runCli(['classify', input, '--robots-dir', robotsDir, '--agent-column', 'ua']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('the input has no `ua` column');
    const browser = await runCli([
      'classify',
      input,
      ...['--robots-dir', robotsDir, '--agent', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Firefox/133.0'],
    ]);
    expect(browser.code).toBe(2);
    expect(browser.stderr).toContain('is a browser User-Agent, not a crawler');
    const none = await runCli(['classify', input, '--robots-dir', robotsDir]);
    expect(none.code).toBe(2);
  });

  it('as of a time: each row under the version then in force, for its own crawler, with grace', async () => {
    const DAY = 86_400_000;
    const D = Date.UTC(2024, 0, 1);
    const cachePath = path.join(dir, 'history.sqlite');
    const cache = new PolicyCache(cachePath);
    const see = (at: number, body: string) => {
      const b = Buffer.from(body);
      cache.record({
        origin: 'https://a.example',
        outcome: 'parsed',
        robotsUrl: 'https://a.example/robots.txt',
        finalUrl: 'https://a.example/robots.txt',
        status: 200,
        errorCode: null,
        body: b,
        sha256: createHash('sha256').update(b).digest('hex'),
        bytes: b.length,
        truncated: false,
        etag: null,
        lastModified: null,
        fetchedAt: at,
        expiresAt: at + DAY,
      });
    };
    see(D, 'User-agent: GPTBot\nDisallow: /old\n');
    see(D + 10 * DAY, 'User-agent: GPTBot\nDisallow: /new\n\nUser-agent: Googlebot\nDisallow: /g\n');
    cache.flush();
    cache.close();
    const log = [
      'time,host,url,ua',
      '2024-01-03T00:00:00Z,a.example,https://a.example/old/1,GPTBot/1.2',
      '2024-01-03T00:00:00Z,a.example,https://a.example/new/1,GPTBot',
      '2024-01-11T12:00:00Z,a.example,https://a.example/new/1,GPTBot',
      '2024-01-12T12:00:00Z,a.example,https://a.example/new/1,GPTBot',
      '2024-01-12T12:00:00Z,a.example,https://a.example/g,Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      '2024-01-12T12:00:00Z,a.example,https://a.example/g,-',
      '2023-12-12T12:00:00Z,a.example,https://a.example/g,GPTBot',
    ];
    const input = write('asof.csv', `${log.join('\n')}\n`);
    for (const threads of ['1', '2']) {
      const r = await runCli([
        'classify',
        input,
        ...['--cache', cachePath, '--at-column', 'time', '--agent-column', 'ua', '--agent', 'Googlebot'],
        ...['--threads', threads, '--quiet'],
      ]);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      // From the agent column on (the input's User-Agent cells have no comma).
      expect(
        r.stdout
          .trimEnd()
          .split('\n')
          .map((l) => l.split(',').slice(4).join(',')),
      ).toEqual([
        'agent,allowed,verdict,rule_line,rule,grace,allowed:Googlebot,verdict:Googlebot,rule_line:Googlebot,rule:Googlebot,grace:Googlebot,robots_status,error_code',
        'GPTBot,false,disallowed_explicit,2,Disallow: /old,false,true,allowed_implicit,,,,200,',
        'GPTBot,true,allowed_implicit,,,,true,allowed_implicit,,,,200,',
        // Replaced less than a day before: the previous version allowed /new.
        'GPTBot,false,disallowed_explicit,2,Disallow: /new,true,true,allowed_implicit,,,,200,',
        'GPTBot,false,disallowed_explicit,2,Disallow: /new,false,true,allowed_implicit,,,,200,',
        'Googlebot,false,disallowed_explicit,5,Disallow: /g,false,false,disallowed_explicit,5,Disallow: /g,false,200,',
        ',,not_a_crawler,,,,false,disallowed_explicit,5,Disallow: /g,false,200,',
        'GPTBot,,no_history,,,,,no_history,,,,,before_first_version',
      ]);
    }
  });

  describe('fetching live (127.0.0.1)', () => {
    let srv: MultiHostServer;
    beforeAll(async () => {
      srv = await startMultiHostServer();
      srv.set('rules.test', ok('User-agent: *\nDisallow: /private\n\nUser-agent: GPTBot\nDisallow: /\n'));
      srv.set('down.test', { kind: 'respond', status: 503 });
    });
    afterAll(() => srv.close());

    it('judges each row for its crawler under the fetched robots.txt, then offline from the cache', async () => {
      const cache = path.join(dir, 'live.sqlite');
      const input = [
        'url,ua',
        `${srv.origin('rules.test')}/public,GPTBot/1.2`,
        `${srv.origin('rules.test')}/public,Googlebot`,
        `${srv.origin('rules.test')}/private/a,Googlebot`,
        `${srv.origin('down.test')}/x,CCBot/2.0`,
        `${srv.origin('down.test')}/x,-`,
        '',
      ].join('\n');
      const want = [
        'GPTBot,false,disallowed_explicit,5,Disallow: /',
        'Googlebot,true,allowed_implicit,,',
        'Googlebot,false,disallowed_explicit,2,Disallow: /private',
        'CCBot,false,disallowed_unreachable,,',
        ',,not_a_crawler,,',
      ];
      const pinned = ['--cache', cache, '--resolve', '*=127.0.0.1', '--allow-private', '--retries', '0'];
      for (const mode of [['--timeout', '3'], ['--offline']]) {
        const r = await runCli(['classify', '-', ...pinned, ...mode, '--agent-column', 'ua', '--quiet'], {
          input,
        });
        expect(r.stderr).toBe('');
        expect(r.code).toBe(0);
        const out = parse(r.stdout) as string[][];
        expect(out.slice(1).map((row) => row.slice(2, 7).join(','))).toEqual(want);
      }
    });
  });
});
