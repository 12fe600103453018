/**
 * Network failures end unreachable (disallow all) with a precise, stable error code; the per-request
 * time budget covers connect (incl. TLS), headers and body.
 */
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { Options } from '../../../src/pipeline/options.js';
import type { Origin } from '../../../src/pipeline/policy/policy.js';
import { type Behaviour, ok } from '../../helpers/multi-host-server.js';
import { at, fetchPolicy, fetchRaw as fetchRawOn, useServerAndTempDir } from './harness.js';

const env = useServerAndTempDir();

const fetchAt = (origin: Origin, extra: Partial<Options> = {}) =>
  fetchPolicy(env.srv, env.tmp.dir, origin, extra);

async function fetchOne(
  host: string,
  b: Behaviour,
  extra: Partial<Options> = {},
  scheme: 'http' | 'https' = 'http',
) {
  env.srv.set(host, b);
  return fetchAt(at(env.srv, host, scheme), extra);
}

const fetchRaw = (
  host: string,
  respond: (path: string) => string,
  after: 'end' | 'reset' | 'hold',
  extra: Partial<Options> = {},
) => fetchRawOn(env, host, respond, after, extra);

const unreachable = (errorCode: string) => ({
  outcome: 'unreachable',
  errorCode,
  status: null,
  body: null,
  bytes: 0,
  sha256: null,
});

