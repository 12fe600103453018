import { createHash } from 'node:crypto';
import type { BlockList } from 'node:net';
import { type CachedVersion, type Observation, toPolicy } from '../cache/cache-types.js';
import { PolicyCache } from '../cache/policy-cache.js';
import type { FetchingOptions } from '../command-options.js';
import { answerFromCache, isFresh } from '../policy/answer-from-cache.js';
import {
  type Origin,
  originKey,
  type Policy,
  type PolicyOutcome,
  type PolicyProvider,
  type PolicySource,
  robotsUrlOf,
} from '../policy/policy.js';
import { defaultBlockList } from './address-policy.js';
import { createFetchDispatcher } from './dispatcher.js';
import { type FetchResult, type FetchSettings, fetchRobots, type Validators } from './fetch-robots.js';
import { Limiter } from './limiter.js';
import { parsePins, type ResolverConfig } from './resolver.js';

/**
 * Policies from the cache when fresh, else from the network: conditional revalidation, single flight per
 * origin, a global limit on fetches in flight, and the last parsed copy when an origin turns unreachable.
 */

export type FetchEvent =
  | { type: 'fetch'; origin: string }
  | {
      type: 'retry';
      origin: string;
      attempt: number;
      delayMs: number;
      status: number | null;
      errorCode: string | null;
    }
  | { type: 'policy'; origin: string; policy: Policy; attempts: number; message: string | null };

export interface LiveProviderHooks {
  /** Called for each fetch started, retry scheduled and policy answered (cache hits included). */
  onEvent?(event: FetchEvent): void;
  /** Knobs for tests and benchmarks; not user options. */
  tuning?: { backoffBaseMs?: number; blockList?: BlockList };
}

export interface ProviderStats {
  /** get() calls answered (single-flight joins included). */
  answered: number;
  bySource: Partial<Record<PolicySource, number>>;
  byOutcome: Partial<Record<PolicyOutcome, number>>;
  /** Error codes of policies answered (unreachable/unavailable without a usable status). */
  byErrorCode: Record<string, number>;
  /** Origins fetched over the network, and the retries they took. */
  fetched: number;
  retries: number;
  /** Fetch attempts in flight and waiting for a slot right now. */
  inFlight: number;
  queued: number;
}

export type LivePolicyProvider = PolicyProvider & {
  stats(): ProviderStats;
  /** Writes queued cache updates now (synchronous: safe in a signal handler before exiting). */
  flush(): void;
};

function observationOf(key: string, r: FetchResult, fetchedAt: number, expiresAt: number): Observation {
  const outcome = r.outcome === 'not_modified' ? 'parsed' : r.outcome;
  const body = outcome === 'parsed' ? (r.body ?? Buffer.alloc(0)) : null;
  return {
    origin: key,
    outcome,
    robotsUrl: r.robotsUrl,
    finalUrl: r.finalUrl,
    status: r.status,
    errorCode: r.errorCode,
    body,
    sha256: body === null ? null : createHash('sha256').update(body).digest('hex'),
    bytes: body?.length ?? 0,
    truncated: r.truncated,
    etag: r.etag,
    lastModified: r.lastModified,
    fetchedAt,
    expiresAt,
  };
}

