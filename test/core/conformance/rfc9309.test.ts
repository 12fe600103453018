// Conformance with RFC 9309's examples and rules (cases in rfc9309.cases.ts), the RFC statements we do
// not follow because the reference decides otherwise, and our one exception to the reference:
// /robots.txt is always allowed (RFC 9309 §2.2.2 "The /robots.txt URI is implicitly allowed").

import { describe, expect, it } from 'vitest';
import { parseRobotsTxt, pathFromUrl } from '../../../src/core/index.js';
import { expectCheck, flatten, rows } from './conformance-helpers.js';
import { RFC_CASES, RFC_DIFFERENCES } from './rfc9309.cases.js';

describe('RFC 9309 examples', () => {
  it.each(flatten(RFC_CASES))('$name', ({ robots, e }) => {
    expectCheck(robots, e);
  });

  it('§5.1 Simple Example: no sitemaps, no other records', () => {
    const robots = parseRobotsTxt(RFC_CASES.find((c) => c.test === '§5.1 Simple Example')!.robots);
    expect(robots.sitemaps).toEqual([]);
    expect(robots.records).toEqual([]);
  });

  it('§2.2.4: the Sitemap value is kept as a sitemap, not as a rule or record', () => {
    const robots = parseRobotsTxt(
      'user-agent: ExampleBot\nsitemap: https://example.com/sitemap.xml\nuser-agent: OtherBot\ndisallow: /\n',
    );
    expect(robots.sitemaps).toEqual(['https://example.com/sitemap.xml']);
    expect(robots.records).toEqual([]);
  });
});

describe('RFC 9309 statements decided as the reference decides (documented differences)', () => {
  it.each(RFC_DIFFERENCES)('[differs: $reason] $section: RFC says $rfc', (d) => {
    expect(d.ours.allowed).toBe(d.rfc !== 'allowed'); // the RFC really says otherwise
    expectCheck(d.robots, d.ours);
  });
});

// The documented exception. Only the path "/robots.txt" is exempt (the RFC's "/robots.txt URI", all
// lowercase per §3); other paths that merely start with it are matched as usual.
const EXCEPTION = [
  rows('exception: Disallow: / for every agent', 'User-agent: *\nDisallow: /\n', [
    ['FooBot', 'http://example.com/robots.txt', 'allowed', 0],
    ['FooBot', 'https://example.com:8443/robots.txt', 'allowed', 0],
    ['FooBot', '/robots.txt', 'allowed', 0],
    ['FooBot', 'http://example.com/robots.txt#top', 'allowed', 0],
    ['FooBot', 'http://example.com/', 'disallowed', 2],
    ['FooBot', 'http://example.com/robots.txt?x=1', 'disallowed', 2],
    ['FooBot', 'http://example.com/robots.txt/', 'disallowed', 2],
    ['FooBot', 'http://example.com/ROBOTS.TXT', 'disallowed', 2],
  ]),
  rows(
    'exception: an explicit rule naming /robots.txt',
    'User-agent: FooBot\nDisallow: /robots.txt$\nDisallow: /\n',
    [
      ['FooBot', 'http://example.com/robots.txt', 'allowed', 0],
      ['FooBot', 'http://example.com/robots.txt.bak', 'disallowed', 3],
    ],
  ),
  rows('exception: wildcard rules', 'User-agent: *\nDisallow: /*.txt$\nDisallow: /*\n', [
    ['FooBot', 'http://example.com/robots.txt', 'allowed', 0],
    ['FooBot', 'http://example.com/humans.txt', 'disallowed', 2],
  ]),
  // The exception only keeps /robots.txt from being disallowed: a rule that allows it is reported as
  // the reference's matching_line() reports it (an Allow, or an empty rule when nothing else matches).
  rows('exception: an Allow naming /robots.txt', 'User-agent: *\nAllow: /robots.txt\nDisallow: /\n', [
    ['FooBot', 'http://example.com/robots.txt', 'allowed', 2],
  ]),
  rows('exception: an empty Disallow', 'User-agent: *\nDisallow: /private\nDisallow:\n', [
    ['FooBot', 'http://example.com/robots.txt', 'allowed', 3],
    ['FooBot', 'http://example.com/private', 'disallowed', 2],
  ]),
];

describe('documented exception: /robots.txt is always allowed (RFC 9309 §2.2.2)', () => {
  it.each(flatten(EXCEPTION))('$name', ({ robots, e }) => {
    expectCheck(robots, e);
  });

  it('the compiled fast path reports no deciding rule for /robots.txt', () => {
    const compiled = parseRobotsTxt('User-agent: *\nDisallow: /\n').compile('FooBot');
    expect(compiled.decide(pathFromUrl('http://example.com/robots.txt'))).toBe(-1);
    expect(compiled.decide('/robots.txt')).toBe(-1);
    expect(compiled.rules[compiled.decide('/other')]).toMatchObject({ allowed: false, line: 2 });
  });
});
