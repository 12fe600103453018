// Behaviours of the reference implementation that its unit tests do not pin down, read from its code
// (github.com/google/robotstxt robots.cc, commit c8ac4b1d; the function named in each case decides it).

import { describe, it } from 'vitest';
import { expectCheck, flatten, rows } from './conformance-helpers.js';

const CASES = [
  // ParsedRobotsKey::KeyIs*: keys are matched by case-insensitive prefix.
  rows('KeyIsAllow (prefix "allow")', 'User-agent: FooBot\nAllowed: /x\nDisallow: /\n', [
    ['FooBot', '/x', 'allowed', 2, 'Allow: /x'],
  ]),
  rows('KeyIsUserAgent (prefix "user-agent")', 'user-agentfoo: FooBot\nDisallow: /\n', [
    ['FooBot', '/x', 'disallowed', 2],
  ]),
  rows('KeyIsUserAgent (typo "user agent")', 'user agent: FooBot\nDisallow: /\n', [
    ['FooBot', '/x', 'disallowed', 2],
  ]),
  ...['dissallow', 'dissalow', 'disalow', 'diasllow', 'disallaw'].map((typo) =>
    rows(`KeyIsDisallow (typo "${typo}")`, `User-agent: FooBot\n${typo}: /x\n`, [
      ['FooBot', '/x', 'disallowed', 2, 'Disallow: /x'],
    ]),
  ),
  // GetKeyAndValueFrom: whitespace stands for a missing colon only between exactly two tokens.
  rows('GetKeyAndValueFrom (three tokens, no colon)', 'User-agent: FooBot\ndisallow /x /y\n', [
    ['FooBot', '/x', 'allowed', 0],
  ]),
  rows('GetKeyAndValueFrom (empty key)', 'User-agent: FooBot\n:/x\nDisallow: /y\n', [
    ['FooBot', '/x', 'allowed', 0],
    ['FooBot', '/y', 'disallowed', 3],
  ]),
  rows(
    'GetKeyAndValueFrom (value after the first colon)',
    'User-agent: FooBot Disallow: /x\nDisallow: /y\n',
    [
      ['FooBot', '/x', 'allowed', 0],
      ['FooBot', '/y', 'disallowed', 2],
    ],
  ),
  // RobotsMatcher::HandleUserAgent / ExtractUserAgent.
  rows('HandleUserAgent ("*" then whitespace is global)', 'User-agent: * foo\nDisallow: /\n', [
    ['FooBot', '/x', 'disallowed', 2],
  ]),
  rows('HandleUserAgent ("*foo" is not global)', 'User-agent: *foo\nDisallow: /\n', [
    ['FooBot', '/x', 'allowed', 0],
  ]),
  rows('ExtractUserAgent (cut at the first other character)', 'User-agent: FooBot/1.0\nDisallow: /\n', [
    ['FooBot', '/x', 'disallowed', 2],
  ]),
  rows('ExtractUserAgent (a value starting with a digit cuts to "")', 'User-agent: 1bot\nDisallow: /\n', [
    ['', '/x', 'disallowed', 2],
    ['bot', '/x', 'allowed', 0],
  ]),
  rows(
    'HandleUserAgent (a trailing user-agent line with no rules)',
    'User-agent: FooBot\nDisallow: /x\nUser-agent: BarBot\n',
    [
      ['BarBot', '/x', 'allowed', 0],
      ['FooBot', '/x', 'disallowed', 2],
    ],
  ),
  // RobotsMatchStrategy::Matches: '$' is special only at the end; '*' matches any run.
  rows('Matches ("$" inside a pattern is literal)', 'User-agent: FooBot\nDisallow: /\nAllow: /foo$bar\n', [
    ['FooBot', '/foo$bar', 'allowed', 3],
    ['FooBot', '/foo', 'disallowed', 2],
  ]),
  rows('Matches (a lone "$" matches no path)', 'User-agent: FooBot\nDisallow: $\n', [
    ['FooBot', '/', 'allowed', 0],
  ]),
  rows('Matches ("*" at the start)', 'User-agent: FooBot\nDisallow: *\n', [
    ['FooBot', '/x', 'disallowed', 2],
  ]),
  rows('Matches ("*$")', 'User-agent: FooBot\nDisallow: /a*$\n', [['FooBot', '/ab', 'disallowed', 2]]),
  rows('Matches ("/$" beats "/*" by length)', 'User-agent: FooBot\nDisallow: /*\nAllow: /$\n', [
    ['FooBot', '/', 'allowed', 3],
    ['FooBot', '/a', 'disallowed', 2],
  ]),
  // MaybeEscapePattern: %xx upper-cased in patterns, not decoded; other octets below 0x80 kept as written.
  rows('MaybeEscapePattern (%7e → %7E)', 'User-agent: FooBot\nDisallow: /%7e\n', [
    ['FooBot', '/%7E', 'disallowed', 2],
    ['FooBot', '/~', 'allowed', 0],
  ]),
  rows('MaybeEscapePattern (inner space kept)', 'User-agent: FooBot\nDisallow: /a b\n', [
    ['FooBot', '/a b', 'disallowed', 2],
    ['FooBot', '/a%20b', 'allowed', 0],
  ]),
  // HandleAllow: a pattern whose last segment starts with "/index.htm" also allows its directory.
  rows('HandleAllow ("/index.htm" prefix)', 'User-agent: FooBot\nDisallow: /\nAllow: /x/index.htmfoo\n', [
    ['FooBot', '/x/', 'allowed', 3],
    ['FooBot', '/x/?q', 'disallowed', 2],
  ]),
  rows('HandleAllow (index.html rule is Allow-only)', 'User-agent: FooBot\nDisallow: /x/index.html\n', [
    ['FooBot', '/x/', 'allowed', 0],
  ]),
  // GetPathParamsQuery: scheme, authority (any port) and fragment removed.
  rows('GetPathParamsQuery (port, query, fragment)', 'User-agent: FooBot\nDisallow: /x?y\n', [
    ['FooBot', 'https://foo.com:8080/x?y#z', 'disallowed', 2],
    ['FooBot', 'HTTP://FOO.COM/x?y', 'disallowed', 2],
    ['FooBot', 'https://foo.com:8080/x#?y', 'allowed', 0],
  ]),
];

describe('google/robotstxt robots.cc behaviours', () => {
  it.each(flatten(CASES))('$name', ({ robots, e }) => {
    expectCheck(robots, e);
  });
});
