/**
 * The stable error codes a fetch can end with, and how a low-level error (Node, undici, ours) maps onto
 * them. These strings are part of the public contract (evidence columns, cache rows): never rename one.
 */

/** Network failures: the origin is unreachable (disallow all). */
export const UNREACHABLE_CODES = Object.freeze({
  /** The name does not resolve (NXDOMAIN, no address, `.invalid`, resolver failure). */
  ERR_DNS: 'ERR_DNS',
  /** The host, or the address it resolves to, is loopback/private/link-local/metadata/… (see `--allow-private`). */
  ERR_BLOCKED_ADDRESS: 'ERR_BLOCKED_ADDRESS',
  /** TCP connection refused. */
  ERR_CONNECTION_REFUSED: 'ERR_CONNECTION_REFUSED',
  /** TCP reset (RST) while connecting, sending or receiving. */
  ERR_CONNECTION_RESET: 'ERR_CONNECTION_RESET',
  /** The server closed the connection before a complete response (empty reply, short body). */
  ERR_CONNECTION_CLOSED: 'ERR_CONNECTION_CLOSED',
  /** No route to the host or network. */
  ERR_HOST_UNREACHABLE: 'ERR_HOST_UNREACHABLE',
  /** TLS handshake or certificate failure (untrusted issuer, wrong name, expired, protocol error). */
  ERR_TLS: 'ERR_TLS',
  /** The time budget ran out while connecting (TCP + TLS). */
  ERR_CONNECT_TIMEOUT: 'ERR_CONNECT_TIMEOUT',
  /** The time budget ran out while waiting for the response headers. */
  ERR_HEADERS_TIMEOUT: 'ERR_HEADERS_TIMEOUT',
  /** The time budget ran out while reading the body. */
  ERR_BODY_TIMEOUT: 'ERR_BODY_TIMEOUT',
  /** The response is not valid HTTP/1.1 (bad status line, bad headers, oversized headers, bad chunking). */
  ERR_MALFORMED_RESPONSE: 'ERR_MALFORMED_RESPONSE',
  /** The body could not be decoded with its Content-Encoding (corrupt gzip/deflate/br data). */
  ERR_CONTENT_DECODING: 'ERR_CONTENT_DECODING',
  /** The body uses a Content-Encoding we did not offer and cannot decode. */
  ERR_UNSUPPORTED_ENCODING: 'ERR_UNSUPPORTED_ENCODING',
  /** The proxy could not be reached, closed the connection, or answered CONNECT with other than 2xx (407, 502, …). */
  ERR_PROXY: 'ERR_PROXY',
  /** Any other network failure (kept rare; the message goes to the event log). */
  ERR_NETWORK: 'ERR_NETWORK',
} as const);

/** Redirect failures: the robots.txt is unavailable (allow all), as RFC 9309 §2.3.1.2 says. */
export const UNAVAILABLE_CODES = Object.freeze({
  /** More than 5 redirects. */
  ERR_TOO_MANY_REDIRECTS: 'ERR_TOO_MANY_REDIRECTS',
  /** A redirect back to a URL already visited. */
  ERR_REDIRECT_LOOP: 'ERR_REDIRECT_LOOP',
  /** A 3xx without a usable Location (missing, unparsable, or not http/https). */
  ERR_REDIRECT_INVALID: 'ERR_REDIRECT_INVALID',
  /** An archived 3xx whose target was not captured within an hour of it (`import`; no live fetch gives it). */
  ERR_REDIRECT_UNRESOLVED: 'ERR_REDIRECT_UNRESOLVED',
} as const);

export type UnreachableCode = keyof typeof UNREACHABLE_CODES;
export type UnavailableCode = keyof typeof UNAVAILABLE_CODES;
export type FetchErrorCode = UnreachableCode | UnavailableCode;

/** Every code, for documentation and tests. */
export const FETCH_ERROR_CODES: readonly FetchErrorCode[] = Object.freeze([
  ...(Object.keys(UNREACHABLE_CODES) as UnreachableCode[]),
  ...(Object.keys(UNAVAILABLE_CODES) as UnavailableCode[]),
]);

/** Failures worth another attempt: transient by nature. A blocked address, NXDOMAIN or a bad cert are not. */
const RETRYABLE = new Set<string>([
  'ERR_CONNECTION_REFUSED',
  'ERR_CONNECTION_RESET',
  'ERR_CONNECTION_CLOSED',
  'ERR_HOST_UNREACHABLE',
  'ERR_CONNECT_TIMEOUT',
  'ERR_HEADERS_TIMEOUT',
  'ERR_BODY_TIMEOUT',
  'ERR_PROXY',
  'ERR_NETWORK',
]);

/** A classified network failure. */
export interface NetworkFailure {
  code: UnreachableCode;
  retryable: boolean;
  message: string;
}

