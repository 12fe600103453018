import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRobotsTxt, sameGroups } from '../../src/core/index.js';
import { pathArb, robotsArb } from '../helpers/robots-arbitraries.js';

const IMPLICIT = { allowed: true, verdict: 'allowed_implicit', line: 0, rule: '' };

describe('parseRobotsTxt: the public API', () => {
  const body = [
    'Sitemap: https://example.com/sitemap.xml', // 1
    'User-agent: *', // 2
    'Crawl-delay: 2.5', // 3
    'Disallow: /search', // 4
    'Allow: /search/about', // 5
    '', // 6
    'User-agent: Googlebot', // 7
    'User-agent: bingbot', // 8
    'Disallow: /private/', // 9
    'Host: example.com', // 10
    'Sitemap: https://example.com/news.xml', // 11
  ].join('\n');
  const robots = parseRobotsTxt(body);

  it('checks absolute URLs and paths, with the deciding line and rule', () => {
    expect(robots.check('https://example.com/search?q=1', 'SomeBot')).toEqual({
      allowed: false,
      verdict: 'disallowed_explicit',
      line: 4,
      rule: 'Disallow: /search',
    });
    expect(robots.check('http://example.com:8080/search/about', 'SomeBot')).toEqual({
      allowed: true,
      verdict: 'allowed_explicit',
      line: 5,
      rule: 'Allow: /search/about',
    });
    expect(robots.check('/private/x', 'Googlebot')).toEqual({
      allowed: false,
      verdict: 'disallowed_explicit',
      line: 9,
      rule: 'Disallow: /private/',
    });
    // A group names Googlebot, so the `*` group does not apply to it.
    expect(robots.check('/search', 'Googlebot')).toEqual(IMPLICIT);
  });

  it('matches the agent case-insensitively after dropping /version and whitespace', () => {
    for (const agent of ['googlebot', 'GOOGLEBOT/2.1', ' Bingbot ', 'BingBot/1.0 ']) {
      expect(robots.check('/private/', agent).line).toBe(9);
    }
    expect(robots.check('/private/', 'Googlebot-Image').verdict).toBe('allowed_implicit');
  });

  it('reports crawl-delay per group, sitemaps globally, and other records', () => {
    expect(robots.crawlDelay('SomeBot')).toBe(2.5);
    expect(robots.crawlDelay('Googlebot')).toBeUndefined();
    expect(robots.sitemaps).toEqual(['https://example.com/sitemap.xml', 'https://example.com/news.xml']);
    expect(robots.records).toEqual([
      { line: 3, key: 'Crawl-delay', value: '2.5' },
      { line: 10, key: 'Host', value: 'example.com' },
    ]);
  });

  it('gives the same answers for the string and its UTF-8 bytes', () => {
    const text = 'User-agent: *\nDisallow: /café\nAllow: /café/ok\n';
    const fromBytes = parseRobotsTxt(new TextEncoder().encode(text));
    const fromText = parseRobotsTxt(text);
    for (const url of ['/caf%C3%A9/x', '/caf%C3%A9/ok', '/café', '/x']) {
      expect(fromBytes.check(url, 'a')).toEqual(fromText.check(url, 'a'));
    }
    expect(fromText.check('/caf%C3%A9/x', 'a')).toMatchObject({ line: 2, rule: 'Disallow: /café' });
    // The URL is matched as given: an unescaped é does not match the escaped pattern (reference behaviour).
    expect(fromText.check('/café', 'a')).toEqual(IMPLICIT);
  });

  it('memoises compile per agent', () => {
    expect(robots.compile('Googlebot')).toBe(robots.compile('Googlebot'));
    expect(robots.compile('Googlebot/2')).toBe(robots.compile('Googlebot'));
  });

  it('treats an empty file and an empty agent like the reference', () => {
    // Source: google/robotstxt robots_test.cc, GoogleOnly_SystemTest.
    expect(parseRobotsTxt('').check('', 'FooBot')).toEqual(IMPLICIT);
    const foo = parseRobotsTxt('user-agent: FooBot\ndisallow: /\n');
    expect(foo.check('', '').allowed).toBe(true);
    expect(foo.check('', 'FooBot').allowed).toBe(false);
  });
});

