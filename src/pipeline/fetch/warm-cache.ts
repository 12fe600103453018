import type { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { RobotsAuditError } from '../../core/errors.js';
import { resolveRowUrl } from '../../workers/row-url.js';
import { findColumn } from '../header.js';
import type { LivePolicyProvider, ProviderStats } from '../live-policy-provider.js';
import type { Options } from '../options.js';
import type { Origin } from '../policy.js';

/**
 * `robots-audit fetch`: reads a CSV of (url[, host]) rows and asks the provider for every distinct origin
 * once, so the cache holds a policy for each. Reading pauses while too many origins are pending.
 */

export interface WarmProgress {
  rows: number;
  badRows: number;
  /** Distinct origins seen so far, and how many have their policy. */
  origins: number;
  done: number;
  stats: ProviderStats;
}

export interface WarmSummary extends WarmProgress {
  /** Bad rows by reason (missing_url, bad_url, unsupported_scheme, path_without_host, bad_host, bad_csv). */
  badRowCodes: Record<string, number>;
  elapsedMs: number;
}

/** Origins remembered to skip repeats; beyond this the set restarts (a repeat is then a cheap cache hit). */
const SEEN_LIMIT = 1_000_000;

export async function warmCache(
  input: Readable,
  options: Pick<Options, 'delimiter' | 'urlColumn' | 'hostColumn' | 'scheme' | 'concurrency'>,
  provider: LivePolicyProvider,
  hooks: { onProgress?(p: WarmProgress): void; signal?: AbortSignal } = {},
): Promise<WarmSummary> {
  const started = Date.now();
  const parser = input.pipe(
    parse({
      delimiter: options.delimiter,
      bom: true,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      skip_records_with_error: true,
    }),
  );
  input.on('error', (err) => parser.destroy(err));
  const badRowCodes: Record<string, number> = {};
  const bad = (code: string) => {
    progress.badRows++;
    badRowCodes[code] = (badRowCodes[code] ?? 0) + 1;
  };
  parser.on('skip', () => bad('bad_csv'));
  const progress: WarmProgress = { rows: 0, badRows: 0, origins: 0, done: 0, stats: provider.stats() };
  const seen = new Set<string>();
  const window = Math.max(64, options.concurrency * 2);
  let pending = 0;
  let wake: (() => void) | undefined;
  let failure: unknown;
  let urlIndex = -1;
  let hostIndex = -1;

  const report = () => hooks.onProgress?.({ ...progress, stats: provider.stats() });
  const timer = setInterval(report, 250);
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      if (failure !== undefined || hooks.signal?.aborted) break;
      if (urlIndex < 0) {
        urlIndex = findColumn(record, options.urlColumn);
        if (urlIndex < 0) {
          const shown = record
            .slice(0, 10)
            .map((c) => JSON.stringify(c))
            .join(', ');
          throw new RobotsAuditError(
            'ERR_NO_URL_COLUMN',
            `the input has no \`${options.urlColumn}\` column (header: ${shown}); use --url-column`,
          );
        }
        hostIndex = findColumn(record, options.hostColumn);
        if (hostIndex === urlIndex) hostIndex = -1;
        continue;
      }
      progress.rows++;
      const host = hostIndex >= 0 ? record[hostIndex] : undefined;
      const r = resolveRowUrl(record[urlIndex] ?? '', host, options.scheme);
      if (!r.ok) {
        bad(r.code);
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
    if (urlIndex < 0 && failure === undefined && !hooks.signal?.aborted) {
      throw new RobotsAuditError('ERR_NO_HEADER', 'the input is empty: expected a CSV header row');
    }
    while (pending > 0) await new Promise<void>((r) => (wake = r));
    if (failure !== undefined) throw failure;
  } finally {
    clearInterval(timer);
    if (!parser.destroyed) parser.destroy();
  }
  report();
  return { ...progress, stats: provider.stats(), badRowCodes, elapsedMs: Date.now() - started };
}
