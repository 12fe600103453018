/**
 * RFC 9309 §2.3.1 status handling against the real local server: 2xx parsed, 3xx followed (≤ 5),
 * 4xx unavailable, 429/5xx unreachable; policy AND evidence asserted for each.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  createLivePolicyProvider,
  type LivePolicyProvider,
} from '../../../src/pipeline/fetch/live-policy-provider.js';
import { type Behaviour, ok } from '../../helpers/multi-host-server.js';
import { at, FAST, liveOptions, sha256, useServerAndTempDir } from './harness.js';

const env = useServerAndTempDir();
let n = 0;

/** A fresh provider and cache file per call, so nothing is answered from an earlier test's cache. */
async function fetchOne(host: string, b: Behaviour, extra = {}, scheme: 'http' | 'https' = 'http') {
  env.srv.set(host, b);
  const provider: LivePolicyProvider = createLivePolicyProvider(
    liveOptions(env.srv, join(env.tmp.dir, `c${++n}.sqlite`), extra),
    FAST,
  );
  try {
    return await provider.get(at(env.srv, host, scheme));
  } finally {
    await provider.close();
  }
}

const ROBOTS = 'User-agent: *\nDisallow: /private\n';

describe('2xx: parsed', () => {
  it.each([200, 203, 206])('status %i keeps the body with its evidence', async (status) => {
    const host = `s${status}.test`;
    const p = await fetchOne(host, { kind: 'respond', status, body: ROBOTS, headers: { etag: '"v1"' } });
    expect(p).toMatchObject({
      origin: `http://${host}:${env.srv.httpPort}`,
      outcome: 'parsed',
      source: 'fetch',
      robotsUrl: `http://${host}:${env.srv.httpPort}/robots.txt`,
      finalUrl: `http://${host}:${env.srv.httpPort}/robots.txt`,
      status,
      errorCode: null,
      bytes: ROBOTS.length,
      truncated: false,
      sha256: sha256(ROBOTS),
      etag: '"v1"',
      stale: false,
    });
    expect(Buffer.from(p.body!).toString()).toBe(ROBOTS);
    expect(p.expiresAt - p.fetchedAt).toBe(24 * 3600 * 1000);
  });

  it('204 is parsed with an empty body (allow all)', async () => {
    const p = await fetchOne('s204.test', { kind: 'respond', status: 204 });
    expect(p).toMatchObject({ outcome: 'parsed', status: 204, bytes: 0, sha256: sha256('') });
  });

  it('HTML served as robots.txt is kept as it came (the parser ignores what is not a rule)', async () => {
    const html = '<!doctype html><html><body>Not found</body></html>';
    const p = await fetchOne('html.test', ok(html, { 'content-type': 'text/html' }));
    expect(p).toMatchObject({ outcome: 'parsed', status: 200, bytes: html.length, sha256: sha256(html) });
  });

  it('bytes that are not UTF-8 (and a BOM) are kept as bytes', async () => {
    const body = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('Disallow: /\xe9t\xe9\n', 'latin1'),
    ]);
    const p = await fetchOne('latin1.test', { kind: 'respond', body });
    expect(Buffer.from(p.body!).equals(body)).toBe(true);
    expect(p.sha256).toBe(sha256(body));
  });

  it('sends the configured User-Agent and offers gzip, deflate, br', async () => {
    await fetchOne('ua.test', ok(ROBOTS), { httpUserAgent: 'AuditBot/9.9 (+https://example.org)' });
    const [req] = env.srv.requests('ua.test');
    expect(req!.headers['user-agent']).toBe('AuditBot/9.9 (+https://example.org)');
    expect(req!.headers['accept-encoding']).toBe('gzip, deflate, br');
    expect(req!.path).toBe('/robots.txt');
  });
});

