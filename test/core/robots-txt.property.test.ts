// Property tests of the public engine: totality, order independence, longest match, Allow ties, and
// agreement with the deliberately simple reference model in test/helpers/reference-matcher.ts.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileRobotsTxt, parseRobotsTxt, pathFromUrl } from '../../src/core/index.js';
import { parseBinary } from '../../src/core/parse.js';
import { referenceDecision } from '../helpers/reference-matcher.js';
import { agentArb, pathArb, patternArb, robotsAndPathsArb } from '../helpers/robots-arbitraries.js';

describe('totality', () => {
  it('never throws on arbitrary bytes, strings, URLs and agents', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 400 }),
          fc.string({ unit: 'binary', maxLength: 200 }),
          fc.string({ maxLength: 200 }),
        ),
        fc.string({ unit: 'binary', maxLength: 60 }),
        fc.string({ unit: 'binary', maxLength: 20 }),
        (body, url, agent) => {
          const robots = parseRobotsTxt(body);
          const d = robots.check(url, agent);
          expect(typeof d.allowed).toBe('boolean');
          robots.crawlDelay(agent);
          const c = robots.compile(agent);
          expect(c.decide(pathFromUrl(url))).toBeGreaterThanOrEqual(-1);
        },
      ),
      { numRuns: 3000 },
    );
  });
});

const groupArb = fc.array(fc.tuple(fc.boolean(), patternArb), { minLength: 1, maxLength: 10 });
const fileOf = (rules: [boolean, string][]) =>
  `User-agent: *\n${rules.map(([a, p]) => `${a ? 'Allow' : 'Disallow'}: ${p}`).join('\n')}\n`;

