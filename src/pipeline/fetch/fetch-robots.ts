import { ACCEPT_ENCODING, appliedCodings, discard, readCappedBody } from './body-reader.js';
import { connectKey, type ExchangeResponse, type FetchDispatcher } from './dispatcher.js';
import {
  classifyNetworkError,
  type FetchErrorCode,
  fetchError,
  type UnavailableCode,
  type UnreachableCode,
} from './error-codes.js';
import type { Limiter } from './limiter.js';
import { MAX_REDIRECTS, nextLocation } from './redirect-location.js';
import { type ResolverConfig, resolveAllowed } from './resolver.js';
import { backoffDelay, parseRetryAfter, sleep } from './retry-timing.js';

/**
 * One robots.txt fetch with RFC 9309 §2.3 semantics: redirects followed by hand (each hop goes through
 * the same address checks), statuses mapped to outcomes, retries with backoff and Retry-After.
 */

export { MAX_REDIRECTS, nextLocation };

export interface FetchSettings {
  dispatcher: FetchDispatcher;
  resolver: ResolverConfig;
  limiter: Limiter;
  timeoutMs: number;
  maxBody: number;
  userAgent: string;
  retries: number;
  maxRetryAfterMs: number;
  backoffBaseMs: number;
  onRetry?(info: {
    url: string;
    attempt: number;
    delayMs: number;
    status: number | null;
    errorCode: string | null;
  }): void;
}

/** Validators of the cached copy, sent when the request URL is the one they came from. */
export interface Validators {
  url: string;
  etag: string | null;
  lastModified: string | null;
}

export interface FetchResult {
  /** not_modified: a 304 answered our conditional request. */
  outcome: 'parsed' | 'unavailable' | 'unreachable' | 'not_modified';
  robotsUrl: string;
  finalUrl: string | null;
  status: number | null;
  errorCode: FetchErrorCode | null;
  body: Buffer | null;
  truncated: boolean;
  etag: string | null;
  lastModified: string | null;
  /** Requests' attempts made (1 + retries used). */
  attempts: number;
  /** Human detail of a network failure, for logs. */
  message: string | null;
}

