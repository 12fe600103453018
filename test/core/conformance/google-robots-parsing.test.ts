// Conformance with the reference's parser-level tests: line numbering over LF/CR/CRLF, UTF-8 byte order
// marks, Sitemap lines, the per-line cap (github.com/google/robotstxt robots_test.cc, commit c8ac4b1d, and
// reporting_robots_test.cc, commit 19feaac8). The reference asserts handler callbacks (line numbers,
// counts of valid and unknown directives, the sitemap value); here they are asserted through what our
// API exposes for the same lines: the deciding line of a check, `records` (= the reference's
// HandleUnknownAction lines) and `sitemaps`.

import { describe, expect, it } from 'vitest';
import { parseRobotsTxt } from '../../../src/core/index.js';
import { type BodyCase, bodyForms, expectCheck, flatten, rows } from './conformance-helpers.js';

const LINE_ENDINGS: [string, string][] = [
  ['kUnixFile', 'User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nDisallow: /\n'],
  ['kDosFile', 'User-Agent: foo\r\nAllow: /some/path\r\nUser-Agent: bar\r\n\r\n\r\nDisallow: /\r\n'],
  ['kMacFile', 'User-Agent: foo\rAllow: /some/path\rUser-Agent: bar\r\r\rDisallow: /\r'],
  ['kNoFinalNewline', 'User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nDisallow: /'],
  ['kMixedFile', 'User-Agent: foo\nAllow: /some/path\r\nUser-Agent: bar\n\r\n\nDisallow: /'],
];

// reporting_robots_test.cc LinesNumbersAreCountedCorrectly, kSimpleFile (line numbers as in its comments).
const SIMPLE_FILE =
  'User-Agent: foo\n' + // 1
  'Allow: /some/path\n' + // 2
  'User-Agent bar # no\n' + // 3: missing colon accepted
  'absolutely random line\n' + // 4: no directive
  '#so comment, much wow\n' + // 5
  '\n' + // 6
  'unicorns: /extinct\n' + // 7: unknown key
  'noarchive: /some\n' + // 8: unused key
  'Disallow: /\n' + // 9
  'Error #and comment\n' + // 10: no directive
  'useragent: baz\n' + // 11: accepted typo
  'disallaw: /some\n' + // 12: accepted typo
  'site-map: https://e/s.xml #comment\n' + // 13: accepted typo
  'sitemap: https://e/t.xml\n' + // 14
  'Noarchive: /someCapital\n'; // 15

// reporting_robots_test.cc LinesTooLongReportedCorrectly: "/x/" padded to 2084 * 8 bytes.
const TOO_LONG = `/x/${'a'.repeat(2084 * 8 - 3)}`;
const TOO_LONG_BODY = `user-agent: foo\ndisallow: ${TOO_LONG}\nallow: /\n`;
/** The reference keeps 2083 * 8 - 1 = 16663 bytes of a line: "disallow: " and the pattern's head. */
const TOO_LONG_KEPT = TOO_LONG.slice(0, 2083 * 8 - 1 - 'disallow: '.length);

const CASES: BodyCase[] = [
  ...LINE_ENDINGS.map(([label, body]) =>
    rows(
      'ID_LinesNumbersAreCountedCorrectly',
      body,
      [
        ['foo', 'http://example.com/some/path', 'allowed', 2],
        ['bar', 'http://example.com/x', 'disallowed', 6],
      ],
      label,
    ),
  ),
  rows('reporting LinesNumbersAreCountedCorrectly', SIMPLE_FILE, [
    ['foo', 'http://example.com/some/path', 'allowed', 2],
    ['foo', 'http://example.com/other', 'allowed', 0],
    ['bar', 'http://example.com/x', 'disallowed', 9],
    ['baz', 'http://example.com/some/x', 'disallowed', 12],
    ['baz', 'http://example.com/other', 'allowed', 0],
    ['qux', 'http://example.com/some/path', 'allowed', 0],
  ]),
  rows(
    'reporting LinesTooLongReportedCorrectly',
    TOO_LONG_BODY,
    [
      ['foo', `http://example.com${TOO_LONG}`, 'disallowed', 2, `Disallow: ${TOO_LONG_KEPT}`],
      ['foo', 'http://example.com/y', 'allowed', 3],
    ],
    'line of 16682 bytes',
  ),
];

describe('google/robotstxt parser tests: deciding lines', () => {
  it.each(flatten(CASES))('$name', ({ robots, e }) => {
    expectCheck(robots, e);
  });
});

