import { readFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import type { Readable } from 'node:stream';
import { rootCertificates } from 'node:tls';
import { buildConnector, Client, type Dispatcher } from 'undici';
import { hasCode, RobotsAuditError } from '../../core/errors.js';
import { bareAddress, isBlockedAddress, refusedLiteral, refusedPeer } from './address-policy.js';
import { classifyNetworkError, isParserError } from './error-codes.js';
import { lenientRequest, MAX_HEAD_BYTES } from './lenient-request.js';
import { proxyRoute } from './proxy-route.js';
import { openTunnel } from './proxy-tunnel.js';
import { createLookup, type ResolverConfig } from './resolver.js';

/**
 * The undici dispatcher every fetch goes through: our lookup (pins + block list), an address check on
 * the socket actually connected, extra CAs on top of the system ones, and a proxy when configured.
 */

export interface DispatcherConfig {
  resolver: ResolverConfig;
  timeoutMs: number;
  caFile: string | undefined;
  proxy: string | undefined;
}

export interface ExchangeOptions {
  headers: Record<string, string>;
  signal: AbortSignal;
}

/** What a fetch reads of a response, whichever client got it (undici, or the lenient retry). */
export interface ExchangeResponse {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: Readable;
}

export interface FetchDispatcher {
  /**
   * Sends GET `url` and hands the response to `use`; the connection is released when `use` settles
   * (`use` must consume or discard the body).
   */
  exchange<T>(url: URL, opts: ExchangeOptions, use: (res: ExchangeResponse) => Promise<T>): Promise<T>;
  /** True while a connection to `protocol//host:port` is being set up (tells a connect timeout from a headers one). */
  connecting(key: string): boolean;
  /** True when requests may go through a proxy (the proxy resolves names, so we pre-check them). */
  proxied: boolean;
  close(): Promise<void>;
}

/**
 * Closing a connection with an error whose stack is already captured: Node reads `err.stack` on every
 * destroy, and a fresh undici error per origin (its default) costs more than the rest of the close.
 * No code: a request still on it would read it as any uncoded network failure (ERR_NETWORK).
 */
const RELEASED = new Error('robots-audit: connection released');
void RELEASED.stack;
const ignore = () => {};

function retryLeniently(err: unknown): boolean {
  return (
    classifyNetworkError(err).code === 'ERR_MALFORMED_RESPONSE' ||
    hasCode(err, 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH') ||
    // undici's answer to an interim `100 Continue` it did not ask for; Node's client skips it, as curl does.
    (hasCode(err, 'UND_ERR_SOCKET') && (err as Error).message === 'bad response')
  );
}

/** `http://a.example:80`: the key `connecting` expects. */
export function connectKey(protocol: string, hostname: string, port: string | number): string {
  const p = String(port) || (protocol === 'https:' ? '443' : '80');
  // A URL brackets an IPv6 host; undici's connector gets it bare.
  return `${protocol}//${bareAddress(hostname).toLowerCase()}:${p}`;
}

/**
 * The CAs to trust with `--ca-file`: Node's bundled roots, NODE_EXTRA_CA_CERTS, then the file; undefined
 * (Node's default store) without it.
 */
export function trustedCas(caFile: string | undefined): string[] | undefined {
  const extra: string[] = [];
  const envExtra = process.env.NODE_EXTRA_CA_CERTS;
  for (const file of [envExtra, caFile]) {
    if (!file) continue;
    try {
      extra.push(readFileSync(file, 'utf8'));
    } catch (err) {
      throw new RobotsAuditError('ERR_CA_FILE', `Cannot read CA file ${file}: ${(err as Error).message}`, {
        path: file,
        cause: err,
      });
    }
  }
  // Passing `ca` replaces Node's trust store, so the bundled roots are added back first.
  return caFile === undefined ? undefined : [...rootCertificates, ...extra];
}

export function createFetchDispatcher(config: DispatcherConfig): FetchDispatcher {
  const { resolver, timeoutMs } = config;
  const route = proxyRoute(config.proxy);
  const ca = trustedCas(config.caFile);
  const tlsOptions = ca === undefined ? {} : { ca };
  const lookup = createLookup(resolver);
  const base = buildConnector({ timeout: timeoutMs, lookup, ...tlsOptions } as never);
  const pending = new Map<string, number>();
  const refuse = (address: string) => !resolver.allowPrivate && isBlockedAddress(address, resolver.blockList);

  /** `inner`, with the connection counted as being set up (for `connecting`) until it calls back. */
  const counted =
    (inner: buildConnector.connector): buildConnector.connector =>
    (opts, callback) => {
      const key = connectKey(opts.protocol, opts.hostname, opts.port);
      pending.set(key, (pending.get(key) ?? 0) + 1);
      inner(opts, (err, socket) => {
        const left = (pending.get(key) ?? 1) - 1;
        if (left === 0) pending.delete(key);
        else pending.set(key, left);
        if (err) callback(err, null);
        else callback(null, socket!);
      });
    };

  const direct = counted((opts, callback) => {
    const literal = refusedLiteral(opts.hostname, refuse);
    if (literal !== null) return callback(literal, null);
    base(opts, (err, socket) => {
      if (err) return callback(err, null);
      const peer = refusedPeer((socket as Socket).remoteAddress, refuse);
      if (peer !== null) {
        socket!.destroy();
        return callback(peer, null);
      }
      callback(null, socket!);
    });
  });

  // The proxy resolves the name and is trusted (README), so no address check applies to its socket.
  const tunnelled = (proxy: URL, signal: AbortSignal) =>
    counted((opts, callback) => {
      const port = opts.port || (opts.protocol === 'https:' ? '443' : '80');
      const host = opts.hostname.includes(':') ? `[${opts.hostname}]` : opts.hostname;
      openTunnel(proxy, `${host}:${port}`, signal, ca).then(
        (socket) => {
          if (opts.protocol !== 'https:') return callback(null, socket);
          base({ ...opts, httpSocket: socket }, callback);
        },
        (err: Error) => callback(err, null),
      );
    });

  const common = {
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    keepAliveTimeout: 1000,
    maxHeaderSize: MAX_HEAD_BYTES,
  };
  // One short-lived Client per request. Each origin is fetched once, so a pool per origin (what an Agent
  // keeps) would only add bookkeeping and idle sockets; its own connector also ends a failed proxy tunnel
  // as one error, where undici's proxy agents reconnect at once, forever, after a proxy closes.
  const live = new Set<Client>();
  const lenientLive = new Set<{ destroy(): void }>();
  const lenient = { lookup: lookup as never, refuse, ca, live: lenientLive };
  return {
    proxied: route !== undefined,
    connecting: (key) => pending.has(key),
    async exchange(url, opts, use) {
      const proxy = route?.(url);
      const connect = proxy === undefined ? direct : tunnelled(proxy, opts.signal);
      const client = new Client(url.origin, { connect, ...common });
      live.add(client);
      // undici reads a request's signal only once it has a connection; the budget also ends the connecting.
      const onAbort = () => client.destroy(opts.signal.reason as Error).catch(ignore);
      opts.signal.addEventListener('abort', onAbort, { once: true });
      const leniently = async () => {
        const { request, response } = await lenientRequest(url, opts, lenient);
        try {
          return await use(response);
        } finally {
          request.destroy();
        }
      };
      // The lenient client connects directly only.
      const retryable = (err: unknown) => !opts.signal.aborted && proxy === undefined && retryLeniently(err);
      let res: Dispatcher.ResponseData;
      try {
        try {
          res = await client.request({ path: url.pathname + url.search, method: 'GET', ...opts });
        } catch (err) {
          // A response head undici's strict parser rejects gets one more try with a lenient parser; so does a
          // length mismatch before any head was handed over (undici joins a repeated Content-Length into one).
          if (!retryable(err)) throw err;
          return await leniently();
        }
        try {
          return await use(res);
        } catch (err) {
          // The head was fine but the parser rejected the body's framing (chunk sizes in bare LF).
          const malformed = classifyNetworkError(err).code === 'ERR_MALFORMED_RESPONSE';
          if (!malformed || !isParserError(err) || !retryable(err)) throw err;
          return await leniently();
        }
      } finally {
        opts.signal.removeEventListener('abort', onAbort);
        live.delete(client);
        client.destroy(RELEASED).catch(ignore);
      }
    },
    async close() {
      for (const r of lenientLive) r.destroy();
      await Promise.all([...live].map((c) => c.destroy(RELEASED).catch(ignore)));
    },
  };
}
