import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { closestName, editDistance } from '../../src/cli/did-you-mean.js';
import { runCli } from '../helpers/run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'ra-typo-'));
const missing = join(dir, 'missing.csv');

describe('editDistance / closestName', () => {
  it('counts insertions, deletions, substitutions and swaps of neighbours as one edit each', () => {
    expect(editDistance('classify', 'classify')).toBe(0);
    expect(editDistance('clasify', 'classify')).toBe(1);
    expect(editDistance('agnet', 'agent')).toBe(1);
    expect(editDistance('timeot', 'timeout')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    // Optimal string alignment: a swapped pair is not edited again (`ca` → `abc` is 3, not 2).
    expect(editDistance('ca', 'abc')).toBe(3);
    expect(editDistance('', 'json')).toBe(4);
  });

  it('suggests the nearest name only when it is near enough, the first of equals', () => {
    expect(closestName('robot-dir', ['output', 'robots-dir', 'offline'])).toBe('robots-dir');
    expect(closestName('robotDir', ['output', 'robots-dir'])).toBe('robots-dir');
    expect(closestName('zzzzzz', ['agent', 'output'])).toBeUndefined();
    expect(closestName('q', ['o', 'agent'])).toBeUndefined();
    expect(closestName('stat', ['stats', 'show', 'export', 'prune'])).toBe('stats');
  });
});

describe('mistyped commands and options', () => {
  it.each([
    [['clasify', 'x.csv'], 'Unknown command "clasify". Did you mean "classify"?'],
    [['chek', '--robots', 'r', '--agent', 'G', '/a'], 'Unknown command "chek". Did you mean "check"?'],
    [['cache', 'stat'], 'Unknown command "cache stat". Did you mean "cache stats"?'],
    [['frobnicate'], 'Unknown command "frobnicate" (see --help)'],
    [['classify', missing, '--agnet', 'G'], 'Unknown option --agnet. Did you mean --agent?'],
    [
      ['classify', missing, '--agent', 'G', '--robot-dir', dir],
      'Unknown option --robot-dir. Did you mean --robots-dir?',
    ],
    [
      ['classify', missing, '--agent', 'G', '--robotDir', dir],
      'Unknown option --robotDir. Did you mean --robots-dir?',
    ],
    [['classify', missing, '--agent', 'G', '--zzzzzz', '1'], 'Unknown option --zzzzzz (see --help)'],
    [['classify', missing, '--agent', 'G', '-q'], 'Unknown option -q (see --help)'],
    [['fetch', missing, '--timeot', '3'], 'Unknown option --timeot. Did you mean --timeout?'],
    [['check', '--robots', 'r', '--agnt', 'G', '/a'], 'Unknown option --agnt. Did you mean --agent?'],
    [['cache', 'stats', '--jsn'], 'Unknown option --jsn. Did you mean --json?'],
    [['cache', 'prune', '--older-then', '3'], 'Unknown option --older-then. Did you mean --older-than?'],
    [['--hepl'], 'Unknown option --hepl. Did you mean --help?'],
  ])('%j: one line saying what is unknown and what was meant, exit 2', async (args, line) => {
    const r = await runCli(args);
    expect(r.stderr).toBe(`robots-audit: ${line}\n`);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
  });

  it('known spellings are not taken for typos: aliases, camelCase forms, negations', async () => {
    const r = await runCli([
      'classify',
      missing,
      '--agent',
      'G',
      '-o',
      join(dir, 'out.csv'),
      '--robotsDir',
      dir,
      '--no-evidence',
      '--quiet',
    ]);
    expect(r.stderr).toMatch(/^robots-audit: [^\n]*missing\.csv[^\n]*\n$/);
    expect(r.stderr).not.toMatch(/Unknown/);
    expect(r.code).toBe(3);
  });
});
