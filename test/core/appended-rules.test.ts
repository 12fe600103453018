// compileVersions: a later version's rules layered on an earlier version's decide exactly as a compile
// of the later file alone (decisions, lines, rule texts), and share the earlier tables when they can.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppendedRules, ShiftedRules } from '../../src/core/appended-rules.js';
import { type CompiledRules, compileRobotsTxt, compileVersions } from '../../src/core/index.js';
import { pathArb, pathFromPatternArb, patternArb, robotsWithPoolArb } from '../helpers/robots-arbitraries.js';

const AGENTS = ['Googlebot', 'FooBot', 'BarBot'];

/** Every way `rules` answers a path: the Decision, the rank's facts as the pipeline reads them, its listed rule. */
function answers(rules: CompiledRules, path: string) {
  const rank = rules.decide(path);
  return {
    decision: rules.checkPath(path),
    viaRank: rank < 0 ? null : [rules.allowedAt(rank), rules.lineAt(rank), rules.ruleAt(rank)],
    listed: rank < 0 ? null : rules.rules[rank],
    listedAll: rules.rules.length === rules.count && rules.rules.every(Object.isFrozen),
    url: rules.check(`https://example.com${path}`),
  };
}

function expectSameAsAlone(versions: string[], paths: string[]): CompiledRules[][] {
  const layered = compileVersions(versions, AGENTS);
  // One agent alone takes a path of its own (nothing to share between agents).
  const single = compileVersions(versions, AGENTS.slice(0, 1));
  const alone = versions.map((body) => compileRobotsTxt(body, AGENTS));
  versions.forEach((_, v) => {
    for (let a = 0; a < AGENTS.length; a++) {
      for (const p of paths) expect(answers(layered[v]![a]!, p)).toEqual(answers(alone[v]![a]!, p));
      expectBaseRanksAsBase(layered, alone, v, a, paths);
    }
    for (const p of paths) expect(answers(single[v]![0]!, p)).toEqual(answers(alone[v]![0]!, p));
    expectBaseRanksAsBase(single, alone, v, 0, paths);
  });
  return layered;
}

/** Version v's layered rules, read as the version they stand on (baseRanks), decide as that one alone. */
function expectBaseRanksAsBase(
  layered: CompiledRules[][],
  alone: CompiledRules[][],
  v: number,
  a: number,
  paths: string[],
): void {
  const r = layered[v]![a]!;
  const view = r instanceof AppendedRules ? r.baseRanks() : undefined;
  if (view === undefined) return;
  // Agents selecting the same groups share one layered object, on the first such agent's base.
  const j = layered.findIndex((rules) => rules.includes((r as AppendedRules).shared));
  expect(j).toBeGreaterThanOrEqual(0);
  expect(view.count).toBe(r.count);
  for (const p of paths) expect(answers(view, p)).toEqual(answers(alone[j]![a]!, p));
}

/** Groups appended to a file: a user-agent line and rules drawn from the file's pool or anywhere. */
const appendedArb = (pool: string[]) =>
  fc
    .array(
      fc.tuple(
        fc.constantFrom('*', 'FooBot', 'googlebot', 'Other'),
        fc.array(
          fc.tuple(fc.boolean(), fc.oneof(fc.constantFrom(...pool, '', '/', '/index.html'), patternArb)),
          { maxLength: 4 },
        ),
      ),
      { minLength: 1, maxLength: 2 },
    )
    .map((groups) =>
      groups
        .map(([agent, rules]) =>
          [
            `User-agent: ${agent}`,
            ...rules.map(([allow, p]) => `${allow ? 'Allow' : 'Disallow'}: ${p}`),
          ].join('\n'),
        )
        .join('\n'),
    );

