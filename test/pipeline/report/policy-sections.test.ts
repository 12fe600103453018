import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AccessSection } from '../../../src/pipeline/report/access-section.js';
import { buildReport } from '../../../src/pipeline/report/build-report.js';
import type { ChangesSection } from '../../../src/pipeline/report/changes-section.js';
import { openPolicySections } from '../../../src/pipeline/report/policy-sections.js';
import { observation, seedCache } from '../cache/cache-fixtures.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'policy-sections-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const VERDICTS = [
  'url,allowed:GPTBot,verdict:GPTBot,rule_line:GPTBot,rule:GPTBot,robots_status,error_code',
  'https://a.example/page,false,disallowed_explicit,2,Disallow: /,200,',
  'https://a.example/caf\u00e9,false,disallowed_explicit,2,Disallow: /,200,',
  'https://b.example/x,true,allowed_implicit,,,200,',
  'https://b.example/y,true,allowed_implicit,,,200,',
  '',
].join('\n');

describe('openPolicySections', () => {
  it('is null without a policy source, and has no changes section with a robots directory', () => {
    expect(
      openPolicySections({ cache: undefined, robotsDir: undefined, since: 0, atColumn: undefined }, []),
    ).toBe(null);
    const robots = path.join(dir, 'robots');
    mkdirSync(robots);
    const s = openPolicySections({ cache: undefined, robotsDir: robots, since: 0, atColumn: undefined }, [
      'X',
    ])!;
    expect(s.hooks.wants).toBeUndefined();
    expect(s.changes()).toBe(null);
    expect((s.access() as AccessSection).sites).toBe(0);
  });

  it('feeds both sections from the rows of a verdicts file, through the report', async () => {
    const cache = path.join(dir, 'cache.sqlite');
    seedCache(cache, [
      observation('https://a.example', 'User-agent: *\nAllow: /\n', 1000),
      observation('https://a.example', 'User-agent: *\nDisallow: /\n', 5000),
      observation('https://b.example', 'User-agent: *\nDisallow: /x\n', 1000),
    ]);
    const input = path.join(dir, 'verdicts.csv');
    writeFileSync(input, VERDICTS);
    const now = new Date(6000);
    const sections = openPolicySections(
      { cache, robotsDir: undefined, since: 4000, atColumn: undefined },
      ['GPTBot', 'Googlebot'],
      now,
    )!;
    const report = await buildReport({ files: [input], sections, now });
    const access = report.access as AccessSection;
    expect(access.sites).toBe(2);
    expect(access.totals.GPTBot).toEqual({
      full: 1,
      partial: 1,
      none: 0,
      unavailable: 0,
      unreachable: 0,
      unknown: 0,
    });
    const changes = report.changes as ChangesSection;
    expect(changes.until).toBe('1970-01-01T00:00:06.000Z');
    expect(changes.changedSites).toBe(1);
    expect(changes.flips).toEqual({ GPTBot: { allowedToDisallowed: 2, disallowedToAllowed: 0 } });
    // The URL is kept as text, not as the bytes' latin1 view.
    expect(changes.topFlips[0]!.examples).toEqual(['https://a.example/caf\u00e9', 'https://a.example/page']);
    expect(changes.topFlips[0]!.rule).toEqual({ version: 'new', line: 2, rule: 'Disallow: /' });
  });
});
