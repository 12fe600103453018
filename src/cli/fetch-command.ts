import type { Argv, CommandModule, Options as YargsOption } from 'yargs';
import type { LivePolicyProvider } from '../pipeline/fetch/live-policy-provider.js';
import type { WarmProgress, WarmSummary } from '../pipeline/fetch/warm-cache.js';
import { openInput } from '../pipeline/input/input-source.js';
import { resolveOptions } from '../pipeline/options.js';
import { OutputSink } from '../pipeline/output/output-sink.js';
import { shardFromEnvironment } from '../pipeline/shard-option.js';
import { COMMAND_LINES } from './command-list.js';
import { unknownOptionCheck } from './did-you-mean.js';
import {
  EXIT,
  exitOnLateStopSignals,
  inputPath,
  onStopSignals,
  reportFatal,
  signalExitCode,
} from './exit.js';
import { INPUT_OPTIONS, NETWORK_OPTIONS, networkAndInputOptions, SHARD_OPTIONS } from './shared-options.js';

const fmt = (n: number) => n.toLocaleString('en-US');

function progressLine(p: WarmProgress, started: number): string {
  const o = p.stats.byOutcome;
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  return (
    `fetch: ${fmt(p.rows)} rows · ${fmt(p.done)}/${fmt(p.origins)} origins · ${p.stats.inFlight} in flight` +
    ` · parsed ${fmt(o.parsed ?? 0)} unavailable ${fmt(o.unavailable ?? 0)} unreachable ${fmt(o.unreachable ?? 0)}` +
    ` · ${secs} s`
  );
}

function summaryText(s: WarmSummary): string {
  const o = s.stats.byOutcome;
  const src = s.stats.bySource;
  const codes = (m: Record<string, number>) =>
    Object.entries(m)
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `${k} ${fmt(v)}`)
      .join(', ');
  const lines = [
    `robots-audit fetch: ${fmt(s.rows)} rows, ${fmt(s.origins)} origins in ${(s.elapsedMs / 1000).toFixed(1)} s` +
      ` (${fmt(s.stats.fetched)} fetched, ${fmt(s.stats.retries)} retries)`,
    `  parsed       ${fmt(o.parsed ?? 0)}`,
    `  unavailable  ${fmt(o.unavailable ?? 0)}`,
    `  unreachable  ${fmt(o.unreachable ?? 0)}`,
    `  sources      fetch ${fmt(src.fetch ?? 0)}, cache ${fmt(src.cache ?? 0)}, revalidated ${fmt(src.revalidated ?? 0)}, stale ${fmt(src.stale ?? 0)}`,
  ];
  if (Object.keys(s.stats.byErrorCode).length > 0) lines.push(`  errors       ${codes(s.stats.byErrorCode)}`);
  if (s.badRows > 0) lines.push(`  bad rows     ${fmt(s.badRows)} (${codes(s.badRowCodes)})`);
  if (s.otherShard > 0)
    lines.push(`  other shards ${fmt(s.otherShard)} rows skipped (their hosts are other shards')`);
  return `${lines.join('\n')}\n`;
}

async function writeSummaryFile(path: string, s: WarmSummary): Promise<void> {
  const json = {
    command: 'fetch',
    rows: s.rows,
    badRows: s.badRows,
    badRowCodes: s.badRowCodes,
    otherShardRows: s.otherShard,
    origins: s.origins,
    fetched: s.stats.fetched,
    retries: s.stats.retries,
    byOutcome: s.stats.byOutcome,
    bySource: s.stats.bySource,
    byErrorCode: s.stats.byErrorCode,
    elapsedMs: s.elapsedMs,
  };
  await OutputSink.writeWhole(path, Buffer.from(`${JSON.stringify(json, null, 2)}\n`), 'summary');
}

interface FetchArgs {
  input: string;
  header?: boolean;
  columns?: string;
  shard?: string;
  shards?: string;
  progress?: boolean;
  quiet?: boolean;
  summary?: string;
  [key: string]: unknown;
}