describe('3xx: redirects', () => {
  it.each([301, 302, 307, 308] as const)('%i chains of 1 to 5 hops are followed', async (status) => {
    for (let hops = 1; hops <= 5; hops++) {
      const host = `chain${status}-${hops}.test`;
      const p = await fetchOne(host, { kind: 'chain', hops, status });
      expect(p).toMatchObject({
        outcome: 'parsed',
        status: 200,
        robotsUrl: `http://${host}:${env.srv.httpPort}/robots.txt`,
        finalUrl: `http://${host}:${env.srv.httpPort}/hop/${hops}`,
      });
      expect(Buffer.from(p.body!).toString()).toContain('Disallow: /chained');
      expect(env.srv.hits(host)).toBe(hops + 1);
    }
  });

  it('a 6th redirect makes the file unavailable (allow all)', async () => {
    const host = 'chain6.test';
    const p = await fetchOne(host, { kind: 'chain', hops: 6, status: 302 });
    expect(p).toMatchObject({
      outcome: 'unavailable',
      status: 302,
      errorCode: 'ERR_TOO_MANY_REDIRECTS',
      finalUrl: `http://${host}:${env.srv.httpPort}/hop/5`,
      body: null,
      bytes: 0,
    });
    expect(env.srv.hits(host)).toBe(6);
  });

  it('a loop is unavailable as soon as a URL repeats', async () => {
    env.srv.set('loop-b.test', { kind: 'redirect', location: `${env.srv.origin('loop-a.test')}/robots.txt` });
    const p = await fetchOne('loop-a.test', {
      kind: 'redirect',
      location: `${env.srv.origin('loop-b.test')}/robots.txt`,
    });
    expect(p).toMatchObject({ outcome: 'unavailable', errorCode: 'ERR_REDIRECT_LOOP', status: 301 });
    expect(env.srv.hits('loop-a.test')).toBe(1);
    expect(env.srv.hits('loop-b.test')).toBe(1);
  });

  it('a self-redirect is a loop', async () => {
    const p = await fetchOne('self.test', { kind: 'redirect', status: 308, location: '/robots.txt' });
    expect(p).toMatchObject({ outcome: 'unavailable', errorCode: 'ERR_REDIRECT_LOOP', status: 308 });
  });

  it('cross-host redirects are followed; the policy stays the original origin’s', async () => {
    env.srv.set('target.test', ok(ROBOTS));
    const p = await fetchOne('moved.test', {
      kind: 'redirect',
      location: `${env.srv.origin('target.test')}/robots.txt`,
    });
    expect(p).toMatchObject({
      origin: `http://moved.test:${env.srv.httpPort}`,
      outcome: 'parsed',
      finalUrl: `http://target.test:${env.srv.httpPort}/robots.txt`,
      sha256: sha256(ROBOTS),
    });
  });

  it('http → https across hosts, with the CA from --ca-file', async () => {
    env.srv.set('secure.tls.test', ok(ROBOTS));
    const p = await fetchOne('plain.test', {
      kind: 'redirect',
      location: `${env.srv.origin('secure.tls.test', 'https')}/robots.txt`,
    });
    expect(p).toMatchObject({
      outcome: 'parsed',
      finalUrl: `https://secure.tls.test:${env.srv.httpsPort}/robots.txt`,
    });
  });

  it.each([
    ['missing Location', { kind: 'respond', status: 302 } as Behaviour],
    ['non-http Location', { kind: 'redirect', location: 'ftp://example.org/robots.txt' } as Behaviour],
    ['unparsable Location', { kind: 'redirect', location: 'http://[bad' } as Behaviour],
  ])('%s is unavailable', async (_name, b) => {
    const p = await fetchOne(`badloc-${n}.test`, b);
    expect(p).toMatchObject({ outcome: 'unavailable', errorCode: 'ERR_REDIRECT_INVALID' });
  });
});

describe('4xx: unavailable (allow all)', () => {
  it.each([400, 401, 403, 404, 410, 451])('%i', async (status) => {
    const p = await fetchOne(`c${status}.test`, { kind: 'respond', status, body: 'nope' });
    expect(p).toMatchObject({
      outcome: 'unavailable',
      status,
      errorCode: null,
      body: null,
      bytes: 0,
      sha256: null,
    });
  });
});

describe('429 and 5xx: unreachable (disallow all), retried', () => {
  it.each([429, 500, 502, 503, 504])('%i after all retries', async (status) => {
    const host = `r${status}.test`;
    const p = await fetchOne(host, { kind: 'respond', status }, { retries: 2 });
    expect(p).toMatchObject({ outcome: 'unreachable', status, errorCode: null, body: null, source: 'fetch' });
    expect(env.srv.hits(host)).toBe(3);
  });

  it('a 503 then a 200 ends parsed after one retry', async () => {
    const host = 'flaky.test';
    const p = await fetchOne(
      host,
      { kind: 'sequence', steps: [{ kind: 'respond', status: 503 }, ok(ROBOTS)] },
      { retries: 2 },
    );
    expect(p).toMatchObject({ outcome: 'parsed', status: 200 });
    expect(env.srv.hits(host)).toBe(2);
  });

  it('Retry-After within --max-retry-after is honoured', async () => {
    const host = 'retry-after.test';
    const started = Date.now();
    const p = await fetchOne(
      host,
      {
        kind: 'sequence',
        steps: [{ kind: 'respond', status: 429, headers: { 'retry-after': '1' } }, ok(ROBOTS)],
      },
      { retries: 1, maxRetryAfter: 5 },
    );
    expect(p.outcome).toBe('parsed');
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(env.srv.hits(host)).toBe(2);
  });

  it('Retry-After beyond --max-retry-after stops retrying (unreachable for now)', async () => {
    const host = 'retry-later.test';
    const p = await fetchOne(
      host,
      {
        kind: 'sequence',
        steps: [{ kind: 'respond', status: 503, headers: { 'retry-after': '3600' } }, ok(ROBOTS)],
      },
      { retries: 3, maxRetryAfter: 5 },
    );
    expect(p).toMatchObject({ outcome: 'unreachable', status: 503 });
    expect(env.srv.hits(host)).toBe(1);
  });

  it('--retries 0 makes exactly one request', async () => {
    const host = 'noretry.test';
    await fetchOne(host, { kind: 'respond', status: 500 }, { retries: 0 });
    expect(env.srv.hits(host)).toBe(1);
  });
});