describe('timeouts, all inside one --timeout budget', () => {
  it('slow headers → ERR_HEADERS_TIMEOUT', async () => {
    const started = Date.now();
    const p = await fetchOne(
      'slow-headers.test',
      { kind: 'respond', body: 'x', delayMs: 5000 },
      { timeout: 0.5 },
    );
    expect(p).toMatchObject({ ...unreachable('ERR_HEADERS_TIMEOUT'), finalUrl: null });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('a body trickled byte by byte → ERR_BODY_TIMEOUT (the budget is total, not per chunk)', async () => {
    const started = Date.now();
    const p = await fetchOne('trickle.test', { kind: 'trickle', intervalMs: 50 }, { timeout: 0.6 });
    expect(p).toMatchObject({
      ...unreachable('ERR_BODY_TIMEOUT'),
      finalUrl: `http://trickle.test:${env.srv.httpPort}/robots.txt`,
    });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('a TLS handshake that never completes → ERR_CONNECT_TIMEOUT', async () => {
    const p = await fetchOne('stall.tls.test', { kind: 'stall-tls' }, { timeout: 0.5 }, 'https');
    expect(p).toMatchObject(unreachable('ERR_CONNECT_TIMEOUT'));
  });

  it('a redirect hop still connecting when the budget runs out ends at the budget, not a connect timeout later', async () => {
    env.srv.set('stall-hop.tls.test', { kind: 'stall-tls' });
    const location = `${env.srv.origin('stall-hop.tls.test', 'https')}/robots.txt`;
    const started = Date.now();
    // The redirect comes after 1.5 s of a 2 s budget; the TLS handshake of the next hop never completes.
    const p = await fetchOne(
      'late-redirect.test',
      {
        kind: 'respond',
        status: 301,
        headers: { location },
        delayMs: 1500,
      },
      { timeout: 2 },
    );
    expect(p).toMatchObject(unreachable('ERR_CONNECT_TIMEOUT'));
    // Ending at the hop's own connect timeout would take 1.5 s + 2 s.
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('timeouts are retried within --retries, each attempt with its own budget', async () => {
    const host = 'slow-then-ok.test';
    const p = await fetchOne(
      host,
      { kind: 'sequence', steps: [{ kind: 'respond', delayMs: 3000, body: 'late' }, ok('User-agent: *\n')] },
      { timeout: 0.4, retries: 1 },
    );
    expect(p).toMatchObject({ outcome: 'parsed', status: 200 });
    expect(env.srv.hits(host)).toBe(2);
  });
});

describe('connection failures', () => {
  it('connection refused → ERR_CONNECTION_REFUSED', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as { port: number }).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const p = await fetchAt({ scheme: 'http', host: 'refused.test', port });
    expect(p).toMatchObject(unreachable('ERR_CONNECTION_REFUSED'));
  });

  it('reset in the middle of the body → ERR_CONNECTION_RESET (a partial file is not used)', async () => {
    const p = await fetchOne('reset.test', { kind: 'reset-mid-body' });
    expect(p).toMatchObject(unreachable('ERR_CONNECTION_RESET'));
  });

  it('reset in the middle of a chunked body → ERR_CONNECTION_RESET', async () => {
    const p = await fetchOne('reset-chunked.test', { kind: 'reset-mid-body', chunked: true });
    expect(p).toMatchObject(unreachable('ERR_CONNECTION_RESET'));
  });

  describe('a server that says `Connection: close` itself', () => {
    const head = 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nConnection: close\r\n';
    const chunked = `${head}Transfer-Encoding: chunked\r\n\r\n1b\r\nUser-agent: *\nDisallow: /x\n\r\n`;
    const parsed = { outcome: 'parsed', status: 200, errorCode: null };

    // undici takes a reset after `Connection: close` as the end of the stream, then finds the message unfinished.
    for (const cut of ['end', 'reset'] as const) {
      it(`a chunked body cut by ${cut === 'end' ? 'a close (FIN)' : 'a reset'} before its last chunk → ERR_CONNECTION_CLOSED (not used)`, async () => {
        expect(await fetchRaw(`cut-${cut}.test`, () => chunked, cut)).toMatchObject(
          unreachable('ERR_CONNECTION_CLOSED'),
        );
      });
    }

    it('a whole chunked body, then a reset → used', async () => {
      const p = await fetchRaw('whole-reset.test', () => `${chunked}0\r\n\r\n`, 'reset');
      expect(p).toMatchObject(parsed);
      expect(Buffer.from(p.body!).toString()).toBe('User-agent: *\nDisallow: /x\n');
    });

    it('a body with no length, ended by the close (HTTP/1.1 read-to-close) → used', async () => {
      const p = await fetchRaw('to-close.test', () => `${head}\r\nUser-agent: *\nDisallow: /y\n`, 'end');
      expect(p).toMatchObject(parsed);
      expect(Buffer.from(p.body!).toString()).toBe('User-agent: *\nDisallow: /y\n');
    });
  });

  describe('responses only a lenient parser reads (undici rejects them; browsers and curl do not)', () => {
    const bare = (status: string, headers: string[], body: string) =>
      `HTTP/1.1 ${status}\n${[...headers, `Content-Length: ${body.length}`].join('\n')}\n\n${body}`;

    it('header lines ending in a bare LF → parsed, with the body exact', async () => {
      const p = await fetchRaw(
        'bare-lf.test',
        () => bare('200 OK', ['ETag: "v1"'], 'User-agent: *\nDisallow: /z\n'),
        'end',
      );
      expect(p).toMatchObject({ outcome: 'parsed', status: 200, errorCode: null, etag: '"v1"' });
      expect(Buffer.from(p.body!).toString()).toBe('User-agent: *\nDisallow: /z\n');
    });

    it('a bare-LF redirect is followed, and its target read the same way', async () => {
      const p = await fetchRaw(
        'bare-redirect.test',
        (path) =>
          path === '/robots.txt'
            ? bare('301 Moved Permanently', ['Location: /real-robots.txt'], '')
            : bare('200 OK', [], 'User-agent: *\nDisallow: /r\n'),
        'end',
      );
      expect(p).toMatchObject({ outcome: 'parsed', status: 200 });
      expect(p.finalUrl).toMatch(/\/real-robots\.txt$/);
      expect(Buffer.from(p.body!).toString()).toBe('User-agent: *\nDisallow: /r\n');
    });

    it('a bare-LF 503 → unreachable by its status, as with CRLF', async () => {
      const p = await fetchRaw('bare-503.test', () => bare('503 Busy', [], ''), 'end');
      expect(p).toMatchObject({ outcome: 'unreachable', status: 503, errorCode: null });
    });

    it('a bare-LF head whose body never comes → ERR_BODY_TIMEOUT within the budget', async () => {
      const started = Date.now();
      const p = await fetchRaw(
        'bare-stall.test',
        () => 'HTTP/1.1 200 OK\nContent-Length: 1000\n\nUser-agent',
        'hold',
        { timeout: 0.5 },
      );
      expect(p).toMatchObject(unreachable('ERR_BODY_TIMEOUT'));
      expect(Date.now() - started).toBeLessThan(3000);
    });
  });

  it('closed before the declared Content-Length → ERR_CONNECTION_CLOSED', async () => {
    const p = await fetchOne('short.test', { kind: 'close-mid-body' });
    expect(p).toMatchObject(unreachable('ERR_CONNECTION_CLOSED'));
  });

  it('closed without a response → ERR_CONNECTION_CLOSED', async () => {
    const p = await fetchOne('hangup.test', { kind: 'close-without-response' });
    expect(p).toMatchObject(unreachable('ERR_CONNECTION_CLOSED'));
  });

  it('not HTTP → ERR_MALFORMED_RESPONSE', async () => {
    const p = await fetchOne('garbage.test', { kind: 'malformed' });
    expect(p).toMatchObject(unreachable('ERR_MALFORMED_RESPONSE'));
  });

  it('transient failures are retried: hits = 1 + retries', async () => {
    await fetchOne('hangup2.test', { kind: 'close-without-response' }, { retries: 2 });
    expect(env.srv.hits('hangup2.test')).toBe(3);
  });
});

describe('TLS failures → ERR_TLS (not retried)', () => {
  it('a certificate not signed by a trusted CA', async () => {
    const p = await fetchOne('rogue.untrusted.test', ok('User-agent: *\n'), { retries: 2 }, 'https');
    expect(p).toMatchObject(unreachable('ERR_TLS'));
    expect(env.srv.hits('rogue.untrusted.test')).toBe(0);
  });

  it('a certificate for another name', async () => {
    const p = await fetchOne('wrong-name.test', ok('User-agent: *\n'), {}, 'https');
    expect(p).toMatchObject(unreachable('ERR_TLS'));
    expect(env.srv.hits('wrong-name.test')).toBe(0);
  });

  it('without --ca-file the test CA is not trusted (system CAs only)', async () => {
    const p = await fetchOne('good.tls.test', ok('User-agent: *\n'), { caFile: undefined }, 'https');
    expect(p).toMatchObject(unreachable('ERR_TLS'));
  });

  it('with --ca-file the same host is parsed', async () => {
    const p = await fetchOne('good2.tls.test', ok('User-agent: *\n'), {}, 'https');
    expect(p).toMatchObject({
      outcome: 'parsed',
      status: 200,
      finalUrl: `https://good2.tls.test:${env.srv.httpsPort}/robots.txt`,
    });
  });
});

describe('DNS failures → ERR_DNS', () => {
  it('a name under .invalid (never resolves; answered without asking a resolver)', async () => {
    const p = await fetchAt({ scheme: 'http', host: 'no-such-host.invalid', port: 80 }, { resolve: [] });
    expect(p).toMatchObject(unreachable('ERR_DNS'));
  });

  it('a host with no --resolve entry while other hosts are pinned', async () => {
    const p = await fetchAt(
      { scheme: 'https', host: 'unpinned.invalid', port: 443 },
      { resolve: [`pinned.test=127.0.0.1`], retries: 2 },
    );
    expect(p).toMatchObject(unreachable('ERR_DNS'));
  });
});
