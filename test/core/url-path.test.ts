import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  locatePath,
  type PathSpan,
  pathFromUrl,
  SPAN_IN_PLACE,
  SPAN_NEEDS_SLASH,
  SPAN_ROOT,
} from '../../src/core/url-path.js';

/** GetPathParamsQuery written out step by step (robots.cc), plus the C-string cut the matcher applies. */
function referencePath(url: string): string {
  const npos = Number.POSITIVE_INFINITY;
  const find = (i: number) => (i < 0 ? npos : i);
  const firstOf = (from: number) => {
    let best = npos;
    for (const ch of ['/', '?', ';']) best = Math.min(best, find(url.indexOf(ch, from)));
    return best;
  };
  const searchStart = url.length >= 2 && url[0] === '/' && url[1] === '/' ? 2 : 0;
  const earlyPath = firstOf(searchStart);
  let protocolEnd = find(url.indexOf('://', searchStart));
  if (earlyPath < protocolEnd) protocolEnd = npos;
  protocolEnd = protocolEnd === npos ? searchStart : protocolEnd + 3;
  const pathStart = firstOf(protocolEnd);
  let path = '/';
  if (pathStart !== npos) {
    const hash = find(url.indexOf('#', searchStart));
    if (hash < pathStart) return '/';
    const pathEnd = hash === npos ? url.length : hash;
    path = url.slice(pathStart, pathEnd);
    if (url[pathStart] !== '/') path = `/${path}`;
  }
  const nul = path.indexOf('\0');
  return nul < 0 ? path : path.slice(0, nul);
}

describe('pathFromUrl (GetPathParamsQuery)', () => {
  // Source: google/robotstxt robots_test.cc, TestGetPathParamsQuery.
  const reference: [string, string][] = [
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
  it.each(reference)('%j → %j', (url, path) => {
    expect(pathFromUrl(url)).toBe(path);
  });

  it('handles ports, odd schemes and fragments before the path', () => {
    expect(pathFromUrl('https://example.com:8443/x?y#z')).toBe('/x?y');
    expect(pathFromUrl('HTTPS://EXAMPLE.COM/A')).toBe('/A');
    expect(pathFromUrl('http://a#b/c')).toBe('/');
    expect(pathFromUrl('ht#tp://a/b')).toBe('/');
    expect(pathFromUrl('http://a;b/c')).toBe('/;b/c');
    expect(pathFromUrl('/a?b')).toBe('/a?b');
    expect(pathFromUrl('?q')).toBe('/?q');
    expect(pathFromUrl('//a://b/c')).toBe('/c');
    expect(pathFromUrl('a/b://c/d')).toBe('/b://c/d');
    expect(pathFromUrl('http://x/caf\u00e9')).toBe('/caf\u00e9');
  });

  it('cuts the path at a NUL, as the reference matches it as a C string', () => {
    expect(pathFromUrl('http://x/a\0b')).toBe('/a');
    expect(pathFromUrl('http://x/?\0')).toBe('/?');
  });

  it('agrees with GetPathParamsQuery on random strings over its special chars', () => {
    const url = fc
      .array(
        fc.constantFrom(
          '/',
          '//',
          ':',
          '://',
          '?',
          ';',
          '#',
          'a',
          'b',
          '.',
          '\0',
          'é',
          'http',
          'https://',
          'http://',
        ),
        {
          maxLength: 12,
        },
      )
      .map((p) => p.join(''));
    fc.assert(
      fc.property(url, (u) => {
        expect(pathFromUrl(u)).toBe(referencePath(u));
      }),
      { numRuns: 5000 },
    );
  });
});

describe('locatePath', () => {
  it('reports the span in place, a missing slash, or no path', () => {
    const span: PathSpan = { start: -1, end: -1 };
    expect(locatePath('https://h/p?q#f', span)).toBe(SPAN_IN_PLACE);
    expect(span).toEqual({ start: 9, end: 13 });
    expect(locatePath('h?q', span)).toBe(SPAN_NEEDS_SLASH);
    expect(span).toEqual({ start: 1, end: 3 });
    expect(locatePath('https://h', span)).toBe(SPAN_ROOT);
  });
});