describe('compileVersions', () => {
  it('decides every version exactly as compiling it alone does (property)', () => {
    fc.assert(
      fc.property(
        robotsWithPoolArb.chain(({ pool, body }) =>
          fc.record({
            body: fc.constant(body),
            appended: appendedArb(pool),
            paths: fc.array(
              fc.oneof(
                pathArb,
                fc.constantFrom(...pool).chain(pathFromPatternArb),
                fc.constant('/robots.txt'),
              ),
              { minLength: 1, maxLength: 6 },
            ),
          }),
        ),
        fc.constantFrom('\n', '\n\n', ''),
        ({ body, appended, paths }, gap) => {
          const later = `${body}${gap}${appended}\n`;
          // Appended, reverted, appended again, moved down by lines above (with and without appending),
          // a crawler's group put on top: every layering, shifting and reuse path is taken.
          expectSameAsAlone(
            [
              body,
              later,
              body,
              `${later}Disallow: /zz\n`,
              `# updated\n${body}`,
              `# updated\nSitemap: /s.xml\n\n${later}`,
              `User-agent: GPTBot\nDisallow: /\n\n${body}`,
            ],
            paths,
          );
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('shares the earlier rules when a version only appends groups, and layers when it extends a selection', () => {
    const base = 'User-agent: *\nDisallow: /a\nAllow: /a/b\nDisallow: /index.htm\n';
    const paths = ['/a', '/a/b', '/search', '/searching', '/robots.txt', '/x', '/index.htm'];
    const [v0, gpt, extended] = expectSameAsAlone(
      [
        base,
        `${base}\nUser-agent: GPTBot\nDisallow: /\n`,
        `${base}User-agent: *\nDisallow: /search\nDisallow: /\n`,
      ],
      paths,
    );
    // A group for another crawler changes nothing for these agents: the same object.
    expect(gpt![0]).toBe(v0![0]);
    // A `*` group appended: the earlier table plus the new rules, one object for agents that decide alike.
    expect(extended![0]).toBeInstanceOf(AppendedRules);
    expect(extended![1]).toBe(extended![0]);
    expect(extended![0]!.checkPath('/robots.txt').verdict).toBe('allowed_implicit');
    expect(extended![0]!.checkPath('/searching')).toEqual({
      allowed: false,
      verdict: 'disallowed_explicit',
      line: 6,
      rule: 'Disallow: /search',
    });
  });

  it('gives a tie of pattern length and kind to the earlier line, across the two versions', () => {
    const base = 'User-agent: *\nDisallow: /ab\nAllow: /x/\nDisallow: /zz1\nDisallow: /zz2\n';
    const [, later] = expectSameAsAlone(
      [base, `${base}User-agent: *\nDisallow: /a*\nAllow: /x*\nAllow: /a/\n`],
      ['/abc', '/x/y', '/a/b', '/a'],
    );
    expect(later![0]).toBeInstanceOf(AppendedRules);
    expect(later![0]!.checkPath('/abc')).toMatchObject({ line: 2, rule: 'Disallow: /ab' });
    expect(later![0]!.checkPath('/x/y')).toMatchObject({ line: 3, rule: 'Allow: /x/' });
    // An Allow of the same length decides before a Disallow, whichever version it is in.
    expect(later![0]!.checkPath('/a/b')).toMatchObject({ line: 9, rule: 'Allow: /a/' });
  });

  it('takes the first empty Allow of either version as the rule when no pattern matches, else the first empty Disallow', () => {
    const base = 'User-agent: *\nDisallow:\nDisallow: /p\n';
    const [, allow, disallow] = expectSameAsAlone(
      [base, `${base}User-agent: *\nAllow:\nAllow: /q\n`, `${base}User-agent: *\nDisallow:\nAllow: /q\n`],
      ['/', '/p', '/q', '/robots.txt'],
    );
    expect(allow![0]).toBeInstanceOf(AppendedRules);
    expect(allow![0]!.checkPath('/x')).toEqual({
      allowed: true,
      verdict: 'allowed_explicit',
      line: 5,
      rule: 'Allow: ',
    });
    expect(disallow![0]!.checkPath('/x')).toEqual({
      allowed: true,
      verdict: 'allowed_explicit',
      line: 2,
      rule: 'Disallow: ',
    });
  });

  it('shares the earlier rules, on their new lines, when lines were added above them', () => {
    const base = 'User-agent: *\nDisallow: /a\nAllow: /a/b\n';
    const paths = ['/a', '/a/b', '/search', '/x'];
    const [v0, moved, both] = expectSameAsAlone(
      [
        base,
        `# 2024-05-01\nUser-agent: GPTBot\nDisallow: /\n\n${base}`,
        `# 2024\n${base}User-agent: *\nDisallow: /search\n`,
      ],
      paths,
    );
    expect(moved![0]).toBeInstanceOf(ShiftedRules);
    expect(moved![0]!.checkPath('/a')).toEqual({ ...v0![0]!.checkPath('/a'), line: 6 });
    expect(both![0]).toBeInstanceOf(AppendedRules);
    expect(both![0]!.checkPath('/a/b').line).toBe(4);
    // Groups moved apart (a line added between them) share nothing: compiled anew, still exact.
    const two = 'User-agent: *\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n';
    const [, apart] = expectSameAsAlone([two, two.replace('\n\n', '\n# x\n\n')], ['/a', '/b']);
    expect(apart![0]).not.toBeInstanceOf(ShiftedRules);
  });

  it('keeps sharing along a long history, each version built on one of the few before it', () => {
    const base = 'User-agent: *\nDisallow: /a\nAllow: /a/b\n';
    // A dated comment line added on top every time: 40 versions, each moved one line further.
    const versions = Array.from({ length: 40 }, (_, k) => `${'# update\n'.repeat(k)}${base}`);
    const out = expectSameAsAlone(versions, ['/a', '/a/b', '/c']);
    for (let k = 1; k < versions.length; k++) expect(out[k]![0]).toBeInstanceOf(ShiftedRules);
    expect(out[39]![0]!.checkPath('/a').line).toBe(41);
  });

  it('compiles anew when a version changes a rule of the earlier selection, or mostly adds', () => {
    const base = 'User-agent: *\nDisallow: /a\n';
    const [, changed, larger] = expectSameAsAlone(
      [
        base,
        'User-agent: *\nDisallow: /b\n',
        `${base}User-agent: *\nDisallow: /c\nDisallow: /d\n`,
        'User-agent: *\nAllow: /a\n',
      ],
      ['/a', '/b', '/c', '/d'],
    );
    expect(changed![0]).not.toBeInstanceOf(AppendedRules);
    expect(larger![0]).not.toBeInstanceOf(AppendedRules);
  });

  it('returns the rules it is given for a version as they are', () => {
    const known = compileRobotsTxt('User-agent: *\nDisallow: /k\n', AGENTS);
    const out = compileVersions(['User-agent: *\nDisallow: /k\n', 'User-agent: *\nDisallow: /k\n'], AGENTS, [
      known,
    ]);
    expect(out[0]).toBe(known);
    expect(out[1]![0]).toBe(known[0]);
  });
});
