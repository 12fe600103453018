import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pathFromUrl } from '../../src/core/index.js';
import { originKey } from '../../src/pipeline/policy/policy.js';
import { resolveHostColumn, resolveRowUrl } from '../../src/rows/row-url.js';

function ok(url: string, host?: string, scheme: 'http' | 'https' = 'https') {
  const r = resolveRowUrl(url, host, scheme);
  if (!r.ok) throw new Error(`expected ok for ${url}, got ${r.code}`);
  return r;
}

/** The row's error code, or 'ok'. */
function code(url: string, host?: string): string {
  const r = resolveRowUrl(url, host, 'https');
  return r.ok ? 'ok' : r.code;
}

describe('resolveRowUrl: absolute URLs', () => {
  it('takes origin and path from a plain URL', () => {
    const r = ok('https://www.example.com/a/b?c=d#frag');
    expect(r.origin).toEqual({ scheme: 'https', host: 'www.example.com', port: 443 });
    expect(r.key).toBe('https://www.example.com');
    expect(r.path).toBe('/a/b?c=d');
    expect(r.hostMismatch).toBe(false);
  });

  it('lower-cases scheme and host, keeps the path case', () => {
    const r = ok('HTTP://WWW.Example.COM/Path/A');
    expect(r.origin).toEqual({ scheme: 'http', host: 'www.example.com', port: 80 });
    expect(r.path).toBe('/Path/A');
  });

  it('keeps explicit ports and drops default ones (leading zeros too)', () => {
    expect(ok('http://a.example:8080/x').key).toBe('http://a.example:8080');
    expect(ok('http://a.example:080/x').key).toBe('http://a.example');
    expect(ok('https://a.example:443/').key).toBe('https://a.example');
    expect(ok('https://a.example:80/').key).toBe('https://a.example:80');
    expect(ok('https://a.example:/x').key).toBe('https://a.example');
  });

  it('converts IDN hosts to punycode', () => {
    expect(ok('https://bücher.example/ä').origin.host).toBe('xn--bcher-kva.example');
    expect(ok('https://BÜCHER.example/').origin.host).toBe('xn--bcher-kva.example');
    expect(ok('https://xn--bcher-kva.example/').origin.host).toBe('xn--bcher-kva.example');
  });

  it('handles IPv4 and IPv6 literals', () => {
    expect(ok('http://127.0.0.1:8080/x').key).toBe('http://127.0.0.1:8080');
    expect(ok('http://[::1]:8080/x').key).toBe('http://[::1]:8080');
    expect(ok('http://[2001:DB8::1]/x').origin.host).toBe('[2001:db8::1]');
  });

  it('ignores userinfo for the origin', () => {
    const r = ok('https://user:pw@Example.com:8443/p?q');
    expect(r.key).toBe('https://example.com:8443');
    expect(r.path).toBe('/p?q');
  });

  it('resolves scheme-relative URLs with the given scheme', () => {
    expect(ok('//a.example/x', undefined, 'http').key).toBe('http://a.example');
  });

  it('trims surrounding whitespace like WHATWG URL', () => {
    expect(ok('  https://a.example/x \t').path).toBe('/x');
  });

  it('keeps a 10 KB path whole', () => {
    const long = `/${'a'.repeat(10_000)}`;
    expect(ok(`https://a.example${long}`).path).toBe(long);
  });

  it('rejects bad input with stable codes', () => {
    expect(code('')).toBe('missing_url');
    expect(code('   ')).toBe('missing_url');
    expect(code('ftp://a.example/x')).toBe('unsupported_scheme');
    expect(code('mailto:x@y')).toBe('unsupported_scheme');
    expect(code('http://a.example:65536/')).toBe('bad_url');
    expect(code('http://a b.example/')).toBe('bad_url');
    expect(code('http://xn--a/')).toBe('bad_url');
    expect(code('http://a.1/')).toBe('bad_url');
    expect(code('index.html')).toBe('bad_url');
    expect(code('a/b')).toBe('bad_url');
    expect(code('a.1/x')).toBe('bad_url');
    expect(code('user@www.example.com/x')).toBe('bad_url');
    expect(code('index.html', 'example.com')).toBe('bad_url');
    expect(code('other.example/x', 'example.com')).toBe('bad_url');
    expect(code('javascript:void(0)')).toBe('unsupported_scheme');
    expect(code('tel:911')).toBe('unsupported_scheme');
    expect(code('http:///')).toBe('bad_url');
    expect(code('/a/b')).toBe('path_without_host');
    expect(code('/a/b', '')).toBe('path_without_host');
    expect(code('/a/b', '  ')).toBe('path_without_host');
    expect(code('/a/b', 'bad host!')).toBe('bad_host');
  });

  it('port 0 is no port a robots.txt can be fetched from: bad_url, in every spelling', () => {
    expect(code('http://example.com:0/a')).toBe('bad_url');
    expect(code('https://Example.com:00000/a')).toBe('bad_url');
    expect(code('http://example.com:000000/a')).toBe('bad_url');
    expect(code('http://127.0.0.1:0/a')).toBe('bad_url');
    expect(code('http://[::1]:0/a')).toBe('bad_url');
    expect(code('http://bücher.example:0/a')).toBe('bad_url');
    expect(code('//example.com:0/a')).toBe('bad_url');
    expect(code('example.com:0/a')).toBe('bad_url');
    expect(code('example.com:0/a', 'example.com')).toBe('bad_url');
    expect(code('example.com:65536/a')).toBe('bad_url');
    // Ports past 65535 and ports that are not numbers were already refused.
    expect(code('http://example.com:65536/a')).toBe('bad_url');
    expect(code('http://example.com:99999999/a')).toBe('bad_url');
    expect(code('http://example.com:8a/a')).toBe('bad_url');
    expect(code('http://example.com:-1/a')).toBe('bad_url');
    expect(code('http://example.com:65535/a')).toBe('ok');
    expect(code('http://example.com:1/a')).toBe('ok');
    // There the port-like text is userinfo: the host is `a`, on the default port.
    expect(ok('http://a.:0@a/x').key).toBe('http://a');
    expect(ok('http://a.:99999@a/x').key).toBe('http://a');
  });

  it('an authority not written as //host, or ended by a backslash, is bad_url: the reference would judge another path', () => {
    // WHATWG reads these as https://a.example/private, the reference's path is /a.example/private or /.
    expect(code('https:/a.example/private')).toBe('bad_url');
    expect(code('https:///a.example/private')).toBe('bad_url');
    expect(code('https:\\\\a.example\\private')).toBe('bad_url');
    expect(code('HTTPS://a.example\\private')).toBe('bad_url');
    expect(code('https://u:p@a.example:8080\\private')).toBe('bad_url');
    expect(code('a.example\\private')).toBe('bad_url');
    expect(code('/private', 'a.example\\')).toBe('bad_host');
    // A backslash after the authority's end is the path's business.
    expect(ok('https://a.example/a\\b').path).toBe('/a\\b');
    expect(ok('https://a.example?q\\').path).toBe('/?q\\');
  });

  it('a host column with an IPv6 address without brackets names that address (it was bad_host)', () => {
    expect(ok('/v6', '::1').key).toBe('https://[::1]');
    expect(ok('/v6', ' 2001:DB8::1 ', 'http').key).toBe('http://[2001:db8::1]');
    expect(ok('http://[::1]/v6', '::1').hostMismatch).toBe(false);
    expect(code('/v6', '::1::2')).toBe('bad_host');
    expect(code('/v6', 'a.example:80:90')).toBe('bad_host');
  });

  it('a host column with port 0 names no host: bad_host for a path, and no origin', () => {
    expect(code('/a', 'example.com:0')).toBe('bad_host');
    expect(code('/a', '[::1]:0')).toBe('bad_host');
    expect(code('/a', 'http://example.com:0')).toBe('bad_host');
    expect(resolveHostColumn('example.com:0', 'https')).toBeNull();
    expect(code('/a', 'example.com:65536')).toBe('bad_host');
    expect(code('/a', 'example.com:x')).toBe('bad_host');
  });
});

