import { describe, expect, it } from 'vitest';
import { selectGroups } from '../../src/core/compile.js';
import { parseRobotsTxt, pathFromUrl } from '../../src/core/index.js';
import { parseBinary } from '../../src/core/parse.js';

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
    expect(star.check('https://h/a.pdf?x')).toEqual({
      allowed: true,
      verdict: 'allowed_implicit',
      line: 0,
      rule: '',
    });
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
    expect(star.decide('/public')).toBe(-1);
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
