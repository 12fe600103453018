import { describe, expect, it } from 'vitest';
import { toBinary } from '../../src/core/bytes.js';
import { classifyKey, KeyKind, lexRobots, MAX_LINE_BYTES } from '../../src/core/lexer.js';

type Line = [line: number, kind: KeyKind, key: string, value: string];

function lex(body: string | Uint8Array): Line[] {
  const s = toBinary(body);
  const out: Line[] = [];
  lexRobots(s, (line, kind, ks, ke, vs, ve) => out.push([line, kind, s.slice(ks, ke), s.slice(vs, ve)]));
  return out;
}
const lines = (body: string | Uint8Array) => lex(body).map((l) => l[0]);
const { UserAgent, Allow, Disallow, Sitemap, Unknown } = KeyKind;

describe('line ends and numbering (RobotsTxtParser::Parse)', () => {
  // Source: google/robotstxt robots_test.cc, ID_LinesNumbersAreCountedCorrectly.
  it('counts LF, CR and CRLF files alike', () => {
    for (const eol of ['\n', '\r', '\r\n']) {
      const body =
        ['User-Agent: foo', 'Allow: /some/path', 'User-Agent: bar', '', '', 'Disallow: /'].join(eol) + eol;
      expect(lines(body)).toEqual([1, 2, 3, 6]);
    }
    expect(lines('User-Agent: foo\nAllow: /some/path\r\nUser-Agent: bar\n\r\n\nDisallow: /')).toEqual([
      1, 2, 3, 6,
    ]);
  });

  it('counts CR CR as two lines and LF CR as two line ends', () => {
    expect(lines('a:1\r\rb:2')).toEqual([1, 3]);
    expect(lines('a:1\n\rb:2')).toEqual([1, 3]);
    expect(lines('a:1\r\n\r\nb:2')).toEqual([1, 3]);
    expect(lines('\r\n\nb:2')).toEqual([3]);
  });

  it('emits the last line without a final line end', () => {
    expect(lex('Disallow: /x')).toEqual([[1, Disallow, 'Disallow', '/x']]);
  });
});

describe('byte order mark', () => {
  // Source: google/robotstxt robots_test.cc, ID_UTF8ByteOrderMarkIsSkipped.
  it('skips a full or partial UTF-8 BOM at the start only', () => {
    for (const bom of [[0xef, 0xbb, 0xbf], [0xef, 0xbb], [0xef]]) {
      const body = Uint8Array.from([...bom, ...Buffer.from('User-Agent: foo\nAllow: /x\n')]);
      expect(lex(body).map((l) => l[1])).toEqual([UserAgent, Allow]);
    }
    const broken = Uint8Array.from([0xef, 0x11, 0xbf, ...Buffer.from('User-Agent: foo\nAllow: /x\n')]);
    expect(lex(broken).map((l) => l[1])).toEqual([Unknown, Allow]);
    const middle = Uint8Array.from([
      ...Buffer.from('User-Agent: foo\n'),
      0xef,
      0xbb,
      0xbf,
      ...Buffer.from('Allow: /x'),
    ]);
    expect(lex(middle).map((l) => l[1])).toEqual([UserAgent, Unknown]);
  });

  it('counts a BOM-only first line as line 1', () => {
    expect(lex(Uint8Array.from([0xef, 0xbb, 0xbf, 0x0a, ...Buffer.from('Allow: /')]))).toEqual([
      [2, Allow, 'Allow', '/'],
    ]);
  });
});

describe('line content', () => {
  it('ends a line at a NUL (C string) and at #', () => {
    expect(lex('Disallow: /a\0/b\nAllow: /c#/d')).toEqual([
      [1, Disallow, 'Disallow', '/a'],
      [2, Allow, 'Allow', '/c'],
    ]);
    expect(lex('\0Disallow: /a')).toEqual([]);
  });

  it('keeps MAX_LINE_BYTES (2083 * 8 - 1) bytes of a line and drops the rest', () => {
    expect(MAX_LINE_BYTES).toBe(2083 * 8 - 1);
    const head = 'Disallow: /';
    const value = `/${'a'.repeat(MAX_LINE_BYTES - head.length)}`;
    const [[, , , kept]] = lex(`${head}${'a'.repeat(MAX_LINE_BYTES - head.length)}XYZ\nAllow: /`) as Line[];
    expect(kept).toBe(value);
    expect(lines(`${'x'.repeat(40_000)}\nAllow: /`)).toEqual([2]);
  });

  it('strips ASCII whitespace around key and value', () => {
    expect(lex(' \t\vDisallow \f:\t /p \v')).toEqual([[1, Disallow, 'Disallow', '/p']]);
  });

  it('splits at the first colon', () => {
    expect(lex('Allow: /a:b')).toEqual([[1, Allow, 'Allow', '/a:b']]);
    expect(lex('Disallow /x: y')).toEqual([[1, Disallow, 'Disallow /x', 'y']]);
  });

  it('accepts whitespace instead of the colon only with exactly two tokens (Google-specific)', () => {
    expect(lex('Disallow /x')).toEqual([[1, Disallow, 'Disallow', '/x']]);
    expect(lex('Disallow\t \t/x')).toEqual([[1, Disallow, 'Disallow', '/x']]);
    expect(lex('Disallow /x /y')).toEqual([]);
    expect(lex('Disallow\v/x')).toEqual([]);
    expect(lex('Disallow')).toEqual([]);
  });

  it('ignores lines with an empty key and keeps empty values', () => {
    expect(lex(': /x\n :\nDisallow:')).toEqual([[3, Disallow, 'Disallow', '']]);
  });
});

describe('classifyKey (ParsedRobotsKey::Parse)', () => {
  it('matches case-insensitive prefixes, typos included', () => {
    for (const k of ['user-agent', 'USER-AGENT', 'useragent', 'user agent', 'User-agents', 'user-agent-x']) {
      expect(classifyKey(k)).toBe(UserAgent);
    }
    for (const k of ['allow', 'ALLOW', 'allowed', 'allowx']) expect(classifyKey(k)).toBe(Allow);
    for (const k of ['disallow', 'dissallow', 'dissalow', 'disalow', 'diasllow', 'disallaw', 'DISALLOWED']) {
      expect(classifyKey(k)).toBe(Disallow);
    }
    for (const k of ['sitemap', 'Site-map', 'sitemaps']) expect(classifyKey(k)).toBe(Sitemap);
    for (const k of ['user_agent', 'allo', 'disal', 'crawl-delay', 'host', 'noindex', 'a']) {
      expect(classifyKey(k)).toBe(Unknown);
    }
  });

  it('never folds a non-ASCII byte into an ASCII letter', () => {
    for (let c = 0x80; c <= 0xff; c++) {
      const ch = String.fromCharCode(c);
      expect(classifyKey(`${ch}llow`)).toBe(Unknown);
      expect(classifyKey(`a${ch}low`)).toBe(Unknown);
    }
  });
});
