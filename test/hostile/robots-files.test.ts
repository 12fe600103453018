/**
 * --robots-dir entries that are no plain small file: a FIFO no one writes, a link to /dev/zero, a
 * directory, a huge sparse file, a file past 500 KiB. The run ends, and each origin gets the documented
 * answer: regular files are parsed up to 500 KiB (robots_truncated says when cut), anything else is
 * unreadable (disallow all).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { tempDir, writeRobots } from '../pipeline/classify-data.js';

const dir = tempDir('ra-hostile-robots-');
const pad = `# ${'x'.repeat(1000)}\n`.repeat(520);
const robots = writeRobots(dir, {
  'big.example.txt': `User-agent: *\nDisallow: /early\n${pad}Disallow: /late\n`,
  'plain.example.txt': 'User-agent: *\nDisallow: /late\n',
  'sparse.example.txt': '',
});
spawnSync('mkfifo', [path.join(robots, 'fifo.example.txt')]);
symlinkSync('/dev/zero', path.join(robots, 'zero.example.txt'));
symlinkSync(path.join(robots, 'plain.example.txt'), path.join(robots, 'link.example.txt'));
mkdirSync(path.join(robots, 'dir.example.txt'));
truncateSync(path.join(robots, 'sparse.example.txt'), 1 << 30);

/** host → [verdict, robots_status, robots_truncated] for the URL /late. */
const EXPECTED: Record<string, [string, string, string]> = {
  'fifo.example': ['disallowed_unreachable', 'ERR_ROBOTS_FILE', ''],
  'zero.example': ['disallowed_unreachable', 'ERR_ROBOTS_FILE', ''],
  'dir.example': ['disallowed_unreachable', 'ERR_ROBOTS_FILE', ''],
  'sparse.example': ['allowed_implicit', 'file', 'true'],
  'big.example': ['allowed_implicit', 'file', 'true'],
  'link.example': ['disallowed_explicit', 'file', 'false'],
};

describe('hostile --robots-dir entries', () => {
  let rows: Record<string, string>[] = [];
  let run: Awaited<ReturnType<typeof runCli>>;

  beforeAll(async () => {
    const input = path.join(dir, 'in.csv');
    const hosts = Object.keys(EXPECTED);
    writeFileSync(input, `host,url\n${hosts.map((h) => `${h},/late\nbig.example,/early\n`).join('')}`);
    const args = ['classify', input, '--robots-dir', robots, '--agent', 'G', '--evidence', '--quiet'];
    run = await runCli(args, { timeoutMs: 25_000 });
    rows = parse(run.stdout, { columns: true }) as Record<string, string>[];
  });

  it('the run ends, one row per record (a FIFO with no writer blocked a worker for good)', () => {
    expect([run.code, run.signal, run.stderr]).toEqual([0, null, '']);
    expect(rows).toHaveLength(2 * Object.keys(EXPECTED).length);
  });

  it.each(Object.entries(EXPECTED))('%s gets %j', (host, [verdict, status, truncated]) => {
    const row = rows.find((r) => r.host === host && r.url === '/late')!;
    expect([row.verdict, row.robots_status, row.robots_truncated]).toEqual([verdict, status, truncated]);
  });

  it('a file past 500 KiB keeps the rules of its first 500 KiB', () => {
    const early = rows.filter((r) => r.url === '/early').map((r) => r.verdict);
    expect(new Set(early)).toEqual(new Set(['disallowed_explicit']));
  });
});
