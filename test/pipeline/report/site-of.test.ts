import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeLatin1, siteOf } from '../../../src/pipeline/report/site-of.js';
import { resolveRowUrl } from '../../../src/rows/row-url.js';

/** The site classify gives the row: its origin key, or '' when the row is invalid. */
function classifySite(url: string, host: string): string {
  const r = resolveRowUrl(url, host === '' ? undefined : host, 'https');
  return r.ok ? r.key : '';
}

describe('siteOf', () => {
  it.each([
    ['https://a.example/x', '', 'https://a.example'],
    ['http://a.example:8080/x?y', '', 'http://a.example:8080'],
    ['https://a.example:443/x', '', 'https://a.example'],
    ['HTTPS://A.Example/x', '', 'https://a.example'],
    ['https://a.example.', '', 'https://a.example.'],
    ['/path', 'b.example', 'https://b.example'],
    ['/path', '', ''],
    ['', 'b.example', ''],
    ['ftp://a.example/', '', ''],
    ['https://127.1/', '', 'https://127.0.0.1'],
    ['https://xn--bcher-kva.example/', '', 'https://xn--bcher-kva.example'],
    ['https://b\u00c3\u00bccher.example/', '', 'https://xn--bcher-kva.example'],
  ])('%s (host %j) is %j', (url, host, site) => {
    expect(siteOf(url, host)).toBe(site);
  });

  it('agrees with the origin classify keys rows by', () => {
    const label = fc.stringMatching(/^[a-zA-Z0-9-]{1,8}$/);
    const host = fc.oneof(
      fc.array(label, { minLength: 1, maxLength: 3 }).map((l) => l.join('.')),
      fc.constantFrom('127.0.0.1', '[::1]', '0x7f.1', 'a.0x7f', 'a.0a', 'a..b', '.a', 'a.', '-a.example'),
      fc.constantFrom('xn--abc.example', 'xn--bcher-kva.example', 'a.xn--p1ai', 'a.xn--zz'),
    );
    const port = fc.oneof(
      fc.constant(''),
      fc.constantFrom(':80', ':443', ':8080', ':0', ':00', ':65536', ':'),
    );
    const scheme = fc.constantFrom('http://', 'https://', 'HTTP://', '//', '', 'ftp://');
    const rest = fc.constantFrom('', '/', '/a?b', '?q', '#f', '/x/y');
    const url = fc.tuple(scheme, host, port, rest).map(([s, h, p, r]) => `${s}${h}${p}${r}`);
    fc.assert(
      fc.property(url, fc.constantFrom('', 'h.example'), (u, h) => {
        expect(siteOf(u, h)).toBe(classifySite(u, h));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('decodeLatin1', () => {
  it('decodes UTF-8 bytes read as latin1', () => {
    expect(decodeLatin1(Buffer.from('Disallow: /caf\u00e9', 'utf8').toString('latin1'))).toBe(
      'Disallow: /caf\u00e9',
    );
    expect(decodeLatin1('plain')).toBe('plain');
  });
});
