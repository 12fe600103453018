import type { CommandModule } from 'yargs';

/** The commands, in the order `--help` lists them: usage line and one-line description. */
export const COMMAND_LINES = {
  classify: {
    command: 'classify <input>',
    describe: 'Write a verdict for every row of a CSV crawl log (INPUT file, .gz, or - for stdin)',
  },
  check: {
    command: 'check <urls..>',
    describe: 'Check URLs (or paths) against one robots.txt file for one agent; exit 1 if any is disallowed',
  },
  fetch: {
    command: 'fetch <input>',
    describe: 'Fetch robots.txt for every origin in INPUT.csv (or - for stdin) into the policy cache',
  },
  cache: {
    command: 'cache',
    describe: 'Inspect and maintain the policy cache: stats, show ORIGIN, export, prune, merge',
  },
  import: {
    command: 'import <files..>',
    describe: 'Import the robots.txt captures of WARC archives (.warc, .warc.gz, - for stdin) into the cache',
  },
  merge: {
    command: 'merge <files..>',
    describe: 'Merge the --summary files, or the --row-number outputs, of the shards of one classify run',
  },
  report: {
    command: 'report [files..]',
    describe: 'Compliance report of classify outputs: violations, robots.txt outcomes, access, changes',
  },
  diff: {
    command: 'diff <old> <new>',
    describe: 'The rows whose verdict flipped between two classify outputs of the same input',
  },
} as const;

export type CommandName = keyof typeof COMMAND_LINES;

export const COMMAND_NAMES = Object.keys(COMMAND_LINES) as CommandName[];

// biome-ignore lint/suspicious/noExplicitAny: each command declares its own argument type
type AnyCommand = CommandModule<object, any>;

/**
 * Each command's module, loaded only when that command runs: a run pays for its own command's code
 * (yargs options, pipeline, report renderer, SQLite, …), never for the others'.
 */
export const COMMAND_LOADERS: Record<CommandName, () => Promise<AnyCommand>> = {
  classify: async () => (await import('./classify-command.js')).classifyCommand,
  check: async () => (await import('./check-command.js')).checkCommand,
  fetch: async () => (await import('./fetch-command.js')).fetchCommand,
  cache: async () => (await import('./cache-command.js')).cacheCommand,
  import: async () => (await import('./import-command.js')).importCommand,
  merge: async () => (await import('./merge-command.js')).mergeCommand,
  report: async () => (await import('./report-command.js')).reportCommand,
  diff: async () => (await import('./diff-command.js')).diffCommand,
};

/**
 * The commands a command line may run: every word that names one (yargs dispatches on words, and takes
 * an option's value from the next word only by the option's type, so the first such word may be a value).
 */
export function commandsIn(words: readonly string[]): CommandName[] {
  const names = words.filter((w): w is CommandName => !w.startsWith('-') && Object.hasOwn(COMMAND_LINES, w));
  return [...new Set(names)];
}
