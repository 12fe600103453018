/** `robots-audit check` spawned for real (dist/): verdict lines, exit codes, bad arguments. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

let dir: string;
let robots: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'check-cmd-'));
  robots = join(dir, 'robots.txt');
  writeFileSync(
    robots,
    [
      'User-agent: *',
      'Disallow: /private',
      'Allow: /private/ok',
      '',
      'User-agent: Googlebot',
      'Disallow: /g/',
      'Disallow: /t\tab',
    ].join('\n'),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('robots-audit check', () => {
  it('prints url, allowed|disallowed, verdict, line, rule per URL and exits 1 if any is disallowed', async () => {
    const r = await runCli([
      'check',
      '--robots',
      robots,
      '--agent',
      'ExampleBot/1.0',
      'https://e.com/private/x',
      '/private/ok?q',
      'http://e.com:8080/',
    ]);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(
      [
        'https://e.com/private/x\tdisallowed\tdisallowed_explicit\t2\tDisallow: /private',
        '/private/ok?q\tallowed\tallowed_explicit\t3\tAllow: /private/ok',
        'http://e.com:8080/\tallowed\tallowed_implicit\t0\t',
        '',
      ].join('\n'),
    );
    expect(r.code).toBe(1);
  });

  it('exits 0 when every URL is allowed, and uses the group naming the agent', async () => {
    const r = await runCli([
      'check',
      '--robots',
      robots,
      '--agent',
      'googlebot',
      '/private/x',
      'https://e.com/robots.txt',
    ]);
    expect(r.stdout.split('\n')[0]).toBe('/private/x\tallowed\tallowed_implicit\t0\t');
    expect(r.code).toBe(0);
  });

  it('escapes tabs inside fields so every line keeps five columns', async () => {
    const r = await runCli(['check', '--robots', robots, '--agent', 'Googlebot', '/t\tab']);
    expect(r.stdout).toBe('/t\\tab\tdisallowed\tdisallowed_explicit\t7\tDisallow: /t\\tab\n');
    expect(r.code).toBe(1);
  });

  it.each([
    [['check', '--agent', 'A', '/x'], /Missing required argument: robots/],
    [['check', '--robots', 'R', '/x'], /Missing required argument: agent/],
    [['check', '--robots', 'R', '--agent', 'A'], /Not enough non-option arguments/],
    [['check', '--robots', 'R', '--agent', '', '/x'], /Invalid option `agents`/],
    [['check', '--robots', 'R', '--agent', 'a', '--agent', 'b', '/x'], /exactly one --agent/],
    [['check', '--robots', 'R', '--agent', 'a', '/x', '--bogus'], /Unknown option --bogus/],
  ])('bad arguments %j print one line and exit 2', async (args, message) => {
    const r = await runCli(args.map((a) => (a === 'R' ? robots : a)));
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(message);
  });

  it('reads the first 500 KiB of a larger robots file, and says so in one line on stderr', async () => {
    const big = join(dir, 'big.txt');
    const pad = `# ${'x'.repeat(1000)}\n`.repeat(520);
    writeFileSync(big, `User-agent: *\nDisallow: /early\n${pad}Disallow: /late\n`);
    const r = await runCli(['check', '--robots', big, '--agent', 'A', '/early', '/late']);
    expect(r.code).toBe(1);
    const verdicts = r.stdout.trim().split('\n');
    expect(verdicts.map((l) => l.split('\t')[1])).toEqual(['disallowed', 'allowed']);
    expect(r.stderr).toBe(`robots-audit: ${big} is larger than 500 KiB: only its first 500 KiB are parsed\n`);
  });

  it('a --robots device that never ends (/dev/zero) is read up to the same 500 KiB, not forever', async () => {
    const r = await runCli(['check', '--robots', '/dev/zero', '--agent', 'A', '/x'], { timeoutMs: 20_000 });
    expect([r.code, r.signal, r.stdout]).toEqual([0, null, '/x\tallowed\tallowed_implicit\t0\t\n']);
    expect(r.stderr).toMatch(/^robots-audit: \/dev\/zero is larger than 500 KiB/);
  });

  it('a directory as --robots is one line and exit 3', async () => {
    const r = await runCli(['check', '--robots', dir, '--agent', 'A', '/x']);
    expect(r.code).toBe(3);
    expect(r.stderr).toBe(`robots-audit: cannot read robots file ${dir}: EISDIR\n`);
  });

  it('an unreadable robots file is one line and exit 3', async () => {
    const r = await runCli(['check', '--robots', join(dir, 'missing.txt'), '--agent', 'A', '/x']);
    expect(r.code).toBe(3);
    expect(r.stderr).toBe(`robots-audit: cannot read robots file ${join(dir, 'missing.txt')}: ENOENT\n`);
  });
});