const TLS_PREFIXES = ['ERR_TLS_', 'ERR_SSL_', 'CERT_', 'UNABLE_TO_', 'DEPTH_ZERO_', 'SELF_SIGNED_'];

function codeOf(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
}

function messageOf(err: unknown): string {
  return String((err as { message?: unknown } | null)?.message ?? '');
}

function chain(err: unknown): unknown[] {
  const out: unknown[] = [];
  for (let e = err, i = 0; e && i < 5; e = (e as { cause?: unknown }).cause, i++) out.push(e);
  return out;
}

/** An error of an HTTP parser (llhttp, in undici or Node), which has rejected the response's bytes. */
function fromParser(err: unknown): boolean {
  return codeOf(err).startsWith('HPE_') || (err as { name?: unknown } | null)?.name === 'HTTPParserError';
}

/** True when an HTTP parser rejected the response's bytes, anywhere in the `cause` chain. */
export function isParserError(err: unknown): boolean {
  return chain(err).some(fromParser);
}

function classifyOne(err: unknown): UnreachableCode | undefined {
  const code = codeOf(err);
  if (code in UNREACHABLE_CODES) return code as UnreachableCode;
  switch (code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_FAIL':
    case 'EAI_NODATA':
    case 'EAI_NONAME':
    case 'ENODATA':
      return 'ERR_DNS';
    case 'ECONNREFUSED':
      return 'ERR_CONNECTION_REFUSED';
    case 'ECONNRESET':
    case 'EPIPE':
      return 'ERR_CONNECTION_RESET';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'EHOSTDOWN':
    case 'ENETDOWN':
      return 'ERR_HOST_UNREACHABLE';
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return 'ERR_CONNECT_TIMEOUT';
    case 'UND_ERR_HEADERS_TIMEOUT':
      return 'ERR_HEADERS_TIMEOUT';
    case 'UND_ERR_BODY_TIMEOUT':
      return 'ERR_BODY_TIMEOUT';
    case 'UND_ERR_SOCKET':
      // A 101 Switching Protocols to a request that asked for no upgrade is not a cut connection.
      return messageOf(err) === 'bad upgrade' ? 'ERR_MALFORMED_RESPONSE' : 'ERR_CONNECTION_CLOSED';
    case 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH': // the body ended before its Content-Length
      return 'ERR_CONNECTION_CLOSED';
    case 'ERR_ASSERTION': // undici asserts on response bytes its parser let through (a status below 100)
      return 'ERR_MALFORMED_RESPONSE';
    case 'UND_ERR_HEADERS_OVERFLOW':
      return 'ERR_MALFORMED_RESPONSE';
    case 'UND_ERR_PRX_TLS':
      return 'ERR_PROXY';
    case 'Z_DATA_ERROR':
    case 'Z_BUF_ERROR':
    case 'ERR_BROTLI_DECOMPRESSION_FAILED':
      return 'ERR_CONTENT_DECODING';
  }
  if (fromParser(err)) {
    // The connection ended inside the message (a chunked body cut short after `Connection: close`):
    // llhttp's finish() says so only in the message, the error has no code.
    const cut = code === 'HPE_INVALID_EOF_STATE' || /\bInvalid EOF state\b/.test(messageOf(err));
    return cut ? 'ERR_CONNECTION_CLOSED' : 'ERR_MALFORMED_RESPONSE';
  }
  if (TLS_PREFIXES.some((p) => code.startsWith(p))) return 'ERR_TLS';
  // Node names brotli decoder errors ERR__ERROR_FORMAT_… after the C library's error strings.
  if (code.startsWith('ERR__ERROR_') || code.startsWith('Z_')) return 'ERR_CONTENT_DECODING';
  const message = messageOf(err);
  if (/proxy/i.test(message)) return 'ERR_PROXY';
  if (/ssl|tls|certificate|alert/i.test(message)) return 'ERR_TLS';
  return undefined;
}

/** Maps any error thrown while fetching to a stable code, walking the `cause` chain. */
export function classifyNetworkError(err: unknown): NetworkFailure {
  const message = String((err as { message?: unknown } | null)?.message ?? err);
  for (const e of chain(err)) {
    const code = classifyOne(e);
    if (code !== undefined) {
      // EAI_AGAIN is a resolver hiccup, unlike NXDOMAIN: worth a retry.
      const retryable = RETRYABLE.has(code) || (code === 'ERR_DNS' && codeOf(e) === 'EAI_AGAIN');
      return { code, retryable, message };
    }
  }
  return { code: 'ERR_NETWORK', retryable: true, message };
}

/** An error carrying one of our stable codes (thrown by our lookup, connector and body reader). */
export function fetchError(code: UnreachableCode, message: string): Error & { code: UnreachableCode } {
  return Object.assign(new Error(message), { code });
}
