import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { RobotsAuditError } from '../../core/errors.js';
import type { RowCode } from '../../workers/row-error-codes.js';
import { resolveRowUrl } from '../../workers/row-url.js';
import { shardOf } from '../../workers/shard.js';
import { MAX_PENDING_BYTES } from '../batcher.js';
import { bomLength, excelSeparator, findColumn, shownColumn } from '../header.js';
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
  /** `--shard K/N`: rows skipped because their host is another shard's. */
  otherShard: number;
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

/** Longest first line looked at for Excel's `sep=X` declaration. */
const SEP_LINE_MAX = 64;

/**
 * The input without an Excel `sep=X` first line, and the delimiter that line declares (else `delimiter`):
 * csv-parse must be given the delimiter before it reads the header.
 */
async function withoutExcelSeparator(
  input: Readable,
  delimiter: string,
): Promise<{ delimiter: string; rest: Readable }> {
  const it = input[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let head = Buffer.alloc(0);
  let done = false;
  while (!done && head.length <= SEP_LINE_MAX && !head.includes(10) && !head.includes(13)) {
    const r = await it.next();
    done = r.done === true;
    if (!done) head = Buffer.concat([head, Buffer.from(r.value)]);
  }
  const bom = bomLength(head);
  let end = bom;
  while (end < head.length && head[end] !== 10 && head[end] !== 13) end++;
  const sep = end - bom <= SEP_LINE_MAX ? excelSeparator(head.toString('latin1', bom, end)) : undefined;
  if (sep !== undefined) {
    if (head[end] === 13) end++;
    if (head[end] === 10) end++;
    head = head.subarray(end);
  }
  async function* chunks(): AsyncGenerator<Buffer> {
    if (head.length > 0) yield head;
    if (done) return;
    for (let r = await it.next(); r.done !== true; r = await it.next()) yield r.value;
  }
  return { delimiter: sep ?? delimiter, rest: Readable.from(lineLimited(chunks()), { objectMode: false }) };
}

/**
 * The chunks, failing once a line passes 64 MiB, as classify does. The first line is held until it
 * ends, so an input with no line end at all (/dev/zero) fails at once, not after csv-parse read it all.
 */
async function* lineLimited(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let held: Buffer[] | null = [];
  let line = 0;
  for await (const c of chunks) {
    const first = c.indexOf(10);
    if (first >= 0 && line + first + 1 > MAX_PENDING_BYTES) throw lineTooLong();
    line = first < 0 ? line + c.length : c.length - c.lastIndexOf(10) - 1;
    if (line >= MAX_PENDING_BYTES) throw lineTooLong();
    if (held === null) yield c;
    else {
      held.push(c);
      if (first < 0) continue;
      yield* held;
      held = null;
    }
  }
  if (held !== null) yield* held;
}

function lineTooLong(): RobotsAuditError {
  return new RobotsAuditError(
    'ERR_RECORD_TOO_LONG',
    `a single input line is longer than ${MAX_PENDING_BYTES >> 20} MiB; is this a CSV file?`,
  );
}

export async function warmCache(
  input: Readable,
  options: Pick<Options, 'delimiter' | 'urlColumn' | 'hostColumn' | 'scheme' | 'concurrency'> &
    Partial<Pick<Options, 'shard'>>,
  provider: LivePolicyProvider,
  hooks: { onProgress?(p: WarmProgress): void; signal?: AbortSignal } = {},
): Promise<WarmSummary> {
  const started = Date.now();
  const { delimiter, rest } = await withoutExcelSeparator(input, options.delimiter);
  const parser = rest.pipe(
    parse({
      delimiter,
      bom: true,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      skip_records_with_error: true,
    }),
  );
  rest.on('error', (err) => parser.destroy(err));
  const badRowCodes: Record<string, number> = {};
  const bad = (code: RowCode) => {
    progress.badRows++;
    badRowCodes[code] = (badRowCodes[code] ?? 0) + 1;
  };
  parser.on('skip', () => bad('bad_csv'));
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
          const shown = record.slice(0, 10).map(shownColumn).join(', ');
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
