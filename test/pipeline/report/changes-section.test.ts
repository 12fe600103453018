import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChangesTally, mergeChanges } from '../../../src/pipeline/report/changes-section.js';
import { observation, seedCache } from '../cache/cache-fixtures.js';

let dir: string;
let cache: string;

const A_OLD = 'User-agent: *\nDisallow: /private\n\nUser-agent: GPTBot\nAllow: /\n';
const A_NEW = 'User-agent: *\nDisallow: /private\n\nUser-agent: GPTBot\nDisallow: /\n';

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'changes-section-'));
  cache = path.join(dir, 'cache.sqlite');
  seedCache(cache, [
    observation('https://a.example', A_OLD, 1000),
    observation('https://b.example', 'User-agent: *\nDisallow: /x\n', 1000),
    observation('https://d.example', 'User-agent: *\nDisallow: /d1\n', 1000),
    observation('https://d.example', 'User-agent: *\nDisallow: /d2\n', 2000),
    observation('https://e.example', 'User-agent: *\nDisallow: /old\n', 1000),
    observation('https://a.example', A_NEW, 5000),
    observation('https://b.example', null, 5000),
    observation('https://c.example', 'User-agent: *\nDisallow: /\n', 5000),
    observation('https://e.example', 'User-agent: *\nDisallow:\n', 5500),
  ]);
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

type Row = [
  site: string,
  path: string,
  agent: string,
  verdict: string,
  line: number,
  rule: string,
  sha?: string,
];

/** Rows as classify judged them under the current versions. */
const ROWS: Row[] = [
  ['https://a.example', '/page', 'GPTBot', 'disallowed_explicit', 5, 'Disallow: /'],
  ['https://a.example', '/private/1', 'GPTBot', 'disallowed_explicit', 5, 'Disallow: /'],
  ['https://a.example', '/private/1', 'Googlebot', 'disallowed_explicit', 2, 'Disallow: /private'],
  ['https://a.example', '/z', 'Googlebot', 'allowed_implicit', 0, ''],
  ['https://a.example', '/q', 'GPTBot', 'not_cached', 0, ''],
  ['https://a.example', '/r', 'GPTBot', 'disallowed_explicit', 5, 'Disallow: /', 'not-the-current-sha'],
  ['https://b.example', '/y', 'Googlebot', 'disallowed_unreachable', 0, ''],
  ['https://b.example', '/x/1', 'Googlebot', 'disallowed_unreachable', 0, ''],
  ['https://c.example', '/', 'Googlebot', 'disallowed_explicit', 2, 'Disallow: /'],
  ['https://d.example', '/d2', 'Googlebot', 'disallowed_explicit', 2, 'Disallow: /d2'],
  ['https://e.example', '/old/a', 'Googlebot', 'allowed_explicit', 2, 'Disallow: '],
];

function run(rows: Row[], opts = {}) {
  const t = ChangesTally.open(cache, new Date(4000), new Date(6000), opts);
  for (const [site, p, agent, verdict, line, rule, sha] of rows) {
    if (!t.wants(site)) continue;
    t.observeRow(site, `${site}${p}`, agent, verdict, line, rule, sha === undefined ? {} : { sha256: sha });
  }
  const s = t.finish();
  t.close();
  return s;
}

const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

