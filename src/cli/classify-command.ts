import { availableParallelism } from 'node:os';
import type { Argv, CommandModule, Options as YargsOption } from 'yargs';
import { hasCode } from '../core/errors.js';
import { runClassify } from '../pipeline/classify-thread.js';
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
import { numberOption } from './numeric-option.js';
import { INPUT_OPTIONS, NETWORK_OPTIONS, networkAndInputOptions, SHARD_OPTIONS } from './shared-options.js';

interface ClassifyArgs {
  input: string | boolean;
  output?: string;
  agent?: string[];
  'agent-column'?: string;
  threads?: string;
  'robots-dir'?: string;
  offline?: boolean;
  evidence?: boolean;
  summary?: string;
  progress?: boolean;
  quiet?: boolean;
  shard?: string;
  shards?: string;
  'row-number'?: boolean;
  'at-column'?: string;
  'as-of'?: string;
  'time-format'?: string;
  grace?: string;
  'max-history-age'?: string;
  [key: string]: unknown;
}

/** Cleanup after SIGINT/SIGTERM gets this long before the process exits anyway. */
const STOP_GRACE_MS = 10_000;
/** Once stopped, what still holds the process open (sockets of fetches in flight) gets this long. */
const STOP_EXIT_MS = 1000;

async function run(argv: ClassifyArgs): Promise<number> {
  const controller = new AbortController();
  let stoppedBy: NodeJS.Signals | null = null;
  const stopListening = onStopSignals((signal) => {
    if (stoppedBy !== null) process.exit(signalExitCode(signal));
    stoppedBy = signal;
    controller.abort(signal);
    setTimeout(() => process.exit(signalExitCode(signal)), STOP_GRACE_MS).unref();
  });
  try {
    const quiet = argv.quiet === true;
    const summary = await runClassify({
      ...networkAndInputOptions(argv),
      input: inputPath(argv.input),
      output: argv.output,
      agents: argv.agent,
      agentColumn: argv['agent-column'],
      threads: argv.threads,
      robotsDir: argv['robots-dir'],
      offline: argv.offline,
      evidence: argv.evidence,
      summary: argv.summary,
      shard: shardFromEnvironment(argv.shard, argv.shards, process.env),
      rowNumber: argv['row-number'],
      header: argv.header,
      columns: argv.columns,
      atColumn: argv['at-column'],
      asOf: argv['as-of'],
      timeFormat: argv['time-format'],
      grace: argv.grace,
      maxHistoryAge: argv['max-history-age'],
      quiet,
      progress: !quiet && (argv.progress === true || process.stderr.isTTY === true),
      signal: controller.signal,
    });
    if (!quiet)
      process.stderr.write((await import('../pipeline/figures/summary-text.js')).formatSummary(summary));
    return EXIT.ok;
  } catch (err) {
    if (stoppedBy !== null && hasCode(err, 'ERR_ABORTED')) {
      process.stderr.write(`robots-audit: stopped by ${stoppedBy}; no output file was written\n`);
      // The process ends on its own once no I/O is pending (process.exit would cut short I/O still in
      // flight); fetches may still hold sockets open, and everything worth keeping is committed.
      const code = signalExitCode(stoppedBy);
      setTimeout(() => process.exit(code), STOP_EXIT_MS).unref();
      return code;
    }
    return reportFatal(err);
  } finally {
    // Once stopped, a second signal still exits at once; once done, any signal does.
    if (stoppedBy === null) {
      stopListening();
      exitOnLateStopSignals();
    }
  }
}

const CLASSIFY_OPTIONS: Record<string, YargsOption> = {
  output: { alias: 'o', type: 'string', describe: 'Output CSV (.gz compresses; default - = stdout)' },
  agent: {
    type: 'string',
    array: true,
    describe: 'Crawler to judge: a product token or a User-Agent header (repeatable)',
  },
  'agent-column': {
    type: 'string',
    describe: 'Judge each row for the crawler in this column (User-Agent header or token); adds `agent`',
  },
  threads: numberOption(
    'Threads for matching: one per available core, at most one per 32 MiB of an input file',
    `${availableParallelism()} (cores)`,
  ),
  'robots-dir': { type: 'string', describe: 'Read DIR/<host>.txt instead of fetching (no network)' },
  offline: { type: 'boolean', describe: 'Use the policy cache only, never fetch' },
  evidence: {
    type: 'boolean',
    describe: 'Add robots_url, fetched_at, robots_sha256, robots_truncated',
  },
  summary: { type: 'string', describe: 'Also write the summary as JSON to this file' },
  progress: { type: 'boolean', describe: 'Show the progress line even when stderr is not a terminal' },
  quiet: { type: 'boolean', describe: 'No progress line and no summary on stderr' },
  ...SHARD_OPTIONS,
  'row-number': {
    type: 'boolean',
    describe: 'Start each row with row_number, its record number in the whole input (for merge)',
  },
  'at-column': {
    type: 'string',
    describe: 'Judge each row as of the time in this column, under the version then in force (cache only)',
  },
  'as-of': { type: 'string', describe: 'Judge every row as of this time (RFC 3339, epoch, …; cache only)' },
  'time-format': {
    type: 'string',
    choices: ['auto', 'epoch-s', 'epoch-ms'],
    describe: 'How numbers in the time column are read (auto: by magnitude)',
  },
  grace: {
    type: 'string',
    describe: 'A disallow within this long of a version that allowed is marked grace (default 24h)',
  },
  'max-history-age': {
    type: 'string',
    describe: 'A version last seen longer than this before the row is no evidence (no_history)',
  },
  header: {
    type: 'boolean',
    describe: 'The input starts with a header row; --no-header: every line is a record (with --columns)',
  },
  columns: {
    type: 'string',
    describe: 'With --no-header: names of the input columns, comma-separated (host,url); no header written',
  },
};

export const classifyCommand: CommandModule<object, ClassifyArgs> = {
  ...COMMAND_LINES.classify,
  builder: (yargs: Argv) =>
    yargs
      .positional('input', { type: 'string', describe: 'CSV with a header row and a url column, or -' })
      .options(CLASSIFY_OPTIONS)
      .options(INPUT_OPTIONS)
      .options(NETWORK_OPTIONS)
      .middleware(unknownOptionCheck([CLASSIFY_OPTIONS, INPUT_OPTIONS, NETWORK_OPTIONS], ['input']), true)
      .check((argv) => {
        if (argv.agent === undefined && argv['agent-column'] === undefined) {
          throw new Error('Give at least one --agent, or --agent-column');
        }
        return true;
      })
      .example([
        ['$0 classify crawl.csv --agent Googlebot -o verdicts.csv', ''],
        ['$0 classify crawl.csv.gz --agent Bingbot --robots-dir robots/', ''],
        ['cat crawl.csv | $0 classify - --agent Googlebot --offline', ''],
        ['$0 classify crawl.csv --agent Googlebot --shard 2/4 --row-number -o part-2.csv', ''],
        ['tail -f urls.csv | $0 classify - --no-header --columns host,url --agent Googlebot', ''],
        ['$0 classify access-log.csv --at-column time --agent GPTBot --cache robots.sqlite', ''],
        ['$0 classify access-log.csv --agent-column user_agent --agent GPTBot --robots-dir robots/', ''],
      ]) as unknown as Argv<ClassifyArgs>,
  handler: async (argv) => {
    process.exitCode = await run(argv);
  },
};