async function run(argv: FetchArgs): Promise<number> {
  let provider: LivePolicyProvider | undefined;
  let stopListening = () => {};
  try {
    const options = resolveOptions(
      {
        ...networkAndInputOptions(argv),
        header: argv.header,
        columns: argv.columns,
        progress: argv.progress,
        quiet: argv.quiet,
        summary: argv.summary,
        shard: shardFromEnvironment(argv.shard, argv.shards, process.env),
      },
      'fetch',
    );
    // The same reader as classify: a file or stdin, gzip and UTF-16 recognised by their first bytes.
    const input = (await openInput(inputPath(argv.input))).chunks;
    // Loaded here, not at the top: undici and the SQLite addon cost startup time for every other command.
    const [{ createLivePolicyProvider }, { warmCache }] = await Promise.all([
      import('../pipeline/fetch/live-policy-provider.js'),
      import('../pipeline/fetch/warm-cache.js'),
    ]);
    provider = createLivePolicyProvider(options);
    stopListening = onStopSignals((signal) => {
      // Queued cache writes are committed; the WAL makes what is committed survive.
      provider?.flush();
      process.exit(signalExitCode(signal));
    });
    const started = Date.now();
    const tty = process.stderr.isTTY === true;
    const showProgress = !options.quiet && (tty || options.progress);
    let lastLine = 0;
    const summary = await warmCache(input, options, provider, {
      onProgress: (p) => {
        if (!showProgress) return;
        if (tty) process.stderr.write(`\r${progressLine(p, started)}\x1b[K`);
        else if (Date.now() - lastLine >= 1000) {
          lastLine = Date.now();
          process.stderr.write(`${progressLine(p, started)}\n`);
        }
      },
    });
    await provider.close();
    if (showProgress && tty) process.stderr.write('\r\x1b[K');
    if (!options.quiet) process.stderr.write(summaryText(summary));
    if (options.summary !== undefined) await writeSummaryFile(options.summary, summary);
    return EXIT.ok;
  } catch (err) {
    await provider?.close().catch(() => {});
    return reportFatal(err);
  } finally {
    stopListening();
    exitOnLateStopSignals();
  }
}

const FETCH_OPTIONS: Record<string, YargsOption> = {
  ...SHARD_OPTIONS,
  header: {
    type: 'boolean',
    describe: 'The input starts with a header row; --no-header: every line is a record (with --columns)',
  },
  columns: {
    type: 'string',
    describe: 'With --no-header: names of the input columns, comma-separated (host,url), as for classify',
  },
  progress: { type: 'boolean', describe: 'Show the progress line even when stderr is not a terminal' },
  quiet: { type: 'boolean', describe: 'No progress line and no summary' },
  summary: { type: 'string', describe: 'Also write the summary as JSON to this file' },
};

export const fetchCommand: CommandModule<object, FetchArgs> = {
  ...COMMAND_LINES.fetch,
  builder: (yargs: Argv) =>
    yargs
      .positional('input', { type: 'string', describe: 'CSV with a url column (and optionally host), or -' })
      .options(NETWORK_OPTIONS)
      .options(INPUT_OPTIONS)
      .options(FETCH_OPTIONS)
      .middleware(unknownOptionCheck([NETWORK_OPTIONS, INPUT_OPTIONS, FETCH_OPTIONS], ['input']), true)
      .example([
        ['$0 fetch crawl.csv --concurrency 64 --timeout 5', ''],
        ['zcat crawl.csv.gz | $0 fetch - --summary fetch.json', ''],
        ['$0 fetch crawl.csv --cache shared.sqlite --max-age 3600', ''],
        ['$0 fetch crawl.csv --shard 2/4 --cache cache-2.sqlite', ''],
      ]) as unknown as Argv<FetchArgs>,
  handler: async (argv) => {
    process.exitCode = await run(argv);
  },
};
