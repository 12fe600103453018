/**
 * A run whose origins cannot be fetched (no network, a refused address) says why in its summary: the
 * unreachable origins by cause, and, when every fetched origin was unreachable, what to do about it.
 * Nothing here reaches a network: `.invalid` names fail without a lookup (RFC 6761) and loopback is
 * refused by default.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { tempDir } from '../pipeline/classify-data.js';

const HINT = 'every origin fetched was unreachable';

describe('classify summary of unreachable origins', () => {
  it('names the causes and, when every fetched origin failed, suggests --robots-dir / --offline and --max-age 0', async () => {
    const dir = tempDir('ra-unreach-');
    const input = path.join(dir, 'in.csv');
    writeFileSync(
      input,
      'url\nhttps://a.invalid/x\nhttps://b.invalid/y\nhttp://127.0.0.1/z\nhttps://a.invalid/w\n',
    );
    const summary = path.join(dir, 'summary.json');
    const args = ['classify', input, '--agent', 'Googlebot', '--cache', path.join(dir, 'c.sqlite')];
    const r = await runCli([
      ...args,
      '-o',
      path.join(dir, 'out.csv'),
      '--summary',
      summary,
      '--retries',
      '0',
    ]);
    expect(r.code).toBe(0);
    const s = JSON.parse(readFileSync(summary, 'utf8'));
    expect(s.origins.unreachableBy).toEqual({ ERR_DNS: 2, ERR_BLOCKED_ADDRESS: 1 });
    expect(Object.keys(s.origins.unreachableBy)).toEqual(['ERR_DNS', 'ERR_BLOCKED_ADDRESS']);
    expect(r.stderr).toContain('unreachable origins (disallow all): ERR_DNS 2 · ERR_BLOCKED_ADDRESS 1');
    expect(r.stderr).toContain(HINT);
    expect(r.stderr).toContain('--offline');

    // From the cache the causes are still named, but nothing was fetched: no advice about the network.
    const again = await runCli([...args, '-o', path.join(dir, 'out2.csv'), '--offline']);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('ERR_DNS 2 · ERR_BLOCKED_ADDRESS 1');
    expect(again.stderr).not.toContain(HINT);
  });

  it('counts a robots-dir file that cannot be read as ERR_ROBOTS_FILE, with no network advice', async () => {
    const dir = tempDir('ra-unreach-dir-');
    const robots = path.join(dir, 'robots');
    mkdirSync(path.join(robots, 'a.test.txt'), { recursive: true });
    writeFileSync(path.join(robots, 'b.test.txt'), 'User-agent: *\nDisallow: /\n');
    const input = path.join(dir, 'in.csv');
    writeFileSync(input, 'url\nhttps://a.test/x\nhttps://b.test/y\nhttps://c.test/z\n');
    const summary = path.join(dir, 'summary.json');
    const r = await runCli([
      'classify',
      input,
      '--robots-dir',
      robots,
      '--agent',
      'G',
      '-o',
      '-',
      '--summary',
      summary,
    ]);
    expect(r.code).toBe(0);
    expect(JSON.parse(readFileSync(summary, 'utf8')).origins.unreachableBy).toEqual({ ERR_ROBOTS_FILE: 1 });
    expect(r.stderr).toContain('unreachable origins (disallow all): ERR_ROBOTS_FILE 1');
    expect(r.stderr).not.toContain(HINT);
  });

  it('says nothing about unreachable origins when there are none', async () => {
    const dir = tempDir('ra-unreach-none-');
    const robots = path.join(dir, 'robots');
    mkdirSync(robots);
    const input = path.join(dir, 'in.csv');
    writeFileSync(input, 'url\nhttps://a.test/x\n');
    const r = await runCli(['classify', input, '--robots-dir', robots, '--agent', 'G', '-o', '-']);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain('unreachable origins');
  });
});
