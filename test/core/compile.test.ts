import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toBinary } from '../../src/core/bytes.js';
import { CompiledRuleSet, compiledRules, sameRuleSet, selectGroups } from '../../src/core/compile.js';
import { compileRobotsTxt, parseRobotsTxt, pathFromUrl } from '../../src/core/index.js';
import { parseBinary } from '../../src/core/parse.js';
import { matchPattern } from '../../src/core/pattern.js';

describe('selectGroups', () => {
  const groups = parseBinary(
    'User-agent: *\nDisallow: /g\nUser-agent: a\nUser-agent: *\nDisallow: /ab\nUser-agent: b\n',
  ).groups;
  it('takes every group naming the agent, else every global group', () => {
    expect(selectGroups(groups, 'a')).toEqual({ specific: true, groups: [groups[1]] });
    expect(selectGroups(groups, 'b')).toEqual({ specific: true, groups: [groups[2]] });
    expect(selectGroups(groups, 'z')).toEqual({ specific: false, groups: [groups[0], groups[1]] });
  });
});

describe('sameRuleSet', () => {
  const body =
    'User-agent: *\nDisallow: /all\n\nUser-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n\nUser-agent: Bingbot\nDisallow: /b\n';
  it('holds for agents that select the same groups of one body, and for no other pair', () => {
    const [google, other, gpt, cc, bing] = compileRobotsTxt(body, [
      'Googlebot',
      'OtherBot',
      'GPTBot',
      'CCBot',
      'Bingbot',
    ]);
    expect(sameRuleSet(google!, other!)).toBe(true);
    expect(sameRuleSet(gpt!, cc!)).toBe(true);
    expect(sameRuleSet(google!, gpt!)).toBe(false);
    expect(sameRuleSet(bing!, google!)).toBe(false);
    expect(sameRuleSet(bing!, bing!)).toBe(true);
    // Two parses of one body: alike, but not one set.
    expect(sameRuleSet(google!, compileRobotsTxt(body, ['Googlebot'])[0]!)).toBe(false);
  });
});

