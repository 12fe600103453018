// Facts from Google's reference unit tests: github.com/google/robotstxt, robots_test.cc (commit c8ac4b1d),
// the tests that call IsUserAgentAllowed (= RobotsMatcher::OneAgentAllowedByRobots, one agent per call, so
// they map 1:1 onto `check(url, agent)`). The reference asserts allowed/disallowed; the deciding line of
// each row is the reference's matching_line() for that check (longest pattern wins, the first of equal
// ones is kept, an Allow beats an equal Disallow; an empty pattern matches with priority 0 and never
// disallows).

import { type BodyCase, rows } from './conformance-helpers.js';

const FOO = 'user-agent: FooBot\ndisallow: /\n';

const GROUPS =
  'allow: /foo/bar/\n' +
  '\n' +
  'user-agent: FooBot\n' +
  'disallow: /\n' +
  'allow: /x/\n' +
  'user-agent: BarBot\n' +
  'disallow: /\n' +
  'allow: /y/\n' +
  '\n' +
  '\n' +
  'allow: /w/\n' +
  'user-agent: BazBot\n' +
  '\n' +
  'user-agent: FooBot\n' +
  'allow: /z/\n' +
  'disallow: /\n';

const XY = 'http://foo.bar/x/y';
const AB = 'http://foo.bar/a/b';
const PAGE = 'http://foo.bar/x/page.html';

export const SYNTAX_CASES: BodyCase[] = [
  rows('GoogleOnly_SystemTest', '', [
    ['FooBot', '', 'allowed', 0],
    ['', '', 'allowed', 0],
  ]),
  rows('GoogleOnly_SystemTest', FOO, [
    ['', '', 'allowed', 0],
    // Empty URL: GetPathParamsQuery gives "/", which `disallow: /` matches.
    ['FooBot', '', 'disallowed', 2],
  ]),
  rows('ID_LineSyntax_Line', FOO, [['FooBot', XY, 'disallowed', 2]], 'correct'),
  rows('ID_LineSyntax_Line', 'foo: FooBot\nbar: /\n', [['FooBot', XY, 'allowed', 0]], 'incorrect'),
  rows(
    'ID_LineSyntax_Line',
    'user-agent FooBot\ndisallow /\n',
    [['FooBot', XY, 'disallowed', 2]],
    'no colon',
  ),
  rows('ID_LineSyntax_Groups', GROUPS, [
    ['FooBot', 'http://foo.bar/x/b', 'allowed', 5],
    ['FooBot', 'http://foo.bar/z/d', 'allowed', 15],
    ['FooBot', 'http://foo.bar/y/c', 'disallowed', 4],
    ['BarBot', 'http://foo.bar/y/c', 'allowed', 8],
    ['BarBot', 'http://foo.bar/w/a', 'allowed', 11],
    ['BarBot', 'http://foo.bar/z/d', 'disallowed', 7],
    ['BazBot', 'http://foo.bar/z/d', 'allowed', 15],
    // Rules outside groups (line 1) are ignored.
    ['FooBot', 'http://foo.bar/foo/bar/', 'disallowed', 4],
    ['BarBot', 'http://foo.bar/foo/bar/', 'disallowed', 7],
    ['BazBot', 'http://foo.bar/foo/bar/', 'disallowed', 16],
  ]),
  rows(
    'ID_LineSyntax_Groups_OtherRules',
    'User-agent: BarBot\nSitemap: https://foo.bar/sitemap\nUser-agent: *\nDisallow: /\n',
    [
      ['FooBot', 'http://foo.bar/', 'disallowed', 4],
      ['BarBot', 'http://foo.bar/', 'disallowed', 4],
    ],
    'sitemap',
  ),
  rows(
    'ID_LineSyntax_Groups_OtherRules',
    'User-agent: FooBot\nInvalid-Unknown-Line: unknown\nUser-agent: *\nDisallow: /\n',
    [
      ['FooBot', 'http://foo.bar/', 'disallowed', 4],
      ['BarBot', 'http://foo.bar/', 'disallowed', 4],
    ],
    'unknown line',
  ),
  ...(
    [
      ['upper', 'USER-AGENT: FooBot\nALLOW: /x/\nDISALLOW: /\n'],
      ['lower', 'user-agent: FooBot\nallow: /x/\ndisallow: /\n'],
      ['camel', 'uSeR-aGeNt: FooBot\nAlLoW: /x/\ndIsAlLoW: /\n'],
    ] as const
  ).map(([label, body]) =>
    rows(
      'ID_REPLineNamesCaseInsensitive',
      body,
      [
        ['FooBot', XY, 'allowed', 2],
        ['FooBot', AB, 'disallowed', 3],
      ],
      label,
    ),
  ),
  ...(
    [
      ['upper', 'User-Agent: FOO BAR\nAllow: /x/\nDisallow: /\n'],
      ['lower', 'User-Agent: foo bar\nAllow: /x/\nDisallow: /\n'],
      ['camel', 'User-Agent: FoO bAr\nAllow: /x/\nDisallow: /\n'],
    ] as const
  ).map(([label, body]) =>
    rows(
      'ID_UserAgentValueCaseInsensitive',
      body,
      [
        ['Foo', XY, 'allowed', 2],
        ['Foo', AB, 'disallowed', 3],
        ['foo', XY, 'allowed', 2],
        ['foo', AB, 'disallowed', 3],
      ],
      label,
    ),
  ),
  rows(
    'GoogleOnly_AcceptUserAgentUpToFirstSpace',
    'User-Agent: *\nDisallow: /\nUser-Agent: Foo Bar\nAllow: /x/\nDisallow: /\n',
    [
      ['Foo', XY, 'allowed', 4],
      // The crawler's own agent is not cut at the space: "Foo Bar" names no group, so `*` applies.
      ['Foo Bar', XY, 'disallowed', 2],
    ],
  ),
  rows('ID_GlobalGroups_Secondary', '', [['FooBot', XY, 'allowed', 0]], 'empty'),
  rows(
    'ID_GlobalGroups_Secondary',
    'user-agent: *\nallow: /\nuser-agent: FooBot\ndisallow: /\n',
    [
      ['FooBot', XY, 'disallowed', 4],
      ['BarBot', XY, 'allowed', 2],
    ],
    'global',
  ),
  rows(
    'ID_GlobalGroups_Secondary',
    'user-agent: FooBot\nallow: /\nuser-agent: BarBot\ndisallow: /\nuser-agent: BazBot\ndisallow: /\n',
    [['QuxBot', XY, 'allowed', 0]],
    'only specific',
  ),
  rows('ID_AllowDisallow_Value_CaseSensitive', 'user-agent: FooBot\ndisallow: /x/\n', [
    ['FooBot', XY, 'disallowed', 2],
  ]),
  rows('ID_AllowDisallow_Value_CaseSensitive', 'user-agent: FooBot\ndisallow: /X/\n', [
    ['FooBot', XY, 'allowed', 0],
  ]),
];