describe('resolveRowUrl: scheme-less URLs', () => {
  it('reads host/path as scheme://host/path when the text before the first / is clearly a host', () => {
    const r = ok('www.Example.com/a/b?c#f');
    expect(r.key).toBe('https://www.example.com');
    expect(r.path).toBe('/a/b?c');
    expect(ok('example.com', undefined, 'http').key).toBe('http://example.com');
    expect(ok('example.com').path).toBe('/');
    expect(ok('example.com?q=1').path).toBe('/?q=1');
    expect(ok('example.com:8080/x').key).toBe('https://example.com:8080');
    expect(ok('192.0.2.1:81/x').key).toBe('https://192.0.2.1:81');
    expect(ok('[2001:db8::1]/x').key).toBe('https://[2001:db8::1]');
    expect(ok('bücher.example/x').key).toBe('https://xn--bcher-kva.example');
  });

  it('takes the path as the reference does for the same text', () => {
    // GetPathParamsQuery: with no "://", the path starts at the first '/', '?' or ';'.
    expect(ok('example.com/a;p?q').path).toBe(pathFromUrl('example.com/a;p?q'));
    expect(ok('example.com/a;p?q').path).toBe('/a;p?q');
  });

  it('accepts any host the host column names, dots or not, and does not flag it', () => {
    const r = ok('localhost:8080/x', 'localhost');
    expect(r.key).toBe('https://localhost:8080');
    expect(r.hostMismatch).toBe(false);
    expect(ok('WWW.example.com/x', 'www.example.com').hostMismatch).toBe(false);
  });
});