export function createLivePolicyProvider(
  options: FetchingOptions,
  hooks: LiveProviderHooks = {},
): LivePolicyProvider {
  const runStartedAt = Date.now();
  const maxAgeMs = options.maxAge * 1000;
  const resolver: ResolverConfig = {
    pins: parsePins(options.resolve),
    allowPrivate: options.allowPrivate,
    blockList: hooks.tuning?.blockList ?? defaultBlockList(),
  };
  const timeoutMs = Math.round(options.timeout * 1000);
  const dispatcher = createFetchDispatcher({
    resolver,
    timeoutMs,
    caFile: options.caFile,
    proxy: options.proxy,
  });
  const cache = new PolicyCache(options.cache);
  const limiter = new Limiter(options.concurrency);
  const inflight = new Map<string, Promise<Policy>>();
  const emit = hooks.onEvent ?? (() => {});
  const counters = { answered: 0, fetched: 0, retries: 0 };
  const bySource: ProviderStats['bySource'] = {};
  const byOutcome: ProviderStats['byOutcome'] = {};
  const byErrorCode: Record<string, number> = {};
  let closed = false;

  const settings = (key: string): FetchSettings => ({
    dispatcher,
    resolver,
    limiter,
    timeoutMs,
    maxBody: options.maxBody,
    userAgent: options.httpUserAgent,
    retries: options.retries,
    maxRetryAfterMs: options.maxRetryAfter * 1000,
    backoffBaseMs: hooks.tuning?.backoffBaseMs ?? 1000,
    onRetry: (info) => {
      counters.retries++;
      const { url: _url, ...rest } = info;
      emit({ type: 'retry', origin: key, ...rest });
    },
  });

  /** The fresh cached answer, if there is one: no network, no promise chain. */
  function fromCache(current: CachedVersion | undefined): Policy | undefined {
    if (current === undefined || !isFresh(current, Date.now(), maxAgeMs, runStartedAt)) return undefined;
    return answerFromCache(cache, current, Date.now());
  }

  async function fetchOne(origin: Origin, key: string, current: CachedVersion | undefined) {
    const validators: Validators | undefined =
      current?.outcome === 'parsed' && (current.etag !== null || current.lastModified !== null)
        ? {
            url: current.finalUrl ?? current.robotsUrl,
            etag: current.etag,
            lastModified: current.lastModified,
          }
        : undefined;
    emit({ type: 'fetch', origin: key });
    counters.fetched++;
    const r = await fetchRobots(robotsUrlOf(origin), settings(key), validators);
    const fetchedAt = Date.now();
    const expiresAt = fetchedAt + maxAgeMs;
    if (r.outcome === 'not_modified' && current !== undefined) {
      cache.renew(key, fetchedAt, expiresAt, r.etag, r.lastModified);
      const renewed = cache.current(key) ?? current;
      return { policy: { ...toPolicy(renewed, 'revalidated'), status: r.status, finalUrl: r.finalUrl }, r };
    }
    const obs = observationOf(key, r, fetchedAt, expiresAt);
    cache.record(obs);
    const version = cache.current(key)!;
    const policy =
      obs.outcome === 'unreachable'
        ? answerFromCache(cache, version, fetchedAt, 'fetch')
        : toPolicy(version, 'fetch');
    return { policy, r };
  }

  function count(policy: Policy): void {
    counters.answered++;
    bySource[policy.source] = (bySource[policy.source] ?? 0) + 1;
    byOutcome[policy.outcome] = (byOutcome[policy.outcome] ?? 0) + 1;
    const code = policy.staleCause?.errorCode ?? policy.errorCode;
    if (code !== null && code !== undefined) byErrorCode[code] = (byErrorCode[code] ?? 0) + 1;
  }

  return {
    get(origin: Origin): Promise<Policy> {
      if (closed) return Promise.reject(new Error('policy provider is closed'));
      const key = originKey(origin);
      const running = inflight.get(key);
      if (running !== undefined) {
        return running.then((policy) => {
          count(policy);
          return policy;
        });
      }
      const current = cache.current(key);
      const cached = fromCache(current);
      if (cached !== undefined) {
        count(cached);
        if (hooks.onEvent) emit({ type: 'policy', origin: key, policy: cached, attempts: 0, message: null });
        return Promise.resolve(cached);
      }
      const p = fetchOne(origin, key, current)
        .then(({ policy, r }) => {
          count(policy);
          emit({
            type: 'policy',
            origin: key,
            policy,
            attempts: r?.attempts ?? 0,
            message: r?.message ?? null,
          });
          return policy;
        })
        .finally(() => inflight.delete(key));
      inflight.set(key, p);
      return p;
    },
    async close() {
      if (closed) return;
      closed = true;
      await Promise.allSettled([...inflight.values()]);
      try {
        cache.close();
      } finally {
        await dispatcher.close();
      }
    },
    flush: () => cache.flush(),
    stats: () => ({
      ...counters,
      bySource: { ...bySource },
      byOutcome: { ...byOutcome },
      byErrorCode: { ...byErrorCode },
      inFlight: limiter.inUse,
      queued: limiter.queued,
    }),
  };
}