export const MATCHING_CASES: BodyCase[] = [
  rows('ID_LongestMatch', 'user-agent: FooBot\ndisallow: /x/page.html\nallow: /x/\n', [
    ['FooBot', PAGE, 'disallowed', 2],
  ]),
  rows('ID_LongestMatch', 'user-agent: FooBot\nallow: /x/page.html\ndisallow: /x/\n', [
    ['FooBot', PAGE, 'allowed', 2],
    ['FooBot', 'http://foo.bar/x/', 'disallowed', 3],
  ]),
  // Both patterns empty (priority 0): matching_line() is HigherPriorityMatch(disallow, allow), the Allow on a tie.
  rows('ID_LongestMatch', 'user-agent: FooBot\ndisallow: \nallow: \n', [['FooBot', PAGE, 'allowed', 3]]),
  rows('ID_LongestMatch', 'user-agent: FooBot\ndisallow: /\nallow: /\n', [['FooBot', PAGE, 'allowed', 3]]),
  rows('ID_LongestMatch', 'user-agent: FooBot\ndisallow: /x\nallow: /x/\n', [
    ['FooBot', 'http://foo.bar/x', 'disallowed', 2],
    ['FooBot', 'http://foo.bar/x/', 'allowed', 3],
  ]),
  rows('ID_LongestMatch', 'user-agent: FooBot\ndisallow: /x/page.html\nallow: /x/page.html\n', [
    ['FooBot', PAGE, 'allowed', 3],
  ]),
  rows('ID_LongestMatch', 'user-agent: FooBot\nallow: /page\ndisallow: /*.html\n', [
    ['FooBot', 'http://foo.bar/page.html', 'disallowed', 3],
    ['FooBot', 'http://foo.bar/page', 'allowed', 2],
  ]),
  rows('ID_LongestMatch', 'user-agent: FooBot\nallow: /x/page.\ndisallow: /*.html\n', [
    ['FooBot', PAGE, 'allowed', 2],
    ['FooBot', 'http://foo.bar/x/y.html', 'disallowed', 3],
  ]),
  rows('ID_LongestMatch', 'User-agent: *\nDisallow: /x/\nUser-agent: FooBot\nDisallow: /y/\n', [
    ['FooBot', 'http://foo.bar/x/page', 'allowed', 0],
    ['FooBot', 'http://foo.bar/y/page', 'disallowed', 4],
  ]),
  rows(
    'ID_Encoding',
    'User-agent: FooBot\nDisallow: /\nAllow: /foo/bar?qux=taz&baz=http://foo.bar?tar&par\n',
    [['FooBot', 'http://foo.bar/foo/bar?qux=taz&baz=http://foo.bar?tar&par', 'allowed', 3]],
  ),
  rows('ID_Encoding', 'User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/ツ\n', [
    ['FooBot', 'http://foo.bar/foo/bar/%E3%83%84', 'allowed', 3],
    // The pattern is %-encoded, the URL is not: no match.
    ['FooBot', 'http://foo.bar/foo/bar/ツ', 'disallowed', 2],
  ]),
  rows('ID_Encoding', 'User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%E3%83%84\n', [
    ['FooBot', 'http://foo.bar/foo/bar/%E3%83%84', 'allowed', 3],
    ['FooBot', 'http://foo.bar/foo/bar/ツ', 'disallowed', 2],
  ]),
  rows('ID_Encoding', 'User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%62%61%7A\n', [
    ['FooBot', 'http://foo.bar/foo/bar/baz', 'disallowed', 2],
    ['FooBot', 'http://foo.bar/foo/bar/%62%61%7A', 'allowed', 3],
  ]),
  rows('ID_SpecialCharacters', 'User-agent: FooBot\nDisallow: /foo/bar/quz\nAllow: /foo/*/qux\n', [
    ['FooBot', 'http://foo.bar/foo/bar/quz', 'disallowed', 2],
    ['FooBot', 'http://foo.bar/foo/quz', 'allowed', 0],
    ['FooBot', 'http://foo.bar/foo//quz', 'allowed', 0],
    ['FooBot', 'http://foo.bar/foo/bax/quz', 'allowed', 0],
  ]),
  rows('ID_SpecialCharacters', 'User-agent: FooBot\nDisallow: /foo/bar$\nAllow: /foo/bar/qux\n', [
    ['FooBot', 'http://foo.bar/foo/bar', 'disallowed', 2],
    ['FooBot', 'http://foo.bar/foo/bar/qux', 'allowed', 3],
    ['FooBot', 'http://foo.bar/foo/bar/', 'allowed', 0],
    ['FooBot', 'http://foo.bar/foo/bar/baz', 'allowed', 0],
  ]),
  rows('ID_SpecialCharacters', 'User-agent: FooBot\n# Disallow: /\nDisallow: /foo/quz#qux\nAllow: /\n', [
    ['FooBot', 'http://foo.bar/foo/bar', 'allowed', 4],
    ['FooBot', 'http://foo.bar/foo/quz', 'disallowed', 3],
  ]),
  rows('GoogleOnly_IndexHTMLisDirectory', 'User-Agent: *\nAllow: /allowed-slash/index.html\nDisallow: /\n', [
    // `…/index.html` also allows `…/$`; the rule on line 2 decides.
    ['foobot', 'http://foo.com/allowed-slash/', 'allowed', 2],
    ['foobot', 'http://foo.com/allowed-slash/index.htm', 'disallowed', 3],
    ['foobot', 'http://foo.com/allowed-slash/index.html', 'allowed', 2],
    ['foobot', 'http://foo.com/anyother-url', 'disallowed', 3],
  ]),
];