describe('CompiledRules', () => {
  const robots = parseRobotsTxt(
    'User-agent: *\nDisallow: /private\nAllow: /private/ok\nDisallow: /*.pdf$\nDisallow: /robots.txt\nDisallow:\n\nUser-agent: Bot\nAllow: /\n',
  );
  const star = robots.compile('AnyBot');

  it('returns the deciding rule with its 1-based line', () => {
    expect(star.check('https://h/private/x')).toEqual({
      allowed: false,
      verdict: 'disallowed_explicit',
      line: 2,
      rule: 'Disallow: /private',
    });
    expect(star.check('https://h/private/ok?q')).toEqual({
      allowed: true,
      verdict: 'allowed_explicit',
      line: 3,
      rule: 'Allow: /private/ok',
    });
    expect(star.check('https://h/a.pdf')).toMatchObject({ allowed: false, line: 4 });
    // No pattern matches: the empty `Disallow:` (priority 0) is the deciding line and allows, as the
    // reference's RobotsMatcher::matching_line() and disallow() answer (robots.cc, commit c8ac4b1d).
    expect(star.check('https://h/a.pdf?x')).toEqual({
      allowed: true,
      verdict: 'allowed_explicit',
      line: 6,
      rule: 'Disallow: ',
    });
  });

  // An empty rule decides whatever no pattern matches, in every layout: only it (nothing to locate or
  // match), a tiny set, and a table with its lead-char gate (which rejects `/z`).
  it.each([
    ['only an empty rule', 'User-agent: *\nDisallow:\n', 2],
    ['a tiny set', 'User-agent: *\nDisallow: /a\nDisallow:\n', 3],
    [
      'a table',
      `User-agent: *\n${['/a', '/b', '/c*x', '/d$', '/e', '/f'].map((p) => `Disallow: ${p}`).join('\n')}\nAllow:\n`,
      8,
    ],
  ])('falls back to the empty rule with %s', (_, body, line) => {
    const c = parseRobotsTxt(body).compile('AnyBot');
    const fallback = {
      allowed: true,
      verdict: 'allowed_explicit',
      line,
      rule: line === 8 ? 'Allow: ' : 'Disallow: ',
    };
    for (const url of [
      'https://h/z',
      'https://h/',
      'https://h',
      'https://h/z/robots.txt',
      'https://h/robots.txt?x',
      '/%7E',
    ]) {
      expect(c.check(url)).toEqual(fallback);
      expect(parseRobotsTxt(body).check(url, 'AnyBot')).toEqual(fallback);
    }
    // The empty rule allows /robots.txt too, so the exception leaves its report alone.
    expect(c.check('https://h/robots.txt#top')).toEqual(fallback);
    expect(c.decide('/robots.txt')).toBe(c.count - 1);
    if (line > 2) expect(c.check('https://h/a1')).toMatchObject({ allowed: false, line: 2 });
  });

  it('always allows /robots.txt itself (RFC 9309 §2.2.2), but not other paths under it', () => {
    expect(star.check('https://h/robots.txt')).toEqual({
      allowed: true,
      verdict: 'allowed_implicit',
      line: 0,
      rule: '',
    });
    expect(star.decide('/robots.txt')).toBe(-1);
    expect(star.check('https://h/robots.txt?x')).toMatchObject({ allowed: false, line: 5 });
  });

  it('decide indexes into rules, -1 when nothing decides', () => {
    const i = star.decide('/private/x');
    expect(star.rules[i]).toEqual({ allowed: false, line: 2, rule: 'Disallow: /private' });
    // The empty rule is the last rank: it decides when no pattern matches.
    const last = star.decide('/public');
    expect(last).toBe(star.count - 1);
    expect(star.rules[last]).toEqual({ allowed: true, line: 6, rule: 'Disallow: ' });
    expect(parseRobotsTxt('User-agent: *\nDisallow: /x\n').compile('AnyBot').decide('/public')).toBe(-1);
  });

  it('check(url) is checkPath(pathFromUrl(url)), including URLs whose path needs a slash or is empty', () => {
    for (const url of [
      'https://h',
      'https://h?private',
      'h;x',
      '/private',
      'https://h/a.pdf#x',
      '//h/private',
      'https://h/private\0/x',
    ]) {
      expect(star.check(url)).toEqual(star.checkPath(pathFromUrl(url)));
    }
  });

  it('keeps the product token it was compiled for', () => {
    expect(robots.compile('Bot/1.0').agent).toBe('Bot');
    expect(robots.compile('bot').check('/private')).toMatchObject({ verdict: 'allowed_explicit', line: 9 });
  });
});

describe('CompiledRules accessors (the packed form the pipeline reads)', () => {
  const robots = parseRobotsTxt(
    'User-agent: *\nDisallow: /a\nAllow: /a/b/index.html\nDisallow: /caf\u00e9\nDisallow: /x*y$\nAllow: /q\n',
  );
  const c = robots.compile('Bot');

  it('count, allowedAt, lineAt and ruleAt agree with the materialised rules for every rank', () => {
    expect(c.count).toBe(c.rules.length);
    expect(c.count).toBe(6); // the index.html Allow also yields its `/a/b/$` pattern
    for (let r = 0; r < c.count; r++) {
      expect({ allowed: c.allowedAt(r), line: c.lineAt(r), rule: c.ruleAt(r) }).toEqual(c.rules[r]);
    }
    expect(c.rules.map((r) => r.rule)).toContain('Disallow: /caf\u00e9');
  });

  it("decideUrl is decide on the URL's path, and ranks index the accessors", () => {
    for (const url of [
      'https://h/a/b/',
      'https://h/xzzy',
      'https://h/caf%C3%A9/1',
      'https://h/q#x',
      'h/q?x',
    ]) {
      const rank = c.decideUrl(url);
      expect(rank).toBe(c.decide(pathFromUrl(url)));
      expect(rank).toBeGreaterThanOrEqual(0);
      expect(c.check(url)).toMatchObject({ line: c.lineAt(rank), allowed: c.allowedAt(rank) });
    }
  });

  it('byteSize grows with the rules it keeps', () => {
    const small = parseRobotsTxt('User-agent: *\nDisallow: /a\n').compile('Bot');
    const lines = Array.from({ length: 2000 }, (_, i) => `Disallow: /p${i}/*.x`).join('\n');
    const big = parseRobotsTxt(`User-agent: *\n${lines}\n`).compile('Bot');
    expect(small.byteSize).toBeGreaterThan(0);
    expect(big.byteSize).toBeGreaterThan(2000 * 20);
    expect(big.byteSize).toBeGreaterThan(small.byteSize * 50);
  });
});

