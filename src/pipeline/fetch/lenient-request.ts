// A second HTTP/1 client, for responses undici's strict parser rejects but browsers and curl read: header
// lines ending in a bare LF (embedded and hand-written servers send them), odd header bytes. It is Node's
// own client with `insecureHTTPParser`, used only to retry a request that undici found malformed. It reads
// the socket through LenientFramingReader (a repeated Content-Length, chunk framing in bare LF).

import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { type Duplex, Readable } from 'node:stream';
import tls from 'node:tls';
import { hasCode } from '../../core/errors.js';
import { refusedLiteral, refusedPeer } from './address-policy.js';
import type { ExchangeOptions, ExchangeResponse } from './dispatcher.js';
import { fetchError } from './error-codes.js';
import { LenientFramingReader } from './lenient-framing.js';

/**
 * Longest response head read, for both clients: Node's and undici's default of 16 KiB turned away real
 * servers that send a few large cookies; curl reads up to 100 KB a header.
 */
export const MAX_HEAD_BYTES = 128 * 1024;

export interface LenientClientConfig {
  /** The same lookup as undici's connector: pins and the address block list. */
  lookup: NonNullable<http.RequestOptions['lookup']>;
  /** True for an address that must not be connected to. */
  refuse: (address: string) => boolean;
  /** Extra CAs (with the bundled roots), or undefined for Node's default store. */
  ca: string[] | undefined;
  /** Requests not yet closed are kept here, so that closing the dispatcher can end them. */
  live?: Set<{ destroy(): void }>;
}

/**
 * GET `url` with Node's lenient parser; resolves once the response head is in. The caller destroys
 * the returned request when done with the body (one connection per request, never reused).
 */
export function lenientRequest(
  url: URL,
  opts: ExchangeOptions,
  config: LenientClientConfig,
): Promise<{ request: http.ClientRequest; response: ExchangeResponse }> {
  const literal = refusedLiteral(url.hostname, config.refuse);
  if (literal !== null) return Promise.reject(literal);
  const secure = url.protocol === 'https:';
  const client = secure ? https : http;
  return new Promise((resolve, reject) => {
    let reader: LenientFramingReader | undefined;
    let failure: Error | undefined;
    // Node ends a failed body with a bare "aborted" (ECONNRESET); the request's own error says why.
    async function* bodyOf(res: IncomingMessage): AsyncGenerator<Buffer> {
      try {
        for await (const chunk of res) yield chunk as Buffer;
      } catch (err) {
        if (failure !== undefined) throw failure;
        if (reader?.ended === true)
          throw fetchError('ERR_CONNECTION_CLOSED', 'the connection closed inside the body');
        throw err;
      }
    }
    // No agent: this connection is ours alone, made here and never reused.
    const createConnection = (): Duplex => {
      const host = url.hostname.replace(/^\[|\]$/g, '');
      const port = Number(url.port) || (secure ? 443 : 80);
      const socket: net.Socket = secure
        ? tls.connect({
            host,
            port,
            lookup: config.lookup,
            ...(net.isIP(host) === 0 ? { servername: host } : {}),
            ...(config.ca === undefined ? {} : { ca: config.ca }),
          })
        : net.connect({ host, port, lookup: config.lookup });
      const framed = new LenientFramingReader(socket, MAX_HEAD_BYTES);
      reader = framed;
      socket.once('connect', () => {
        const peer = refusedPeer(socket.remoteAddress, config.refuse);
        if (peer !== null) framed.destroy(peer);
      });
      return framed;
    };
    const request = client.request(url, {
      method: 'GET',
      headers: opts.headers,
      signal: opts.signal,
      createConnection,
      insecureHTTPParser: true,
      maxHeaderSize: MAX_HEAD_BYTES,
    });
    config.live?.add(request);
    // Whatever ends the request without a response or an error (Node emits neither for some answers)
    // still settles this; a settled promise ignores it.
    request.on('close', () => {
      config.live?.delete(request);
      reject(
        opts.signal.aborted
          ? opts.signal.reason
          : fetchError('ERR_CONNECTION_CLOSED', 'closed without a response'),
      );
    });
    // Node hands a 101 to 'upgrade' listeners, never as a response; this request asked for no upgrade.
    request.on('upgrade', (_res, socket: Duplex) => {
      socket.destroy();
      reject(
        fetchError('ERR_MALFORMED_RESPONSE', 'a 101 Switching Protocols answered a request for no upgrade'),
      );
    });
    request.on('response', (res: IncomingMessage) => {
      const body = Readable.from(bodyOf(res), { objectMode: false });
      resolve({ request, response: { statusCode: res.statusCode ?? 0, headers: res.headers, body } });
    });
    request.on('error', (err) => {
      // Node calls a close before the whole head "socket hang up" (ECONNRESET) whether a FIN or a reset
      // ended it; the reader saw which.
      const cause =
        reader?.ended === true && hasCode(err, 'ECONNRESET')
          ? fetchError(
              'ERR_CONNECTION_CLOSED',
              `the connection closed before a complete response (${err.message})`,
            )
          : err;
      failure ??= cause;
      reject(cause);
    });
    request.end();
  });
}
