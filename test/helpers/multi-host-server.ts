/**
 * ONE real local server (HTTP and HTTPS on 127.0.0.1, port 0) that plays any number of hosts: each host
 * (by Host header / SNI) gets its own behaviour. Point hosts at it with `--resolve '*=127.0.0.1'` (or
 * `resolve: ['*=127.0.0.1']`) plus `--allow-private`.
 *
 *   const srv = await startMultiHostServer();
 *   srv.set('a.test', ok('User-agent: *\nDisallow: /x\n'));
 *   srv.set('b.test', { kind: 'respond', status: 503, headers: { 'retry-after': '1' } });
 *   srv.set('c.test', { kind: 'chain', hops: 3 });
 *   srv.origin('a.test')           // 'http://a.test:PORT'
 *   srv.origin('x.tls.test', 'https')  // HTTPS: names under .tls.test have a cert from srv.caFile's CA
 *   srv.hits('a.test')             // requests seen for that host (all paths, both schemes)
 *   srv.requests('a.test')         // [{ scheme, path, headers }]
 *   srv.peakConcurrency()          // most requests open at once since the last resetCounts()
 *   await srv.close();
 *
 * HTTPS names: `*.tls.test` → valid cert (trust srv.caFile); `*.untrusted.test` → self-signed cert;
 * anything else → the `*.tls.test` cert (wrong name). Unknown hosts answer 404.
 * Behaviours (see `Behaviour`): respond (status/headers/body/delay/encoding), redirect, chain of N hops,
 * sequence (one step per request, last repeats), conditional (ETag/Last-Modified → 304), trickle,
 * large body, gzip bomb, reset mid-body (Content-Length or chunked), close mid-body, close without
 * response, malformed response, stall TLS handshake.
 * `startMultiHostServer({ alsoListenOn: ['127.0.0.2'] })` also serves HTTP on that address (same port).
 * Counts: srv.resetCounts() clears hits/requests/peak (sequence positions are kept; set() restarts them).
 */
