import type { Argv, CommandModule, Options as YargsOption } from 'yargs';
import { RobotsAuditError } from '../core/errors.js';
import { diffFiles } from '../pipeline/diff/diff-files.js';
import type { DiffSummary } from '../pipeline/diff/flip-tally.js';
import { COMMAND_LINES } from './command-list.js';
import { unknownOptionCheck } from './did-you-mean.js';
import { EXIT, failedOrStopped, inputPath, stopOnSignals } from './exit.js';

interface DiffArgs {
  old?: string | boolean;
  new?: string | boolean;
  output?: string;
  summary?: string;
  key?: string;
  agent?: string[];
  'all-verdicts'?: boolean;
  delimiter?: string;
  quiet?: boolean;
  [key: string]: unknown;
}

const DIFF_OPTIONS: Record<string, YargsOption> = {
  output: { alias: 'o', type: 'string', describe: 'Flipped rows (.gz compresses; default - = stdout)' },
  summary: { type: 'string', describe: 'Write the figures as JSON to this file' },
  key: {
    type: 'string',
    describe: 'Pair rows by this column (url, row_number, …) instead of by position',
  },
  agent: { type: 'string', array: true, describe: 'Compare only this agent (repeatable)' },
  'all-verdicts': {
    type: 'boolean',
    describe: 'A change of verdict is a flip (e.g. allowed_implicit → allowed_explicit), not only of allowed',
  },
  delimiter: {
    type: 'string',
    describe: 'Field delimiter of both files ("tab"; default: told from the header)',
  },
  quiet: { alias: 'q', type: 'boolean', describe: 'No summary line on stderr' },
};

function delimiterOf(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const d = value === 'tab' || value === '\\t' ? '\t' : value;
  if (d.length !== 1 || d === '"' || d === '\n' || d === '\r') {
    throw new RobotsAuditError(
      'ERR_INVALID_OPTION',
      `--delimiter ${JSON.stringify(value)}: expected one character other than a quote or line end (or "tab")`,
      { option: 'delimiter' },
    );
  }
  return d;
}

function summaryLine(s: DiffSummary): string {
  let a2d = 0;
  let d2a = 0;
  let other = 0;
  for (const c of Object.values(s.flipsByAgent)) {
    a2d += c.allowed_to_disallowed;
    d2a += c.disallowed_to_allowed;
    other += c.other;
  }
  const only = s.matching === 'key' ? `; ${s.onlyInOld} rows only in OLD, ${s.onlyInNew} only in NEW` : '';
  return `diff: ${s.rowsCompared} rows compared, ${s.rowsFlipped} flipped (${s.flips} flips: ${a2d} allowed→disallowed, ${d2a} disallowed→allowed, ${other} other)${only}\n`;
}

async function run(argv: DiffArgs): Promise<number> {
  const stop = stopOnSignals();
  try {
    const summary = await diffFiles({
      old: inputPath(argv.old),
      new: inputPath(argv.new),
      output: argv.output ?? '-',
      ...(argv.summary !== undefined ? { summary: argv.summary } : {}),
      ...(argv.key !== undefined ? { key: argv.key } : {}),
      ...(argv.agent !== undefined ? { agents: argv.agent.map(String) } : {}),
      allVerdicts: argv['all-verdicts'] === true,
      delimiter: delimiterOf(argv.delimiter),
      signal: stop.signal,
    });
    if (argv.quiet !== true) process.stderr.write(summaryLine(summary));
    return EXIT.ok;
  } catch (err) {
    return failedOrStopped(err, stop);
  } finally {
    stop.dispose();
  }
}

export const diffCommand: CommandModule<object, DiffArgs> = {
  ...COMMAND_LINES.diff,
  builder: (yargs: Argv) =>
    yargs
      .positional('old', { type: 'string', describe: 'The earlier verdicts file (classify output)' })
      .positional('new', { type: 'string', describe: 'The later verdicts file of the same input' })
      .options(DIFF_OPTIONS)
      .middleware(unknownOptionCheck([DIFF_OPTIONS], ['old', 'new']), true)
      .example([
        ['$0 diff monday.csv.gz tuesday.csv.gz -o flips.csv --summary flips.json', ''],
        ['$0 diff old.csv new.csv --key url --agent GPTBot', ''],
      ]) as unknown as Argv<DiffArgs>,
  handler: async (argv) => {
    process.exitCode = await run(argv);
  },
};
