/** The lenient client keeps the undici connector's address rules: refused literals and refused peers. */
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lenientRequest } from '../../../src/pipeline/fetch/lenient-request.js';

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

const get = (url: string, refuse: (a: string) => boolean) =>
  lenientRequest(
    new URL(url),
    { headers: {}, signal: new AbortController().signal },
    { lookup: toLoopback, refuse, ca: undefined },
  );

describe('lenientRequest', () => {
  it('reads a bare-LF response when the address is allowed', async () => {
    const { request, response } = await get(`http://lenient.test:${port}/robots.txt`, () => false);
    let body = '';
    for await (const c of response.body) body += c;
    request.destroy();
    expect([response.statusCode, body]).toEqual([200, 'ok']);
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