describe('ChangesTally', () => {
  it('diffs the version before the window with the current one, per group, and counts flips', () => {
    const before = sha(cache);
    const s = run(ROWS);
    expect(sha(cache)).toBe(before);
    expect(s.since).toBe('1970-01-01T00:00:04.000Z');
    expect(s.changedSites).toBe(3);
    expect(s.newSites).toBe(1);
    expect(s.outcomeChanges).toEqual({ 'parsed→parsed': 2, 'parsed→unreachable': 1 });
    expect(s.rowsCompared).toBe(7);
    expect(s.rowsSkipped).toBe(2);
    expect(s.flips).toEqual({
      GPTBot: { allowedToDisallowed: 2, disallowedToAllowed: 0 },
      Googlebot: { allowedToDisallowed: 1, disallowedToAllowed: 1 },
    });
    expect(s.topFlips).toEqual([
      {
        site: 'https://a.example',
        agent: 'GPTBot',
        allowedToDisallowed: 2,
        disallowedToAllowed: 0,
        examples: ['https://a.example/page', 'https://a.example/private/1'],
        rule: { version: 'new', line: 5, rule: 'Disallow: /' },
      },
      {
        site: 'https://b.example',
        agent: 'Googlebot',
        allowedToDisallowed: 1,
        disallowedToAllowed: 0,
        examples: ['https://b.example/y'],
        rule: null,
      },
      {
        site: 'https://e.example',
        agent: 'Googlebot',
        allowedToDisallowed: 0,
        disallowedToAllowed: 1,
        examples: ['https://e.example/old/a'],
        rule: { version: 'old', line: 2, rule: 'Disallow: /old' },
      },
    ]);
    const [a, b, e] = s.sites;
    expect(s.sites.map((x) => [x.site, x.rows])).toEqual([
      ['https://a.example', 6],
      ['https://b.example', 2],
      ['https://e.example', 1],
    ]);
    expect(a!.before).toMatchObject({
      outcome: 'parsed',
      status: 200,
      validFrom: '1970-01-01T00:00:01.000Z',
    });
    expect(a!.after).toMatchObject({ outcome: 'parsed', status: 200, validFrom: '1970-01-01T00:00:05.000Z' });
    expect(a!.versionsInWindow).toBe(1);
    expect(a!.groups).toEqual([
      {
        group: ['GPTBot'],
        change: 'changed',
        added: ['Disallow: /'],
        removed: ['Allow: /'],
        addedCount: 1,
        removedCount: 1,
      },
    ]);
    expect(b!.after).toMatchObject({ outcome: 'unreachable', status: 503, sha256: null });
    expect(b!.groups).toEqual([]);
    expect(e!.groups).toEqual([
      {
        group: ['*'],
        change: 'changed',
        added: ['Disallow: '],
        removed: ['Disallow: /old'],
        addedCount: 1,
        removedCount: 1,
      },
    ]);
  });

  it('a window that holds no new version changes nothing; one that ends before it sees the old file', () => {
    const t = ChangesTally.open(cache, new Date(6000), new Date(9000));
    expect(t.wants('https://a.example')).toBe(false);
    expect(t.finish()).toMatchObject({ changedSites: 0, newSites: 0, sites: [], topFlips: [], flips: {} });
    t.close();
    const early = ChangesTally.open(cache, new Date(1500), new Date(3000));
    expect(early.wants('https://d.example')).toBe(true);
    expect(early.wants('https://a.example')).toBe(false);
    const s = early.finish();
    early.close();
    expect(s.sites[0]!.groups).toEqual([
      {
        group: ['*'],
        change: 'changed',
        added: ['Disallow: /d2'],
        removed: ['Disallow: /d1'],
        addedCount: 1,
        removedCount: 1,
      },
    ]);
  });

  it('bounds what it lists and says so; notes rows judged as of a time', () => {
    const s = run(ROWS, { sitesLimit: 1, flipsLimit: 1, maxChangedSites: 2, asOf: true });
    expect(s.asOf).toBe(true);
    expect(s.sitesExact).toBe(false);
    expect(s.sites.map((x) => x.site)).toEqual(['https://a.example']);
    expect(s.topFlips.map((f) => [f.site, f.agent])).toEqual([['https://a.example', 'GPTBot']]);
  });

  it('merging the sections of two host shards gives the section of the whole', () => {
    const whole = run(ROWS);
    const shardOf = (site: string) => (site === 'https://a.example' || site === 'https://c.example' ? 0 : 1);
    const merged = mergeChanges(
      run(ROWS.filter((r) => shardOf(r[0]) === 0)),
      run(ROWS.filter((r) => shardOf(r[0]) === 1)),
    );
    expect(merged).toEqual(whole);
  });

  it('refuses a missing cache by code', () => {
    expect(() => ChangesTally.open(path.join(dir, 'none.sqlite'), new Date(0), new Date(1))).toThrow(
      expect.objectContaining({ code: 'ERR_CACHE_MISSING' }),
    );
  });
});

describe('ChangesTally within a small compile budget', () => {
  it('gives the same flips when it must compile the previous rules again', () => {
    const whole = run([...ROWS, ...ROWS]);
    const tight = run([...ROWS, ...ROWS], { maxCompiledBytes: 1 });
    expect(tight).toEqual(whole);
    expect(whole.flips.GPTBot).toEqual({ allowedToDisallowed: 4, disallowedToAllowed: 0 });
  });
});

describe('ChangesTally without rule texts in the data', () => {
  it('reads the rule of a flip from the current version by its line', () => {
    const t = ChangesTally.open(cache, new Date(4000), new Date(6000));
    expect(t.wants('https://a.example')).toBe(true);
    t.observeRow('https://a.example', 'https://a.example/page', 'GPTBot', 'disallowed_explicit', 5);
    const [flip] = t.finish().topFlips;
    t.close();
    expect(flip!.rule).toEqual({ version: 'new', line: 5, rule: 'Disallow: /' });
  });
});
