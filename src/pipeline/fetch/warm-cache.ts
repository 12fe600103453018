import type { RowCode } from '../../rows/row-error-codes.js';
import { shardOf } from '../../rows/shard.js';
import { readRecordOrigins } from '../input/record-origins.js';
import type { Options } from '../options.js';
import type { Origin } from '../policy/policy.js';
import type { LivePolicyProvider, ProviderStats } from './live-policy-provider.js';

/**
 * `robots-audit fetch`: reads a CSV of (url[, host]) rows as classify reads it (record-origins.ts) and asks
 * the provider for every distinct origin once, so the cache holds a policy for each. Reading pauses while
 * too many origins are pending.
 */

export interface WarmProgress {
  rows: number;
  badRows: number;
  /** `--shard K/N`: rows skipped because their host is another shard's. */
  otherShard: number;
  /** Distinct origins seen so far, and how many have their policy. */
  origins: number;
  done: number;
  stats: ProviderStats;
}

export interface WarmSummary extends WarmProgress {
  /** Bad rows by classify's row code (missing_url, bad_url, …, malformed_record, extra_fields). */
  badRowCodes: Record<string, number>;
  elapsedMs: number;
}

/** Origins remembered to skip repeats; beyond this the set restarts (a repeat is then a cheap cache hit). */
const SEEN_LIMIT = 1_000_000;

export async function warmCache(
  input: AsyncIterable<Buffer>,
  options: Pick<Options, 'delimiter' | 'urlColumn' | 'hostColumn' | 'scheme' | 'concurrency'> &
    Partial<Pick<Options, 'shard' | 'header' | 'columns'>>,
  provider: LivePolicyProvider,
  hooks: { onProgress?(p: WarmProgress): void; signal?: AbortSignal } = {},
): Promise<WarmSummary> {
  const started = Date.now();
  const badRowCodes: Record<string, number> = {};
  const bad = (code: RowCode) => {
    progress.badRows++;
    badRowCodes[code] = (badRowCodes[code] ?? 0) + 1;
  };
  const progress: WarmProgress = {
    rows: 0,
    badRows: 0,
    otherShard: 0,
    origins: 0,
    done: 0,
    stats: provider.stats(),
  };
  const shard = options.shard;
  const seen = new Set<string>();
  const window = Math.max(64, options.concurrency * 2);
  let pending = 0;
  let wake: (() => void) | undefined;
  let failure: unknown;

  const report = () => hooks.onProgress?.({ ...progress, stats: provider.stats() });
  const timer = setInterval(report, 250);
  try {
    read: for await (const batch of readRecordOrigins(input, options, hooks.signal)) {
      for (const r of batch) {
        if (failure !== undefined || hooks.signal?.aborted) break read;
        progress.rows++;
        if (!r.ok) {
          // A row with no origin is shard 1's, as in classify: summed over the shards, each counts once.
          if (shard === undefined || shard.index === 1) bad(r.code);
          else progress.otherShard++;
          continue;
        }
        // A shard warms the origins classify --shard K/N would judge: those of its hosts.
        if (shard !== undefined && shardOf(r.origin.host, shard.count) !== shard.index) {
          progress.otherShard++;
          continue;
        }
        if (seen.has(r.key)) continue;
        if (seen.size >= SEEN_LIMIT) seen.clear();
        seen.add(r.key);
        progress.origins++;
        pending++;
        provider.get(r.origin as Origin).then(
          () => {
            progress.done++;
            pending--;
            wake?.();
          },
          (err: unknown) => {
            failure ??= err;
            pending--;
            wake?.();
          },
        );
        while (pending >= window && failure === undefined) await new Promise<void>((r) => (wake = r));
      }
    }
    while (pending > 0) await new Promise<void>((r) => (wake = r));
    if (failure !== undefined) throw failure;
  } finally {
    clearInterval(timer);
  }
  report();
  return { ...progress, stats: provider.stats(), badRowCodes, elapsedMs: Date.now() - started };
}
