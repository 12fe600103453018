/** The lenient client keeps the undici path's rules: refused literals and peers, and certificate checks. */
import { createServer } from 'node:net';
import { createServer as createTlsServer, rootCertificates, type Server as TlsServer } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lenientRequest } from '../../../src/pipeline/fetch/lenient-request.js';
import { createTestCa } from '../../helpers/test-ca.js';

let port = 0;
let hits = 0;
const srv = createServer((socket) => {
  hits++;
  socket.on('error', () => {});
  socket.once('data', () => socket.end('HTTP/1.1 200 OK\nContent-Length: 2\n\nok'));
});
beforeAll(async () => {
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  port = (srv.address() as { port: number }).port;
});
afterAll(() => void srv.close());

/** Resolves every name to 127.0.0.1, in both of the callback's shapes. */
const toLoopback = ((_host: string, opts: { all?: boolean }, cb: (...args: unknown[]) => void) => {
  if (opts.all) cb(null, [{ address: '127.0.0.1', family: 4 }]);
  else cb(null, '127.0.0.1', 4);
}) as never;

const get = (url: string, refuse: (a: string) => boolean, ca?: string[]) =>
  lenientRequest(
    new URL(url),
    { headers: {}, signal: new AbortController().signal },
    { lookup: toLoopback, refuse, ca },
  );

async function bodyOf(url: string, ca?: string[]): Promise<[number, string]> {
  const { request, response } = await get(url, () => false, ca);
  let body = '';
  for await (const c of response.body) body += c;
  request.destroy();
  return [response.statusCode, body];
}

describe('lenientRequest', () => {
  it('reads a bare-LF response when the address is allowed', async () => {
    expect(await bodyOf(`http://lenient.test:${port}/robots.txt`)).toEqual([200, 'ok']);
  });

  it('refuses an IP literal before connecting', async () => {
    const before = hits;
    await expect(get(`http://127.0.0.1:${port}/robots.txt`, (a) => a === '127.0.0.1')).rejects.toMatchObject({
      code: 'ERR_BLOCKED_ADDRESS',
    });
    expect(hits).toBe(before);
  });

  it('refuses a name whose connected address is refused', async () => {
    await expect(
      get(`http://lenient.test:${port}/robots.txt`, (a) => a === '127.0.0.1'),
    ).rejects.toMatchObject({
      code: 'ERR_BLOCKED_ADDRESS',
    });
  });
});

describe('lenientRequest: how a connection ended before the head did', () => {
  it('a close (FIN) is ERR_CONNECTION_CLOSED, not the reset Node calls every early end', async () => {
    const cut = createServer((socket) => {
      socket.on('error', () => {});
      socket.once('data', () => socket.end('HTTP/1.1 200 OK\nUser-agent: *\n'));
    });
    await new Promise<void>((r) => cut.listen(0, '127.0.0.1', r));
    const port = (cut.address() as { port: number }).port;
    await expect(get(`http://cut.test:${port}/robots.txt`, () => false)).rejects.toMatchObject({
      code: 'ERR_CONNECTION_CLOSED',
    });
    cut.close();
  });

  it('a reset stays ECONNRESET', async () => {
    const rst = createServer((socket) => {
      socket.on('error', () => {});
      socket.once('data', () =>
        socket.write('HTTP/1.1 200 OK\n', () => setTimeout(() => socket.resetAndDestroy(), 20)),
      );
    });
    await new Promise<void>((r) => rst.listen(0, '127.0.0.1', r));
    const port = (rst.address() as { port: number }).port;
    await expect(get(`http://rst.test:${port}/robots.txt`, () => false)).rejects.toMatchObject({
      code: 'ECONNRESET',
    });
    rst.close();
  });
});

describe('lenientRequest: answers Node does not hand over as a response', () => {
  it('a 101 Switching Protocols nobody asked for → ERR_MALFORMED_RESPONSE (it was a promise left pending forever)', async () => {
    const upgrade = createServer((socket) => {
      socket.on('error', () => {});
      socket.once('data', () =>
        socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\nConnection: Upgrade\r\n\r\nhi'),
      );
    });
    await new Promise<void>((r) => upgrade.listen(0, '127.0.0.1', r));
    const port = (upgrade.address() as { port: number }).port;
    const outcome = await Promise.race([
      get(`http://up.test:${port}/robots.txt`, () => false).then(
        () => 'resolved',
        (err: { code?: string }) => err.code,
      ),
      new Promise((r) => setTimeout(() => r('still pending after 2 s'), 2000)),
    ]);
    expect(outcome).toBe('ERR_MALFORMED_RESPONSE');
    upgrade.close();
  });
});

describe('lenientRequest in flight', () => {
  it('is in `live` from the start until it closes, so a closing dispatcher can end it', async () => {
    const silent = createServer((socket) => socket.on('error', () => {}));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const live = new Set<{ destroy(): void }>();
    const pending = lenientRequest(
      new URL(`http://silent.test:${(silent.address() as { port: number }).port}/robots.txt`),
      { headers: {}, signal: new AbortController().signal },
      { lookup: toLoopback, refuse: () => false, ca: undefined, live },
    );
    expect(live.size).toBe(1);
    for (const r of live) r.destroy();
    await expect(pending).rejects.toThrow();
    await new Promise((r) => setImmediate(r));
    expect(live.size).toBe(0);
    silent.close();
  });
});

describe('lenientRequest over TLS checks certificates as the undici path does', () => {
  const ca = createTestCa();
  let tlsPort = 0;
  let tlsServer: TlsServer;
  beforeAll(async () => {
    tlsServer = createTlsServer(ca.issue(['lenient.tls.test']), (socket) => {
      socket.on('error', () => {});
      socket.once('data', () => socket.end('HTTP/1.1 200 OK\nContent-Length: 3\n\ntls'));
    });
    await new Promise<void>((r) => tlsServer.listen(0, '127.0.0.1', r));
    tlsPort = (tlsServer.address() as { port: number }).port;
  });
  afterAll(() => {
    tlsServer.close();
    ca.cleanup();
  });

  it('trusts the extra CA it is given (with the bundled roots)', async () => {
    const trusted = [...rootCertificates, ca.caPem];
    expect(await bodyOf(`https://lenient.tls.test:${tlsPort}/robots.txt`, trusted)).toEqual([200, 'tls']);
  });

  it('refuses a certificate no trusted CA signed', async () => {
    await expect(bodyOf(`https://lenient.tls.test:${tlsPort}/robots.txt`)).rejects.toMatchObject({
      code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    });
  });

  it('refuses a certificate for another name', async () => {
    const trusted = [...rootCertificates, ca.caPem];
    await expect(bodyOf(`https://other.tls.test:${tlsPort}/robots.txt`, trusted)).rejects.toMatchObject({
      code: 'ERR_TLS_CERT_ALTNAME_INVALID',
    });
  });
});
