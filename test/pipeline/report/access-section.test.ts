import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AccessTally, mergeAccess } from '../../../src/pipeline/report/access-section.js';
import { CachePolicyLookup } from '../../../src/pipeline/report/policy-cache-lookup.js';
import { DirPolicyLookup } from '../../../src/pipeline/report/policy-dir-lookup.js';
import type { PolicyLookup } from '../../../src/pipeline/report/policy-lookup.js';
import { observation, seedCache } from '../cache/cache-fixtures.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'access-section-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const FILES: Record<string, string> = {
  'closed.example.txt': 'User-agent: *\nDisallow: /\n',
  'ai.example.txt': 'User-agent: *\nDisallow: /cgi-bin/\n\nUser-agent: GPTBot\nDisallow: /\n',
  'open.example.txt': 'User-agent: *\nDisallow:\n',
  'h_8080.txt': 'User-agent: GPTBot\nAllow: /\nDisallow: /\n',
};

function robotsDir(): string {
  const root = path.join(dir, 'robots');
  mkdirSync(root);
  for (const [name, body] of Object.entries(FILES)) writeFileSync(path.join(root, name), body);
  // A directory where a file should be: unreadable, so disallow all.
  mkdirSync(path.join(root, 'broken.example.txt'));
  return root;
}

function tally(lookup: PolicyLookup, rows: string[], opts = {}): ReturnType<AccessTally['finish']> {
  const t = new AccessTally(lookup, ['Googlebot', 'GPTBot'], opts);
  for (const site of rows) t.observe(site);
  return t.finish();
}

describe('AccessTally over a robots directory', () => {
  it('judges agents found in the data at the end as it judges the agents of interest as sites come', () => {
    const rows = [
      'https://ai.example',
      'https://closed.example',
      'https://open.example',
      'https://missing.example',
    ];
    const root = robotsDir();
    const late = new AccessTally(new DirPolicyLookup(root), ['Googlebot']);
    for (const site of rows) late.observe(site);
    const s = late.finish(['GPTBot', 'googlebot', 'ClaudeBot']);
    const early = new AccessTally(new DirPolicyLookup(root), ['Googlebot', 'GPTBot', 'ClaudeBot']);
    for (const site of rows) early.observe(site);
    // An agent already judged (any case) is not added twice.
    expect(s.agents).toEqual(['Googlebot', 'GPTBot', 'ClaudeBot']);
    expect(s).toEqual(early.finish());
    // Hand-checked: GPTBot has a group closing everything on ai.example, ClaudeBot falls to `*` there.
    expect(s.totals.GPTBot).toEqual({
      full: 2,
      partial: 0,
      none: 1,
      unavailable: 1,
      unreachable: 0,
      unknown: 0,
    });
    expect(s.totals.ClaudeBot).toEqual({
      full: 1,
      partial: 1,
      none: 1,
      unavailable: 1,
      unreachable: 0,
      unknown: 0,
    });
  });

  it('judges each distinct site once, per agent, and lists the busiest sites', () => {
    const rows = [
      'https://ai.example',
      'https://closed.example',
      'https://ai.example',
      'http://ai.example',
      'https://open.example',
      'https://missing.example',
      'https://broken.example',
      'http://h:8080',
      'mailto:robots@example.com',
      'https://ai.example',
    ];
    const s = tally(new DirPolicyLookup(robotsDir()), rows, { topSites: 2 });
    // Sites are origins: http://ai.example is another site with the same file.
    expect(s.sites).toBe(8);
    expect(s.exact).toBe(true);
    expect(s.totals).toEqual({
      Googlebot: { full: 1, partial: 2, none: 2, unavailable: 1, unreachable: 1, unknown: 1 },
      GPTBot: { full: 3, partial: 0, none: 2, unavailable: 1, unreachable: 1, unknown: 1 },
    });
    expect(s.topSites).toEqual([
      {
        site: 'https://ai.example',
        rows: 3,
        outcome: 'parsed',
        agents: {
          Googlebot: { access: 'partial', line: 2, rule: 'Disallow: /cgi-bin/' },
          GPTBot: { access: 'full', line: 5, rule: 'Disallow: /' },
        },
      },
      {
        site: 'http://ai.example',
        rows: 1,
        outcome: 'parsed',
        agents: {
          Googlebot: { access: 'partial', line: 2, rule: 'Disallow: /cgi-bin/' },
          GPTBot: { access: 'full', line: 5, rule: 'Disallow: /' },
        },
      },
    ]);
  });
});

