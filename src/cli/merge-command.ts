import type { Argv, CommandModule, Options as YargsOption } from 'yargs';
import { mergeFiles } from '../pipeline/merge/merge-files.js';
import { COMMAND_LINES } from './command-list.js';
import { unknownOptionCheck } from './did-you-mean.js';
import { EXIT, failedOrStopped, inputPath, stopOnSignals } from './exit.js';

interface MergeArgs {
  files?: string[];
  output?: string;
  header?: boolean;
  'drop-row-number'?: boolean;
  [key: string]: unknown;
}

const MERGE_OPTIONS: Record<string, YargsOption> = {
  output: { alias: 'o', type: 'string', describe: 'Merged file (.gz compresses; default - = stdout)' },
  header: {
    type: 'boolean',
    default: true,
    describe: 'Row files start with a header row (--no-header: outputs of line mode)',
  },
  'drop-row-number': {
    type: 'boolean',
    describe: 'Leave out the row_number column: the bytes an unsharded run writes',
  },
};

/** yargs drops a lone `-` (stdin) from a list of positionals: the files typed, with stdin if it was. */
function filesTyped(argv: MergeArgs): string[] {
  const files = (argv.files ?? []).map(inputPath);
  const words = process.argv.slice(process.argv.indexOf('merge') + 1);
  const typed = words.filter((w, i) => w === '-' && words[i - 1] !== '-o' && words[i - 1] !== '--output');
  const kept = files.filter((f) => f === '-').length;
  return [...files, ...typed.slice(kept)];
}

async function run(argv: MergeArgs): Promise<number> {
  const stop = stopOnSignals();
  try {
    await mergeFiles({
      files: filesTyped(argv),
      output: argv.output ?? '-',
      header: argv.header !== false,
      dropRowNumber: argv['drop-row-number'] === true,
      signal: stop.signal,
    });
    return EXIT.ok;
  } catch (err) {
    return failedOrStopped(err, stop);
  } finally {
    stop.dispose();
  }
}

export const mergeCommand: CommandModule<object, MergeArgs> = {
  ...COMMAND_LINES.merge,
  builder: (yargs: Argv) =>
    yargs
      .positional('files', { type: 'string', array: true, describe: 'Summary JSON files, or row CSV files' })
      .options(MERGE_OPTIONS)
      .middleware(unknownOptionCheck([MERGE_OPTIONS], ['files']), true)
      .example([
        ['$0 merge shard-*.summary.json -o summary.json', ''],
        ['$0 merge shard-*.csv.gz --drop-row-number -o verdicts.csv.gz', ''],
      ]) as unknown as Argv<MergeArgs>,
  handler: async (argv) => {
    process.exitCode = await run(argv);
  },
};
