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
import { GET_PATH_PARAMS_QUERY } from './conformance/google-robots-test.cases.js';

describe('pathFromUrl (GetPathParamsQuery)', () => {
  // Source: google/robotstxt robots_test.cc, TestGetPathParamsQuery; the model must give it too.
  it.each(GET_PATH_PARAMS_QUERY)('%j → %j', (url, path) => {
    expect(pathFromUrl(url)).toBe(path);
    expect(modelPath(url)).toBe(path);
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
        expect(pathFromUrl(u)).toBe(modelPath(u));
      }),
      { numRuns: 5000 },
    );
  });
});

/**
 * GetPathParamsQuery (google/robotstxt robots.cc) as a deliberately plain char-by-char model, reporting a
 * span like locatePath: no indexOf, no regex, so it shares no shortcut with the code under test.
 */
function modelSpan(url: string): { kind: number; start: number; end: number } {
  const n = url.length;
  const root = { kind: SPAN_ROOT, start: -1, end: -1 };
  const isPathChar = (c: string) => c === '/' || c === '?' || c === ';';
  let searchStart = 0;
  if (n >= 2 && url[0] === '/' && url[1] === '/') searchStart = 2;
  let earlyPath = Number.POSITIVE_INFINITY;
  for (let i = searchStart; i < n; i++) {
    if (isPathChar(url[i] as string)) {
      earlyPath = i;
      break;
    }
  }
  let protocolEnd = Number.POSITIVE_INFINITY;
  for (let i = searchStart; i + 2 < n; i++) {
    if (url[i] === ':' && url[i + 1] === '/' && url[i + 2] === '/') {
      protocolEnd = i;
      break;
    }
  }
  if (earlyPath < protocolEnd) protocolEnd = Number.POSITIVE_INFINITY;
  const authority = protocolEnd === Number.POSITIVE_INFINITY ? searchStart : protocolEnd + 3;
  let pathStart = -1;
  for (let i = authority; i < n; i++) {
    if (isPathChar(url[i] as string)) {
      pathStart = i;
      break;
    }
  }
  if (pathStart < 0) return root;
  let hash = n;
  for (let i = searchStart; i < n; i++) {
    if (url[i] === '#') {
      hash = i;
      break;
    }
  }
  if (hash < pathStart) return root;
  // The matcher reads the path as a C string: it ends at the first NUL.
  let end = hash;
  for (let i = pathStart; i < hash; i++) {
    if (url[i] === '\0') {
      end = i;
      break;
    }
  }
  return { kind: url[pathStart] === '/' ? SPAN_IN_PLACE : SPAN_NEEDS_SLASH, start: pathStart, end };
}

function modelPath(url: string): string {
  const m = modelSpan(url);
  if (m.kind === SPAN_ROOT) return '/';
  const path = url.slice(m.start, m.end);
  return m.kind === SPAN_IN_PLACE ? path : `/${path}`;
}

/** locatePath and pathFromUrl against the model; the span fields only count when there is a path. */
function expectAgrees(url: string): void {
  const span: PathSpan = { start: -1, end: -1 };
  const kind = locatePath(url, span);
  const m = modelSpan(url);
  expect({ url, kind, span: kind === SPAN_ROOT ? null : span }).toEqual({
    url,
    kind: m.kind,
    span: m.kind === SPAN_ROOT ? null : { start: m.start, end: m.end },
  });
  expect(pathFromUrl(url)).toBe(modelPath(url));
}

// Pieces that steer the scanner: path and scheme delimiters, NUL, escapes, the http(s) prefixes in whole
// and in part, and non-Latin-1 text (which makes V8 store the string two bytes per char).
const piece = fc.constantFrom(
  '/',
  '?',
  ';',
  '#',
  ':',
  '\0',
  '%',
  '%2F',
  'h',
  't',
  'p',
  's',
  'a',
  'Z',
  '.',
  'é',
  '\u0100',
  '\u{1F600}',
  '//',
  '://',
  'http',
  'https',
  'http://',
  'https://',
);
/** A string of up to `max` pieces. */
const piecesUpTo = (max: number) => fc.array(piece, { maxLength: max }).map((p) => p.join(''));
/** `https://host/path…` with special pieces spliced in anywhere; lengths straddle every fast-path bound. */
const realLookingUrl = fc
  .tuple(
    fc.webUrl({ withQueryParameters: true, withFragments: true }),
    fc.array(fc.tuple(fc.nat(), piece), { maxLength: 3 }),
    fc.constantFrom('', 'a'.repeat(20), 'b/'.repeat(30), 'c'.repeat(200)),
  )
  .map(([url, splices, tail]) => {
    let u = url + tail;
    for (const [at, p] of splices) {
      const i = at % (u.length + 1);
      u = u.slice(0, i) + p + u.slice(i);
    }
    return u;
  });

describe('locatePath and pathFromUrl against a char-by-char model of GetPathParamsQuery', () => {
  it('agree on the robots_test.cc table and on edge cases', () => {
    for (const url of [
      '',
      'http://www.example.com/a/b?c=http://d.e/',
      'https://h',
      'https://h/',
      'https://h?q',
      'https://h;p',
      'https://h#f/x',
      'https:///x',
      'http://h/a#b',
      'http://h/a\0b#c',
      'https://h/\u0100?x',
      'HTTPS://H/A',
      'httpx://h/a',
      'http:/h/a',
      `https://h/${'x'.repeat(60)}`,
      `https://h/${'x'.repeat(60)}#y`,
      `https://h/${'x'.repeat(60)}\0y`,
    ]) {
      expectAgrees(url);
    }
  });

  it('agree on random strings rich in / ? ; # : NUL % and http(s) fragments', () => {
    fc.assert(
      fc.property(piecesUpTo(16), (u) => expectAgrees(u)),
      { numRuns: 20000 },
    );
  });

  it('agree on random strings of single chars from that alphabet and beyond', () => {
    const ch = fc.oneof(
      fc.constantFrom('/', '?', ';', '#', ':', '\0', '%', 'h', 't', 'p', 's'),
      fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
    );
    fc.assert(
      fc.property(fc.array(ch, { maxLength: 90 }), (chars) => expectAgrees(chars.join(''))),
      { numRuns: 10000 },
    );
  });

  it('agree on real-looking URLs, short and long, with special chars spliced in', () => {
    fc.assert(
      fc.property(realLookingUrl, (u) => expectAgrees(u)),
      { numRuns: 10000 },
    );
  });

  it('agree on http(s) URLs of every length around the fast paths, one special char anywhere', () => {
    // "https://ex.com/" is 15 chars, so lengths 40..56 cross SHORT_URL_MAX (64) with room either side.
    const lengths = [0, 1, 2, 3, ...Array.from({ length: 17 }, (_, i) => 40 + i), 90];
    for (const scheme of ['http://', 'https://']) {
      for (const len of lengths) {
        const base = `${scheme}ex.com/${'p'.repeat(len)}`;
        for (const special of ['#', '\0', '?', ';', '/', '\u0100']) {
          for (let at = 0; at <= base.length; at++)
            expectAgrees(base.slice(0, at) + special + base.slice(at));
        }
      }
    }
  });

  it('handles a megabyte-long URL without blowing a regex stack', () => {
    const long = `https://h/${'a'.repeat(1 << 20)}`;
    expectAgrees(long);
    expectAgrees(`${long}#f`);
    expectAgrees(`https://${'h'.repeat(1 << 20)}/a`);
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
