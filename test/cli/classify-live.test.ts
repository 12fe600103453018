/**
 * `robots-audit classify` fetching live from the local multi-host server (every host pinned to
 * 127.0.0.1 with --resolve, --allow-private), then --offline from the cache it filled.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MultiHostServer, ok, startMultiHostServer } from '../helpers/multi-host-server.js';
import { CLI, runCli } from '../helpers/run-cli.js';
import { tempDir } from '../pipeline/classify-data.js';

let srv: MultiHostServer;
const dir = tempDir('ra-live-');
const cache = path.join(dir, 'cache.sqlite');
const pinned = ['--cache', cache, '--resolve', '*=127.0.0.1', '--allow-private', '--retries', '0'];
const local = [...pinned, '--timeout', '3'];

beforeAll(async () => {
  srv = await startMultiHostServer();
  srv.set('rules.test', ok('User-agent: *\nDisallow: /private\n\nUser-agent: GPTBot\nDisallow: /\n'));
  srv.set('gone.test', { kind: 'respond', status: 404 });
  srv.set('down.test', { kind: 'respond', status: 503 });
  srv.set('limit.test', { kind: 'respond', status: 429 });
  srv.set('reset.test', { kind: 'reset-mid-body' });
});
afterAll(() => srv.close());

function rowsOf(stdout: string): Record<string, string>[] {
  return parse(stdout, { columns: true }) as Record<string, string>[];
}

describe('classify with live fetching', () => {
  const input = () =>
    [
      'url',
      `${srv.origin('rules.test')}/private/a`,
      `${srv.origin('rules.test')}/public`,
      `${srv.origin('rules.test')}/private/b`,
      `${srv.origin('gone.test')}/x`,
      `${srv.origin('down.test')}/x`,
      `${srv.origin('limit.test')}/x`,
      `${srv.origin('reset.test')}/x`,
      '',
    ].join('\n');

  it('fetches each origin once and writes verdicts with the HTTP status or error code', async () => {
    const r = await runCli(
      ['classify', '-', ...local, '--agent', 'Googlebot', '--agent', 'GPTBot', '--quiet'],
      { input: input() },
    );
    expect(r.code).toBe(0);
    const rows = rowsOf(r.stdout);
    expect(rows.map((x) => [x['verdict:Googlebot'], x.robots_status])).toEqual([
      ['disallowed_explicit', '200'],
      ['allowed_implicit', '200'],
      ['disallowed_explicit', '200'],
      ['allowed_unavailable', '404'],
      ['disallowed_unreachable', '503'],
      ['disallowed_unreachable', '429'],
      ['disallowed_unreachable', rows[6]!.robots_status],
    ]);
    expect(rows[6]!.robots_status).toMatch(/^ERR_/);
    expect(rows.map((x) => x['verdict:GPTBot']).slice(0, 3)).toEqual(Array(3).fill('disallowed_explicit'));
    expect(rows[5]!['allowed:Googlebot']).toBe('false');
    expect(srv.hits('rules.test')).toBe(1);
  });

  it('--offline answers from the cache, and not_cached for origins it does not hold', async () => {
    srv.resetCounts();
    const extra = `${srv.origin('never.test')}/x\n`;
    const r = await runCli(
      ['classify', '-', '--cache', cache, '--offline', '--agent', 'Googlebot', '--quiet'],
      {
        input: input() + extra,
      },
    );
    expect(r.code).toBe(0);
    expect(srv.totalHits()).toBe(0);
    const rows = rowsOf(r.stdout);
    expect(rows.map((x) => x.verdict)).toEqual([
      'disallowed_explicit',
      'allowed_implicit',
      'disallowed_explicit',
      'allowed_unavailable',
      'disallowed_unreachable',
      'disallowed_unreachable',
      'disallowed_unreachable',
      'not_cached',
    ]);
    expect(rows[7]!.allowed).toBe('');
  });

  it('SIGINT mid-run: exit 130, no OUTPUT file, and the cache still opens', async () => {
    srv.set('slow.test', { kind: 'respond', status: 200, body: 'User-agent: *\n', delayMs: 20_000 });
    const out = path.join(dir, 'sig.csv');
    const child = spawn(
      process.execPath,
      [CLI, 'classify', '-', '-o', out, ...pinned, '--timeout', '30', '--agent', 'x'],
      {
        stdio: ['pipe', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => {
      stderr += b.toString();
    });
    const closed = new Promise<{ code: number | null; by: string | null }>((resolve) =>
      child.on('close', (c, by) => resolve({ code: c, by })),
    );
    child.stdin.on('error', () => {}); // the child may exit before it reads everything
    child.stdin.write(`url\n${srv.origin('slow.test')}/a\n`);
    for (let t = 0; t < 100 && srv.hits('slow.test') === 0; t++) await new Promise((r) => setTimeout(r, 50));
    expect(srv.hits('slow.test')).toBe(1);
    child.kill('SIGINT');
    const end = await closed;
    expect(end.code, `ended by signal ${end.by}; stderr: ${stderr}`).toBe(130);
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(dir).filter((f) => f.startsWith('.sig.csv'))).toEqual([]);
    const db = new Database(cache, { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      db.close();
    }
  });
});

it('keeps dozens of batches waiting on a slow policy without a listener-leak warning', async () => {
  // 64 KiB batches: ~1.6 MB of rows behind one slow host fill the window (16 batches per worker).
  srv.set('slower.test', {
    kind: 'respond',
    status: 200,
    body: 'User-agent: *\nDisallow: /s\n',
    delayMs: 300,
  });
  const lines = ['url'];
  for (let i = 0; i < 24_000; i++) lines.push(`${srv.origin('slower.test')}/s/${'x'.repeat(40)}/${i}`);
  writeFileSync(path.join(dir, 'many.csv'), `${lines.join('\n')}\n`);
  const out = path.join(dir, 'many-out.csv');
  for (const target of [['-o', out], []]) {
    const r = await runCli([
      'classify',
      path.join(dir, 'many.csv'),
      ...target,
      ...local,
      '--agent',
      'x',
      '--quiet',
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(/MaxListenersExceededWarning|Warning/);
  }
  expect(rowsOf(readFileSync(out, 'utf8')).filter((x) => x.verdict === 'disallowed_explicit')).toHaveLength(
    24_000,
  );
});

it('keeps the rows of fast hosts flowing while a slow host is fetched (bounded window)', async () => {
  // Not a timing assertion: the run must finish with every row, the slow host's rows in place.
  srv.set('slowish.test', {
    kind: 'respond',
    status: 200,
    body: 'User-agent: *\nDisallow: /\n',
    delayMs: 500,
  });
  const lines = ['url'];
  for (let i = 0; i < 3000; i++)
    lines.push(`${srv.origin(i % 100 === 0 ? 'slowish.test' : 'rules.test')}/p${i}`);
  writeFileSync(path.join(dir, 'mixed.csv'), `${lines.join('\n')}\n`);
  const r = await runCli(['classify', path.join(dir, 'mixed.csv'), ...local, '--agent', 'x', '--quiet']);
  expect(r.code).toBe(0);
  const rows = rowsOf(r.stdout);
  expect(rows).toHaveLength(3000);
  expect(rows.filter((x) => x.verdict === 'disallowed_explicit' && x.url.includes('slowish'))).toHaveLength(
    30,
  );
});

it('judges live policies in the coordinator beside a worker as one thread does, each origin fetched once', async () => {
  // Two threads, the coordinator's and one worker; live runs keep 16 batches in flight per worker, so an input
  // of ≈ 25 batches is judged in both, and each origin is fetched by its owner alone.
  const hosts = 40;
  for (let h = 0; h < hosts; h++) srv.set(`t${h}.test`, ok(`User-agent: *\nDisallow: /d${h % 3}\n`));
  const lines = ['url'];
  const rows = 24_000;
  for (let i = 0; i < rows; i++)
    lines.push(`${srv.origin(`t${i % hosts}.test`)}/d${i % 4}/${'y'.repeat(40)}/${i}`);
  const input = path.join(dir, 'two-threads.csv');
  writeFileSync(input, `${lines.join('\n')}\n`);
  expect(readFileSync(input).length).toBeGreaterThan(20 * 64 * 1024);
  const outputs: string[] = [];
  for (const threads of ['1', '2']) {
    srv.resetCounts();
    const out = path.join(dir, `two-threads-${threads}.out.csv`);
    const fresh = [
      '--cache',
      path.join(dir, `two-threads-${threads}.sqlite`),
      ...pinned.slice(2),
      '--timeout',
      '3',
    ];
    const summary = path.join(dir, `two-threads-${threads}.json`);
    const r = await runCli([
      'classify',
      input,
      '-o',
      out,
      ...fresh,
      '--agent',
      'x',
      '--threads',
      threads,
      '--summary',
      summary,
      '--quiet',
    ]);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(readFileSync(summary, 'utf8')).threads).toBe(Number(threads));
    for (let h = 0; h < hosts; h++) expect(srv.hits(`t${h}.test`)).toBe(1);
    outputs.push(readFileSync(out, 'utf8'));
  }
  expect(outputs[1]).toBe(outputs[0]);
  const got = rowsOf(outputs[0]!);
  expect(got).toHaveLength(rows);
  const disallowed = Array.from({ length: rows }, (_, i) => i % 4 === (i % hosts) % 3).filter(Boolean).length;
  expect(got.filter((x) => x.verdict === 'disallowed_explicit')).toHaveLength(disallowed);
  expect(got.filter((x) => x.verdict === 'allowed_implicit')).toHaveLength(rows - disallowed);
});
