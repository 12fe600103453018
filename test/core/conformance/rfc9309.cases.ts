// Facts from RFC 9309 (Robots Exclusion Protocol), read from its source as kept in
// github.com/google/robotstxt protocol-draft/rfc9309.xml. Each case names its section. Bodies are the
// RFC's examples; where an example shows only a fragment (a user-agent line, a single rule), the rest
// of the body is ours and the test name says "derived".

import { type BodyCase, type Expect, rows } from './conformance-helpers.js';

const MERGE =
  'user-agent: ExampleBot\ndisallow: /foo\ndisallow: /bar\n\nuser-agent: ExampleBot\ndisallow: /baz\n';
const STAR = 'user-agent: *\ndisallow: /foo\ndisallow: /bar\n\nuser-agent: BazBot\ndisallow: /baz\n';

// §5.1: the artwork's closing "EOF" marks the end of the file and is not part of it.
const SIMPLE_EXAMPLE =
  'User-Agent: *\n' + // 1
  'Disallow: *.gif$\n' + // 2
  'Disallow: /example/\n' + // 3
  'Allow: /publications/\n' + // 4
  '\n' + // 5
  'User-Agent: foobot\n' + // 6
  'Disallow:/\n' + // 7
  'Allow:/example/page.html\n' + // 8
  'Allow:/example/allowed.gif\n' + // 9
  '\n' + // 10
  'User-Agent: barbot\n' + // 11
  'User-Agent: bazbot\n' + // 12
  'Disallow: /example/page.html\n' + // 13
  '\n' + // 14
  'User-Agent: quxbot\n' + // 15
  '\n';

const LONGEST = 'User-Agent: foobot\nAllow: /example/page/\nDisallow: /example/page/disallowed.gif\n';

const E = 'https://www.example.com';

