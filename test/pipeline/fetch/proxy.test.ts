/**
 * Fetching through an HTTP proxy (--proxy, or HTTP_PROXY/HTTPS_PROXY/NO_PROXY): a real CONNECT proxy on
 * 127.0.0.1 that tunnels every target to the local multi-host server.
 */
import { once } from 'node:events';
import http from 'node:http';
import https from 'node:https';
import { type AddressInfo, connect } from 'node:net';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createLivePolicyProvider } from '../../../src/pipeline/fetch/live-policy-provider.js';
import type { Options } from '../../../src/pipeline/options.js';
import type { Origin } from '../../../src/pipeline/policy/policy.js';
import { type MultiHostServer, ok, startMultiHostServer } from '../../helpers/multi-host-server.js';
import { createTestCa, type TestCa } from '../../helpers/test-ca.js';
import { at, liveOptions, tempDir } from './harness.js';

let srv: MultiHostServer;
let tmp: ReturnType<typeof tempDir>;
let proxy: http.Server;
let proxyUrl: string;
/** The same proxy spoken to over TLS, as https://localhost:PORT, with a certificate from `ca`. */
let tlsProxy: https.Server;
let tlsProxyUrl: string;
let ca: TestCa;
const tunnels: string[] = [];
const credentials: Array<string | undefined> = [];
let refuse = false;
let n = 0;

beforeAll(async () => {
  srv = await startMultiHostServer();
  tmp = tempDir();
  proxy = http.createServer((_req, res) => res.writeHead(405).end());
  const tunnel = (req: http.IncomingMessage, client: Duplex, head: Buffer) => {
    tunnels.push(req.url ?? '');
    credentials.push(req.headers['proxy-authorization']);
    if (refuse) return void client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
    const port = Number((req.url ?? '').split(':').pop());
    const upstream = connect(port, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client).pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  };
  proxy.on('connect', tunnel);
  ca = createTestCa();
  tlsProxy = https.createServer(ca.issue(['localhost']), (_req, res) => res.writeHead(405).end());
  tlsProxy.on('connect', tunnel);
  tlsProxy.listen(0, '127.0.0.1');
  await once(tlsProxy, 'listening');
  tlsProxyUrl = `https://localhost:${(tlsProxy.address() as AddressInfo).port}`;
  proxy.listen(0, '127.0.0.1');
  await once(proxy, 'listening');
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  proxy.closeAllConnections();
  await new Promise((r) => proxy.close(r));
  tlsProxy.closeAllConnections();
  await new Promise((r) => tlsProxy.close(r));
  ca.cleanup();
  await srv.close();
  tmp.cleanup();
});
afterEach(() => {
  tunnels.length = 0;
  credentials.length = 0;
  refuse = false;
  for (const k of ['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY']) delete process.env[k];
});

async function fetchAt(origin: Origin, extra: Partial<Options>) {
  const provider = createLivePolicyProvider(liveOptions(srv, join(tmp.dir, `c${++n}.sqlite`), extra));
  try {
    return await provider.get(origin);
  } finally {
    await provider.close();
  }
}

describe('--proxy', () => {
  it('http origins go through a CONNECT tunnel', async () => {
    srv.set('via.test', ok('User-agent: *\nDisallow: /p\n'));
    const p = await fetchAt(at(srv, 'via.test'), { proxy: proxyUrl });
    expect(p).toMatchObject({ outcome: 'parsed', status: 200 });
    expect(tunnels).toEqual([`via.test:${srv.httpPort}`]);
    expect(srv.hits('via.test')).toBe(1);
  });

  it('https origins too, with the CA from --ca-file', async () => {
    srv.set('via.tls.test', ok('User-agent: *\n'));
    const p = await fetchAt(at(srv, 'via.tls.test', 'https'), { proxy: proxyUrl });
    expect(p).toMatchObject({
      outcome: 'parsed',
      finalUrl: `https://via.tls.test:${srv.httpsPort}/robots.txt`,
    });
    expect(tunnels).toEqual([`via.tls.test:${srv.httpsPort}`]);
  });

  it('the address check still applies: a name resolving to a refused address never reaches the proxy', async () => {
    const p = await fetchAt(at(srv, 'inside.test'), { proxy: proxyUrl, allowPrivate: false });
    expect(p).toMatchObject({ outcome: 'unreachable', errorCode: 'ERR_BLOCKED_ADDRESS' });
    expect(tunnels).toEqual([]);
  });

  it('credentials in the proxy URL are sent as Proxy-Authorization (Basic), percent-decoded', async () => {
    srv.set('auth.test', ok('User-agent: *\n'));
    const withAuth = proxyUrl.replace('http://', 'http://us%40er:p%3Ass@');
    const p = await fetchAt(at(srv, 'auth.test'), { proxy: withAuth });
    expect(p.outcome).toBe('parsed');
    expect(credentials).toEqual([`Basic ${Buffer.from('us@er:p:ss').toString('base64')}`]);
  });

  it("a proxy that cannot be reached → ERR_PROXY (not the target's connection refused)", async () => {
    const p = await fetchAt(at(srv, 'noproxy.test'), { proxy: 'http://127.0.0.1:1' });
    expect(p).toMatchObject({ outcome: 'unreachable', errorCode: 'ERR_PROXY' });
  });

  it('an https:// proxy is spoken to over TLS, trusting the CAs of --ca-file', async () => {
    srv.set('via-tls-proxy.test', ok('User-agent: *\n'));
    const p = await fetchAt(at(srv, 'via-tls-proxy.test'), { proxy: tlsProxyUrl, caFile: ca.caFile });
    expect(p).toMatchObject({ outcome: 'parsed', status: 200 });
    expect(tunnels).toEqual([`via-tls-proxy.test:${srv.httpPort}`]);
    // Without that CA the proxy's certificate is not trusted: the proxy failed, not the origin.
    const q = await fetchAt(at(srv, 'via-tls-proxy2.test'), { proxy: tlsProxyUrl });
    expect(q).toMatchObject({ outcome: 'unreachable', errorCode: 'ERR_PROXY' });
  });

  it('a proxy refusing the tunnel → ERR_PROXY', async () => {
    refuse = true;
    const p = await fetchAt(at(srv, 'refused.test'), { proxy: proxyUrl });
    expect(p).toMatchObject({ outcome: 'unreachable', errorCode: 'ERR_PROXY' });
    expect(srv.hits('refused.test')).toBe(0);
  });
});

describe('proxy environment variables', () => {
  it('HTTP_PROXY is used when --proxy is absent', async () => {
    process.env.HTTP_PROXY = proxyUrl;
    srv.set('env.test', ok('User-agent: *\n'));
    const p = await fetchAt(at(srv, 'env.test'), {});
    expect(p.outcome).toBe('parsed');
    expect(tunnels).toEqual([`env.test:${srv.httpPort}`]);
  });

  it('NO_PROXY hosts connect directly', async () => {
    process.env.HTTP_PROXY = proxyUrl;
    process.env.NO_PROXY = 'direct.test';
    srv.set('direct.test', ok('User-agent: *\n'));
    const p = await fetchAt(at(srv, 'direct.test'), {});
    expect(p.outcome).toBe('parsed');
    expect(tunnels).toEqual([]);
    expect(srv.hits('direct.test')).toBe(1);
  });
});