describe('order independence', () => {
  it('gives the same allowed/verdict whatever the order of rules within a group', () => {
    fc.assert(
      fc.property(
        groupArb.chain((rules) =>
          fc.tuple(fc.constant(rules), fc.shuffledSubarray(rules, { minLength: rules.length })),
        ),
        fc.array(pathArb, { minLength: 1, maxLength: 5 }),
        ([rules, shuffled], paths) => {
          const a = parseRobotsTxt(fileOf(rules)).compile('x');
          const b = parseRobotsTxt(fileOf(shuffled)).compile('x');
          for (const p of paths) {
            const da = a.checkPath(p);
            const db = b.checkPath(p);
            // Lines may differ between equal-length rules of the same kind; the outcome may not.
            expect([db.allowed, db.verdict]).toEqual([da.allowed, da.verdict]);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('longest match and Allow ties', () => {
  it('a matching rule longer than every other decides, and an equal Allow beats it', () => {
    fc.assert(
      fc.property(groupArb, pathArb, (rules, path) => {
        // A path that is its own escaped form (no %xx, non-ASCII or '#') matches itself as a pattern;
        // `*` matches the empty string, so PATH followed by enough `*` matches PATH and is the longest.
        fc.pre(!/[^\x21-\x7e]|#|%[0-9A-Fa-f]{2}/.test(path));
        const longest = path + '*'.repeat(Math.max(0, ...rules.map(([, p]) => p.length * 3)) + 1);
        const disallowed = parseRobotsTxt(`${fileOf(rules)}Disallow: ${longest}\n`)
          .compile('x')
          .checkPath(path);
        expect(disallowed).toEqual({
          allowed: false,
          verdict: 'disallowed_explicit',
          line: rules.length + 2,
          rule: `Disallow: ${longest}`,
        });
        const tie = parseRobotsTxt(`${fileOf(rules)}Disallow: ${longest}\nAllow: ${longest}\n`)
          .compile('x')
          .checkPath(path);
        expect(tie).toEqual({
          allowed: true,
          verdict: 'allowed_explicit',
          line: rules.length + 3,
          rule: `Allow: ${longest}`,
        });
      }),
      { numRuns: 2000 },
    );
  });

  it('an Allow with the same pattern as the deciding Disallow turns the verdict to allowed', () => {
    fc.assert(
      fc.property(groupArb, pathArb, (rules, path) => {
        const before = parseRobotsTxt(fileOf(rules)).compile('x').checkPath(path);
        fc.pre(!before.allowed);
        const pattern = before.rule.slice('Disallow: '.length);
        const after = parseRobotsTxt(`${fileOf(rules)}Allow: ${pattern}\n`)
          .compile('x')
          .checkPath(path);
        expect(after).toMatchObject({ allowed: true, verdict: 'allowed_explicit' });
      }),
      { numRuns: 2000 },
    );
  });
});

describe('agreement with the simple reference model', () => {
  it('gives the same Decision (verdict, line and rule) for every path', () => {
    fc.assert(
      fc.property(robotsAndPathsArb, agentArb, ({ body, paths }, agent) => {
        const compiled = parseRobotsTxt(body).compile(agent);
        for (const path of paths) {
          expect(compiled.checkPath(path)).toEqual(referenceDecision(body, agent, path));
        }
      }),
      { numRuns: 4000 },
    );
  });

  it('check(url) agrees too, for URLs around those paths', () => {
    const prefix = fc.constantFrom('', 'https://example.com', 'http://h:8080', '//h', 'h');
    const suffix = fc.constantFrom('', '#frag', '#', '?x#y');
    fc.assert(
      fc.property(robotsAndPathsArb, agentArb, prefix, suffix, ({ body, paths }, agent, pre, post) => {
        const robots = parseRobotsTxt(body);
        for (const path of paths) {
          const url = pre + path + post;
          expect(robots.check(url, agent)).toEqual(referenceDecision(body, agent, pathFromUrl(url)));
        }
      }),
      { numRuns: 1500 },
    );
  });
});

describe('compileRobotsTxt', () => {
  it('compiles each agent exactly as parseRobotsTxt(body).compile(agent) does', () => {
    fc.assert(
      fc.property(
        robotsAndPathsArb,
        fc.array(agentArb, { minLength: 1, maxLength: 3 }),
        ({ body, paths }, agents) => {
          const fast = compileRobotsTxt(body, agents);
          const robots = parseRobotsTxt(body);
          agents.forEach((agent, i) => {
            const full = robots.compile(agent);
            expect(fast[i]!.agent).toBe(full.agent);
            expect(fast[i]!.rules).toEqual(full.rules);
            for (const path of paths) expect(fast[i]!.checkPath(path)).toEqual(full.checkPath(path));
          });
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('keeps no rule of a group its agents cannot select, no token but theirs, and no other record', () => {
    const body =
      'User-agent: OtherBot\nUser-agent: Third\nDisallow: /a\nDisallow: /b\n\nUser-agent: FooBot/2\nUser-agent: foo\n' +
      'Crawl-delay: 5\nDisallow: /c\nSitemap: https://h.example/s.xml\nUser-agent: *\nDisallow: /d\n';
    const parsed = parseBinary(body, ['foobot']);
    expect(parsed.groups.map((g) => [g.tokens, g.global, g.rules.map((r) => r.info.rule)])).toEqual([
      [[], false, []],
      [['foobot'], false, ['Disallow: /c']],
      [[], true, ['Disallow: /d']],
    ]);
    expect([parsed.sitemaps, parsed.records, parsed.groups[1]!.crawlDelay]).toEqual([[], [], undefined]);
    const full = parseBinary(body);
    expect(full.groups.map((g) => g.tokens)).toEqual([['otherbot', 'third'], ['foobot', 'foo'], []]);
    expect([full.sitemaps.length, full.records.length, full.groups[1]!.crawlDelay]).toEqual([1, 1, 5]);
    expect(parseBinary(body).groups[0]!.rules).toHaveLength(2);
    expect(compileRobotsTxt(body, ['FooBot/1.0', 'BarBot']).map((c) => c.rules.map((r) => r.rule))).toEqual([
      ['Disallow: /c'],
      ['Disallow: /d'],
    ]);
  });
});