export const RFC_CASES: BodyCase[] = [
  rows('§2.2.1 Table 1 (derived: rule added)', 'user-agent: ExampleBot\ndisallow: /private\n', [
    // The crawler's product token from "Mozilla/5.0 (compatible; ExampleBot/0.1; …)".
    ['ExampleBot/0.1', `${E}/private`, 'disallowed', 2],
    // "Crawlers MUST use case-insensitive matching to find the group".
    ['examplebot', `${E}/private`, 'disallowed', 2],
    ['EXAMPLEBOT', `${E}/public`, 'allowed', 0],
  ]),
  rows('§2.2.1 Table 2 (merged groups)', MERGE, [
    ['ExampleBot', `${E}/foo`, 'disallowed', 2],
    ['ExampleBot', `${E}/bar`, 'disallowed', 3],
    ['ExampleBot', `${E}/baz`, 'disallowed', 6],
    ['ExampleBot', `${E}/qux`, 'allowed', 0],
  ]),
  rows('§2.2.1 Table 3 (only the * group applies)', STAR, [
    ['ExampleBot', `${E}/foo`, 'disallowed', 2],
    ['ExampleBot', `${E}/bar`, 'disallowed', 3],
    ['ExampleBot', `${E}/baz`, 'allowed', 0],
    ['BazBot', `${E}/baz`, 'disallowed', 6],
    ['BazBot', `${E}/foo`, 'allowed', 0],
  ]),
  rows('§2.2.1 (no matching group and no *: no rules apply; derived)', 'user-agent: BazBot\ndisallow: /\n', [
    ['ExampleBot', `${E}/anything`, 'allowed', 0],
  ]),
  rows('§2.2.2 (case-sensitive path matching; derived)', 'user-agent: *\ndisallow: /Foo\n', [
    ['ExampleBot', `${E}/foo`, 'allowed', 0],
    ['ExampleBot', `${E}/Foo`, 'disallowed', 2],
  ]),
  rows(
    '§2.2.2 (matching starts at the first octet of the path; derived)',
    'user-agent: *\ndisallow: /foo\n',
    [
      ['ExampleBot', `${E}/bar/foo`, 'allowed', 0],
      ['ExampleBot', `${E}/foo/bar`, 'disallowed', 2],
    ],
  ),
  rows(
    '§2.2.2 (equivalent allow and disallow: allow; derived)',
    'user-agent: *\nallow: /foo\ndisallow: /foo\n',
    [['ExampleBot', `${E}/foo`, 'allowed', 2]],
  ),
  rows(
    '§2.2.2 (equivalent disallow and allow: allow; derived)',
    'user-agent: *\ndisallow: /foo\nallow: /foo\n',
    [['ExampleBot', `${E}/foo`, 'allowed', 3]],
  ),
  rows('§2.2.2 (rules outside any group are ignored; derived)', 'disallow: /\nuser-agent: *\nallow: /x\n', [
    ['ExampleBot', `${E}/y`, 'allowed', 0],
  ]),
  rows('§2.2.2 Table 4 row 1', 'user-agent: *\ndisallow: /\nallow: /foo/bar?baz=quz\n', [
    ['ExampleBot', `${E}/foo/bar?baz=quz`, 'allowed', 3],
  ]),
  rows(
    '§2.2.2 Table 4 row 2 (URL not encoded)',
    'user-agent: *\ndisallow: /\nallow: /foo/bar?baz=https://foo.bar\n',
    [['ExampleBot', `${E}/foo/bar?baz=https://foo.bar`, 'allowed', 3]],
  ),
  rows('§2.2.2 Table 4 row 3', 'user-agent: *\ndisallow: /\nallow: /foo/bar/ツ\n', [
    ['ExampleBot', `${E}/foo/bar/%E3%83%84`, 'allowed', 3],
  ]),
  rows('§2.2.2 Table 4 row 4', 'user-agent: *\ndisallow: /\nallow: /foo/bar/%E3%83%84\n', [
    ['ExampleBot', `${E}/foo/bar/%E3%83%84`, 'allowed', 3],
  ]),
  rows(
    '§2.2.2 Table 4 row 5 (URL spelled like the pattern)',
    'user-agent: *\ndisallow: /\nallow: /foo/bar/%62%61%7A\n',
    [['ExampleBot', `${E}/foo/bar/%62%61%7A`, 'allowed', 3]],
  ),
  rows(
    '§2.2.3 Table 5 ("#" comments)',
    'user-agent: *\n# comment on its own line\ndisallow: /\nallow: / # comment in line\n',
    [['ExampleBot', `${E}/any`, 'allowed', 4]],
  ),
  rows('§2.2.3 Table 5 ("$")', 'user-agent: *\ndisallow: /\nallow: /this/path/exactly$\n', [
    ['ExampleBot', `${E}/this/path/exactly`, 'allowed', 3],
    ['ExampleBot', `${E}/this/path/exactly/more`, 'disallowed', 2],
    ['ExampleBot', `${E}/this/path/exactly?q=1`, 'disallowed', 2],
  ]),
  rows('§2.2.3 Table 5 ("*")', 'user-agent: *\ndisallow: /\nallow: /this/*/exactly\n', [
    ['ExampleBot', `${E}/this/x/exactly`, 'allowed', 3],
    ['ExampleBot', `${E}/this/a/b/exactly`, 'allowed', 3],
    ['ExampleBot', `${E}/this//exactly`, 'allowed', 3],
    ['ExampleBot', `${E}/this/exactly`, 'disallowed', 2],
  ]),
  rows(
    '§2.2.3 Table 6 (URL spelled like the pattern)',
    'user-agent: *\ndisallow: /path/file-with-a-%2A.html\n',
    [['ExampleBot', `${E}/path/file-with-a-%2A.html`, 'disallowed', 2]],
  ),
  rows(
    '§2.2.4 (a Sitemap record does not end a group; derived)',
    'user-agent: ExampleBot\nsitemap: https://example.com/sitemap.xml\nuser-agent: OtherBot\ndisallow: /\n',
    [
      ['ExampleBot', `${E}/x`, 'disallowed', 4],
      ['OtherBot', `${E}/x`, 'disallowed', 4],
    ],
  ),
  rows(
    '§2.2.4 (a Sitemap record inside a group; derived)',
    'user-agent: ExampleBot\ndisallow: /a\nsitemap: https://example.com/sitemap.xml\ndisallow: /b\n',
    [['ExampleBot', `${E}/b`, 'disallowed', 4]],
  ),
  rows(
    '§2.2.4 (lenient: a common misspelling accepted; derived)',
    'user-agent: ExampleBot\ndisalow: /typo\n',
    [['ExampleBot', `${E}/typo`, 'disallowed', 2]],
  ),
  rows('§2.2 ABNF (*WS around keys and ":"; derived)', '\tuser-agent : ExampleBot\n  disallow :  /x\n', [
    ['ExampleBot', `${E}/x`, 'disallowed', 2],
  ]),
  // Allowed; the deciding line is the empty rule's, as the reference's matching_line() reports it.
  rows('§2.2 ABNF (empty-pattern; derived)', 'user-agent: *\ndisallow:\n', [
    ['ExampleBot', `${E}/x`, 'allowed', 2],
  ]),
  rows('§5.1 Simple Example', SIMPLE_EXAMPLE, [
    ['otherbot', `${E}/publications/report`, 'allowed', 4],
    ['otherbot', `${E}/example/page.html`, 'disallowed', 3],
    ['otherbot', `${E}/images/a.gif`, 'disallowed', 2],
    // Longest match: /publications/ (14 octets) beats *.gif$ (6).
    ['otherbot', `${E}/publications/a.gif`, 'allowed', 4],
    ['otherbot', `${E}/images/a.gif?x`, 'allowed', 0],
    ['foobot', `${E}/example/page.html`, 'allowed', 8],
    ['foobot', `${E}/example/allowed.gif`, 'allowed', 9],
    ['foobot', `${E}/example/other.html`, 'disallowed', 7],
    ['foobot', `${E}/`, 'disallowed', 7],
    ['barbot', `${E}/example/page.html`, 'disallowed', 13],
    ['bazbot', `${E}/example/page.html`, 'disallowed', 13],
    ['bazbot', `${E}/example/other.html`, 'allowed', 0],
    ['bazbot', `${E}/images/a.gif`, 'allowed', 0],
    ['quxbot', `${E}/example/page.html`, 'allowed', 0],
    ['quxbot', `${E}/images/a.gif`, 'allowed', 0],
  ]),
  rows('§5.2 Longest Match', LONGEST, [
    ['foobot', `${E}/example/page/disallowed.gif`, 'disallowed', 3],
    ['foobot', `${E}/example/page/other.gif`, 'allowed', 2],
  ]),
];