describe('AccessTally over the cache', () => {
  it('uses the version in force now, and reads a cache it does not change', () => {
    const cache = path.join(dir, 'cache.sqlite');
    seedCache(cache, [
      observation('https://a.example', 'User-agent: *\nAllow: /\n', 1000),
      observation('https://a.example', 'User-agent: GPTBot\nDisallow: /\n', 2000),
      observation('https://down.example', null, 1000),
      observation('https://gone.example', null, 1000, { outcome: 'unavailable', status: 404 }),
    ]);
    const before = readFileSync(cache);
    const lookup = CachePolicyLookup.open(cache);
    const s = tally(lookup, [
      'https://a.example',
      'https://down.example',
      'https://gone.example',
      'https://x.example',
    ]);
    lookup.close();
    expect(readFileSync(cache).equals(before)).toBe(true);
    expect(s.totals).toEqual({
      Googlebot: { full: 0, partial: 0, none: 1, unavailable: 1, unreachable: 1, unknown: 1 },
      GPTBot: { full: 1, partial: 0, none: 0, unavailable: 1, unreachable: 1, unknown: 1 },
    });
    expect(s.topSites.map((r) => [r.site, r.outcome])).toEqual([
      ['https://a.example', 'parsed'],
      ['https://down.example', 'unreachable'],
      ['https://gone.example', 'unavailable'],
      ['https://x.example', 'none'],
    ]);
  });

  it('refuses a cache file that does not exist, by code', () => {
    expect(() => CachePolicyLookup.open(path.join(dir, 'nope.sqlite'))).toThrow(
      expect.objectContaining({ code: 'ERR_CACHE_MISSING' }),
    );
    expect(() => new DirPolicyLookup(path.join(dir, 'nope'))).toThrow(
      expect.objectContaining({ code: 'ERR_ROBOTS_DIR' }),
    );
  });
});

describe('bounded memory and merging', () => {
  it('says the figures are no longer exact once it forgot a site, and keeps the busiest', () => {
    const root = robotsDir();
    const rows: string[] = [];
    for (let i = 0; i < 50; i++) rows.push('https://closed.example');
    for (let i = 0; i < 30; i++) rows.push(`https://s${i}.example`, `https://s${i}.example`);
    // Forgotten sites seen again are judged again.
    for (let i = 0; i < 30; i++) rows.push(`https://s${i}.example`);
    const small = tally(new DirPolicyLookup(root), rows, { maxSites: 5, topSites: 1 });
    expect(small.exact).toBe(false);
    expect(small.sites).toBeGreaterThan(31);
    expect(small.topSites.map((r) => [r.site, r.rows])).toEqual([['https://closed.example', 50]]);
    const big = tally(new DirPolicyLookup(root), rows, { topSites: 1 });
    expect(big.exact).toBe(true);
    expect(big.sites).toBe(31);
    expect(big.totals.Googlebot!.unavailable).toBe(30);
  });

  it('merging the sections of two host shards gives the section of the whole', () => {
    const root = robotsDir();
    const rows = [
      'https://ai.example',
      'https://closed.example',
      'https://ai.example',
      'https://open.example',
      'https://missing.example',
      'https://open.example',
      'https://broken.example',
      'https://open.example',
    ];
    const shard = (k: number) => rows.filter((site) => site.length % 2 === k);
    const whole = tally(new DirPolicyLookup(root), rows, { topSites: 3 });
    const merged = mergeAccess(
      tally(new DirPolicyLookup(root), shard(0), { topSites: 3 }),
      tally(new DirPolicyLookup(root), shard(1), { topSites: 3 }),
    );
    expect(shard(0).length).toBeGreaterThan(0);
    expect(shard(1).length).toBeGreaterThan(0);
    expect(merged).toEqual(whole);
  });
});