/** GoogleOnly_DocumentationChecks: `disallow: /` on line 2, the Allow under test on line 3. */
function doc(allow: string, allowed: string[], disallowed: string[]): BodyCase {
  return rows(
    `GoogleOnly_DocumentationChecks (allow: ${allow})`,
    `user-agent: FooBot\ndisallow: /\nallow: ${allow}\n`,
    [
      ...allowed.map((u): [string, string, 'allowed', number] => [
        'FooBot',
        `http://foo.bar${u}`,
        'allowed',
        3,
      ]),
      ...disallowed.map((u): [string, string, 'disallowed', number] => [
        'FooBot',
        `http://foo.bar${u}`,
        'disallowed',
        2,
      ]),
    ],
  );
}

const FISH_ALLOWED = [
  '/fish',
  '/fish.html',
  '/fish/salmon.html',
  '/fishheads',
  '/fishheads/yummy.html',
  '/fish.html?id=anything',
];

export const DOCUMENTATION_CASES: BodyCase[] = [
  doc('/fish', FISH_ALLOWED, ['/bar', '/Fish.asp', '/catfish', '/?id=fish']),
  doc('/fish*', FISH_ALLOWED, ['/bar', '/Fish.bar', '/catfish', '/?id=fish']),
  doc(
    '/fish/',
    ['/fish/', '/fish/salmon', '/fish/?salmon', '/fish/salmon.html', '/fish/?id=anything'],
    ['/bar', '/fish', '/fish.html', '/Fish/Salmon.html'],
  ),
  doc(
    '/*.php',
    [
      '/filename.php',
      '/folder/filename.php',
      '/folder/filename.php?parameters',
      '//folder/any.php.file.html',
      '/filename.php/',
      '/index?f=filename.php/',
    ],
    ['/bar', '/php/', '/index?php', '/windows.PHP'],
  ),
  doc(
    '/*.php$',
    ['/filename.php', '/folder/filename.php'],
    [
      '/bar',
      '/filename.php?parameters',
      '/filename.php/',
      '/filename.php5',
      '/php/',
      '/filename?php',
      '/aaaphpaaa',
      '//windows.PHP',
    ],
  ),
  doc('/fish*.php', ['/fish.php', '/fishheads/catfish.php?parameters'], ['/bar', '/Fish.PHP']),
  // Section "Order of precedence for group-member records".
  rows('GoogleOnly_DocumentationChecks (precedence)', 'user-agent: FooBot\nallow: /p\ndisallow: /\n', [
    ['FooBot', 'http://example.com/page', 'allowed', 2],
  ]),
  rows(
    'GoogleOnly_DocumentationChecks (precedence)',
    'user-agent: FooBot\nallow: /folder\ndisallow: /folder\n',
    [['FooBot', 'http://example.com/folder/page', 'allowed', 2]],
  ),
  rows(
    'GoogleOnly_DocumentationChecks (precedence)',
    'user-agent: FooBot\nallow: /page\ndisallow: /*.htm\n',
    [['FooBot', 'http://example.com/page.htm', 'disallowed', 3]],
  ),
  rows('GoogleOnly_DocumentationChecks (precedence)', 'user-agent: FooBot\nallow: /$\ndisallow: /\n', [
    ['FooBot', 'http://example.com/', 'allowed', 2],
    ['FooBot', 'http://example.com/page.html', 'disallowed', 3],
  ]),
];

