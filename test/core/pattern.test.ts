import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchPattern, matchWildcardTail, PatternKind, splitPattern } from '../../src/core/pattern.js';
import { positionSetMatches } from '../helpers/reference-matcher.js';

describe('splitPattern', () => {
  it('separates the literal prefix from what follows', () => {
    expect(splitPattern('/a/b')).toEqual({
      prefix: '/a/b',
      kind: PatternKind.Prefix,
      segments: [],
      anchored: false,
    });
    expect(splitPattern('/a$')).toEqual({
      prefix: '/a',
      kind: PatternKind.Exact,
      segments: [],
      anchored: true,
    });
    expect(splitPattern('/a*b*c$')).toEqual({
      prefix: '/a',
      kind: PatternKind.Wildcard,
      segments: ['b', 'c'],
      anchored: true,
    });
    expect(splitPattern('*')).toEqual({
      prefix: '',
      kind: PatternKind.Wildcard,
      segments: [''],
      anchored: false,
    });
    expect(splitPattern('$')).toEqual({ prefix: '', kind: PatternKind.Exact, segments: [], anchored: true });
  });

  it('treats a `$` that is not last as a literal', () => {
    expect(splitPattern('/a$b')).toEqual({
      prefix: '/a$b',
      kind: PatternKind.Prefix,
      segments: [],
      anchored: false,
    });
    expect(splitPattern('/a$$').prefix).toBe('/a$');
  });
});

describe('matchPattern (Matches)', () => {
  // Source: google/robotstxt robots_test.cc, ID_SpecialCharacters / GoogleOnly_DocumentationChecks.
  it('anchors at the start, `*` matches any run, trailing `$` anchors the end', () => {
    expect(matchPattern('/fish.html', '/fish')).toBe(true);
    expect(matchPattern('/catfish', '/fish')).toBe(false);
    expect(matchPattern('/folder/filename.php', '/*.php$')).toBe(true);
    expect(matchPattern('/filename.php?parameters', '/*.php$')).toBe(false);
    expect(matchPattern('/fishheads/catfish.php?parameters', '/fish*.php')).toBe(true);
    expect(matchPattern('/foo/bar$', '/foo/bar$x')).toBe(false);
    expect(matchPattern('/a$b', '/a$b')).toBe(true);
    expect(matchPattern('/', '$')).toBe(false);
    expect(matchPattern('', '$')).toBe(true);
    expect(matchPattern('/anything', '')).toBe(true);
    expect(matchPattern('/x', '**$')).toBe(true);
  });

  it('agrees with the position-set algorithm of the reference', () => {
    const pattern = fc
      .array(fc.constantFrom('/', 'a', 'b', '*', '$', 'ab'), { maxLength: 8 })
      .map((p) => p.join(''));
    const path = fc.array(fc.constantFrom('/', 'a', 'b', '$', '*'), { maxLength: 10 }).map((p) => p.join(''));
    fc.assert(
      fc.property(pattern, path, (pat, p) => {
        expect(matchPattern(p, pat)).toBe(positionSetMatches(p, pat));
      }),
      { numRuns: 20_000 },
    );
  });

  it('does not backtrack: 30 `*` against a 3,000-char path (a CVE in a peer) is a plain answer', () => {
    const path = `/${'a'.repeat(3000)}`;
    const pattern = `/${'*a'.repeat(30)}b`;
    expect(matchPattern(path, pattern)).toBe(false);
    expect(matchPattern(`${path}b`, pattern)).toBe(true);
    expect(matchPattern(path, `${'*'.repeat(30)}a$`)).toBe(true);
  });
});

describe('matchWildcardTail', () => {
  it('respects the end of the span (the URL may go on after the path)', () => {
    const url = 'http://h/ab#cd';
    expect(matchWildcardTail(url, 9, 11, ['b'], false)).toBe(true);
    expect(matchWildcardTail(url, 9, 11, ['c'], false)).toBe(false);
    expect(matchWildcardTail(url, 9, 11, ['b'], true)).toBe(true);
    expect(matchWildcardTail(url, 9, 11, ['a', 'c'], false)).toBe(false);
    expect(matchWildcardTail(url, 9, 11, ['a', ''], true)).toBe(true);
  });
});
