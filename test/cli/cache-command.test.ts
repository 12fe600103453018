/** `robots-audit cache stats|show|export|prune` spawned for real over a cache warmed by `fetch`. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MultiHostServer, ok, startMultiHostServer } from '../helpers/multi-host-server.js';
import { runCli } from '../helpers/run-cli.js';
import { sha256, tempDir } from '../pipeline/fetch/harness.js';

let srv: MultiHostServer;
let tmp: ReturnType<typeof tempDir>;
let cache: string;
const DAY = 24 * 3600 * 1000;
const V1 = 'User-agent: *\nDisallow: /v1\n';
const V2 = 'User-agent: *\nDisallow: /v2\n';

async function fetchAll(hosts: string[], extra: string[] = []) {
  const input = `url\n${hosts.map((h) => `${srv.origin(h)}/page`).join('\n')}\n`;
  const r = await runCli(
    [
      'fetch',
      '-',
      '--cache',
      cache,
      '--resolve',
      '*=127.0.0.1',
      '--allow-private',
      '--retries',
      '0',
      ...extra,
    ],
    { input },
  );
  expect(r.code).toBe(0);
}

beforeAll(async () => {
  srv = await startMultiHostServer();
  tmp = tempDir();
  cache = join(tmp.dir, 'cache.sqlite');
  srv.set('one.test', ok(V1, { etag: '"e1"' }));
  srv.set('two.test', ok(V1));
  srv.set('gone.test', { kind: 'respond', status: 404 });
  srv.set('down.test', { kind: 'respond', status: 503 });
  await fetchAll(['one.test', 'two.test', 'gone.test', 'down.test']);
  // A second version of one.test: the first stays in history.
  srv.set('one.test', ok(V2));
  await fetchAll(['one.test'], ['--max-age', '0']);
});
afterAll(async () => {
  await srv.close();
  tmp.cleanup();
});

const origin = (h: string) => `http://${h}:${srv.httpPort}`;

describe('cache stats', () => {
  it('counts origins by outcome, versions and distinct bodies', async () => {
    const r = await runCli(['cache', 'stats', '--cache', cache, '--json']);
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout);
    expect(s).toMatchObject({
      schemaVersion: 2,
      origins: 4,
      outcomes: { parsed: 2, unavailable: 1, unreachable: 1 },
      // one.test's last fetch ran with --max-age 0, so it expired at once.
      fresh: 3,
      expired: 1,
      versions: 5,
      bodies: 2, // V1 is shared by two.test and one.test's old version
      bodyBytes: V1.length + V2.length,
    });
  });

  it('prints text by default', async () => {
    const r = await runCli(['cache', 'stats', '--cache', cache]);
    expect(r.stdout).toContain('origins    4 (fresh 3, expired 1)');
    expect(r.stdout).toContain('outcomes   parsed 2, unavailable 1, unreachable 1');
  });
});

describe('cache show', () => {
  it('lists every version with its time span, current body last', async () => {
    const r = await runCli(['cache', 'show', origin('one.test'), '--cache', cache]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`${origin('one.test')} (2 versions)`);
    expect(r.stdout).toMatch(/→ \d{4}-.*parsed {2}status 200, 28 bytes sha256 /);
    expect(r.stdout).toMatch(/→ now {2}parsed/);
    expect(r.stdout).toContain('  | Disallow: /v2');
  });

  it('--json gives versions with bodies in base64, history first', async () => {
    const r = await runCli(['cache', 'show', origin('one.test'), '--cache', cache, '--json']);
    const { versions } = JSON.parse(r.stdout);
    expect(versions.map((v: { sha256: string }) => v.sha256)).toEqual([sha256(V1), sha256(V2)]);
    expect(Buffer.from(versions[1].body, 'base64').toString()).toBe(V2);
    expect(versions[0].validTo).toBe(versions[1].validFrom);
    expect(versions[0].etag).toBe('"e1"');
  });

  it('a bare host shows the origins of that host', async () => {
    const r = await runCli(['cache', 'show', 'gone.test', '--cache', cache]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`${origin('gone.test')} (1 version)`);
    expect(r.stdout).toContain('unavailable  status 404');
  });

  it('an origin not in the cache: exit 1 with one line', async () => {
    const r = await runCli(['cache', 'show', 'https://elsewhere.test', '--cache', cache]);
    expect(r).toMatchObject({
      code: 1,
      stdout: '',
      stderr: 'robots-audit: no cached policy for https://elsewhere.test\n',
    });
  });
});

describe('cache export', () => {
  it('writes every version as a JSON line, bodies in base64', async () => {
    const out = join(tmp.dir, 'export.jsonl');
    const r = await runCli(['cache', 'export', '--cache', cache, '-o', out]);
    expect(r.code).toBe(0);
    const stdout = (await runCli(['cache', 'export', '--cache', cache])).stdout;
    const lines = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(5);
    const byOrigin = (h: string) => lines.filter((l) => l.origin === origin(h));
    expect(byOrigin('one.test').map((l) => Buffer.from(l.body, 'base64').toString())).toEqual([V1, V2]);
    expect(byOrigin('down.test')[0]).toMatchObject({ outcome: 'unreachable', status: 503, body: null });
    expect(readFileSync(out, 'utf8')).toBe(stdout);
  });
});

describe('cache prune', () => {
  it('removes origins not confirmed and versions ended more than DAYS ago, and unreferenced bodies', async () => {
    const copy = join(tmp.dir, 'prune.sqlite');
    const db = new Database(cache);
    await db.backup(copy);
    db.close();
    const aged = new Database(copy);
    // two.test was last seen 40 days ago; one.test's old version ended 40 days ago.
    aged
      .prepare(
        'UPDATE versions SET fetched_at = fetched_at - ?, valid_from = valid_from - ? WHERE origin = ?',
      )
      .run(40 * DAY, 40 * DAY, origin('two.test'));
    aged
      .prepare(
        'UPDATE versions SET valid_to = valid_to - ?, valid_from = valid_from - ?, fetched_at = fetched_at - ? WHERE origin = ? AND valid_to IS NOT NULL',
      )
      .run(40 * DAY, 41 * DAY, 40 * DAY, origin('one.test'));
    aged.close();
    const r = await runCli(['cache', 'prune', '--older-than', '30', '--cache', copy, '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ origins: 1, historyVersions: 1, bodies: 1 });
    const s = JSON.parse((await runCli(['cache', 'stats', '--cache', copy, '--json'])).stdout);
    expect(s).toMatchObject({ origins: 3, versions: 3, bodies: 1, bodyBytes: V2.length });
  });

  it('--older-than is required and must be a whole number of days', async () => {
    expect((await runCli(['cache', 'prune', '--cache', cache])).code).toBe(2);
    const r = await runCli(['cache', 'prune', '--cache', cache, '--older-than', 'soon']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Invalid option `olderThan`');
  });
});

describe('cache merge', () => {
  /** A second cache, fetched by another run: one.test again (same current body) and a new origin. */
  async function otherCache(): Promise<string> {
    const other = join(tmp.dir, 'other.sqlite');
    srv.set('three.test', ok(V1));
    const input = `url\n${srv.origin('one.test')}/page\n${srv.origin('three.test')}/page\n`;
    const r = await runCli(
      ['fetch', '-', '--cache', other, '--resolve', '*=127.0.0.1', '--allow-private', '--retries', '0'],
      { input },
    );
    expect(r.code).toBe(0);
    return other;
  }

  it('writes a new cache with every origin of both, which the other cache commands read', async () => {
    const other = await otherCache();
    const all = join(tmp.dir, 'all.sqlite');
    const r = await runCli(['cache', 'merge', cache, other, '-o', all, '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ inputs: 2, origins: 5 });
    const s = JSON.parse((await runCli(['cache', 'stats', '--cache', all, '--json'])).stdout);
    expect(s).toMatchObject({ origins: 5, bodies: 2 });
    const shown = await runCli(['cache', 'show', origin('one.test'), '--cache', all, '--json']);
    const versions = JSON.parse(shown.stdout).versions as { validTo: number | null }[];
    expect(versions.filter((v) => v.validTo === null)).toHaveLength(1);
  });

  it('bad uses are one line: no -o (exit 2), -o naming an input (exit 2), a newer cache (exit 3)', async () => {
    const noOutput = await runCli(['cache', 'merge', cache]);
    expect(noOutput.code).toBe(2);
    expect(noOutput.stderr.trim().split('\n')).toHaveLength(1);
    const over = await runCli(['cache', 'merge', cache, '-o', cache]);
    expect(over.code).toBe(2);
    expect(over.stderr).toBe(
      `robots-audit: -o ${cache} is one of the inputs: write the merged cache to a new file\n`,
    );
    const newer = join(tmp.dir, 'newer.sqlite');
    const db = new Database(newer);
    db.exec('CREATE TABLE schema_version (version INTEGER NOT NULL); INSERT INTO schema_version VALUES (7)');
    db.close();
    const r = await runCli(['cache', 'merge', cache, newer, '-o', join(tmp.dir, 'x.sqlite')]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^robots-audit: Cache .*newer\.sqlite has schema version 7, newer than/);
    expect(existsSync(join(tmp.dir, 'x.sqlite'))).toBe(false);
  });
});

describe('errors', () => {
  it('a cache file that does not exist: one line, exit 3, no file created', async () => {
    const missing = join(tmp.dir, 'missing.sqlite');
    const r = await runCli(['cache', 'stats', '--cache', missing]);
    expect(r.code).toBe(3);
    expect(r.stderr).toBe(
      `robots-audit: No cache at ${missing} (run \`robots-audit fetch\` first, or give --cache)\n`,
    );
    expect(existsSync(missing)).toBe(false);
  });

  it('no subcommand: usage error', async () => {
    const r = await runCli(['cache', '--cache', cache]);
    expect(r.code).toBe(2);
  });
});
