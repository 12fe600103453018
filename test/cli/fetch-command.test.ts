/**
 * `robots-audit fetch` spawned for real (dist/) against the local multi-host server: warming, summary,
 * input options, fatal errors, a SIGKILL mid-run, and two processes sharing one cache file.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { parse } from 'csv-parse/sync';
import { beforeEach, describe, expect, it } from 'vitest';
import { ok } from '../helpers/multi-host-server.js';
import { CLI, runCli } from '../helpers/run-cli.js';
import { useServerAndTempDir } from '../pipeline/fetch/harness.js';

const env = useServerAndTempDir();
let cache: string;
let n = 0;

beforeEach(() => {
  cache = join(env.tmp.dir, `c${++n}.sqlite`);
  env.srv.resetCounts();
});

const local = () => ['--cache', cache, '--resolve', '*=127.0.0.1', '--allow-private', '--retries', '0'];

function csv(rows: string[][]): string {
  return `${rows.map((r) => r.join(',')).join('\n')}\n`;
}

function currentRows(path: string): Array<{ origin: string; outcome: string }> {
  const db = new Database(path, { readonly: true });
  try {
    return db
      .prepare('SELECT origin, outcome FROM versions WHERE valid_to IS NULL ORDER BY origin')
      .all() as Array<{
      origin: string;
      outcome: string;
    }>;
  } finally {
    db.close();
  }
}

function integrity(path: string): string {
  const db = new Database(path);
  try {
    return db.pragma('integrity_check', { simple: true }) as string;
  } finally {
    db.close();
  }
}

describe('warming the cache', () => {
  it('reads its input as classify does: gzip and UTF-16 are recognised by their first bytes', async () => {
    env.srv.set('gz.test', ok('User-agent: *\nDisallow: /\n'));
    const log = `url\r\n${env.srv.origin('gz.test')}/a\r\n`;
    const input = join(env.tmp.dir, `in${n}.txt`);
    writeFileSync(input, gzipSync(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(log, 'utf16le')])));
    const r = await runCli(['fetch', input, ...local()]);
    expect(r.code).toBe(0);
    expect(env.srv.hits('gz.test')).toBe(1);
    expect(currentRows(cache)).toEqual([{ origin: env.srv.origin('gz.test'), outcome: 'parsed' }]);
  });

  it("follows an Excel export's `sep=;` first line, as classify does", async () => {
    env.srv.set('sep.test', ok('User-agent: *\n'));
    const log = `\ufeffsep=;\r\nid;url\r\n1;${env.srv.origin('sep.test')}/a,b\r\n`;
    const r = await runCli(['fetch', '-', ...local()], { input: log });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('1 rows, 1 origins');
    expect(env.srv.hits('sep.test')).toBe(1);
  });

  it('fetches every origin of the input exactly once, then a second run needs no request', async () => {
    const hosts = Array.from({ length: 200 }, (_, i) => `w${i}.test`);
    for (const [i, h] of hosts.entries()) {
      env.srv.set(h, i % 4 === 3 ? { kind: 'respond', status: 404 } : ok(`User-agent: *\nDisallow: /${i}\n`));
    }
    const rows = [['url']];
    for (let i = 0; i < 2000; i++) rows.push([`${env.srv.origin(hosts[(i * 31) % 200]!)}/page/${i}?q=${i}`]);
    const input = join(env.tmp.dir, `in${n}.csv`);
    writeFileSync(input, csv(rows));
    const summaryFile = join(env.tmp.dir, `s${n}.json`);
    const first = await runCli(['fetch', input, ...local(), '--summary', summaryFile]);
    expect(first.stderr).toContain('robots-audit fetch: 2,000 rows, 200 origins');
    expect(first.stderr).toMatch(/parsed +150\n/);
    expect(first.stderr).toMatch(/unavailable +50\n/);
    expect(first.code).toBe(0);
    for (const h of hosts) expect(env.srv.hits(h)).toBe(1);
    expect(currentRows(cache)).toHaveLength(200);
    expect(JSON.parse(readFileSync(summaryFile, 'utf8'))).toMatchObject({
      command: 'fetch',
      rows: 2000,
      origins: 200,
      fetched: 200,
      byOutcome: { parsed: 150, unavailable: 50 },
      bySource: { fetch: 200 },
    });

    env.srv.resetCounts();
    const second = await runCli(['fetch', input, ...local()]);
    expect(second.code).toBe(0);
    expect(env.srv.totalHits()).toBe(0);
    expect(second.stderr).toContain('(0 fetched, 0 retries)');
    expect(second.stderr).toContain('cache 200');
  });

  it('reads stdin (-), takes origins from the host column for path-only rows, honours --delimiter/--scheme', async () => {
    env.srv.set('tsv.test', ok('User-agent: *\n'));
    const input = `page\tsite\n/a\ttsv.test:${env.srv.httpPort}\n/b\ttsv.test:${env.srv.httpPort}\n\n/c\t\nmailto:x@y\tz\n`;
    const r = await runCli(
      [
        'fetch',
        '-',
        ...local(),
        '--delimiter',
        'tab',
        '--url-column',
        'page',
        '--host-column',
        'site',
        '--scheme',
        'http',
      ],
      { input },
    );
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('4 rows, 1 origins');
    expect(r.stderr).toContain('bad rows     2 (');
    expect(r.stderr).toContain('path_without_host 1');
    expect(r.stderr).toContain('unsupported_scheme 1');
    expect(env.srv.hits('tsv.test')).toBe(1);
    expect(currentRows(cache)).toEqual([
      { origin: `http://tsv.test:${env.srv.httpPort}`, outcome: 'parsed' },
    ]);
  });

  it('reads headerless lines with --no-header --columns, as classify in line mode does', async () => {
    env.srv.set('lines.test', ok('User-agent: *\nDisallow: /x\n'));
    const o = env.srv.origin('lines.test');
    const input = `lines.test,${o}/x\n\nlines.test,${o}/y\nnot a row\n`;
    const summaryFile = join(env.tmp.dir, `lines${n}.json`);
    const args = ['--no-header', '--columns', 'host,url'];
    const r = await runCli(['fetch', '-', ...local(), ...args, '--quiet', '--summary', summaryFile], {
      input,
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    // Every line is a record, the blank one too (classify answers it with a line of its own).
    expect(JSON.parse(readFileSync(summaryFile, 'utf8'))).toMatchObject({ rows: 4, badRows: 2, origins: 1 });
    expect(env.srv.hits('lines.test')).toBe(1);
    const c = await runCli(
      ['classify', '-', ...args, '--agent', 'a', '--cache', cache, '--offline', '-o', '-'],
      {
        input,
      },
    );
    expect(c.code).toBe(0);
    expect(c.stdout.split('\n').filter((l) => l.includes('disallowed_explicit'))).toHaveLength(1);
    expect(c.stdout).not.toContain('not_cached');
  });

  it('warms exactly the origins classify --offline then looks up, however messy the log', async () => {
    const hosts = ['q.test', 'extra.test', 'open.test', 'after1.test', 'after2.test'];
    for (const h of hosts) env.srv.set(h, ok('User-agent: *\n'));
    const o = (h: string) => env.srv.origin(h);
    const log = [
      'id,url',
      `1,"${o('q.test')}/a,b"`,
      // More fields than the header: classify judges no origin for it, so none is fetched.
      `2,${o('extra.test')}/x,more`,
      // An unclosed quote is one malformed record: the records after it are rows as usual.
      `3,"${o('open.test')}/unterminated`,
      `4,${o('after1.test')}/a`,
      `5,${o('after2.test')}/b`,
    ].join('\n');
    const summaryFile = join(env.tmp.dir, `s${n}.json`);
    const r = await runCli(['fetch', '-', ...local(), '--quiet', '--summary', summaryFile], { input: log });
    expect(r.code).toBe(0);
    expect(JSON.parse(readFileSync(summaryFile, 'utf8'))).toMatchObject({
      rows: 5,
      badRows: 2,
      badRowCodes: { extra_fields: 1, malformed_record: 1 },
      origins: 3,
    });
    expect(hosts.map((h) => env.srv.hits(h))).toEqual([1, 0, 0, 1, 1]);
    const c = await runCli(['classify', '-', '--agent', 'a', '--cache', cache, '--offline', '-o', '-'], {
      input: log,
    });
    expect(c.code).toBe(0);
    const verdicts = (parse(c.stdout, { columns: true }) as { verdict: string }[]).map((row) => row.verdict);
    expect(verdicts).toEqual([
      'allowed_implicit',
      'invalid_input',
      'invalid_input',
      'allowed_implicit',
      'allowed_implicit',
    ]);
  });

  it('--progress prints progress lines when stderr is not a terminal; --quiet prints nothing', async () => {
    for (let i = 0; i < 20; i++)
      env.srv.set(`p${i}.test`, { kind: 'respond', body: 'User-agent: *\n', delayMs: 150 });
    const input = csv([
      ['url'],
      ...Array.from({ length: 20 }, (_, i) => [`${env.srv.origin(`p${i}.test`)}/`]),
    ]);
    const loud = await runCli(['fetch', '-', ...local(), '--progress', '--concurrency', '2'], { input });
    expect(loud.stderr).toMatch(/^fetch: \d+ rows · \d+\/\d+ origins · \d+ in flight/m);
    const quiet = await runCli(['fetch', '-', '--cache', join(env.tmp.dir, 'q.sqlite'), '--quiet'], {
      input: 'url\n',
    });
    expect(quiet).toMatchObject({ code: 0, stderr: '' });
  });
});

describe('errors', () => {
  it('a missing input file: one line, exit 3', async () => {
    const r = await runCli(['fetch', join(env.tmp.dir, 'nope.csv'), '--cache', cache]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^robots-audit: cannot read the input .*nope\.csv: no such file\n$/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('no url column: one line, exit 3', async () => {
    const r = await runCli(['fetch', '-', '--cache', cache], { input: 'host,link\na,b\n' });
    expect(r.code).toBe(3);
    expect(r.stderr).toBe(
      'robots-audit: the input has no `url` column (header: "host", "link"); use --url-column\n',
    );
  });

  it('a bad option value: one line, exit 2', async () => {
    const r = await runCli(['fetch', '-', '--cache', cache, '--timeout', 'soon'], { input: 'url\n' });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'robots-audit: Invalid option `timeout`: expected a number > 0 and ≤ 3600, got "soon" (string)\n',
    );
  });

  it('a bad --resolve entry: exit 2', async () => {
    const r = await runCli(['fetch', '-', '--cache', cache, '--resolve', 'a.test=nowhere'], {
      input: 'url\n',
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Invalid option `resolve`');
  });

  it('a file that is not a cache: exit 3', async () => {
    const bogus = join(env.tmp.dir, 'bogus.sqlite');
    writeFileSync(bogus, 'this is not a database, just text that is long enough to have a header'.repeat(10));
    const r = await runCli(['fetch', '-', '--cache', bogus], { input: 'url\n' });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^robots-audit: Cannot open cache .*bogus\.sqlite/);
  });
});

describe('crash safety and sharing', () => {
  it('SIGKILL mid-run leaves a cache that opens, is consistent, and a second run completes', async () => {
    const hosts = Array.from({ length: 3000 }, (_, i) => `k${i}.test`);
    for (const h of hosts)
      env.srv.set(h, { kind: 'respond', body: `User-agent: *\nDisallow: /${h}\n`, delayMs: 20 });
    const input = join(env.tmp.dir, 'kill.csv');
    writeFileSync(input, csv([['url'], ...hosts.map((h) => [`${env.srv.origin(h)}/x`])]));
    const child = spawn(
      process.execPath,
      [CLI, 'fetch', input, ...local(), '--concurrency', '16', '--quiet'],
      {
        stdio: 'ignore',
      },
    );
    // Kill once some batches are committed and many fetches are still running.
    for (let i = 0; i < 400; i++) {
      await new Promise((r) => setTimeout(r, 25));
      if (existsSync(cache) && env.srv.totalHits() > 600) break;
    }
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    const hitsBefore = env.srv.totalHits();
    expect(hitsBefore).toBeGreaterThan(600);
    expect(hitsBefore).toBeLessThan(3000);

    expect(integrity(cache)).toBe('ok');
    const saved = currentRows(cache);
    expect(saved.length).toBeGreaterThan(0);
    expect(saved.length).toBeLessThanOrEqual(hitsBefore);
    expect(saved.every((r) => r.outcome === 'parsed')).toBe(true);

    env.srv.resetCounts();
    const again = await runCli(['fetch', input, ...local(), '--concurrency', '64']);
    expect(again.code).toBe(0);
    // What was committed before the kill is answered from the cache; only the rest is fetched.
    expect(env.srv.totalHits()).toBe(3000 - saved.length);
    expect(currentRows(cache)).toHaveLength(3000);
    expect(integrity(cache)).toBe('ok');
  });

  it('SIGINT: exit 130 after committing what was fetched so far', async () => {
    const hosts = Array.from({ length: 400 }, (_, i) => `int${i}.test`);
    for (const h of hosts) env.srv.set(h, { kind: 'respond', body: 'User-agent: *\n', delayMs: 100 });
    const input = join(env.tmp.dir, 'int.csv');
    writeFileSync(input, csv([['url'], ...hosts.map((h) => [`${env.srv.origin(h)}/`])]));
    const child = spawn(
      process.execPath,
      [CLI, 'fetch', input, ...local(), '--concurrency', '4', '--quiet'],
      {
        stdio: 'ignore',
      },
    );
    for (let i = 0; i < 400 && env.srv.totalHits() < 40; i++) await new Promise((r) => setTimeout(r, 25));
    child.kill('SIGINT');
    const code = await new Promise((r) => child.once('exit', (c) => r(c)));
    expect(code).toBe(130);
    const saved = currentRows(cache).length;
    // Only the ≤ 4 requests in flight are missing; without the handler's flush, the last half second of
    // results (the batch timer's span, ~20 origins here) would be missing too.
    expect(saved).toBeGreaterThanOrEqual(env.srv.totalHits() - 4);
    expect(saved).toBeLessThan(400);
  });

  it('two processes warming overlapping inputs into one file: both succeed, one current version per origin', async () => {
    const hosts = Array.from({ length: 400 }, (_, i) => `m${i}.test`);
    for (const h of hosts)
      env.srv.set(h, { kind: 'respond', body: `User-agent: *\nDisallow: /${h}\n`, delayMs: 2 });
    const a = join(env.tmp.dir, 'a.csv');
    const b = join(env.tmp.dir, 'b.csv');
    writeFileSync(a, csv([['url'], ...hosts.slice(0, 300).map((h) => [`${env.srv.origin(h)}/`])]));
    writeFileSync(b, csv([['url'], ...hosts.slice(100).map((h) => [`${env.srv.origin(h)}/`])]));
    const [ra, rb] = await Promise.all([runCli(['fetch', a, ...local()]), runCli(['fetch', b, ...local()])]);
    expect(ra.code).toBe(0);
    expect(rb.code).toBe(0);
    expect(integrity(cache)).toBe('ok');
    const rows = currentRows(cache);
    expect(rows).toHaveLength(400);
    expect(new Set(rows.map((r) => r.origin)).size).toBe(400);
  });
});