describe('never breaks, never slows to a crawl (correctness on extreme inputs)', () => {
  it('30 `*` against a 3,000-char path', () => {
    const robots = parseRobotsTxt(`User-agent: *\nDisallow: /${'*a'.repeat(30)}b\n`);
    expect(robots.check(`/${'a'.repeat(3000)}`, 'x')).toEqual(IMPLICIT);
    expect(robots.check(`/${'a'.repeat(3000)}b`, 'x').line).toBe(2);
  });

  it('50,000 rules', () => {
    const lines = ['User-agent: *'];
    for (let i = 0; i < 50_000; i++) lines.push(`${i % 2 ? 'Allow' : 'Disallow'}: /d${i}/`);
    const robots = parseRobotsTxt(lines.join('\n'));
    expect(robots.check('/d49998/x', 'x')).toMatchObject({ allowed: false, line: 50_000 });
    expect(robots.check('/d49999/x', 'x')).toMatchObject({ allowed: true, line: 50_001 });
    expect(robots.check('/e', 'x')).toEqual(IMPLICIT);
  });

  it('a 2 MiB file', () => {
    const filler = `# ${'x'.repeat(1000)}\n`.repeat(2100);
    const body = `User-agent: *\n${filler}Disallow: /late\n`;
    expect(body.length).toBeGreaterThan(2 * 1024 * 1024);
    expect(parseRobotsTxt(body).check('/late/x', 'x')).toMatchObject({ allowed: false, line: 2102 });
  });

  it('1,774 user-agent lines in one group', () => {
    const agents = Array.from(
      { length: 1774 },
      (_, i) => `User-agent: bot${String.fromCharCode(97 + (i % 26))}${i}`,
    );
    const robots = parseRobotsTxt(`${agents.join('\n')}\nDisallow: /x\nUser-agent: *\nAllow: /\n`);
    // Product tokens stop at the digits, so "botb1" and friends are all "botb".
    expect(robots.check('/x', 'botz')).toMatchObject({ allowed: false, line: 1775 });
    expect(robots.check('/x', 'other')).toMatchObject({ allowed: true, line: 1777 });
  });

  it('NULs, UTF-16 and HTML parse without rules taking effect by accident', () => {
    const utf16 = new Uint8Array([0xff, 0xfe, ...Buffer.from('User-agent: *\nDisallow: /\n', 'utf16le')]);
    expect(parseRobotsTxt(utf16).check('/', 'x')).toEqual(IMPLICIT);
    const html =
      '<!DOCTYPE html>\n<html><head><title>Not found</title></head>\n<body>Disallow: /</body></html>';
    expect(parseRobotsTxt(html).check('/', 'x')).toEqual(IMPLICIT);
    expect(parseRobotsTxt('User-agent: *\nDisallow: /a\0b\n').check('/a', 'x').line).toBe(2);
  });
});

describe('sameGroups', () => {
  const base =
    'User-agent: *\nDisallow: /a\nAllow: /a/b\n\nUser-agent: FooBot\nCrawl-delay: 3\nDisallow: /\n';
  const same = (a: string, b: string) => sameGroups(parseRobotsTxt(a), parseRobotsTxt(b));

  it('is true when only comments, sitemaps or other records after the groups differ', () => {
    expect(same(base, base)).toBe(true);
    expect(same(base, `${base}# built at 12:00\n`)).toBe(true);
    expect(same(base, `${base}Sitemap: https://example.com/s.xml\nHost: example.com\n`)).toBe(true);
    expect(same(base, base.replace('/a/b', '/a/b # staff only'))).toBe(true);
  });

  it('is false when a rule, its line, a group, its agents or its Crawl-delay differ', () => {
    expect(same(base, base.replace('/a/b', '/a/c'))).toBe(false);
    expect(same(base, base.replace('Allow: /a/b', 'Disallow: /a/b'))).toBe(false);
    expect(same(base, `# built at 12:00\n${base}`)).toBe(false);
    expect(same(base, `${base}\nUser-agent: GPTBot\nDisallow: /\n`)).toBe(false);
    expect(same(base, base.replace('FooBot', 'BarBot'))).toBe(false);
    expect(same(base, base.replace('User-agent: FooBot', 'User-agent: FooBot\nUser-agent: *'))).toBe(false);
    expect(same(base, base.replace('Crawl-delay: 3', 'Crawl-delay: 4'))).toBe(false);
    expect(sameGroups(parseRobotsTxt(base), { ...parseRobotsTxt(base) })).toBe(false);
  });

  it('only holds for files that decide alike for every agent, on the same lines (property)', () => {
    const agents = ['Googlebot', 'FooBot', 'googlebot-image', 'Other'];
    const tails = ['', '# built at 12:00\n', 'Sitemap: /s.xml\n', '\n\n# x\nSitemap: /t.xml\n'];
    let held = 0;
    fc.assert(
      fc.property(
        robotsArb,
        fc.oneof(robotsArb, fc.constantFrom(...tails)),
        fc.constantFrom('append', 'prepend', 'other'),
        fc.array(pathArb, { minLength: 1, maxLength: 6 }),
        (a, other, how, paths) => {
          // The same file with lines after it or above it (its rules then on other lines), or another file.
          const b = how === 'append' ? `${a}\n${other}` : how === 'prepend' ? `${other}\n${a}` : other;
          const x = parseRobotsTxt(a);
          const y = parseRobotsTxt(b);
          if (!sameGroups(x, y)) return;
          held++;
          for (const agent of agents)
            for (const p of paths) expect(y.check(p, agent)).toEqual(x.check(p, agent));
        },
      ),
      { numRuns: 2000 },
    );
    // Not vacuous: the files compared are often the same groups.
    expect(held).toBeGreaterThan(200);
  });
});
