import { describe, expect, it } from 'vitest';
import { proxyRoute } from '../../../src/pipeline/fetch/proxy-route.js';

const via = (route: ReturnType<typeof proxyRoute>, url: string) => route?.(new URL(url))?.href;

describe('proxyRoute', () => {
  it('--proxy applies to every URL, whatever the environment says', () => {
    const route = proxyRoute('http://p.example:3128', { HTTP_PROXY: 'http://other:1', NO_PROXY: '*' });
    expect(via(route, 'http://a.test/robots.txt')).toBe('http://p.example:3128/');
    expect(via(route, 'https://b.test/robots.txt')).toBe('http://p.example:3128/');
  });

  it('no proxy configured → no route at all (requests connect directly)', () => {
    expect(proxyRoute(undefined, {})).toBeUndefined();
    expect(proxyRoute(undefined, { HTTP_PROXY: '' })).toBeUndefined();
  });

  it('http and https proxies by scheme; https falls back to the http one; lower case wins', () => {
    const both = proxyRoute(undefined, {
      HTTP_PROXY: 'http://h:1',
      HTTPS_PROXY: 'http://s:2',
      http_proxy: 'http://l:3',
    });
    expect(via(both, 'http://a.test/')).toBe('http://l:3/');
    expect(via(both, 'https://a.test/')).toBe('http://s:2/');
    expect(via(proxyRoute(undefined, { HTTP_PROXY: 'http://h:1' }), 'https://a.test/')).toBe('http://h:1/');
    expect(via(proxyRoute(undefined, { HTTPS_PROXY: 'http://s:2' }), 'http://a.test/')).toBeUndefined();
  });

  it('NO_PROXY: exact names, subdomains, a leading dot or *., ports, and * for everything', () => {
    const route = proxyRoute(undefined, {
      HTTP_PROXY: 'http://h:1',
      NO_PROXY: 'direct.test, .dot.test *.star.test,port.test:8080',
    });
    expect(via(route, 'http://direct.test/')).toBeUndefined();
    expect(via(route, 'http://sub.direct.test/')).toBeUndefined();
    expect(via(route, 'http://notdirect.test/')).toBe('http://h:1/');
    expect(via(route, 'http://dot.test/')).toBeUndefined();
    expect(via(route, 'http://a.star.test/')).toBeUndefined();
    expect(via(route, 'http://port.test:8080/')).toBeUndefined();
    expect(via(route, 'http://port.test/')).toBe('http://h:1/');
    expect(
      via(proxyRoute(undefined, { HTTP_PROXY: 'http://h:1', no_proxy: '*' }), 'http://a.test/'),
    ).toBeUndefined();
  });

  it.each([
    ['not a url', '--proxy'],
    ['socks5://127.0.0.1:1080', '--proxy'],
    ['ftp://p.example', '--proxy'],
  ])('an unusable proxy URL %j is a clear option error', (value, source) => {
    expect(() => proxyRoute(value, {})).toThrow(
      expect.objectContaining({
        code: 'ERR_INVALID_OPTION',
        message: expect.stringContaining(`${source} must be an http:// or https:// proxy URL`),
      }),
    );
  });

  it('a bad proxy in the environment names the variable', () => {
    expect(() => proxyRoute(undefined, { HTTPS_PROXY: 'nope' })).toThrow(/HTTPS_PROXY must be an http/);
  });
});