/** An RFC statement we do not follow (the reference decides otherwise), asserted as our behaviour. */
export interface RfcDifference {
  section: string;
  robots: string;
  ours: Expect;
  /** What the RFC's text implies for the same check. */
  rfc: 'allowed' | 'disallowed';
  reason: string;
}

const BY_REFERENCE = 'the reference matches patterns octet by octet without decoding or encoding them (';

export const RFC_DIFFERENCES: RfcDifference[] = [
  {
    section: '§2.2.2 Table 4 row 2',
    robots: 'user-agent: *\ndisallow: /\nallow: /foo/bar?baz=https://foo.bar\n',
    ours: { agent: 'ExampleBot', url: `${E}/foo/bar?baz=https%3A%2F%2Ffoo.bar`, allowed: false, line: 2 },
    rfc: 'allowed',
    reason: `${BY_REFERENCE}reserved characters in a pattern are not %-encoded; robots_test.cc ID_Encoding)`,
  },
  {
    section: '§2.2.2 Table 4 row 5',
    robots: 'user-agent: *\ndisallow: /\nallow: /foo/bar/%62%61%7A\n',
    ours: { agent: 'ExampleBot', url: `${E}/foo/bar/baz`, allowed: false, line: 2 },
    rfc: 'allowed',
    reason: `${BY_REFERENCE}%-encoded unreserved octets are not decoded; robots_test.cc ID_Encoding)`,
  },
  {
    section: '§2.2.3 Table 6 row 1',
    robots: 'user-agent: *\ndisallow: /path/file-with-a-%2A.html\n',
    ours: { agent: 'ExampleBot', url: `${E}/path/file-with-a-*.html`, allowed: true, line: 0 },
    rfc: 'disallowed',
    reason: `${BY_REFERENCE}%2A in a pattern does not match a literal * in the URL)`,
  },
  {
    section: '§2.2.3 Table 6 row 2',
    robots: 'user-agent: *\ndisallow: /path/foo-%24\n',
    ours: { agent: 'ExampleBot', url: `${E}/path/foo-$`, allowed: true, line: 0 },
    rfc: 'disallowed',
    reason: `${BY_REFERENCE}%24 in a pattern does not match a literal $ in the URL)`,
  },
  {
    section: '§5.2 Longest Match (the text names the URI example.com/example/page/disallow.gif)',
    robots: LONGEST,
    ours: { agent: 'foobot', url: `${E}/example/page/disallow.gif`, allowed: true, line: 2 },
    rfc: 'disallowed',
    reason:
      'the RFC text says the Disallow rule decides "disallow.gif", but that pattern ends in "disallowed.gif" ' +
      'and does not match it (a typo in the example); the Allow rule decides. The intended URI is tested above',
  },
];
