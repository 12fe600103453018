// Direct checks (a scan of the parsed rules) against the compiled form: the same Decision, rule for rule,
// before and after a RobotsTxt switches from one to the other.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toBinary } from '../../src/core/bytes.js';
import { selectGroups } from '../../src/core/compile.js';
import { DirectRules } from '../../src/core/direct-rules.js';
import { parseRobotsTxt } from '../../src/core/index.js';
import { parseBinary } from '../../src/core/parse.js';
import { agentArb, robotsAndPathsArb } from '../helpers/robots-arbitraries.js';

const direct = (body: string, agentKey: string): DirectRules =>
  new DirectRules(selectGroups(parseBinary(toBinary(body)).groups, agentKey).groups);

const urlPrefix = fc.constantFrom('', 'https://example.com', 'http://h:8080', '//h', 'h', 'https://h?');
const urlSuffix = fc.constantFrom('', '#frag', '#', '?x#y', '\u0000z');

describe('DirectRules', () => {
  it('decides as the compiled rules do (allowed, verdict, line, rule) on random files and URLs', () => {
    fc.assert(
      fc.property(robotsAndPathsArb, agentArb, urlPrefix, urlSuffix, ({ body, paths }, agent, pre, post) => {
        const compiled = parseRobotsTxt(body).compile(agent);
        const rules = direct(body, agent.toLowerCase());
        for (const path of paths) {
          const url = pre + path + post;
          expect(rules.check(url)).toEqual(compiled.check(url));
        }
      }),
      { numRuns: 5000 },
    );
  });

  it('lets a longer pattern, then an Allow, then the earlier line win, as the decision order does', () => {
    const body = [
      'User-agent: *',
      'Disallow: /a', // 2
      'Allow: /a', // 3: same length, Allow wins
      'Disallow: /ab', // 4: longer
      'Disallow: /ab', // 5: same, later
      'Allow: /x/index.html', // 6: also allows /x/ exactly
      'Disallow: /x/', // 7: as long as /x/$: the Allow wins the tie
      'Disallow: /robots.txt', // 8: never disallows /robots.txt itself
      'Disallow:', // 9: decides, allowing, when nothing else does
    ].join('\n');
    const rules = direct(body, 'x');
    expect(rules.check('/a')).toEqual({
      allowed: true,
      verdict: 'allowed_explicit',
      line: 3,
      rule: 'Allow: /a',
    });
    expect(rules.check('/abc')).toMatchObject({ allowed: false, line: 4, rule: 'Disallow: /ab' });
    expect(rules.check('/x/')).toMatchObject({ allowed: true, line: 6, rule: 'Allow: /x/index.html' });
    expect(rules.check('/x/y')).toMatchObject({ allowed: false, line: 7 });
    expect(rules.check('http://h/robots.txt')).toEqual({
      allowed: true,
      verdict: 'allowed_implicit',
      line: 0,
      rule: '',
    });
    expect(rules.check('/zzz')).toEqual({
      allowed: true,
      verdict: 'allowed_explicit',
      line: 9,
      rule: 'Disallow: ',
    });
  });

  it('reads a short pattern whole: an end anchor, a `*` or the path end within its first chars', () => {
    const rules = direct(
      'User-agent: *\nDisallow: /b$\nDisallow: /$\nAllow: /c*\nDisallow: /c\nAllow: /d$x\n',
      'x',
    );
    expect(rules.check('/b')).toMatchObject({ allowed: false, line: 2 });
    expect(rules.check('/bb')).toMatchObject({ verdict: 'allowed_implicit' });
    expect(rules.check('/')).toMatchObject({ allowed: false, line: 3 });
    expect(rules.check('/c')).toMatchObject({ allowed: true, line: 4 });
    expect(rules.check('/d$x')).toMatchObject({ allowed: true, line: 6 });
    expect(rules.check('/d')).toMatchObject({ verdict: 'allowed_implicit' });
  });

  it('counts the rules it scans, so the caller can tell when compiling pays', () => {
    const rules = direct('User-agent: *\nDisallow: /a\nDisallow: /b*c\nDisallow:\n', 'x');
    expect(rules.size).toBe(2);
    rules.check('/a');
    rules.check('/b');
    expect(rules.work).toBe(12);
  });
});

describe('RobotsTxt.check across the switch from direct to compiled', () => {
  it('gives the same Decisions before and after it compiles, for every agent', () => {
    fc.assert(
      fc.property(
        robotsAndPathsArb,
        fc.array(agentArb, { minLength: 1, maxLength: 3 }),
        ({ body, paths }, agents) => {
          const robots = parseRobotsTxt(body);
          const reference = parseRobotsTxt(body);
          // Enough checks per agent to pass any compile threshold a file this small can have.
          for (let round = 0; round < 60; round++) {
            for (const agent of agents) {
              for (const path of paths)
                expect(robots.check(path, agent)).toEqual(reference.compile(agent).check(path));
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