/** GoogleOnly_LineTooLong: bytes of a line past 2083 * 8 - 1 = 16663 are dropped. */
const MAX_LINE = 2083 * 8;

/** The reference's long line: "/x/" padded to MAX_LINE - "/x/" - prefix + "\n" bytes. */
function longPath(fill: string, prefixLen: number): string {
  const length = MAX_LINE - 3 - prefixLen + 1;
  return `/x/${fill.repeat(length - 3)}`;
}

const LONG_D = longPath('a', 'disallow: '.length);
const LONG_A = longPath('a', 'allow: '.length);
const LONG_B = longPath('b', 'allow: '.length);

export const LINE_TOO_LONG_CASES: BodyCase[] = [
  rows(
    'GoogleOnly_LineTooLong',
    `user-agent: FooBot\ndisallow: ${LONG_D}/qux\n`,
    [
      ['FooBot', 'http://foo.bar/fux', 'allowed', 0],
      // The pattern was cut to LONG_D + "/", which the URL matches.
      ['FooBot', `http://foo.bar${LONG_D}/fux`, 'disallowed', 2, `Disallow: ${LONG_D}/`],
    ],
    'disallow line cut',
  ),
  rows(
    'GoogleOnly_LineTooLong',
    `user-agent: FooBot\ndisallow: /\nallow: ${LONG_A}/qux\nallow: ${LONG_B}/qux\n`,
    [
      ['FooBot', 'http://foo.bar/', 'disallowed', 2],
      ['FooBot', `http://foo.bar${LONG_A}/qux`, 'allowed', 3, `Allow: ${LONG_A}/`],
      ['FooBot', `http://foo.bar${LONG_B}/fux`, 'allowed', 4, `Allow: ${LONG_B}/`],
    ],
    'allow lines cut',
  ),
];

// robots_test.cc TestGetPathParamsQuery (the same commit): [url, expected path+params+query].
export const GET_PATH_PARAMS_QUERY: [string, string][] = [
  ['', '/'],
  ['http://www.example.com', '/'],
  ['http://www.example.com/', '/'],
  ['http://www.example.com/a', '/a'],
  ['http://www.example.com/a/', '/a/'],
  ['http://www.example.com/a/b?c=http://d.e/', '/a/b?c=http://d.e/'],
  ['http://www.example.com/a/b?c=d&e=f#fragment', '/a/b?c=d&e=f'],
  ['example.com', '/'],
  ['example.com/', '/'],
  ['example.com/a', '/a'],
  ['example.com/a/', '/a/'],
  ['example.com/a/b?c=d&e=f#fragment', '/a/b?c=d&e=f'],
  ['a', '/'],
  ['a/', '/'],
  ['/a', '/a'],
  ['a/b', '/b'],
  ['example.com?a', '/?a'],
  ['example.com/a;b#c', '/a;b'],
  ['//a/b/c', '/b/c'],
];