describe('google/robotstxt parser tests: records and sitemaps', () => {
  it.each(LINE_ENDINGS)(
    'ID_LinesNumbersAreCountedCorrectly [%s]: 4 valid directives, no unknown',
    (_l, body) => {
      for (const { form, body: b } of bodyForms(body)) {
        const robots = parseRobotsTxt(b);
        expect(robots.records, form).toEqual([]);
        expect(robots.sitemaps, form).toEqual([]);
      }
    },
  );

  it('reporting LinesNumbersAreCountedCorrectly: unknown and unused keys are records, typo site-map is a sitemap', () => {
    for (const { form, body } of bodyForms(SIMPLE_FILE)) {
      const robots = parseRobotsTxt(body);
      expect(robots.records, form).toEqual([
        { line: 7, key: 'unicorns', value: '/extinct' },
        { line: 8, key: 'noarchive', value: '/some' },
        { line: 15, key: 'Noarchive', value: '/someCapital' },
      ]);
      expect(robots.sitemaps, form).toEqual(['https://e/s.xml', 'https://e/t.xml']);
    }
  });

  it.each([
    [
      'at the end',
      'User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nSitemap: http://foo.bar/sitemap.xml\n',
    ],
    [
      'at the start',
      'Sitemap: http://foo.bar/sitemap.xml\nUser-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\n',
    ],
  ])('ID_NonStandardLineExample_Sitemap: a sitemap line %s', (_where, body) => {
    for (const { form, body: b } of bodyForms(body)) {
      const robots = parseRobotsTxt(b);
      expect(robots.sitemaps, form).toEqual(['http://foo.bar/sitemap.xml']);
      expect(robots.records, form).toEqual([]);
    }
  });
});

const BOM_BODY = 'User-Agent: foo\nAllow: /AnyValue\n';

function bytes(...parts: (number[] | string)[]): Uint8Array {
  const enc = new TextEncoder();
  return Uint8Array.from(parts.flatMap((p) => (typeof p === 'string' ? [...enc.encode(p)] : p)));
}

describe('google/robotstxt ID_UTF8ByteOrderMarkIsSkipped', () => {
  // 2 valid directives, 0 unknown: the Allow is in foo's group and decides.
  it.each([
    ['kUtf8FileFullBOM', bytes([0xef, 0xbb, 0xbf], BOM_BODY)],
    ['kUtf8FilePartial2BOM', bytes([0xef, 0xbb], BOM_BODY)],
    ['kUtf8FilePartial1BOM', bytes([0xef], BOM_BODY)],
    ['kUtf8FileFullBOM as a string body (U+FEFF)', `\uFEFF${BOM_BODY}`],
  ])('%s: skipped, rules apply', (_name, body) => {
    for (const { form, body: b } of bodyForms(body)) {
      const robots = parseRobotsTxt(b);
      expect(robots.records, form).toEqual([]);
      expect(robots.check('http://example.com/AnyValue', 'foo'), form).toMatchObject({
        allowed: true,
        verdict: 'allowed_explicit',
        line: 2,
        rule: 'Allow: /AnyValue',
      });
    }
  });

  it('kUtf8FileBrokenBOM: line 1 is garbage (one unknown directive), the Allow is outside any group', () => {
    const robots = parseRobotsTxt(bytes([0xef, 0x11, 0xbf], BOM_BODY));
    expect(robots.records).toHaveLength(1);
    expect(robots.records[0]).toMatchObject({ line: 1, value: 'foo' });
    expect(robots.records[0]!.key.endsWith('User-Agent')).toBe(true);
    expect(robots.check('http://example.com/AnyValue', 'foo')).toMatchObject({
      verdict: 'allowed_implicit',
      line: 0,
    });
  });

  it('kUtf8BOMSomewhereInMiddleOfFile: only a leading BOM is skipped; line 2 is an unknown directive', () => {
    const robots = parseRobotsTxt(bytes('User-Agent: foo\n', [0xef, 0xbb, 0xbf], 'Allow: /AnyValue\n'));
    expect(robots.records).toHaveLength(1);
    expect(robots.records[0]).toMatchObject({ line: 2, value: '/AnyValue' });
    expect(robots.records[0]!.key.endsWith('Allow')).toBe(true);
    expect(robots.check('http://example.com/AnyValue', 'foo')).toMatchObject({
      verdict: 'allowed_implicit',
      line: 0,
    });
  });
});