describe('table sets: the lead-char gate never changes a decision', () => {
  // Patterns from a small alphabet so that paths often share their first chars; some start with
  // other than '/x' (then the gate is off), most do (then it decides many paths alone).
  const char = fc.constantFrom('/', 'a', 'b', 'c', '*', '$', '.', '?', '\u00e9');
  const pattern = fc.oneof(
    {
      weight: 4,
      arbitrary: fc
        .tuple(fc.constantFrom('a', 'b', 'c', 'Z'), fc.string({ unit: char, maxLength: 6 }))
        .map(([c, t]) => `/${c}${t}`),
    },
    { weight: 1, arbitrary: fc.string({ unit: char, maxLength: 6 }) },
  );
  const path = fc.string({ unit: char, maxLength: 10 });

  it('decide equals the first pattern in decision order that matches (5+ rules: the table layout)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.boolean(), pattern), { minLength: 5, maxLength: 14 }),
        fc.array(path, { maxLength: 20 }),
        (rules, paths) => {
          const body = `User-agent: *\n${rules.map(([a, p]) => `${a ? 'Allow' : 'Disallow'}: ${p}`).join('\n')}\n`;
          const c = parseRobotsTxt(body).compile('Bot');
          const ordered = c.rules;
          for (const raw of paths) {
            const p = raw.replace(/[^\x00-\x7f]/g, '%C3%A9');
            const rank = c.decide(p);
            const expected = p === '/robots.txt' ? 0 : brute(body, p);
            expect(rank < 0 ? 0 : ordered[rank]!.line).toBe(expected);
          }
        },
      ),
      { numRuns: 1500 },
    );
  });
});

/** Line of the deciding rule by brute force over the group's escaped patterns: longest, Allow on ties, first line. */
function brute(body: string, path: string): number {
  const rules = parseBinary(toBinary(body)).groups.flatMap((g) => g.rules);
  let best: { len: number; allowed: boolean; line: number } | undefined;
  for (const r of rules) {
    const candidates = [r.pattern];
    const slash = r.pattern.lastIndexOf('/');
    if (r.info.allowed && slash >= 0 && r.pattern.startsWith('/index.htm', slash))
      candidates.push(`${r.pattern.slice(0, slash + 1)}$`);
    for (const p of candidates) {
      // The empty pattern matches every path with priority 0 (the reference's matching_line names it).
      if (!matchPattern(path, p)) continue;
      const better =
        best === undefined ||
        p.length > best.len ||
        (p.length === best.len && r.info.allowed && !best.allowed);
      if (better) best = { len: p.length, allowed: r.info.allowed, line: r.info.line };
    }
  }
  return best?.line ?? 0;
}

describe('CompiledRuleSet decisions', () => {
  it('makes no decision array until a decision is asked for, then one per set that its agents share', () => {
    const groups = parseBinary('User-agent: *\nDisallow: /a\nAllow: /a/b\nDisallow: /c*d\n').groups;
    const set = new CompiledRuleSet(groups);
    const one = compiledRules('a', set);
    const two = compiledRules('b', set);
    expect(one.decide('/a/x')).toBeGreaterThanOrEqual(0);
    expect(set.decisions).toHaveLength(0);
    const d = one.checkPath('/a/x');
    expect(d).toMatchObject({
      allowed: false,
      verdict: 'disallowed_explicit',
      line: 2,
      rule: 'Disallow: /a',
    });
    expect(set.decisions).toHaveLength(3);
    expect(two.checkPath('/a/x')).toBe(d);
    expect(one.check('https://h.example/a/b')).toBe(two.checkPath('/a/b'));
    expect(set.decisions.filter((x) => x !== undefined)).toHaveLength(2);
  });
});