describe('resolveRowUrl: paths with a host column', () => {
  it('takes the origin from the host column and the scheme option', () => {
    const r = ok('/a?b', 'Example.com', 'http');
    expect(r.key).toBe('http://example.com');
    expect(r.path).toBe('/a?b');
  });

  it('accepts a port, an IPv6 literal, an IDN or a URL in the host column', () => {
    expect(ok('/a', 'example.com:8080').key).toBe('https://example.com:8080');
    expect(ok('/a', '[::1]:81').key).toBe('https://[::1]:81');
    expect(ok('/a', 'bücher.example').key).toBe('https://xn--bcher-kva.example');
    expect(ok('/a', 'http://example.com:8080/').key).toBe('http://example.com:8080');
  });
});

describe('resolveRowUrl: host mismatch', () => {
  it('flags an absolute URL whose host differs from the host column; the URL wins', () => {
    const r = ok('https://b.example/x', 'a.example');
    expect(r.key).toBe('https://b.example');
    expect(r.hostMismatch).toBe(true);
  });

  it('does not flag case, port or IDN spelling differences of the same host', () => {
    expect(ok('https://a.example:8443/x', 'A.Example').hostMismatch).toBe(false);
    expect(ok('https://bücher.example/x', 'xn--bcher-kva.example').hostMismatch).toBe(false);
    expect(ok('https://a.example/x', '').hostMismatch).toBe(false);
    expect(ok('https://a.example/x').hostMismatch).toBe(false);
  });

  it('flags an invalid host column beside a valid absolute URL', () => {
    expect(ok('https://a.example/x', 'not a host').hostMismatch).toBe(true);
  });
});

describe('resolveHostColumn', () => {
  it('returns null for values that name no host', () => {
    expect(resolveHostColumn('', 'https')).toBeNull();
    expect(resolveHostColumn('a b', 'https')).toBeNull();
  });
});

// Property: the origin derived (fast path or fallback) equals what WHATWG URL derives.
const hostChar = fc.constantFrom(
  ...'abcxyzABCXYZ0189-._'.split(''),
  'ü',
  'É',
  '%',
  '@',
  ':',
  '[',
  ']',
  ' ',
  '\t',
);
const label = fc.oneof(
  fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/),
  fc.string({ unit: hostChar, minLength: 0, maxLength: 8 }),
  fc.constantFrom('xn--bcher-kva', 'xn--abc', '0x7f', '255', '1', '08', 'EXAMPLE', 'ü'),
);
const hostArb = fc.oneof(
  fc.array(label, { minLength: 1, maxLength: 4 }).map((ls) => ls.join('.')),
  fc.constantFrom('[::1]', '[2001:db8::A]', '[::ffff:1.2.3.4]', '127.0.0.1', 'user:pw@a.example', '[bad'),
);
const portArb = fc.oneof(
  fc.constant(''),
  fc.integer({ min: 0, max: 70000 }).map((p) => `:${p}`),
  fc.constantFrom(':', ':0080', ':443', ':80', ':123456', ':8a'),
);
const schemeArb = fc.constantFrom('http', 'https', 'HTTP', 'HtTpS', 'ftp', 'ws');
const sepArb = fc.constantFrom('//', '//', '//', '/', '\\\\', '///');
const restArb = fc.constantFrom('', '/', '/a/b?c=d', '?q', '#f', '\\x', ';p', '/ü%41');

describe('resolveRowUrl agrees with WHATWG URL on the origin', () => {
  it('for random URL-like strings', () => {
    fc.assert(
      fc.property(schemeArb, sepArb, hostArb, portArb, restArb, (scheme, sep, host, port, rest) => {
        const input = `${scheme}:${sep}${host}${port}${rest}`;
        const r = resolveRowUrl(input, undefined, 'https');
        let u: URL | null = null;
        try {
          u = new URL(input);
        } catch {
          u = null;
        }
        if (u === null) {
          expect(r, input).toMatchObject({ ok: false });
          return;
        }
        if (u.protocol !== 'http:' && u.protocol !== 'https:') {
          expect(r, input).toEqual({ ok: false, code: 'unsupported_scheme' });
          return;
        }
        // The reference takes the path after `//authority`: other spellings would be judged on another path.
        const plain = /^[^:]+:\/\/[^/\\?#]+(?:[/?#]|$)/.test(input);
        if (u.hostname === '' || u.port === '0' || !plain) {
          expect(r, input).toMatchObject({ ok: false });
          return;
        }
        expect(r.ok, input).toBe(true);
        if (!r.ok) return;
        expect(r.origin.scheme, input).toBe(u.protocol.slice(0, -1));
        expect(r.origin.host, input).toBe(u.hostname);
        const wantPort = u.port === '' ? (u.protocol === 'https:' ? 443 : 80) : Number(u.port);
        expect(r.origin.port, input).toBe(wantPort);
        expect(r.key, input).toBe(originKey(r.origin));
        expect(r.key, input).toBe(u.origin);
      }),
      { numRuns: 20_000 },
    );
  });
});