interface AttemptResult extends Omit<FetchResult, 'attempts'> {
  retryable: boolean;
  retryAfterMs: number | undefined;
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | null {
  const v = headers[name];
  if (v === undefined) return null;
  return Array.isArray(v) ? (v[0] ?? null) : v;
}

async function attempt(robotsUrl: string, s: FetchSettings, validators?: Validators): Promise<AttemptResult> {
  const base = {
    robotsUrl,
    body: null,
    truncated: false,
    etag: null,
    lastModified: null,
    message: null,
    retryable: false,
    retryAfterMs: undefined,
  };
  const visited = new Set<string>([robotsUrl]);
  let url = new URL(robotsUrl);
  let answered = false;
  let lastStatus: number | null = null;
  let phase: 'resolve' | 'request' | 'body' = 'request';
  const controller = new AbortController();
  const timer = setTimeout(() => {
    let code: UnreachableCode = 'ERR_HEADERS_TIMEOUT';
    if (phase === 'body') code = 'ERR_BODY_TIMEOUT';
    else if (
      phase === 'resolve' ||
      s.dispatcher.connecting(connectKey(url.protocol, url.hostname, url.port))
    ) {
      code = 'ERR_CONNECT_TIMEOUT';
    }
    controller.abort(fetchError(code, `no complete answer from ${url.href} within ${s.timeoutMs} ms`));
  }, s.timeoutMs);
  const unavailable = (status: number | null, errorCode: UnavailableCode | null): AttemptResult => ({
    ...base,
    outcome: 'unavailable',
    finalUrl: url.href,
    status,
    errorCode,
  });
  /** One hop: the final answer of this attempt, or the URL a redirect points to. */
  const hop = async (res: ExchangeResponse, conditional: boolean): Promise<AttemptResult | URL> => {
    answered = true;
    const status = res.statusCode;
    lastStatus = status;
    if (status >= 200 && status < 300) {
      phase = 'body';
      const codings = appliedCodings(res.headers['content-encoding'], res.headers['transfer-encoding']);
      const { body, truncated } = await readCappedBody(res.body, codings, s.maxBody);
      return {
        ...base,
        outcome: 'parsed',
        finalUrl: url.href,
        status,
        errorCode: null,
        body,
        truncated,
        etag: header(res.headers, 'etag'),
        lastModified: header(res.headers, 'last-modified'),
      };
    }
    discard(res.body);
    if (status === 304 && conditional) {
      return {
        ...base,
        outcome: 'not_modified',
        finalUrl: url.href,
        status,
        errorCode: null,
        etag: header(res.headers, 'etag'),
        lastModified: header(res.headers, 'last-modified'),
      };
    }
    if (status >= 300 && status < 400) {
      return (
        nextLocation(header(res.headers, 'location'), url.href) ?? unavailable(status, 'ERR_REDIRECT_INVALID')
      );
    }
    if (status === 429 || (status >= 500 && status < 600)) {
      return {
        ...base,
        outcome: 'unreachable',
        finalUrl: url.href,
        status,
        errorCode: null,
        retryable: true,
        retryAfterMs: parseRetryAfter(res.headers['retry-after'], Date.now()),
      };
    }
    if (status >= 400 && status < 500) return unavailable(status, null);
    throw fetchError('ERR_MALFORMED_RESPONSE', `status ${status} is not an HTTP status`);
  };
  try {
    for (let redirects = 0; ; ) {
      if (s.dispatcher.proxied) {
        // The proxy resolves names itself; check what the name resolves to here first (best effort).
        phase = 'resolve';
        await resolveAllowed(url.hostname, s.resolver);
        phase = 'request';
      }
      const headers: Record<string, string> = {
        'user-agent': s.userAgent,
        'accept-encoding': ACCEPT_ENCODING,
        accept: 'text/plain, */*;q=0.5',
      };
      const conditional = validators !== undefined && validators.url === url.href;
      if (conditional && validators.etag !== null) headers['if-none-match'] = validators.etag;
      if (conditional && validators.lastModified !== null)
        headers['if-modified-since'] = validators.lastModified;
      const result = await s.dispatcher.exchange(url, { headers, signal: controller.signal }, (res) =>
        hop(res, conditional),
      );
      if (!(result instanceof URL)) return result;
      if (visited.has(result.href)) return unavailable(lastStatus, 'ERR_REDIRECT_LOOP');
      if (redirects === MAX_REDIRECTS) return unavailable(lastStatus, 'ERR_TOO_MANY_REDIRECTS');
      redirects++;
      visited.add(result.href);
      url = result;
    }
  } catch (err) {
    const failure = classifyNetworkError(controller.signal.aborted ? controller.signal.reason : err);
    return {
      ...base,
      outcome: 'unreachable',
      finalUrl: answered ? url.href : null,
      status: null,
      errorCode: failure.code,
      message: failure.message,
      retryable: failure.retryable,
    };
  } finally {
    clearTimeout(timer);
  }
}

/** Fetches `robotsUrl`, holding a limiter slot for each attempt but not while waiting to retry. */
export async function fetchRobots(
  robotsUrl: string,
  s: FetchSettings,
  validators?: Validators,
): Promise<FetchResult> {
  for (let n = 1; ; n++) {
    await s.limiter.acquire();
    let r: AttemptResult;
    try {
      r = await attempt(robotsUrl, s, validators);
    } finally {
      s.limiter.release();
    }
    const { retryable, retryAfterMs, ...result } = r;
    const done = { ...result, attempts: n };
    if (!retryable || n > s.retries) return done;
    // A server asking for more patience than we are allowed to give stays unreachable for now.
    if (retryAfterMs !== undefined && retryAfterMs > s.maxRetryAfterMs) return done;
    const delayMs = retryAfterMs ?? backoffDelay(n, s.backoffBaseMs, s.maxRetryAfterMs);
    s.onRetry?.({ url: robotsUrl, attempt: n, delayMs, status: r.status, errorCode: r.errorCode });
    await sleep(delayMs);
  }
}
