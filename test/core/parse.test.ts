import { describe, expect, it } from 'vitest';
import { toBinary } from '../../src/core/bytes.js';
import { parseBinary, parseCrawlDelay } from '../../src/core/parse.js';

const groupsOf = (body: string) =>
  parseBinary(toBinary(body)).groups.map((g) => ({
    tokens: g.tokens,
    global: g.global,
    rules: g.rules.map((r) => `${r.info.line}:${r.info.rule}|${r.pattern}`),
    crawlDelay: g.crawlDelay,
  }));

describe('groups (HandleUserAgent / HandleAllow / HandleDisallow)', () => {
  it('joins consecutive user-agent lines and starts a new group after a rule', () => {
    expect(
      groupsOf('User-agent: a\nUser-agent: B\nDisallow: /x\nUser-agent: c\nAllow: /y\nDisallow: /z'),
    ).toEqual([
      { tokens: ['a', 'b'], global: false, rules: ['3:Disallow: /x|/x'], crawlDelay: undefined },
      { tokens: ['c'], global: false, rules: ['5:Allow: /y|/y', '6:Disallow: /z|/z'], crawlDelay: undefined },
    ]);
  });

  it('ignores rules before any user-agent line', () => {
    expect(groupsOf('Disallow: /a\nAllow: /b\nUser-agent: x\nDisallow: /c')).toEqual([
      { tokens: ['x'], global: false, rules: ['4:Disallow: /c|/c'], crawlDelay: undefined },
    ]);
  });

  // Source: google/robotstxt robots_test.cc, ID_LineSyntax_Groups_OtherRules.
  it('does not end a user-agent run on sitemap or unknown lines', () => {
    expect(
      groupsOf('User-agent: a\nSitemap: /s\nCrawl-delay: 3\nFoo: bar\nUser-agent: *\nDisallow: /'),
    ).toEqual([{ tokens: ['a'], global: true, rules: ['6:Disallow: /|/'], crawlDelay: 3 }]);
  });

  it('cuts values to the product token and recognises the global forms', () => {
    expect(
      groupsOf(
        'User-agent: Googlebot/2.1 (+http://x)\nUser-agent: * extra\nUser-agent: *x\nUser-agent: ツ\nAllow: /',
      )[0],
    ).toEqual({
      tokens: ['googlebot', '', ''],
      global: true,
      rules: ['5:Allow: /|/'],
      crawlDelay: undefined,
    });
  });

  it('escapes patterns but keeps the rule text as written', () => {
    expect(groupsOf('User-agent: *\nDisallow: /café/%aa # note')[0]!.rules).toEqual([
      '2:Disallow: /café/%aa|/caf%C3%A9/%AA',
    ]);
  });

  it('keeps an empty group at the end (it still names its agents)', () => {
    expect(groupsOf('User-agent: *\nDisallow: /\nUser-agent: a')).toHaveLength(2);
  });
});

describe('sitemaps and other records', () => {
  it('collects sitemaps anywhere in the file and every other record with its line', () => {
    const p = parseBinary(
      'Sitemap: https://x/s1.xml\nUser-agent: *\nHost: example.com\nsite-map: https://x/s2\nSitemap:\nClean-param: a /b\n',
    );
    expect(p.sitemaps).toEqual(['https://x/s1.xml', 'https://x/s2']);
    expect(p.records).toEqual([
      { line: 3, key: 'Host', value: 'example.com' },
      { line: 6, key: 'Clean-param', value: 'a /b' },
    ]);
  });

  it('decodes record values and sitemaps as UTF-8, keeping them unescaped', () => {
    const p = parseBinary('Sitemap: https://x/\xc3\xa9.xml\nNoindex: /\xc3\xa9\n');
    expect(p.sitemaps).toEqual(['https://x/é.xml']);
    expect(p.records).toEqual([{ line: 2, key: 'Noindex', value: '/é' }]);
  });
});

describe('crawl-delay', () => {
  it('accepts non-negative decimals, fractions included', () => {
    expect(parseCrawlDelay('10')).toBe(10);
    expect(parseCrawlDelay('0.5')).toBe(0.5);
    expect(parseCrawlDelay('.25')).toBe(0.25);
    expect(parseCrawlDelay('2.')).toBe(2);
    expect(parseCrawlDelay('0')).toBe(0);
    for (const bad of ['', '-1', 'abc', '1e3', '10s', '1,5', ' 1', 'Infinity', '0x10']) {
      expect(parseCrawlDelay(bad)).toBeUndefined();
    }
  });

  it('keeps the first valid value per group; invalid values do not count', () => {
    expect(groupsOf('User-agent: a\nCrawl-delay: x\nCrawl-delay: 4\nCrawl-delay: 5')[0]!.crawlDelay).toBe(4);
    expect(groupsOf('Crawl-delay: 9\nUser-agent: a\nDisallow: /')[0]!.crawlDelay).toBeUndefined();
    expect(groupsOf('User-agent: a\ncrawl-delay: 1.5')[0]!.crawlDelay).toBe(1.5);
  });
});