import { once } from 'node:events';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { createSecureContext, type SecureContext } from 'node:tls';
import { brotliCompressSync, createGzip, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { createTestCa, type TestCa } from './test-ca.js';

export type Encoding = 'gzip' | 'deflate' | 'deflate-raw' | 'br';

export type Behaviour =
  | {
      kind: 'respond';
      status?: number;
      body?: string | Buffer;
      headers?: Record<string, string>;
      /** Wait this long before sending the headers. */
      delayMs?: number;
      /** Compress the body and send the matching Content-Encoding (`deflate-raw` sends `deflate`). */
      encoding?: Encoding;
    }
  | { kind: 'redirect'; status?: 301 | 302 | 307 | 308; location: string }
  /** /robots.txt → /hop/1 → … → /hop/N (N redirects), then `final` (default: a small robots.txt). */
  | { kind: 'chain'; hops: number; status?: 301 | 302 | 307 | 308; final?: Behaviour }
  | { kind: 'sequence'; steps: Behaviour[] }
  | { kind: 'conditional'; body: string; etag?: string; lastModified?: string }
  /** 200, then `chunk` every `intervalMs`, forever. */
  | { kind: 'trickle'; intervalMs: number; chunk?: string }
  | { kind: 'large'; bytes: number }
  /** gzip of `decodedBytes` zero bytes (about 1/1000 of that on the wire). */
  | { kind: 'gzip-bomb'; decodedBytes: number }
  /** Part of the body, then a TCP reset (Content-Length declared, or chunked). */
  | { kind: 'reset-mid-body'; chunked?: boolean }
  /** Part of the body, then a clean close (FIN) before the declared Content-Length. */
  | { kind: 'close-mid-body' }
  | { kind: 'close-without-response' }
  | { kind: 'malformed' }
  /** HTTPS only: the TLS handshake never completes. */
  | { kind: 'stall-tls' };

export const ok = (body: string, headers: Record<string, string> = {}): Behaviour => ({
  kind: 'respond',
  status: 200,
  body,
  headers: { 'content-type': 'text/plain', ...headers },
});

export interface RequestRecord {
  scheme: 'http' | 'https';
  path: string;
  headers: http.IncomingHttpHeaders;
}

export interface MultiHostServer {
  httpPort: number;
  httpsPort: number;
  /** PEM of the CA that signed the `*.tls.test` certificate (for --ca-file). */
  caFile: string;
  set(host: string, behaviour: Behaviour): void;
  origin(host: string, scheme?: 'http' | 'https'): string;
  hits(host: string): number;
  requests(host: string): RequestRecord[];
  /** Sum of hits over every host. */
  totalHits(): number;
  /** Most requests in progress at the same time since start or the last resetCounts(). */
  peakConcurrency(): number;
  resetCounts(): void;
  close(): Promise<void>;
}

const DEFAULT_FINAL: Behaviour = ok('User-agent: *\nDisallow: /chained\n');

function encode(body: Buffer, encoding: Encoding): Buffer {
  if (encoding === 'gzip') return gzipSync(body);
  if (encoding === 'deflate') return deflateSync(body);
  if (encoding === 'deflate-raw') return deflateRawSync(body);
  return brotliCompressSync(body);
}

const bombs = new Map<number, Promise<Buffer>>();
function gzipBomb(decodedBytes: number): Promise<Buffer> {
  let p = bombs.get(decodedBytes);
  if (p === undefined) {
    p = (async () => {
      const gz = createGzip({ level: 9 });
      const out: Buffer[] = [];
      gz.on('data', (b: Buffer) => out.push(b));
      const zeros = Buffer.alloc(1 << 20);
      for (let left = decodedBytes; left > 0; left -= zeros.length) {
        if (!gz.write(left >= zeros.length ? zeros : zeros.subarray(0, left))) await once(gz, 'drain');
      }
      gz.end();
      await once(gz, 'end');
      return Buffer.concat(out);
    })();
    bombs.set(decodedBytes, p);
  }
  return p;
}

async function writeWithBackpressure(res: ServerResponse, total: number): Promise<void> {
  const line = Buffer.from('Disallow: /big\n'.repeat(4096));
  for (let sent = 0; sent < total && !res.destroyed; ) {
    const n = Math.min(line.length, total - sent);
    sent += n;
    if (res.write(line.subarray(0, n))) continue;
    // Whichever event comes first, the other's listener is removed (no listeners pile up per write).
    const settled = new AbortController();
    const waits = [
      once(res, 'drain', { signal: settled.signal }),
      once(res, 'close', { signal: settled.signal }),
    ];
    await Promise.race(waits).finally(() => settled.abort());
    await Promise.allSettled(waits);
  }
  res.end();
}

export async function startMultiHostServer(opts: { alsoListenOn?: string[] } = {}): Promise<MultiHostServer> {
  const behaviours = new Map<string, Behaviour>();
  const log = new Map<string, RequestRecord[]>();
  const sequenceStep = new Map<string, number>();
  const sockets = new Set<Socket>();
  let open = 0;
  let peak = 0;
  const ca: TestCa = createTestCa();
  const leaf = ca.issue(['*.tls.test']);
  const rogue = ca.selfSigned(['*.untrusted.test']);
  const leafCtx: SecureContext = createSecureContext(leaf);
  const rogueCtx: SecureContext = createSecureContext(rogue);

  function play(b: Behaviour, host: string, req: IncomingMessage, res: ServerResponse): void {
    const path = (req.url ?? '/').split('?')[0]!;
    switch (b.kind) {
      case 'respond': {
        const send = () => {
          if (res.destroyed) return;
          let body: Buffer = b.body === undefined ? Buffer.alloc(0) : Buffer.from(b.body);
          const headers: Record<string, string> = { ...b.headers };
          if (b.encoding !== undefined) {
            body = encode(body, b.encoding);
            headers['content-encoding'] = b.encoding === 'deflate-raw' ? 'deflate' : b.encoding;
          }
          res.writeHead(b.status ?? 200, { 'content-length': String(body.length), ...headers });
          res.end(body);
        };
        if (b.delayMs) setTimeout(send, b.delayMs);
        else send();
        return;
      }
      case 'redirect':
        res.writeHead(b.status ?? 301, { location: b.location, 'content-length': '0' }).end();
        return;
      case 'chain': {
        const hop = path === '/robots.txt' ? 0 : Number(/^\/hop\/(\d+)$/.exec(path)?.[1] ?? Number.NaN);
        if (Number.isNaN(hop)) return void res.writeHead(404).end();
        const next: Behaviour =
          hop < b.hops
            ? { kind: 'redirect', status: b.status, location: `/hop/${hop + 1}` }
            : (b.final ?? DEFAULT_FINAL);
        play(next, host, req, res);
        return;
      }
      case 'sequence': {
        const i = sequenceStep.get(host) ?? 0;
        sequenceStep.set(host, i + 1);
        play(b.steps[Math.min(i, b.steps.length - 1)]!, host, req, res);
        return;
      }
      case 'conditional': {
        const matches =
          (b.etag !== undefined && req.headers['if-none-match'] === b.etag) ||
          (b.lastModified !== undefined && req.headers['if-modified-since'] === b.lastModified);
        const headers: Record<string, string> = {};
        if (b.etag !== undefined) headers.etag = b.etag;
        if (b.lastModified !== undefined) headers['last-modified'] = b.lastModified;
        if (matches) return void res.writeHead(304, headers).end();
        play({ kind: 'respond', status: 200, body: b.body, headers }, host, req, res);
        return;
      }
      case 'trickle': {
        res.writeHead(200, { 'content-type': 'text/plain' });
        const timer = setInterval(() => res.write(b.chunk ?? '#'), b.intervalMs);
        res.on('close', () => clearInterval(timer));
        return;
      }
      case 'large':
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(b.bytes) });
        void writeWithBackpressure(res, b.bytes);
        return;
      case 'gzip-bomb':
        void gzipBomb(b.decodedBytes).then((gz) => {
          res.writeHead(200, { 'content-encoding': 'gzip', 'content-length': String(gz.length) });
          res.end(gz);
        });
        return;
      case 'reset-mid-body':
      case 'close-mid-body': {
        const length = b.kind === 'reset-mid-body' && b.chunked ? {} : { 'content-length': '100000' };
        res.writeHead(200, { 'content-type': 'text/plain', ...length });
        const cut = () => (b.kind === 'reset-mid-body' ? req.socket.resetAndDestroy() : req.socket.end());
        res.write('User-agent: *\n'.repeat(64), () => setTimeout(cut, 20));
        return;
      }
      case 'close-without-response':
        req.socket.destroy();
        return;
      case 'malformed':
        req.socket.end('HTTP/1.1 ZOO Not a status\r\nthis is not a header\r\n\r\n');
        return;
      case 'stall-tls':
        res.writeHead(200).end(); // plain HTTP: nothing to stall
        return;
    }
  }

  const handler = (scheme: 'http' | 'https') => (req: IncomingMessage, res: ServerResponse) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
    const list = log.get(host) ?? [];
    list.push({ scheme, path: req.url ?? '/', headers: req.headers });
    log.set(host, list);
    open++;
    peak = Math.max(peak, open);
    res.on('close', () => open--);
    play(behaviours.get(host) ?? { kind: 'respond', status: 404, body: 'not found' }, host, req, res);
  };

  const track = (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  };
  const httpServer = http.createServer(handler('http'));
  const httpsServer = https.createServer(
    {
      ...leaf,
      SNICallback: (name, cb) => {
        const host = name.toLowerCase();
        if (behaviours.get(host)?.kind === 'stall-tls') return; // never answer: the handshake hangs
        cb(null, host.endsWith('.untrusted.test') ? rogueCtx : leafCtx);
      },
    },
    handler('https'),
  );
  const extras = (opts.alsoListenOn ?? []).map(() => http.createServer(handler('http')));
  for (const s of [httpServer, httpsServer, ...extras]) {
    s.on('connection', track);
    s.on('secureConnection', track);
  }
  httpServer.listen(0, '127.0.0.1');
  httpsServer.listen(0, '127.0.0.1');
  await Promise.all([once(httpServer, 'listening'), once(httpsServer, 'listening')]);
  const httpPort = (httpServer.address() as AddressInfo).port;
  const httpsPort = (httpsServer.address() as AddressInfo).port;
  await Promise.all(
    extras.map((s, i) => {
      s.listen(httpPort, opts.alsoListenOn![i]);
      return once(s, 'listening');
    }),
  );

  return {
    httpPort,
    httpsPort,
    caFile: ca.caFile,
    set(host, behaviour) {
      behaviours.set(host.toLowerCase(), behaviour);
      sequenceStep.delete(host.toLowerCase());
    },
    origin: (host, scheme = 'http') => `${scheme}://${host}:${scheme === 'http' ? httpPort : httpsPort}`,
    hits: (host) => log.get(host.toLowerCase())?.length ?? 0,
    requests: (host) => log.get(host.toLowerCase()) ?? [],
    totalHits: () => [...log.values()].reduce((n, l) => n + l.length, 0),
    peakConcurrency: () => peak,
    resetCounts() {
      log.clear();
      peak = open;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await Promise.all(
        [httpServer, httpsServer, ...extras].map((s) => new Promise<void>((r) => s.close(() => r()))),
      );
      ca.cleanup();
    },
  };
}
