import type { ClassifyOptions } from '../command-options.js';
import { isAsOf } from '../options.js';
import type { PolicyProvider } from './policy.js';
import { createDirPolicyProvider } from './robots-dir-provider.js';

/** Live fetch figures for the progress line, when the provider has them. */
export interface FetchFigures {
  fetched: number;
  retries: number;
  inFlight: number;
  queued: number;
  byOutcome: Partial<Record<string, number>>;
}

export interface ProviderHandle {
  provider: PolicyProvider;
  kind: 'robots-dir' | 'offline' | 'live' | 'as-of';
  figures(): FetchFigures | null;
  /** Commits what is queued for the cache now (synchronous), when the provider has a cache to write. */
  flush?(): void;
}

/**
 * The policy source options ask for: `--robots-dir` (files, no network), the cache's history (as of a
 * time), `--offline` (the SQLite cache only) or the cache plus live fetching. The fetch/cache modules load only when needed.
 */
export async function providerFor(options: ClassifyOptions): Promise<ProviderHandle> {
  if (options.robotsDir !== undefined) {
    return { provider: createDirPolicyProvider(options.robotsDir), kind: 'robots-dir', figures: () => null };
  }
  if (isAsOf(options)) {
    const { createHistoryProvider } = await import('./history-provider.js');
    return { provider: createHistoryProvider(options), kind: 'as-of', figures: () => null };
  }
  if (options.offline) {
    const { createCachePolicyProvider } = await import('./cache-policy-provider.js');
    return { provider: createCachePolicyProvider(options), kind: 'offline', figures: () => null };
  }
  const { createLivePolicyProvider } = await import('../fetch/live-policy-provider.js');
  const live = createLivePolicyProvider(options);
  return {
    provider: live,
    kind: 'live',
    flush: () => live.flush(),
    figures: () => {
      const s = live.stats();
      return {
        fetched: s.fetched,
        retries: s.retries,
        inFlight: s.inFlight,
        queued: s.queued,
        byOutcome: s.byOutcome,
      };
    },
  };
}
