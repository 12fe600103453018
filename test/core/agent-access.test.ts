import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { agentAccess, matchesEveryPath, matchesSomePath } from '../../src/core/agent-access.js';
import { parseRobotsTxt } from '../../src/core/index.js';
import { pathArb, pathFromPatternArb, patternArb } from '../helpers/robots-arbitraries.js';

const one = (body: string, agent = 'FooBot') => agentAccess(body, [agent])[0]!;

describe('agentAccess: hand-checked files', () => {
  it('Disallow: / closes every path, and names that line', () => {
    expect(one('User-agent: *\nDisallow: /\n')).toEqual({ access: 'full', line: 2, rule: 'Disallow: /' });
    expect(one('User-agent: FooBot\nDisallow: /*\n')).toEqual({
      access: 'full',
      line: 2,
      rule: 'Disallow: /*',
    });
    expect(one('User-agent: *\nDisallow: *\n').access).toBe('full');
  });

  it('an Allow that can open a path makes it partial; one that cannot does not', () => {
    const opened = 'User-agent: *\nDisallow: /\nAllow: /public\n';
    expect(one(opened)).toEqual({ access: 'partial', line: 2, rule: 'Disallow: /' });
    // The index.htm rule also allows `/$`, which outranks `Disallow: /`.
    expect(one('User-agent: *\nDisallow: /\nAllow: /index.html\n').access).toBe('partial');
    // An Allow shorter than the Disallow that closes everything never wins.
    expect(one('User-agent: *\nDisallow: /**\nAllow: /\n').access).toBe('full');
    // Only /robots.txt, which is always allowed anyway.
    expect(one('User-agent: *\nDisallow: /\nAllow: /robots.txt$\n').access).toBe('full');
    // Equal length: Allow wins the tie everywhere.
    expect(one('User-agent: *\nDisallow: /\nAllow: /\n').access).toBe('none');
  });

  it('no Disallow, an empty Disallow, or none that can match is no block', () => {
    expect(one('User-agent: *\nAllow: /\n')).toEqual({ access: 'none', line: 0, rule: '' });
    expect(one('User-agent: *\nDisallow:\n').access).toBe('none');
    expect(one('User-agent: *\nDisallow: private\n').access).toBe('none');
    expect(one('').access).toBe('none');
    expect(one('User-agent: *\nDisallow: /private\nAllow: /private\n').access).toBe('none');
  });

  it('partial names the earliest Disallow that still closes something', () => {
    const body = 'User-agent: *\nDisallow: /b\nDisallow: /a\nAllow: /b\n';
    expect(one(body)).toEqual({ access: 'partial', line: 3, rule: 'Disallow: /a' });
  });

  it('selects groups as compile does: the agent group wins over *', () => {
    const body =
      'User-agent: *\nDisallow: /\n\nUser-agent: GPTBot\nDisallow: /x\n\nUser-agent: Good\nAllow: /\n';
    expect(agentAccess(body, ['Googlebot', 'GPTBot', 'good/1.0', 'Other']).map((d) => d.access)).toEqual([
      'full',
      'partial',
      'none',
      'full',
    ]);
  });

  it('tells patterns matching every path from the others', () => {
    for (const p of ['/', '/*', '*', '**', '*/', '/*$', '*$', '*/*']) expect(matchesEveryPath(p)).toBe(true);
    for (const p of ['/$', '$', '/a', 'a', '/*a', '//']) expect(matchesEveryPath(p)).toBe(false);
    expect(matchesSomePath('/robots.txt$')).toBe(false);
    expect(matchesSomePath('x')).toBe(false);
    expect(matchesSomePath('*x')).toBe(true);
  });
});

// Files over a small alphabet where `/`, `/*` and equal lengths are common, for one agent.
const rulesArb = fc.array(
  fc.tuple(fc.boolean(), fc.oneof(patternArb, fc.constantFrom('/', '/*', '*', '/a', '/$', ''))),
  { minLength: 0, maxLength: 6 },
);
const fileOf = (rules: [boolean, string][]) =>
  `User-agent: FooBot\n${rules.map(([a, p]) => `${a ? 'Allow' : 'Disallow'}: ${p}`).join('\n')}\n`;
const pathsFor = (rules: [boolean, string][]) =>
  fc.tuple(
    fc.array(pathArb, { minLength: 1, maxLength: 6 }),
    rules.length === 0
      ? fc.constant([] as string[])
      : fc.array(
          fc.constantFrom(...rules.map(([, p]) => p)).chain((p) => pathFromPatternArb(p)),
          { maxLength: 6 },
        ),
  );

describe('agentAccess: properties against the matcher', () => {
  it('full: every path but /robots.txt is disallowed; none: every path is allowed', () => {
    const seen = { full: 0, partial: 0, none: 0 };
    fc.assert(
      fc.property(
        rulesArb.chain((rules) => fc.tuple(fc.constant(rules), pathsFor(rules))),
        ([rules, [random, derived]]) => {
          const body = fileOf(rules);
          const { access } = one(body);
          seen[access]++;
          const compiled = parseRobotsTxt(body).compile('FooBot');
          for (const p of [...random, ...derived, '/']) {
            if (p === '/robots.txt') continue;
            if (access === 'full') expect(compiled.checkPath(p).allowed).toBe(false);
            if (access === 'none') expect(compiled.checkPath(p).allowed).toBe(true);
          }
        },
      ),
      { numRuns: 3000 },
    );
    // Each answer must come up often enough for the properties to mean something.
    expect(seen.full).toBeGreaterThan(100);
    expect(seen.none).toBeGreaterThan(100);
    expect(seen.partial).toBeGreaterThan(100);
  });

  it('partial names a Disallow that decides some path', () => {
    fc.assert(
      fc.property(rulesArb, (rules) => {
        const body = fileOf(rules);
        const d = one(body);
        if (d.access !== 'partial') return;
        // The Disallow's own literal path: some longer Allow may open it, but then the rule was
        // outranked only there; it is a Disallow line of the agent's group.
        expect(d.rule.startsWith('Disallow: ')).toBe(true);
        expect(body.split('\n')[d.line - 1]).toBe(d.rule);
      }),
      { numRuns: 1000 },
    );
  });
});
