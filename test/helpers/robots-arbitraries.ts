// fast-check generators for robots.txt files and paths over a small, nasty alphabet. Files draw their
// patterns from a small pool so that equal patterns, equal lengths (Allow/Disallow ties) and paths
// derived from the rules themselves are common.

import fc from 'fast-check';

const PATTERN_PIECES = [
  '/',
  'a',
  'b',
  'A',
  '*',
  '$',
  '%',
  '%2f',
  '%2F',
  '?',
  '=',
  '.',
  'é',
  'ツ',
  'index.html',
  '/index.htm',
  ';',
];
const PATH_PIECES = [
  '/',
  'a',
  'b',
  'A',
  '*',
  '$',
  '%',
  '%2f',
  '%2F',
  '%C3%A9',
  '?',
  '=',
  '.',
  'é',
  'index.html',
  ';',
];
const AGENT_VALUES = [
  '*',
  'FooBot',
  'foobot',
  'FOOBOT',
  'BarBot',
  '* extra',
  'FooBot/1.0',
  'Foo Bar',
  '*Foo',
  'Foo-Bot',
  '',
  '123',
];
const OTHER_KEYS = ['USERAGENT', 'user agent', 'disalow', 'DISALLOWED', 'Sitemap', 'Crawl-delay', 'Host', ''];
const SEPARATORS = [':', ': ', ' : ', ' ', '\t', ':\t', '::'];
const ENDINGS = ['\n', '\r\n', '\r', '\n\n', '\r\r'];

export const patternArb = fc
  .array(fc.constantFrom(...PATTERN_PIECES), { maxLength: 5 })
  .map((p) => p.join(''));

export const pathArb = fc
  .array(fc.constantFrom(...PATH_PIECES), { maxLength: 8 })
  .map((p) => `/${p.join('')}`);

/** A path built from a pattern: `*` filled with random pieces, a trailing `$` dropped, maybe extended. */
export function pathFromPatternArb(pattern: string): fc.Arbitrary<string> {
  return fc
    .tuple(
      fc.array(fc.constantFrom('', 'a', '/', '?b', 'é'), { minLength: 8, maxLength: 8 }),
      fc.constantFrom('', 'a', '/x', '?q=1', '.html'),
    )
    .map(([fills, tail]) => {
      let k = 0;
      const body = pattern.replace(/\$$/, '').replace(/\*/g, () => fills[k++ % fills.length]!);
      return (body.startsWith('/') ? body : `/${body}`) + tail;
    });
}

function lineArb(pool: string[]): fc.Arbitrary<string> {
  const value = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...pool) },
    { weight: 1, arbitrary: patternArb },
  );
  return fc
    .oneof(
      {
        weight: 3,
        arbitrary: fc.tuple(
          fc.constantFrom('User-agent', 'user-agent', 'useragent'),
          fc.constantFrom(': ', ':', ' '),
          fc.constantFrom(...AGENT_VALUES),
        ),
      },
      {
        weight: 7,
        arbitrary: fc.tuple(
          fc.constantFrom('Allow', 'Disallow', 'allow', 'disallow'),
          fc.constantFrom(': ', ':', ' '),
          value,
        ),
      },
      {
        weight: 2,
        arbitrary: fc.tuple(
          fc.constantFrom(...OTHER_KEYS),
          fc.constantFrom(...SEPARATORS),
          fc.oneof(value, fc.constantFrom(...AGENT_VALUES), fc.constantFrom('1', '0.5', 'x')),
        ),
      },
      {
        weight: 1,
        arbitrary: fc.tuple(
          fc.constantFrom('', '  ', '# comment', '\u0000', '\ufeff', 'Disallow: /a # c'),
          fc.constant(''),
          fc.constant(''),
        ),
      },
    )
    .map(([k, s, v]) => `${k}${s}${v}`);
}

/** A robots.txt body together with the pattern pool its rules were drawn from. */
export const robotsWithPoolArb = fc
  .array(patternArb, { minLength: 1, maxLength: 4 })
  .chain((pool) =>
    fc
      .array(fc.tuple(lineArb(pool), fc.constantFrom(...ENDINGS)), { maxLength: 14 })
      .map((lines) => ({ pool, body: lines.map(([l, e]) => l + e).join('') })),
  );

export const robotsArb = robotsWithPoolArb.map((r) => r.body);

/** A body and paths: some random, most derived from the body's own patterns. */
export const robotsAndPathsArb = robotsWithPoolArb.chain(({ pool, body }) =>
  fc
    .array(fc.oneof(pathArb, fc.constantFrom(...pool).chain(pathFromPatternArb)), {
      minLength: 1,
      maxLength: 6,
    })
    .map((paths) => ({ body, paths })),
);

export const agentArb = fc.constantFrom('FooBot', 'foobot', 'BarBot', 'Foo', 'Googlebot', '*', 'Foo-Bot');
